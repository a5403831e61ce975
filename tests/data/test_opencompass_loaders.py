"""OpenCompass's dataset classes read natively: rows equal to the real classes' rows, files found as OpenCompass finds them.

``CASES`` are small files in OpenCompass's layout (paths under the data root)
and the loader keywords of a config.  Each case's expected rows in
``opencompass_expected/<case>.json`` were recorded by running the real class's
``load()`` on the same files (tools/opencompass_reference/record_loader_rows.py).
The recording script imports this module for ``CASES``, ``write_files`` and ``case_digest``.
"""

from __future__ import annotations

import hashlib
import json
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest

from promptkit.data.loaders import Splits
from promptkit.data.opencompass import OPENCOMPASS_DATASETS
from promptkit.errors import ConfigError, DatasetError
from promptkit.frontends.opencompass import load_datasets
from promptkit.frontends.opencompass.registry import REGISTRY

EXPECTED = Path(__file__).parent / "opencompass_expected"

_MBPP = "".join(
    json.dumps(
        {
            "text": f"Write f{i}.",
            "code": f"def f{i}(): return {i}",
            "task_id": i,
            "test_list": [f"assert f{i}() == {i}", "assert True"],
            "test_setup_code": "",
            "challenge_test_list": [],
        }
    )
    + "\n"
    for i in range(12)
)
_SANITIZED = "".join(
    json.dumps(
        {
            "source_file": "Benchmark Questions Verification V2.ipynb",
            "task_id": i,
            "prompt": f"Write g{i}.",
            "code": f"def g{i}(): pass",
            "test_imports": [],
            "test_list": [f"assert g{i}() is None"],
        }
    )
    + "\n"
    for i in range(9)
)
_HELLASWAG = (
    '{"query": "Roof shingle removal: A man is sitting on a roof. He", "choices": ["is using wrap", "is ripping", "is holding", "starts pulling"], "gold": 3}\n'
    '{"query": "Clean: Step 1: wipe the table: then", "choices": ["dry it", "wet it", "leave", "sit"], "gold": 0}\n'
)
_WINOGRANDE = (
    '{"qID": "a1", "sentence": "Ian volunteered to eat Dennis\'s menudo because _ despised eating intestine.", "option1": "Ian", "option2": "Dennis", "answer": "2"}\n'
    '{"qID": "a2", "sentence": "He never comes to my home, but I always go to his house because the _ is smaller.", "option1": "home", "option2": "house", "answer": ""}\n'
)
_PIQA = (
    '{"id": "p1", "goal": "how do you open a jar?", "sol1": "twist the lid.", "sol2": "Hit it."}\n'
    '{"id": "p2", "goal": "to cool soup", "sol1": "Blow on it", "sol2": "heat it"}\n'
)
_SIQA = (
    '{"context": "Tracy didn\'t go home that evening.", "question": "What does Tracy need to do before this?", "answerA": "make a new plan", "answerB": "Go home", "answerC": "Find somewhere to go"}\n'
    '{"context": "Sydney walked past a homeless woman.", "question": "How would you describe Sydney?", "answerA": "sympathetic", "answerB": "like a person", "answerC": "unimportant"}\n'
)

#: case id → the class, its loader keywords, and its files (path under the data root → text).
CASES: dict[str, dict[str, Any]] = {
    "MMLUDataset": {
        "class": "MMLUDataset",
        "kwargs": {"path": "opencompass/mmlu", "name": "abstract_algebra"},
        "files": {
            "data/mmlu/dev/abstract_algebra_dev.csv": '"Find the degree, for Q(sqrt(2))",0,4,2,6,B\nWhat is 1+1?,1,2,3,"4\r\nfour",B\r\n',
            "data/mmlu/test/abstract_algebra_test.csv": '"Let p = (1, 2, 5, 4)(2, 3) in S_5 . Find the index.",8,2,24,120,C\n',
        },
    },
    "CMMLUDataset": {
        "class": "CMMLUDataset",
        "kwargs": {"path": "opencompass/cmmlu", "name": "agronomy"},
        "files": {
            "data/cmmlu/dev/agronomy.csv": ",Question,A,B,C,D,Answer\n0,下列哪种作物属于豆科？,小麦,大豆,玉米,水稻,B\n",
            "data/cmmlu/test/agronomy.csv": ',Question,A,B,C,D,Answer\n0,问题一,甲,乙,丙,丁,A\n1,"问题,二",甲,乙,丙,丁,D\n',
        },
    },
    "CEvalDataset": {
        "class": "CEvalDataset",
        "kwargs": {"path": "opencompass/ceval-exam", "name": "computer_network"},
        "files": {
            "data/ceval/formal_ceval/dev/computer_network_dev.csv": "id,question,A,B,C,D,answer,explanation\n0,TCP 是哪一层的协议？,网络层,传输层,应用层,链路层,B,1. TCP 在传输层。\n",
            "data/ceval/formal_ceval/val/computer_network_val.csv": "id,question,A,B,C,D,answer\n0,IP 地址有几位？,16,32,64,128,B\n",
            "data/ceval/formal_ceval/test/computer_network_test.csv": "id,question,A,B,C,D\n0,HTTP 默认端口？,21,80,443,8080\n",
        },
    },
    "MMLUProDataset": {
        "class": "MMLUProDataset",
        "kwargs": {"path": "opencompass/mmlu_pro", "category": "math"},
        "files": {
            "data/mmlu_pro/test.jsonl": (
                '{"question_id": 70, "question": "Find 2+2.", "options": ["3", "4", "N/A", "5"], "answer": "B", "answer_index": 1, '
                '"cot_content": "", "category": "math", "src": "ori_mmlu-high_school_mathematics"}\n'
                '{"question_id": 71, "question": "What is law?", "options": ["a", "b"], "answer": "A", "answer_index": 0, '
                '"cot_content": "", "category": "law", "src": "ori_mmlu-jurisprudence"}\n'
            ),
            "data/mmlu_pro/validation.jsonl": (
                '{"question_id": 1, "question": "Find 3*3.", "options": ["6", "9", "12"], "answer": "B", "answer_index": 1, '
                '"cot_content": "A: Let\'s think step by step. 3*3 is 9. The answer is (B).", "category": "math", "src": "cot_lib-abstract_algebra"}\n'
            ),
        },
    },
    "MATHDataset": {
        "class": "MATHDataset",
        "kwargs": {"path": "opencompass/math"},
        "files": {
            "data/math/math.json": json.dumps(
                {
                    "0": {"problem": "Compute $1/2$.", "solution": "It is $\\boxed{\\frac{1}{2}}$.", "level": "Level 1"},
                    "1": {"problem": "No box.", "solution": "The answer is 3."},
                    "2": {"problem": "Two boxes.", "solution": "$\\boxed{1}$ then $\\boxed{ {2} }$"},
                    "3": {"problem": "A fbox.", "solution": "$\\fbox{4}$"},
                }
            ),
        },
    },
    "GSM8KDataset": {
        "class": "GSM8KDataset",
        "kwargs": {"path": "opencompass/gsm8k"},
        "files": {
            "data/gsm8k/train.jsonl": '{"question": "Natalia sold 48 clips. How many?", "answer": "48 clips.\\n#### 48"}\n',
            "data/gsm8k/test.jsonl": '{"question": "Janet has 3 ducks.", "answer": "#### 3"}\n{"question": "Q2", "answer": "#### 5"}\n',
        },
    },
    "MathBenchDataset": {
        "class": "MathBenchDataset",
        "kwargs": {"path": "data/mathbench_v1/college", "name": "single_choice_en"},
        "files": {
            "data/mathbench_v1/college/single_choice_en.jsonl": (
                '{"question": " What is 2+2? ", "options": ["1", "2", "3", "4"], "answer": "D", "topic": "arith"}\n'
                '{"question": "Pick B.", "options": ["a", "b", "c", "d"], "answer": "B", "topic": "misc"}\n'
            ),
        },
    },
    "MathBenchDataset-cloze": {
        "class": "MathBenchDataset",
        "kwargs": {"path": "data/mathbench_v1/college", "name": "cloze_en"},
        "files": {"data/mathbench_v1/college/cloze_en.jsonl": '{"question": " 1+1=? ", "answer": " 2 ", "topic": "arith"}\n'},
    },
    "Aime2024Dataset": {
        "class": "Aime2024Dataset",
        "kwargs": {"path": "opencompass/aime2024"},
        "files": {"data/aime.jsonl": '{"origin_prompt": "Find the remainder.", "gold_answer": "33", "year": 2024}\n'},
    },
    "HumanevalDataset": {
        "class": "HumanevalDataset",
        "kwargs": {"path": "opencompass/humaneval", "num_repeats": 2},
        "files": {
            "data/humaneval/human-eval-v2-20210705.jsonl": (
                '{"task_id": "HumanEval/0", "prompt": "def f():\\n", "canonical_solution": "    return 1\\n", "test": "assert f() == 1", "entry_point": "f"}\n'
                '{"task_id": "HumanEval/1", "prompt": "def g():\\n", "canonical_solution": "    pass\\n", "test": "", "entry_point": "g"}\n'
            ),
        },
    },
    "MBPPDataset": {"class": "MBPPDataset", "kwargs": {"path": "opencompass/mbpp"}, "files": {"data/mbpp/mbpp.jsonl": _MBPP}},
    "MBPPDatasetV2": {
        "class": "MBPPDatasetV2",
        "kwargs": {"path": "opencompass/mbpp", "num_repeats": 2},
        "files": {"data/mbpp/mbpp.jsonl": _MBPP},
    },
    "SanitizedMBPPDataset": {
        "class": "SanitizedMBPPDataset",
        "kwargs": {"path": "opencompass/sanitized_mbpp"},
        "files": {"data/mbpp/sanitized-mbpp.jsonl": _SANITIZED},
    },
    "BigCodeBenchDataset": {
        "class": "BigCodeBenchDataset",
        "kwargs": {"path": "opencompass/bigcodebench", "local_mode": False, "release_version": "v0.1.2", "dataset_version": "hard"},
        "files": {
            "data/bigcodebench/BigCodeBench-Hard-v0.1.2.jsonl": (
                '{"task_id": "BigCodeBench/13", "complete_prompt": "import os\\ndef task_func():", "libs": "[\'os\']"}\n\n'
                '{"task_id": "BigCodeBench/15", "complete_prompt": "def task_func(x):", "libs": "[]"}\n'
            ),
        },
    },
    "BBHDataset": {
        "class": "BBHDataset",
        "kwargs": {"path": "opencompass/bbh", "name": "temporal_sequences"},
        "files": {
            "data/BBH/data/temporal_sequences.json": json.dumps(
                {
                    "canary": "BENCHMARK DATA",
                    "examples": [{"input": "Today, Emily went to the museum.", "target": "(A)"}, {"input": "Q2", "target": "(C)"}],
                }
            ),
        },
    },
    "GPQADataset": {
        "class": "GPQADataset",
        "kwargs": {"path": "./data/gpqa/", "name": "gpqa_diamond.csv"},
        "files": {
            "data/gpqa/gpqa_diamond.csv": (
                "Pre-Revision Question,Pre-Revision Correct Answer,Pre-Revision Incorrect Answer 1,Pre-Revision Incorrect Answer 2,"
                "Pre-Revision Incorrect Answer 3,Pre-Revision Explanation,Self-reported question-writing time (minutes),Question,"
                "Correct Answer,Incorrect Answer 1,Incorrect Answer 2,Incorrect Answer 3,Explanation\n"
                + "".join(f"pq{i},pc,p1,p2,p3,pe,10,Question {i}?,right{i},wrong{i}a,wrong{i}b,wrong{i}c,because\n" for i in range(5))
            ),
        },
    },
    "ARCDataset": {
        "class": "ARCDataset",
        "kwargs": {"path": "opencompass/ai2_arc-dev", "name": "ARC-Challenge"},
        "files": {
            "data/ARC/ARC-c/ARC-Challenge-Dev.jsonl": (
                '{"id": "Mercury_1", "question": {"stem": "Which is a metal?", "choices": [{"text": "wood", "label": "A"}, {"text": "iron", "label": "B"}, '
                '{"text": "glass", "label": "C"}, {"text": "water", "label": "D"}]}, "answerKey": "B"}\n'
                '{"id": "Mercury_2", "question": {"stem": "Three choices", "choices": [{"text": "a", "label": "A"}, {"text": "b", "label": "B"}, '
                '{"text": "c", "label": "C"}]}, "answerKey": "A"}\n'
                '{"id": "NYSEDREGENTS_3", "question": {"stem": "Numbered labels", "choices": [{"text": "one", "label": "1"}, {"text": "two", "label": "2"}, '
                '{"text": "three", "label": "3"}, {"text": "four", "label": "4"}]}, "answerKey": "4"}\n'
            ),
        },
    },
    "RaceDataset": {
        "class": "RaceDataset",
        "kwargs": {"path": "opencompass/race", "name": "middle"},
        "files": {
            "data/race/validation/middle.jsonl": '{"example_id": "m1", "article": "Tom likes tea.", "question": "What does Tom like?", "options": ["tea", "milk", "coffee", "water"], "answer": "A"}\n',
            "data/race/test/middle.jsonl": '{"example_id": "m2", "article": "It rains.", "question": "Weather?", "options": ["sun", "rain", "snow", "wind"], "answer": "B"}\n',
        },
    },
    "IFEvalDataset": {
        "class": "IFEvalDataset",
        "kwargs": {"path": "opencompass/IFEval"},
        "files": {
            "data/ifeval/input_data.jsonl": (
                '{"key": 1000, "prompt": "Write a 300+ word summary.", "instruction_id_list": ["punctuation:no_comma", "length_constraints:number_words"], '
                '"kwargs": [{}, {"relation": "at least", "num_words": 300}]}\n'
                '{"key": 1001, "prompt": "Answer in JSON.", "instruction_id_list": ["detectable_format:json_format"], "kwargs": [{"num_highlights": 2}]}\n'
            ),
        },
    },
    "HellaswagDataset": {
        "class": "HellaswagDataset",
        "kwargs": {"path": "opencompass/hellaswag"},
        "files": {"data/hellaswag/hellaswag.jsonl": _HELLASWAG},
    },
    "HellaswagDataset_V2": {
        "class": "HellaswagDataset_V2",
        "kwargs": {"path": "opencompass/hellaswag"},
        "files": {"data/hellaswag/hellaswag.jsonl": _HELLASWAG},
    },
    "HellaswagDataset_V3": {
        "class": "HellaswagDataset_V3",
        "kwargs": {"path": "opencompass/hellaswag"},
        "files": {"data/hellaswag/hellaswag.jsonl": _HELLASWAG},
    },
    "HellaswagDatasetwithICE": {
        "class": "HellaswagDatasetwithICE",
        "kwargs": {"path": "opencompass/hellaswag_ice"},
        "files": {
            "data/hellaswag/hellaswag.jsonl": _HELLASWAG,
            "data/hellaswag/hellaswag_train_sampled25.jsonl": _HELLASWAG.split("\n")[1] + "\n",
        },
    },
    "HellaswagDatasetClean": {
        "class": "HellaswagDatasetClean",
        "kwargs": {"path": "opencompass/hellaswag"},
        "files": {
            "data/hellaswag/hellaswag.jsonl": _HELLASWAG,
            "data/hellaswag/hellaswag_val_contamination_annotations.json": json.dumps({"1": ["input contaminated", 0.9]}),
        },
    },
    "WinograndeDataset": {
        "class": "WinograndeDataset",
        "kwargs": {"path": "opencompass/winogrande"},
        "files": {"data/winogrande/dev.jsonl": _WINOGRANDE},
    },
    "WinograndeDatasetV2": {
        "class": "WinograndeDatasetV2",
        "kwargs": {"path": "opencompass/winogrande"},
        "files": {"data/winogrande/dev.jsonl": _WINOGRANDE},
    },
    "WinograndeDatasetV3": {
        "class": "WinograndeDatasetV3",
        "kwargs": {"path": "opencompass/winogrande"},
        "files": {"data/winogrande/dev.jsonl": _WINOGRANDE, "data/winogrande/train_xs.jsonl": _WINOGRANDE.split("\n")[0] + "\n"},
    },
    "PIQADataset": {
        "class": "PIQADataset",
        "kwargs": {"path": "opencompass/piqa"},
        "files": {
            "data/piqa/train.jsonl": _PIQA,
            "data/piqa/train-labels.lst": "0\n1\n",
            "data/piqa/dev.jsonl": _PIQA,
            "data/piqa/dev-labels.lst": "1\n0\n",
        },
    },
    "PIQADatasetV2": {
        "class": "PIQADatasetV2",
        "kwargs": {"path": "opencompass/piqa"},
        "files": {
            "data/piqa/train.jsonl": _PIQA,
            "data/piqa/train-labels.lst": "0\n1\n",
            "data/piqa/dev.jsonl": _PIQA,
            "data/piqa/dev-labels.lst": "-1\n0\n",
        },
    },
    "PIQADatasetV3": {
        "class": "PIQADatasetV3",
        "kwargs": {"path": "opencompass/piqa"},
        "files": {
            "data/piqa/train.jsonl": _PIQA,
            "data/piqa/train-labels.lst": "0\n1\n",
            "data/piqa/dev.jsonl": _PIQA,
            "data/piqa/dev-labels.lst": "1\n0\n",
        },
    },
    "siqaDataset": {
        "class": "siqaDataset",
        "kwargs": {"path": "opencompass/siqa"},
        "files": {
            "data/siqa/train.jsonl": _SIQA,
            "data/siqa/train-labels.lst": "1\n3\n",
            "data/siqa/dev.jsonl": _SIQA,
            "data/siqa/dev-labels.lst": "2\n2\n",
        },
    },
    "siqaDataset_V2": {
        "class": "siqaDataset_V2",
        "kwargs": {"path": "opencompass/siqa"},
        "files": {
            "data/siqa/train.jsonl": _SIQA,
            "data/siqa/train-labels.lst": "1\n3\n",
            "data/siqa/dev.jsonl": _SIQA,
            "data/siqa/dev-labels.lst": "2\n2\n",
        },
    },
    "SiqaDatasetV3": {
        "class": "SiqaDatasetV3",
        "kwargs": {"path": "opencompass/siqa"},
        "files": {
            "data/siqa/train.jsonl": _SIQA,
            "data/siqa/train-labels.lst": "1\n3\n",
            "data/siqa/dev.jsonl": _SIQA,
            "data/siqa/dev-labels.lst": "2\n2\n",
        },
    },
    "commonsenseqaDataset": {
        "class": "commonsenseqaDataset",
        "kwargs": {"path": "opencompass/commonsense_qa"},
        "files": {
            "data/commonsenseqa/train_rand_split.jsonl": (
                '{"answerKey": "A", "id": "075e", "question": {"question_concept": "revolving door", "choices": [{"label": "A", "text": "bank"}, '
                '{"label": "B", "text": "library"}, {"label": "C", "text": "mall"}, {"label": "D", "text": "new york"}, {"label": "E", "text": "office"}], '
                '"stem": "A revolving door is convenient for two direction travel, where?"}}\n'
            ),
            "data/commonsenseqa/dev_rand_split.jsonl": (
                '{"answerKey": "E", "id": "1afa", "question": {"choices": [{"label": "A", "text": "a"}, {"label": "B", "text": "b"}, {"label": "C", "text": "c"}, '
                '{"label": "D", "text": "d"}, {"label": "E", "text": "e"}], "stem": "Pick E."}}\n'
            ),
        },
    },
    "BoolQDataset": {
        "class": "BoolQDataset",
        "kwargs": {"path": "json", "data_files": "opencompass/boolq", "split": "train"},
        "files": {
            "data/SuperGLUE/BoolQ/val.jsonl": (
                '{"question": "does ethanol take more energy make that produces", "passage": "Ethanol fuel -- All biomass goes through...", "idx": 0, "label": false}\n'
                '{"question": "is house tax and property tax are same", "passage": "Property tax -- Property tax or house tax...", "idx": 1, "label": true}\n'
            ),
        },
    },
    "BoolQDatasetV2": {
        "class": "BoolQDatasetV2",
        "kwargs": {"path": "opencompass/boolq"},
        "files": {
            "data/SuperGLUE/BoolQ/val.jsonl": (
                '{"question": "is a wolf a dog", "passage": "Wolf -- The wolf is a canine.", "label": "true"}\n'
                '{"question": "is the sun cold", "passage": "Sun -- It is hot.", "label": "false"}\n'
            ),
        },
    },
    "BoolQDatasetV3": {
        "class": "BoolQDatasetV3",
        "kwargs": {"path": "data/SuperGLUE/BoolQ/val.jsonl"},
        "files": {
            "data/SuperGLUE/BoolQ/val.jsonl": (
                '{"question": "is a wolf a dog", "passage": "Wolf -- The wolf -- a canine.", "label": "true"}\n'
                '{"question": "does it rain", "passage": "no title here", "label": "false"}\n'
            ),
        },
    },
    "TriviaQADataset": {
        "class": "TriviaQADataset",
        "kwargs": {"path": "opencompass/trivia_qa"},
        "files": {
            "data/triviaqa/trivia-dev.qa.csv": "Who wrote Hamlet?\t['Shakespeare', 'William Shakespeare']\n",
            "data/triviaqa/trivia-test.qa.csv": "Capital of France?\t['Paris', 'paris']\nWhat is \"H2O\"?\t['water']\n",
        },
    },
    "TriviaQADatasetV2": {
        "class": "TriviaQADatasetV2",
        "kwargs": {"path": "opencompass/trivia_qa"},
        "files": {
            "data/triviaqa/triviaqa-validation.jsonl": '{"question": "Who wrote Hamlet?", "answer": ["Shakespeare"]}\n',
            "data/triviaqa/triviaqa-train.jsonl": '{"question": "Capital of France?", "answer": ["Paris", "paris"]}\n',
        },
    },
    "NaturalQuestionDataset": {
        "class": "NaturalQuestionDataset",
        "kwargs": {"path": "opencompass/natural_question"},
        "files": {
            "data/nq/nq-dev.qa.csv": "who sang i will always love you\t['Dolly Parton', 'Whitney Houston']\n",
            "data/nq/nq-test.qa.csv": "when was the eiffel tower built\t['1889']\n",
        },
    },
    "NQOpenDataset": {
        "class": "NQOpenDataset",
        "kwargs": {"path": "opencompass/nq_open"},
        "files": {
            "data/nq-open/nq-open-validation.jsonl": '{"question": "who sang it", "answer": ["Dolly Parton", "Whitney Houston"]}\n',
            "data/nq-open/nq-open-train.jsonl": '{"question": "when was it built", "answer": ["1889", "in 1889"]}\n',
        },
    },
    "CustomDataset": {
        "class": "CustomDataset",
        "kwargs": {"path": "opencompass/math", "file_name": "test_prm800k_500.jsonl"},
        "files": {
            "data/math/test_prm800k_500.jsonl": '\ufeff{"problem": "1+1?", "answer": "2", "level": 1}\n{"problem": "2+2?", "answer": "4", "level": 2.5}\n'
        },
    },
    "CustomDataset-csv": {
        "class": "CustomDataset",
        "kwargs": {"path": "data/custom/mcq.csv", "local_mode": True},
        "files": {"data/custom/mcq.csv": '\ufeffquestion,A,B,answer\n"Pick, one",x,y,A\n\nLast,1,2,B\n'},
    },
    "HFDataset": {
        "class": "HFDataset",
        "kwargs": {"path": "json", "data_files": "./data/summedits/summedits.jsonl", "split": "train"},
        "files": {
            "data/summedits/summedits.jsonl": (
                '{"doc": "A doc.", "summary": "A sum.", "label": 1, "score": 1, "date": "2020-01-01", "meta": {"domain": "news"}}\n'
                '{"doc": "B doc.", "summary": "B sum.", "label": 0, "score": 0.5, "date": "2021-02-03 10:00:00", "meta": {"origin": "x"}, "extra": true}\n'
            ),
        },
    },
    "HFDataset-csv": {
        "class": "HFDataset",
        "kwargs": {"path": "csv", "data_files": "./data/qabench/qabench-test.qa.csv", "split": "train"},
        "files": {"data/qabench/qabench-test.qa.csv": "prompt,reference,n,r,flag\nHi there,hello,1,1.5,True\nBye,,2,NA,False\n"},
    },
}

#: OpenCompass's CircularEval classes over their base classes' files (rotations; MMLU and PIQA also every permutation).
_CIRCULAR_BASES = {
    "CircularCEvalDataset": "CEvalDataset",
    "CircularMMLUDataset": "MMLUDataset",
    "CircularCMMLUDataset": "CMMLUDataset",
    "CircularCSQADataset": "commonsenseqaDataset",
    "CircularARCDataset": "ARCDataset",
    "CircularHSWAGDataset": "HellaswagDataset_V2",
    "CircularRaceDataset": "RaceDataset",
    "CircularsiqaDataset": "SiqaDatasetV3",
    "CircularPIQADataset": "PIQADatasetV2",
}
for _circular, _base in _CIRCULAR_BASES.items():
    CASES[_circular] = {**CASES[_base], "class": _circular}
# OpenCompass's PIQA answer switch raises for the unlabelled (-1) dev row of the V2 case: every dev row labelled here.
CASES["CircularPIQADataset"]["files"] = {**CASES["PIQADatasetV2"]["files"], "data/piqa/dev-labels.lst": "1\n0\n"}
for _circular in ("CircularMMLUDataset", "CircularPIQADataset"):
    CASES[f"{_circular}_all_possible"] = {**CASES[_circular], "kwargs": {**CASES[_circular]["kwargs"], "circular_patterns": "all_possible"}}


def write_files(root: Path, files: dict[str, str]) -> None:
    """The case's files under ``root``, written as UTF-8 bytes exactly as given."""
    for name, text in files.items():
        file = root / name
        file.parent.mkdir(parents=True, exist_ok=True)
        file.write_bytes(text.encode("utf-8"))


def case_digest(case: dict[str, Any]) -> str:
    """A digest of a case's inputs, stored with its recording, so a changed case without a new recording fails."""
    return hashlib.sha256(json.dumps(case, sort_keys=True, ensure_ascii=False).encode("utf-8")).hexdigest()[:16]


def _encode(value: Any) -> Any:
    if isinstance(value, datetime):
        return {"$datetime": value.isoformat()}
    raise TypeError(f"cannot record {type(value).__name__}")


def as_recorded(splits: Splits) -> str:
    """The rows as the recordings hold them: a 'Dataset' (one list of rows) or a 'DatasetDict' (split → rows)."""
    if splits.shared is not None:
        data: dict[str, Any] = {"type": "Dataset", "rows": splits.shared}
    else:
        data = {"type": "DatasetDict", "splits": dict(splits.by_name)}
    return json.dumps(data, ensure_ascii=False, default=_encode)


def _recorded(case_id: str) -> dict[str, Any]:
    return json.loads((EXPECTED / f"{case_id}.json").read_text(encoding="utf-8"))


def _load(tmp_path: Path, case: dict[str, Any]) -> Splits:
    write_files(tmp_path, case["files"])
    dataset = OPENCOMPASS_DATASETS[case["class"]](data_root=tmp_path, **case["kwargs"])
    return dataset.load(None)


@pytest.mark.parametrize("case_id", sorted(CASES))
def test_rows_equal_the_real_classes_rows(case_id: str, tmp_path: Path) -> None:
    """Each native loader gives the recorded rows of OpenCompass's class: columns, order, value types, splits."""
    case = CASES[case_id]
    recorded = _recorded(case_id)
    assert recorded["case"] == case_digest(case), (
        f"{case_id}: the case changed; re-record it with tools/opencompass_reference/record_loader_rows.py"
    )
    got = as_recorded(_load(tmp_path, case))
    assert got == json.dumps(recorded["output"], ensure_ascii=False)


def test_every_case_has_a_recording_and_every_class_a_case() -> None:
    """The recordings match the cases one to one, and every native class has a case."""
    assert sorted(path.stem for path in EXPECTED.glob("*.json")) == sorted(CASES)
    assert {case["class"] for case in CASES.values()} == set(OPENCOMPASS_DATASETS)


def test_mmlu_reads_header_less_csv_into_input_choices_target(tmp_path: Path) -> None:
    """MMLU's header-less CSV rows become input/A/B/C/D/target, in the splits 'dev' and 'test'."""
    splits = _load(tmp_path, CASES["MMLUDataset"])
    assert list(splits.by_name) == ["dev", "test"]
    assert splits.get("dev")[0] == {"input": "Find the degree, for Q(sqrt(2))", "A": "0", "B": "4", "C": "2", "D": "6", "target": "B"}
    assert splits.get("dev")[1]["D"] == "4\nfour"


def test_math_keeps_the_last_boxed_answer_only(tmp_path: Path) -> None:
    """MATH's solution column is the content of the last \\boxed{...}, None without one (or for \\fbox)."""
    rows = _load(tmp_path, CASES["MATHDataset"]).get("test")
    assert [row["solution"] for row in rows] == ["\\frac{1}{2}", None, " {2} ", None]


def test_arc_drops_questions_without_four_choices_and_letters_the_answer(tmp_path: Path) -> None:
    """ARC keeps four-choice questions only; a numeric answer label becomes its letter."""
    rows = _load(tmp_path, CASES["ARCDataset"]).get("test")
    assert [(row["question"], row["answerKey"]) for row in rows] == [("Which is a metal?", "B"), ("Numbered labels", "D")]


def test_hf_json_reads_columns_of_every_row_and_dates(tmp_path: Path) -> None:
    """HFDataset('json') has every row's keys as columns, ints widened beside floats, ISO dates as datetimes."""
    (first, second) = _load(tmp_path, CASES["HFDataset"]).get("test")
    assert list(first) == ["doc", "summary", "label", "score", "date", "meta", "extra"]
    assert (first["score"], first["date"], first["meta"], first["extra"]) == (
        1.0,
        datetime(2020, 1, 1),
        {"domain": "news", "origin": None},
        None,
    )
    assert second["date"] == datetime(2021, 2, 3, 10, 0)


def test_data_root_defaults_to_the_compass_data_cache_variable(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Without data_root, files are looked up under $COMPASS_DATA_CACHE, as OpenCompass does."""
    write_files(tmp_path, CASES["GSM8KDataset"]["files"])
    monkeypatch.setenv("COMPASS_DATA_CACHE", str(tmp_path))
    splits = OPENCOMPASS_DATASETS["GSM8KDataset"](path="opencompass/gsm8k").load()
    assert [row["answer"] for row in splits.get("test")] == ["#### 3", "#### 5"]


def test_default_cache_folder_is_the_last_place_looked(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A dataset missing under the data root is read from ~/.cache/opencompass/, where OpenCompass looks before downloading."""
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.delenv("COMPASS_DATA_CACHE", raising=False)
    monkeypatch.chdir(tmp_path)
    write_files(tmp_path / ".cache" / "opencompass", CASES["Aime2024Dataset"]["files"])
    rows = OPENCOMPASS_DATASETS["Aime2024Dataset"](path="opencompass/aime2024").load().get("test")
    assert rows == [
        {"origin_prompt": "Find the remainder.", "gold_answer": "33", "year": 2024, "question": "Find the remainder.", "answer": "33"}
    ]


def test_absolute_path_is_used_as_it_is(tmp_path: Path) -> None:
    """An absolute path ignores the data root, as in OpenCompass."""
    write_files(tmp_path, CASES["HumanevalDataset"]["files"])
    file = tmp_path / "data/humaneval/human-eval-v2-20210705.jsonl"
    rows = OPENCOMPASS_DATASETS["HumanevalDataset"](path=str(file), data_root=tmp_path / "elsewhere").load().get("test")
    assert [row["task_id"] for row in rows] == ["HumanEval/0", "HumanEval/1"]


def test_missing_file_names_the_file_and_the_way_to_give_the_data(tmp_path: Path) -> None:
    """A missing data file is a DatasetError naming the file looked for, the data root given, and the ways on (another
    --data-root, or --rows)."""
    with pytest.raises(DatasetError) as raised:
        OPENCOMPASS_DATASETS["MMLUDataset"](path="opencompass/mmlu", name="anatomy", data_root=tmp_path).load()
    looked_for = tmp_path / "data/mmlu/dev/anatomy_dev.csv"
    assert str(raised.value) == (
        f"file {looked_for}: MMLUDataset: data file not found: {looked_for}; the data root is {tmp_path} (--data-root): pass as "
        "--data-root the folder that holds OpenCompass's data/ folder, or give the rows with --rows FILE.jsonl (rows for every "
        "dataset of the config)"
    )


def test_unknown_keyword_is_a_config_error_naming_it() -> None:
    """A keyword the real class's load() does not take is a ConfigError naming the key, with a did-you-mean."""
    with pytest.raises(ConfigError) as raised:
        OPENCOMPASS_DATASETS["GSM8KDataset"](path="opencompass/gsm8k", nmae="x")
    assert str(raised.value) == "key 'nmae': unknown key 'nmae' for GSM8KDataset; it takes ['path']"
    with pytest.raises(ConfigError, match=r"^key 'name': RaceDataset needs 'name'$"):
        OPENCOMPASS_DATASETS["RaceDataset"](path="opencompass/race")


def test_keywords_the_real_load_swallows_are_accepted() -> None:
    """MMLUDataset's load(path, name, **kwargs) takes any further keyword; so does promptkit's."""
    dataset = OPENCOMPASS_DATASETS["MMLUDataset"](path="opencompass/mmlu", name="anatomy", local_mode=True)
    assert repr(dataset) == "MMLUDataset(path='opencompass/mmlu', name='anatomy')"


def test_a_record_of_another_layout_is_a_dataset_error(tmp_path: Path) -> None:
    """A record that lacks a field the class reads is a DatasetError naming the class and the field, not a traceback."""
    write_files(tmp_path, {"data/gsm8k/train.jsonl": "{}\n", "data/gsm8k/test.jsonl": "{}\n", "data/aime.jsonl": '{"question": "q"}\n'})
    with pytest.raises(DatasetError, match=r"^Aime2024Dataset: a record does not have the layout it reads \(no field 'origin_prompt'\)"):
        OPENCOMPASS_DATASETS["Aime2024Dataset"](path="opencompass/aime2024", data_root=tmp_path).load()


def test_hub_dataset_is_refused_with_the_way_on(tmp_path: Path) -> None:
    """HFDataset on a Hugging Face Hub id says promptkit reads local files only and how to give rows instead."""
    with pytest.raises(DatasetError) as raised:
        OPENCOMPASS_DATASETS["HFDataset"](path="glue", name="cola", split="validation", data_root=tmp_path).load()
    assert "'glue' is neither a local folder nor a file builder" in str(raised.value)
    assert "--rows FILE.jsonl or type='JsonlDataset'" in str(raised.value)


def test_registry_takes_the_opencompass_names(tmp_path: Path) -> None:
    """A dataset config with type='MMLUDataset' loads, and its loader reads OpenCompass's layout."""
    write_files(tmp_path, CASES["MMLUDataset"]["files"])
    config = tmp_path / "mmlu_gen.py"
    config.write_text(
        "datasets = [dict(abbr='mmlu-abstract_algebra', type='MMLUDataset', path='opencompass/mmlu', name='abstract_algebra',\n"
        f"    data_root={str(tmp_path)!r},\n"
        "    reader_cfg=dict(input_columns=['input', 'A', 'B', 'C', 'D'], output_column='target', train_split='dev'),\n"
        "    infer_cfg=dict(prompt_template=dict(type='PromptTemplate', template='{input}\\nA. {A}\\nAnswer:'),\n"
        "        retriever=dict(type='ZeroRetriever'), inferencer=dict(type='GenInferencer')))]\n",
        encoding="utf-8",
    )
    (spec,) = load_datasets(config)
    assert REGISTRY["dataset"]["MMLUDataset"] is OPENCOMPASS_DATASETS["MMLUDataset"]
    assert spec.loader.load(tmp_path).get("test")[0]["target"] == "C"
