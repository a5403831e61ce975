# The base of the diff and snapshot tests: a system prompt, two FixK shots (HUMAN/BOT turns) and the query.
from promptkit import FixKRetriever, GenInferencer, PromptTemplate, RowsDataset

datasets = [
    dict(
        abbr='sums',
        type=RowsDataset,
        rows=dict(train=[{'q': '2+2?', 'a': '4'}, {'q': '3+3?', 'a': '6'}], test=[{'q': '1+1?', 'a': '2'}, {'q': '5+5?', 'a': '10'}]),
        reader_cfg=dict(input_columns=['q'], output_column='a', train_split='train', test_split='test'),
        infer_cfg=dict(
            ice_template=dict(type=PromptTemplate, template=dict(round=[
                dict(role='HUMAN', prompt='Q: {q}'), dict(role='BOT', prompt='{a}')])),
            prompt_template=dict(type=PromptTemplate, template=dict(
                begin=[dict(role='SYSTEM', fallback_role='HUMAN', prompt='Answer with a number.'), '</E>'],
                round=[dict(role='HUMAN', prompt='Q: {q}'), dict(role='BOT', prompt='{a}')]), ice_token='</E>'),
            retriever=dict(type=FixKRetriever, fix_id_list=[0, 1]),
            inferencer=dict(type=GenInferencer),
        ),
    )
]
