# Perplexity of plain text (OpenCompass's PPLOnlyInferencer, wikitext style) and of marked spans
# (InferencePPLOnlyInferencer): one prompt per row, scored whole; no answer column.
from promptkit import InferencePPLOnlyInferencer, JsonlDataset, PPLOnlyInferencer, PromptTemplate, ZeroRetriever

_reader_cfg = dict(input_columns=['text'], output_column=None)

datasets = [
    dict(
        abbr='scoring_demo_ppl_only',
        type=JsonlDataset,
        path='data/corpus.jsonl',
        reader_cfg=_reader_cfg,
        infer_cfg=dict(
            prompt_template=dict(type=PromptTemplate, template='{text}'),
            retriever=dict(type=ZeroRetriever),
            inferencer=dict(type=PPLOnlyInferencer),
        ),
    ),
    dict(
        abbr='scoring_demo_inference_ppl',
        type=JsonlDataset,
        path='data/corpus.jsonl',
        reader_cfg=_reader_cfg,
        infer_cfg=dict(
            prompt_template=dict(type=PromptTemplate, template='{text}'),
            retriever=dict(type=ZeroRetriever),
            inferencer=dict(type=InferencePPLOnlyInferencer),
        ),
    ),
]
