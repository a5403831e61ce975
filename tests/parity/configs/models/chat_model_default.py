# promptkit ChatModel without a meta template -> the default HUMAN/BOT + reserved SYSTEM meta.
models = [dict(abbr='chat-default', type='ChatModel')]
