# OpenCompass's OpenAI model without a meta template: the prompt is flattened to one user message.
models = [dict(abbr='gpt-no-meta', type='OpenAI', path='gpt-4o-mini', max_seq_len=4096)]
