# Chats held by the rows (OpenCompass's ChatInferencer, subjective-eval style), infer_mode='last':
# one prompt per row: the chat before its last assistant message.
#
# The 'dialogue' input column holds each row's messages; shots are not used.
from promptkit import ChatInferencer, JsonlDataset, PromptTemplate, ZeroRetriever

datasets = [
    dict(
        abbr='chat_inferencer_demo_last',
        type=JsonlDataset,
        path='data/chats.jsonl',
        reader_cfg=dict(input_columns=['dialogue'], output_column=None),
        infer_cfg=dict(
            prompt_template=dict(type=PromptTemplate, template='{dialogue}'),
            retriever=dict(type=ZeroRetriever),
            inferencer=dict(type=ChatInferencer, infer_mode='last', max_out_len=512),
        ),
    )
]
