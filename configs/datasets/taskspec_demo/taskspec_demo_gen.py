# Task-spec JSONL (seed 001): the 10-task fixture set (arithmetic, mcq,
# code_exec, classification, summary: two each), rendered with the format's
# default template, the seed's few-shot rule: each example as
# `prompt + " " + completion`, joined with a blank line, before the task prompt
# — one HUMAN turn, so chat and completion models get the same text.
# data/tasks_bad.jsonl breaks each rule of the contract once.
from promptkit import TaskSpecDataset

datasets = [
    dict(
        abbr='taskspec_demo',
        type=TaskSpecDataset,
        path='data/tasks.jsonl',
    )
]
