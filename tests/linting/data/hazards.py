# One dataset per lint hazard (tests/lint/test_lint.py expects exactly these findings).
from promptkit import FixKRetriever, GenInferencer, JsonlDataset, MMPromptTemplate, PPLInferencer, PromptTemplate, ZeroRetriever

reader = dict(input_columns=['question'], output_column='answer')
zero = dict(retriever=dict(type=ZeroRetriever), inferencer=dict(type=GenInferencer))
shots = dict(retriever=dict(type=FixKRetriever, fix_id_list=[0, 1]), inferencer=dict(type=GenInferencer))
asked = dict(type=PromptTemplate, template=dict(begin='</E>', round=[dict(role='HUMAN', prompt='Q: {question}')]), ice_token='</E>')

datasets = [
    dict(abbr='typo', type=JsonlDataset, path='rows.jsonl', reader_cfg=reader,
         infer_cfg=dict(prompt_template=dict(type=PromptTemplate, template='Q: {qestion}\nA: {answer}'), **zero)),
    dict(abbr='unused', type=JsonlDataset, path='rows.jsonl', reader_cfg=dict(input_columns=['question', 'extra'], output_column='answer'),
         infer_cfg=dict(prompt_template=dict(type=PromptTemplate, template='Q: {question}\nA: {answer}'), **zero)),
    dict(abbr='labels', type=JsonlDataset, path='labels.jsonl', reader_cfg=reader,
         infer_cfg=dict(prompt_template=dict(type=PromptTemplate, template={'A': 'Q: {question}\nAnswer: A', 'B': 'Q: {question}\nAnswer: B'}),
                        retriever=dict(type=ZeroRetriever), inferencer=dict(type=PPLInferencer))),
    dict(abbr='glued', type=JsonlDataset, path='rows.jsonl', reader_cfg=reader,
         infer_cfg=dict(ice_template=dict(type=PromptTemplate, template='Q: {question}\nAnswer:{answer}\n'),
                        prompt_template=dict(type=PromptTemplate, template='</E>Q: {question}\nAnswer: ', ice_token='</E>'), **shots)),
    dict(abbr='double', type=JsonlDataset, path='rows.jsonl', reader_cfg=reader,
         infer_cfg=dict(prompt_template=dict(type=PromptTemplate, template={'A': 'Q: {question}\nAnswer:  A', 'B': 'Q: {question}\nAnswer:  B'}),
                        retriever=dict(type=ZeroRetriever), inferencer=dict(type=PPLInferencer))),
    dict(abbr='user_turn', type=JsonlDataset, path='rows.jsonl', reader_cfg=reader,
         infer_cfg=dict(ice_template=dict(type=PromptTemplate, template=dict(round=[dict(role='HUMAN', prompt='Q: {question}\nAnswer: {answer}')])),
                        prompt_template=asked, **shots)),
    dict(abbr='ice_twice', type=JsonlDataset, path='rows.jsonl', reader_cfg=reader,
         infer_cfg=dict(ice_template=dict(type=PromptTemplate, template='Q: {question}\nAnswer: {answer}\n'),
                        prompt_template=dict(type=PromptTemplate, template='</E>Q: {question}\n</E>Answer: ', ice_token='</E>'), **shots)),
    dict(abbr='ice_missing', type=JsonlDataset, path='rows.jsonl', reader_cfg=reader,
         infer_cfg=dict(ice_template=dict(type=PromptTemplate, template=dict(round=[dict(role='HUMAN', prompt='Q: {question}'),
                                                                                    dict(role='BOT', prompt='{answer}')])),
                        prompt_template=dict(type=PromptTemplate, template=dict(round=[dict(role='HUMAN', prompt='Q: {question}')]), ice_token='</E>'),
                        **shots)),
    dict(abbr='roles', type=JsonlDataset, path='rows.jsonl', reader_cfg=reader,
         infer_cfg=dict(prompt_template=dict(type=PromptTemplate, template=dict(
             begin=[dict(role='SYSTEM', fallback_role='HUMAN', prompt='Be brief.')],
             round=[dict(role='HUMAN', prompt='Q: {question}'), dict(role='CRITIC', prompt='Check it.'), dict(role='BOT', prompt='{answer}')])),
             **zero)),
    dict(abbr='media', type=JsonlDataset, path='rows.jsonl', reader_cfg=dict(input_columns=['question', 'image'], output_column='answer'),
         infer_cfg=dict(prompt_template=dict(type=MMPromptTemplate, template=dict(round=[
             dict(role='HUMAN', prompt_mm={'text': {'type': 'text', 'text': 'Look at <image>: {question}'},
                                           'image': {'type': 'image_url', 'image_url': {'url': 'file://{image}'}}}),
             dict(role='BOT', prompt='{answer}')])), **zero)),
    dict(abbr='tokens', type=JsonlDataset, path='tokens.jsonl', reader_cfg=reader,
         infer_cfg=dict(prompt_template=dict(type=PromptTemplate, template='Q: {question}\nA: {answer}'), **zero)),
]
