# Chats held by the rows (OpenCompass's ChatInferencer, subjective-eval style), infer_mode='every':
# one prompt per assistant turn, earlier turns holding the model's own replies (--replies data/replies.jsonl).
#
# The 'dialogue' input column holds each row's messages; shots are not used.
from promptkit import ChatInferencer, JsonlDataset, PromptTemplate, ZeroRetriever

datasets = [
    dict(
        abbr='chat_inferencer_demo_every',
        type=JsonlDataset,
        path='data/chats.jsonl',
        reader_cfg=dict(input_columns=['dialogue'], output_column=None),
        infer_cfg=dict(
            prompt_template=dict(type=PromptTemplate, template='{dialogue}'),
            retriever=dict(type=ZeroRetriever),
            inferencer=dict(type=ChatInferencer, infer_mode='every', max_out_len=512),
        ),
    )
]
