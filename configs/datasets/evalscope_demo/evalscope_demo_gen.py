# An EvalScope benchmark adapter, written as EvalScope's "add a benchmark" guide writes one (seed 004), with its rows
# in data/ (the layout EvalScope's loader reads: train.jsonl and test.jsonl for the subset 'default').
#
# Demonstrates: `promptkit render` on an adapter file, unchanged: EvalScope's imports served by promptkit (or by
# EvalScope when it is installed); a MultiChoiceAdapter regrouping one loaded subset by topic (reformat_subset); the
# first 2 train rows of each topic as shots, written by EvalScope's multiple-choice formatting (`A) text`,
# `ANSWER: X`); a sample_filter; the records' `messages`: what EvalScope sends for each sample.
#
#   promptkit render configs/datasets/evalscope_demo/evalscope_demo_gen.py --model configs/models/llama3_8b_instruct.py
#   promptkit render configs/datasets/evalscope_demo/evalscope_demo_gen.py --num-fewshot 0 --set shuffle_choices=True
from typing import Any, Dict

from evalscope.api.benchmark import BenchmarkMeta, MultiChoiceAdapter
from evalscope.api.dataset import Sample
from evalscope.api.registry import register_benchmark
from evalscope.constants import Tags
from evalscope.utils.multi_choices import MultipleChoiceTemplate


@register_benchmark(
    BenchmarkMeta(
        name='evalscope_demo',
        pretty_name='EvalScope-Demo',
        tags=[Tags.MULTIPLE_CHOICE, Tags.KNOWLEDGE],
        description='General-knowledge questions in two topics, evaluated per topic.',
        dataset_id='data',  # a local folder, beside this file
        subset_list=['geography', 'science'],
        metric_list=['acc'],
        few_shot_num=2,
        train_split='train',
        eval_split='test',
        prompt_template=MultipleChoiceTemplate.SINGLE_ANSWER,
    )
)
class EvalScopeDemoAdapter(MultiChoiceAdapter):

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.reformat_subset = True  # one loaded subset, split into topics by Sample.subset_key

    def record_to_sample(self, record: Dict[str, Any]) -> Sample:
        return Sample(
            input=record['question'],
            choices=record['options'],
            target=record['answer'],
            subset_key=record['topic'],
            metadata={'source': record['source']},
        )

    def sample_filter(self, sample: Sample) -> bool:
        """Questions still in draft are neither asked nor shown as examples."""
        return sample.metadata['source'] != 'draft'
