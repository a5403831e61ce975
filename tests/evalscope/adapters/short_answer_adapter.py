from typing import Any, Dict

from evalscope.api.benchmark import BenchmarkMeta, DefaultDataAdapter
from evalscope.api.dataset import Sample
from evalscope.api.registry import register_benchmark
from evalscope.constants import Tags

PROMPT_TEMPLATE = """Read the context and answer the question with a few words.

Context: {context}
Question: {question}
Answer:"""

FEWSHOT_HEADER = 'Examples ({level} level):'


@register_benchmark(
    BenchmarkMeta(
        name='short_answer',
        pretty_name='Short-Answer',
        tags=[Tags.QA],
        description='Reading questions with a short free-form answer, in two difficulty levels.',
        dataset_id='my-org/short-answer',
        subset_list=['easy', 'hard'],
        metric_list=['acc'],
        few_shot_num=2,
        train_split='train',
        eval_split='test',
        prompt_template=PROMPT_TEMPLATE,
    )
)
class ShortAnswerAdapter(DefaultDataAdapter):

    def record_to_sample(self, record: Dict[str, Any]) -> Sample:
        return Sample(
            input=record['question'],
            target=record['answer'],
            metadata={'context': record['context'], 'level': self.current_subset_name},
        )

    def sample_filter(self, sample: Sample) -> bool:
        """Rows without a reference answer cannot be scored."""
        return bool(sample.target)

    def sample_to_fewshot(self, sample: Sample) -> str:
        return f"Context: {sample.metadata['context']}\nQuestion: {sample.input}\nAnswer: {sample.target}"

    def format_prompt_template(self, sample: Sample) -> str:
        return self.prompt_template.format(context=sample.metadata['context'], question=sample.input)

    def format_fewshot_template(self, fewshot: str, sample: Sample) -> str:
        header = FEWSHOT_HEADER.format(level=sample.metadata['level'])
        return f'{header}\n\n{fewshot}\n\n---\n\n{self.format_prompt_template(sample)}'
