# Self-consistency (OpenCompass's SCInferencer, gsm8k_gen_a3e34a style): GenInferencer's prompt per row,
# sampled sc_size times (each record says how many). The first row is the shot, the rest the test rows.
from promptkit import FixKRetriever, JsonlDataset, PromptTemplate, SCInferencer

datasets = [
    dict(
        abbr='scoring_demo_sc',
        type=JsonlDataset,
        path='data/arith.jsonl',
        reader_cfg=dict(input_columns=['question'], output_column='answer', train_range='[:1]', test_range='[1:]'),
        infer_cfg=dict(
            ice_template=dict(type=PromptTemplate, template="Question: {question}\nLet's think step by step\nAnswer: {answer}\n"),
            prompt_template=dict(type=PromptTemplate, template="</E>Question: {question}\nLet's think step by step\nAnswer:", ice_token='</E>'),
            retriever=dict(type=FixKRetriever, fix_id_list=[0]),
            inferencer=dict(type=SCInferencer, sc_size=5, max_out_len=512,
                            generation_kwargs=dict(do_sample=True, temperature=0.7, top_k=40)),
        ),
    )
]
