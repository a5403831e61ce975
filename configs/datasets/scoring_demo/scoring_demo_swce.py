# Compression (bits per character) by sliding-window loss (OpenCompass's SWCELossInferencer, llm_compression style).
#
# Each row's text, with no shots and no meta template, is what the model's
# tokenizer encodes; the windows are cut from those tokens at run time. Only
# completion models can run it.
from promptkit import JsonlDataset, PromptTemplate, SWCELossInferencer, ZeroRetriever

datasets = [
    dict(
        abbr='scoring_demo_swce',
        type=JsonlDataset,
        path='data/corpus.jsonl',
        reader_cfg=dict(input_columns=['text'], output_column=None),
        infer_cfg=dict(
            prompt_template=dict(type=PromptTemplate, template='{text}'),
            retriever=dict(type=ZeroRetriever),
            inferencer=dict(type=SWCELossInferencer, block_size=1900, stride=512),
        ),
    )
]
