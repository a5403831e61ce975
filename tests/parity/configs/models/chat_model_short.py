# Chat model with a tiny context to exercise truncation on message lists.
models = [dict(abbr='chat-short', type='ChatModel', max_seq_len=40)]
