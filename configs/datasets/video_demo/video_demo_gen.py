# A video question-answering example in AISBench's `content` convention.
#
# Each row's `content` holds a video segment and a text segment; the clips are
# 1-second, 32x32 H.264 files made by tools/make_demo_media.py. media mode
# 'inline' sends each clip's bytes as a data:video/mp4 URL (sniffed, not
# decoded). mode='resolve' would instead send absolute file:// URLs under the
# data folder, checked to exist, as a vLLM server started with
# --allowed-local-media-path needs.
datasets = [
    dict(
        abbr='video_demo',
        type='JsonlDataset',
        path='data/video_motion.jsonl',
        media=dict(mode='inline'),
        reader_cfg=dict(input_columns=['content'], output_column='answer'),
        infer_cfg=dict(
            prompt_template=dict(
                type='MMPromptTemplate',
                template=dict(round=[
                    dict(role='HUMAN', prompt_mm={
                        'text': {'type': 'text', 'text': '{question}'},
                        'video': {'type': 'video_url', 'video_url': {'url': 'file://{video}'}},
                    }),
                ]),
            ),
            retriever=dict(type='ZeroRetriever'),
            inferencer=dict(type='GenInferencer'),
        ),
    )
]
