from typing import Any, Dict

from evalscope.api.benchmark import BenchmarkMeta, MultiChoiceAdapter
from evalscope.api.dataset import Sample
from evalscope.api.registry import register_benchmark
from evalscope.constants import Tags
from evalscope.utils.multi_choices import MultipleChoiceTemplate

# A few-shot template of our own: the demonstrations, then EvalScope's single-answer template.
FEW_SHOT_PROMPT_TEMPLATE = """Solved examples ({letters} are the labels):

{fewshot}

""" + MultipleChoiceTemplate.SINGLE_ANSWER


@register_benchmark(
    BenchmarkMeta(
        name='topic_quiz',
        pretty_name='Topic-Quiz',
        tags=[Tags.MULTIPLE_CHOICE, Tags.KNOWLEDGE],
        description='Quiz questions of several topics in one file, evaluated per topic.',
        dataset_id='my-org/topic-quiz',
        subset_list=['history', 'music'],
        metric_list=['acc'],
        few_shot_num=2,
        train_split='train',
        eval_split='test',
        prompt_template=MultipleChoiceTemplate.SINGLE_ANSWER,
        few_shot_prompt_template=FEW_SHOT_PROMPT_TEMPLATE,
    )
)
class TopicQuizAdapter(MultiChoiceAdapter):

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.reformat_subset = True  # one loader subset, split into subsets by Sample.subset_key

    def record_to_sample(self, record: Dict[str, Any]) -> Sample:
        return Sample(
            input=record['question'],
            choices=record['options'],
            target=record['answer'],
            subset_key=record['topic'],
            metadata={'retired': record['retired']},
        )

    def sample_filter(self, sample: Sample) -> bool:
        """Retired questions are neither evaluated nor used as examples."""
        return not sample.metadata['retired']
