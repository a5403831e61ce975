# A base model: OpenCompass's HuggingFaceBaseModel builds its parser with no
# meta template, so the prompt items are joined as they are.
models = [dict(abbr='base', type='HuggingFaceBaseModel', path='any/base-model')]
