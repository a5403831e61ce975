# Function calling in the shapes of AISBench's BFCL configs (BFCL_gen_*.py): each row's `question` messages
# and its `function` documents (BFCL's JSON text, Python type names).
#
# Demonstrates:
# * `tools=dict(column='function', style='bfcl')` on a dataset: each row's functions become OpenAI tools
#   (types dict -> object, float -> number, tuple -> array). A chat model's records carry them as `tools`
#   (with `tool_choice`); a chat-template model hands them to its chat template, as
#   apply_chat_template(tools=...) does; a completion model writes them through the chat template of the
#   model folder its path= names.
# * a conversation part-way through a tool call (row multi_turn_0, the first): the assistant's `tool_calls` and the
#   `tool` message with the result reach the model as such; the model answers the tool's result.
# * a prompt style written by hand (for models that return calls as text): the functions written into the
#   system message instead. BFCL's own prompt style and multi-turn entries: ../bfcl_v3_demo/.
from promptkit import GenInferencer, JsonlDataset, MessagesTemplate, RawPromptTemplate, ZeroRetriever

_reader_cfg = dict(input_columns=['id', 'question', 'function'], output_column='ground_truth')

datasets = [
    dict(
        abbr='bfcl_demo_function_call',
        type=JsonlDataset,
        path='data/test.jsonl',
        tools=dict(column='function', style='bfcl', tool_choice='auto'),
        reader_cfg=_reader_cfg,
        infer_cfg=dict(
            prompt_template=dict(type=MessagesTemplate, column='question', answer_column='ground_truth', list_options=False),
            retriever=dict(type=ZeroRetriever),
            inferencer=dict(type=GenInferencer),
        ),
    ),
    dict(
        abbr='bfcl_demo_prompt',
        type=JsonlDataset,
        path='data/test.jsonl',
        reader_cfg=dict(_reader_cfg, test_range='[1:3]'),
        infer_cfg=dict(
            prompt_template=dict(type=RawPromptTemplate, messages=[
                dict(role='system', content=(
                    'You can call these functions. Reply only with the calls, written as '
                    '[func_name(param=value, ...)], and nothing else.\nThe functions, in JSON:\n{function}')),
                dict(expand_column='question'),
            ]),
            retriever=dict(type=ZeroRetriever),
            inferencer=dict(type=GenInferencer),
        ),
    ),
]
