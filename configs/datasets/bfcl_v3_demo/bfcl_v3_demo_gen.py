# BFCL v3 in the shape of AISBench's BFCL configs (BFCL_gen_<category>.py: BFCLDataset +
# BFCLV3FunctionCallInferencer), on rows of our own.
#
# Demonstrates:
# * a multi-turn entry (category multi_turn_miss_func): its tools are the functions of the classes it
#   involves (`class_docs`: class name -> JSON Lines of function documents), less the one its
#   `missed_function` holds out until turn 1, whose user message is then `holdout_message`. One prompt per
#   turn, after the model's earlier replies (data/replies.jsonl: `promptkit render ... --replies`), each
#   with the tools of its turn.
# * the prompt style (`returns_tool_calls=False`, for models that write calls as text): the functions go
#   into `system_prompt` at `{functions}` instead of the request's tools. promptkit ships none of BFCL's
#   own texts: these are ours.
from promptkit import BFCLDataset, BFCLV3FunctionCallInferencer, PromptTemplate, ZeroRetriever

_reader_cfg = dict(input_columns=['id', 'question', 'function'], output_column='ground_truth')
_template = dict(type=PromptTemplate, template='{question}')  # not read, as in AISBench's configs

datasets = [
    dict(
        abbr='bfcl_v3_demo_multi_turn_miss_func',
        type=BFCLDataset,
        path='data/multi_turn_miss_func.jsonl',
        class_docs=dict(CalendarAPI='data/class_docs/calendar_api.jsonl'),
        tools=dict(column='function', style='bfcl_fc'),
        reader_cfg=_reader_cfg,
        infer_cfg=dict(
            prompt_template=_template,
            retriever=dict(type=ZeroRetriever),
            inferencer=dict(type=BFCLV3FunctionCallInferencer,
                            holdout_message='You can use more functions now; try the request again.'),
        ),
    ),
    dict(
        abbr='bfcl_v3_demo_simple_prompt',
        type=BFCLDataset,
        path='data/simple.jsonl',
        reader_cfg=_reader_cfg,
        infer_cfg=dict(
            prompt_template=_template,
            retriever=dict(type=ZeroRetriever),
            inferencer=dict(type=BFCLV3FunctionCallInferencer, returns_tool_calls=False,
                            system_prompt=('Answer with function calls only, as [name(arg=value, ...)].\n'
                                           'You can call these functions:\n{functions}\n')),
        ),
    ),
]
