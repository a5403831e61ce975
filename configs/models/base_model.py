# A base (pretrained, not chat-tuned) model: no meta template.
#
# Without a meta template the prompt's items are joined with '\n' and roles
# are ignored: a chat template's HUMAN/BOT turns become plain lines, the final
# BOT item's text (e.g. 'Answer: ') stays visible, and string templates pass
# through unchanged. The tokenizer adds its own BOS, as usual for base models.
# Uses the OpenCompass class name 'HuggingFaceBaseModel' as a string type.
models = [
    dict(
        abbr='qwen2.5-7b-base-hf',
        type='HuggingFaceBaseModel',
        path='Qwen/Qwen2.5-7B',
        max_seq_len=32768,
        max_out_len=256,
        batch_size=8,
        run_cfg=dict(num_gpus=1),
    )
]
