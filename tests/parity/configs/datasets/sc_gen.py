# SCInferencer (gsm8k_gen_a3e34a style): GenInferencer's prompts, sampled sc_size times.
datasets = [dict(
    abbr='sc_gen', type='JsonlDataset', path='data/arith.jsonl',
    reader_cfg=dict(input_columns=['question'], output_column='answer'),
    infer_cfg=dict(
        ice_template=dict(type='PromptTemplate', template='Question: {question}\nAnswer: {answer}\n'),
        prompt_template=dict(type='PromptTemplate', template='</E>Question: {question}\nAnswer:{answer}', ice_token='</E>'),
        retriever=dict(type='FixKRetriever', fix_id_list=[1, 2]),
        inferencer=dict(type='SCInferencer', max_out_len=512, sc_size=5, infer_type='sc',
                        generation_kwargs=dict(do_sample=True, temperature=0.7, top_k=40)),
    ))]
