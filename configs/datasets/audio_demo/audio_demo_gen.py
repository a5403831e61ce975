# An audio question-answering example: count the beeps in a short WAV file.
#
# Column convention: the audio part's url is filled from the `audio` column.
# media mode 'inline' sends the file's bytes as a data: URL with the MIME type
# sniffed from them (no decoding). The text part comes after the audio.
datasets = [
    dict(
        abbr='audio_demo',
        type='JsonlDataset',
        path='data/audio_count.jsonl',
        media=dict(mode='inline'),
        reader_cfg=dict(input_columns=['audio', 'question'], output_column='answer'),
        infer_cfg=dict(
            prompt_template=dict(
                type='MMPromptTemplate',
                template=dict(round=[
                    dict(role='HUMAN', prompt_mm={
                        'audio': {'type': 'audio_url', 'audio_url': {'url': 'file://{audio}'}},
                        'text': {'type': 'text', 'text': '{question} Answer with a number.'},
                    }),
                ]),
            ),
            retriever=dict(type='ZeroRetriever'),
            inferencer=dict(type='GenInferencer'),
        ),
    )
]
