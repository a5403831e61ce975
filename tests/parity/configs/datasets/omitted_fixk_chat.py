# Omitted prompt_template with a chat ice_template (iwslt2017 style): begin=[SYSTEM fallback, '</E>'].
datasets = [dict(
    abbr='omitted_fixk_chat', type='JsonlDataset', path='data/translate.jsonl',
    reader_cfg=dict(input_columns='en', output_column='de'),
    infer_cfg=dict(
        ice_template=dict(
            type='PromptTemplate',
            template=dict(
                begin=[
                    dict(role='SYSTEM', fallback_role='HUMAN',
                         prompt='Translate the following English text into German.'),
                    '</E>',
                ],
                round=[
                    dict(role='HUMAN', prompt='{en}'),
                    dict(role='BOT', prompt='{de}'),
                ]),
            ice_token='</E>'),
        retriever=dict(type='FixKRetriever', fix_id_list=[1, 2]),
        inferencer=dict(type='GenInferencer'),
    ))]
