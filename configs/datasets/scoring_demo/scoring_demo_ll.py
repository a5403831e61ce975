# Winogrande by log-likelihood (OpenCompass's LLInferencer, winogrande_5shot_ll style), 2 fixed shots (the first two rows; the rest are the test rows).
#
# One prompt per row and option; each carries the row's continuation ('cont'),
# whose log-likelihood the model scores after the prompt.
from promptkit import FixKRetriever, JsonlDataset, LLInferencer, PromptTemplate

datasets = [
    dict(
        abbr='scoring_demo_ll',
        type=JsonlDataset,
        path='data/winogrande.jsonl',
        reader_cfg=dict(input_columns=['opt1', 'opt2'], output_column='answer', train_range='[:2]', test_range='[2:]'),
        infer_cfg=dict(
            ice_template=dict(type=PromptTemplate, template={'A': '{opt1} {cont}', 'B': '{opt2} {cont}'}),
            prompt_template=dict(type=PromptTemplate, template={'A': '</E>{opt1}', 'B': '</E>{opt2}'}, ice_token='</E>'),
            retriever=dict(type=FixKRetriever, fix_id_list=[0, 1]),
            inferencer=dict(type=LLInferencer),
        ),
    )
]
