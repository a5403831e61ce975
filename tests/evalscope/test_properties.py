"""Invariants of EvalScope's prompt building as promptkit runs it, for any text and any seed."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from promptkit.frontends.evalscope.api.adapters import MultiChoiceAdapter, RunConfig
from promptkit.frontends.evalscope.api.meta import BenchmarkMeta
from promptkit.frontends.evalscope.api.multi_choices import MultipleChoiceTemplate, answer_index
from promptkit.frontends.evalscope.api.samples import Sample
from promptkit.frontends.evalscope.pipeline import shuffle_choices

TEXT = st.text(alphabet=st.characters(blacklist_categories=("Cs",)), max_size=40)
CHOICES = st.lists(TEXT, min_size=2, max_size=8, unique=True)


@given(CHOICES, st.data(), st.integers(min_value=0, max_value=2**32))
def test_shuffled_choices_keep_the_target_on_its_text(choices, data, seed):
    """After shuffling, the target letter names the same choice text, and the choices are the same texts."""
    target = data.draw(st.integers(min_value=0, max_value=len(choices) - 1))
    sample = Sample(input="q", choices=list(choices), target=chr(65 + target))
    shuffle_choices([sample], True, seed)
    assert sorted(sample.choices) == sorted(choices)
    assert sample.choices[answer_index(sample.target)] == choices[target]


@given(CHOICES, TEXT, st.integers(min_value=0, max_value=2**32))
def test_the_choice_order_depends_only_on_the_sample_and_the_seed(choices, question, seed):
    """Two samples with the same text shuffle alike, whatever else was shuffled before."""
    first, second = (Sample(input=question, choices=list(choices), target="A") for _ in range(2))
    shuffle_choices([Sample(input="other", choices=["x", "y", "z"], target="A"), first], True, seed)
    shuffle_choices([second], True, seed)
    assert first.choices == second.choices


@given(TEXT, CHOICES)
def test_row_text_is_never_formatted_again(question, choices):
    """A question or choice holding {answer}, {question} or {choices} is sent as written, once formatted in."""
    adapter = MultiChoiceAdapter(benchmark_meta=BenchmarkMeta(name="q", dataset_id="q", prompt_template=MultipleChoiceTemplate.SINGLE_ANSWER), task_config=RunConfig())
    text = adapter.format_prompt_template(Sample(input=question + "{answer}{question}", choices=list(choices), target="A"))
    assert question + "{answer}{question}" in text
    assert all(f"{chr(65 + i)}) {choice}" in text for i, choice in enumerate(choices))
