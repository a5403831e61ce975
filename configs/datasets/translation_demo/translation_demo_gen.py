# English -> German sentence translation, generation, 2 fixed shots.
#
# Demonstrates: the omitted prompt_template form. Only ice_template is given,
# and it carries `ice_token='</E>'`, so it does both jobs: rendering a shot it
# drops `begin` and the token and keeps the HUMAN/BOT round; rendering the
# test item it keeps `begin` (the SYSTEM instruction, falling back to HUMAN,
# then the shots at '</E>') and masks `{de}`, the output column.
from promptkit import FixKRetriever, GenInferencer, JsonlDataset, PromptTemplate

translation_demo_reader_cfg = dict(
    input_columns=['en'],
    output_column='de',
    train_split='dev',
    test_split='test',
)

translation_demo_infer_cfg = dict(
    ice_template=dict(
        type=PromptTemplate,
        template=dict(
            begin=[
                dict(role='SYSTEM', fallback_role='HUMAN',
                     prompt='Translate the following sentences from English into German.'),
                '</E>',
            ],
            round=[
                dict(role='HUMAN', prompt='{en}'),
                dict(role='BOT', prompt='{de}'),
            ],
        ),
        ice_token='</E>',
    ),
    retriever=dict(type=FixKRetriever, fix_id_list=[0, 1]),
    inferencer=dict(type=GenInferencer),
)

datasets = [
    dict(
        abbr='translation_demo_en-de',
        type=JsonlDataset,
        path=dict(dev='data/dev.jsonl', test='data/test.jsonl'),
        reader_cfg=translation_demo_reader_cfg,
        infer_cfg=translation_demo_infer_cfg,
    )
]
