# A chat API model without any meta template (OpenCompass OpenAI semantics: one user message).
models = [dict(abbr='openai-no-meta', type='OpenAI', path='gpt-4o-mini')]
