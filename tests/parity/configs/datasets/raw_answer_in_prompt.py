# RawPromptTemplate whose prompt names the answer column: OpenCompass fills it with the gold answer, promptkit masks it.
datasets = [dict(
    abbr='raw_answer_in_prompt', type='JsonlDataset', path='data/arith.jsonl',
    reader_cfg=dict(input_columns=['question'], output_column='answer'),
    infer_cfg=dict(
        prompt_template=dict(type='RawPromptTemplate', messages=[
            dict(role='user', content='{question}'),
            dict(role='assistant', content='{answer}'),
        ]),
        retriever=dict(type='ZeroRetriever'),
        inferencer=dict(type='GenInferencer'),
    ))]
