# LLaVA-1.5 7B run locally as a completion model ("USER: <image>\n... ASSISTANT:").
#
# A completion string cannot carry images, so mm_placeholders names the text
# that stands for each image: the prompt string gets '<image>\n' where the image
# part was, and the render record carries the image parts themselves, in order,
# under "media" — what a local VLM runner (e.g. vLLM's multi_modal_data) needs.
# It declares no audio or video placeholder: such prompts are an error, not a
# silently dropped part.
models = [
    dict(
        abbr='llava-1.5-7b-hf',
        type='CompletionModel',
        path='llava-hf/llava-1.5-7b-hf',
        meta_template=dict(
            round=[
                dict(role='HUMAN', begin='USER: ', end=' '),
                dict(role='BOT', begin='ASSISTANT:', end='</s>', generate=True),
            ],
            reserved_roles=[dict(role='SYSTEM', begin='', end=' ')],
        ),
        mm_placeholders=dict(image='<image>\n'),
        max_seq_len=4096,
        max_out_len=256,
    )
]
