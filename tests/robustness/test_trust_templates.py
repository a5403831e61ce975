"""Hostile templates, second round: every generator is bounded before it runs, the time limit counts CPU time, format
sizes are estimated from real fields only, and namespaces keep underscore names out."""

from __future__ import annotations

import os
import string
import subprocess
import sys
import time
import tracemalloc
from pathlib import Path

import pytest
from hypothesis import assume, example, given, settings
from hypothesis import strategies as st

import promptkit
import promptkit.text.sandbox
from promptkit import ChatTemplate, JinjaPromptTemplate, MetaTemplateError, TemplateError
from promptkit.text.format_sizes import format_bound, percent_bound

ROOT = Path(promptkit.__file__).parents[1]
USER = [{"role": "user", "content": "hi"}]
OVER = "over max_chars=8,388,608"
HOLDING = "holding more than max_chars=8,388,608 items and characters with"
CHAT_HINT = "; if you trust the template, raise template_limits=dict(max_chars=...) in the model config"


def chat_error(template: str) -> str:
    """What rendering ``template`` as a chat template raises (it must raise)."""
    with pytest.raises(MetaTemplateError) as caught:
        ChatTemplate(template, limits=dict(seconds=60)).render(USER)
    return str(caught.value)


def exceeded(detail: str) -> str:
    return f"the chat template (inline) exceeded its limits: it would build {detail}{CHAT_HINT}"


# --- generators of unbounded output: refused before they run -------------------------------------------------------

GROWING = {
    "lipsum_paragraphs": ("{{ lipsum(n=10**6) }}", f"a string of 1,396,000,000 characters with lipsum, {OVER}"),
    "lipsum_words": ("{{ lipsum(1, max=10**9) }}", f"a string of 13,999,999,996 characters with lipsum, {OVER}"),
    "lipsum_positional": ("{{ lipsum(10**3, False, 10**4, 10**5) }}", f"a string of 1,399,996,000 characters with lipsum, {OVER}"),
    "slice": ("{{ [1]|slice(10**8)|list|length }}", f"a list of 100,000,000 items with the filter 'slice', {OVER}"),
    "slice_fill": ("{{ [1, 2]|slice(1000, 'x' * 100000)|list }}", f"a list {HOLDING} the filter 'slice'"),
    "batch_fill": ("{{ [1, 2]|batch(1000, 'x' * 100000)|list }}", f"a list {HOLDING} the filter 'batch'"),
    "urlize_target": ("{{ ('a@b.c ' * 100000)|urlize(target='x' * 1000) }}", f"a string of 512,405,064 characters with the filter 'urlize', {OVER}"),
    "int_to_bytes": ("{{ (1).to_bytes(10**9, 'big') }}", f"a string of 1,000,000,000 characters with int.to_bytes, {OVER}"),
    "list_of_one_big_string": ("{{ ['x' * 8000000] * 1000 }}", f"a list {HOLDING} '*'"),
    "mapped_over_copies": ("{{ (['x' * 8000000] * 1000)|map('upper')|list|length }}", f"a list {HOLDING} '*'"),
    "doubling_list": (
        "{% set ns = namespace(l=['x' * 1000000]) %}{% for i in range(12) %}{% set ns.l = ns.l + ns.l %}{% endfor %}{{ ns.l|length }}",
        f"a list {HOLDING} '+'",
    ),
    "dict_fromkeys": ("{{ dict.fromkeys(range(100000), 'x' * 1000)|string|length }}", f"a dict {HOLDING} dict.fromkeys"),
    "tojson_chain": ("{% set s = '\"' * 4000000 %}{{ s|tojson|tojson|tojson|length }}", f"a string of 16,000,006 characters with the filter 'tojson', {OVER}"),
    "pprint_of_copies": ("{% set s = 'x' * 3000000 %}{{ [s, s, s]|pprint|length }}", f"a string of 9,000,014 characters with the filter 'pprint', {OVER}"),
    "format_nested_width": ("{{ '{:>{w}}'.format('', w=10**9) }}", f"a string of 1,000,000,000 characters with str.format, {OVER}"),
    "format_width_of_nested_field": ("{{ '{:{w:>1000000000}}'.format('', w=5) }}", f"a string of 1,000,000,000 characters with str.format, {OVER}"),
    "percent_named_width": ("{{ '%(a)1000000000s' % {'a': 'x'} }}", f"a string of 1,000,000,015 characters with '%', {OVER}"),
}


@pytest.mark.parametrize("name", GROWING)
def test_a_generator_of_unbounded_output_is_refused_before_it_runs(name):
    """Each call that would build past max_chars is one error naming what would build it, with no memory spent on it."""
    template, detail = GROWING[name]
    tracemalloc.start()
    try:
        message = chat_error(template)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert message == exceeded(detail)
    assert peak < 200_000_000, f"{peak:,} bytes allocated before the refusal"


def test_lipsum_in_a_jinja_prompt_template_is_refused():
    """A Jinja prompt template's lipsum is bounded the same way, in a TemplateError naming the template."""
    template = "{{ lipsum(n=10**6) }}"
    with pytest.raises(TemplateError) as caught:
        JinjaPromptTemplate(template).render({"question": "x"}, masked=None)
    assert str(caught.value) == (
        f"template: '{template}' exceeded its limits: it would build a string of 1,396,000,000 characters with lipsum, {OVER}; "
        "if you trust the template, raise template_limits=dict(max_chars=...) in the template config"
    )


def test_lipsum_within_the_limit_renders():
    """lipsum with its usual arguments still renders its paragraphs."""
    text = ChatTemplate("{{ lipsum(2, html=False) }}").render(USER)
    assert text.count("\n\n") == 1 and text.endswith(".")


def test_sum_of_many_lists_is_one_pass():
    """Summing 80,000 lists (quadratic in Python's sum) is one pass: the same list, at once."""
    assert ChatTemplate("{{ ([[1] * 100] * 80000)|sum(start=[])|length }}", limits=dict(seconds=60)).render(USER) == "8000000"
    assert ChatTemplate("{{ [[1], [2, 3]]|sum(start=[0]) }}|{{ [(1,), (2,)]|sum(start=()) }}|{{ [1, 2.5]|sum }}").render(USER) == "[0, 1, 2, 3]|(1, 2)|3.5"


def test_lint_of_a_lipsum_template_ends_quickly(tmp_path):
    """`promptkit lint` renders sample rows: a lipsum template is reported, not rendered for minutes."""
    (tmp_path / "test.jsonl").write_text('{"question": "hi", "answer": "a"}\n')
    config = tmp_path / "lipsum_gen.py"
    config.write_text(
        "from promptkit import GenInferencer, JinjaPromptTemplate, JsonlDataset, ZeroRetriever\n\n"
        "datasets = [dict(abbr='d', type=JsonlDataset, path='test.jsonl',\n"
        "                 reader_cfg=dict(input_columns=['question'], output_column='answer'),\n"
        "                 infer_cfg=dict(prompt_template=dict(type=JinjaPromptTemplate, template='{{ question }}{{ lipsum(n=10**6) }}'),\n"
        "                                retriever=dict(type=ZeroRetriever), inferencer=dict(type=GenInferencer)))]\n"
    )
    done = subprocess.run(
        [sys.executable, "-m", "promptkit", "lint", str(config)],
        capture_output=True, text=True, env={**os.environ, "PYTHONPATH": str(ROOT)}, timeout=120,
    )  # fmt: skip
    assert "it would build a string of 1,396,000,000 characters with lipsum" in done.stdout + done.stderr


# --- sizes of str.format and '%': real fields and widths only ------------------------------------------------------

FITTING = {
    "date_in_format": ("{{ 'Knowledge cutoff 20240726. Today: {}'.format(messages[0].content) }}", "Knowledge cutoff 20240726. Today: hi"),
    "date_in_percent": ("{{ 'Cutoff 20240726: %s' % messages[0].content }}", "Cutoff 20240726: hi"),
    "escaped_braces": (
        "{% set a = 'x' * 1000000 %}{{ ('{{{{{{{{{{{{{{{{{{{{ {} }}'.format(a))|length }}",
        "1000013",
    ),
    "percent_mapping": ("{% set a = 'x' * 1000000 %}{{ (('%(a)s' ~ '%(b)s' * 10) % {'a': a, 'b': 'y'})|length }}", "1000010"),
    "percent_percent": ("{% set a = 'x' * 1000000 %}{{ (('%% 10000000 ' ~ '%s') % a)|length }}", "1000011"),
    "format_filter_date": ("{{ 'Cutoff 20240726: %s'|format(messages[0].content) }}", "Cutoff 20240726: hi"),
}


@pytest.mark.parametrize("name", FITTING)
def test_a_format_that_builds_a_short_string_renders(name):
    """Digits in literal text, escaped braces and a mapping used once are no widths: the format renders."""
    template, expected = FITTING[name]
    assert ChatTemplate(template).render(USER) == expected


SPEC_FILL = st.sampled_from(["", "<", ">", "^", "*^", "0=", "x<"])
SPEC = st.builds(
    lambda align, sign, alt, zero, width, grouping, precision, kind: f"{align}{sign}{alt}{zero}{width}{grouping}{precision}{kind}",
    SPEC_FILL, st.sampled_from(["", "+", "-", " "]), st.sampled_from(["", "#"]), st.sampled_from(["", "0"]),
    st.one_of(st.just(""), st.integers(0, 40).map(str)), st.sampled_from(["", ",", "_"]),
    st.one_of(st.just(""), st.integers(0, 30).map(lambda p: f".{p}")), st.sampled_from(list("bcdeEfFgGnosxX%") + [""] * 4),
)  # fmt: skip
VALUE = st.one_of(
    st.text(max_size=12),
    st.integers(-(10**40), 10**40),
    st.floats(allow_nan=True, allow_infinity=True),
    st.booleans(),
    st.none(),
    st.lists(st.one_of(st.text(max_size=4), st.integers(), st.floats()), max_size=3),
    st.dictionaries(st.text(max_size=3), st.one_of(st.integers(), st.text(max_size=3)), max_size=2),
)
LITERAL = st.text(alphabet=string.ascii_letters + "0123456789 {}%()é\n\x00", max_size=8).map(lambda t: t.replace("{", "{{").replace("}", "}}"))


@st.composite
def format_calls(draw: st.DrawFn) -> tuple[str, list[object], dict[str, object]]:
    args = draw(st.lists(VALUE, min_size=1, max_size=3))
    kwargs = {"w": draw(st.integers(0, 30)), "v": draw(VALUE)}
    pieces = []
    for _ in range(draw(st.integers(0, 4))):
        pieces.append(draw(LITERAL))
        name = draw(st.sampled_from([str(i) for i in range(len(args))] + ["v", "0[0]" if isinstance(args[0], list | str) and args[0] else "v"]))
        conversion = draw(st.sampled_from(["", "!r", "!s", "!a"]))
        spec = draw(st.one_of(SPEC, st.just("{w}"), st.just(">{w}")))
        pieces.append(f"{{{name}{conversion}:{spec}}}")
    pieces.append(draw(LITERAL))
    return "".join(pieces), args, kwargs


@settings(max_examples=400, deadline=None)
@given(format_calls())
@example(("{2:,%}", (None, "", -10000000), {}))  # '%' multiplies by 100: two more digits, and a comma more
def test_format_bound_is_never_below_the_real_length(call):
    """Property: for any small format and arguments, the estimate is at least the real length, and not absurdly more."""
    fmt, args, kwargs = call
    try:
        real = fmt.format(*args, **kwargs)
    except (ValueError, TypeError, IndexError, KeyError, OverflowError):
        assume(False)
        return
    bound = format_bound(fmt, args, kwargs)
    assert len(real) <= bound <= 10 * len(real) + 200, (fmt, args, kwargs)


@st.composite
def percent_calls(draw: st.DrawFn) -> tuple[str, object]:
    keyed = draw(st.booleans())
    values = {"a": draw(VALUE), "b(c)": draw(VALUE)} if keyed else tuple(draw(st.lists(VALUE, min_size=1, max_size=4)))
    pieces = []
    for _ in range(draw(st.integers(0, 4))):
        pieces.append(draw(LITERAL).replace("%", "%%"))
        key = f"({draw(st.sampled_from(['a', 'b(c)']))})" if keyed else ""
        flags = draw(st.sampled_from(["", "-", "+", " ", "#", "0", "-0"]))
        width = draw(st.one_of(st.just(""), st.integers(0, 40).map(str), st.just("*") if not keyed else st.just("")))
        precision = draw(st.one_of(st.just(""), st.integers(0, 30).map(lambda p: f".{p}"), st.just(".")))
        pieces.append(f"%{key}{flags}{width}{precision}{draw(st.sampled_from(list('diouxXeEfFgGcrsa%')))}")
    pieces.append(draw(LITERAL).replace("%", "%%"))
    if not keyed:  # '*' takes an int from the values, in order
        values = tuple(draw(st.integers(0, 40)) if i < len(values) and draw(st.booleans()) else v for i, v in enumerate(values))
    return "".join(pieces), values


@settings(max_examples=400, deadline=None)
@given(percent_calls())
def test_percent_bound_is_never_below_the_real_length(call):
    """Property: the same for printf-style '%' (named keys with parentheses, '*' widths, '%%')."""
    fmt, values = call
    assume("*" not in fmt or all(abs(v) < 1000 for v in values if isinstance(v, int)))  # a '*' width from a big int: gigabytes
    try:
        real = fmt % values
    except (ValueError, TypeError, KeyError, OverflowError):
        assume(False)
        return
    bound = percent_bound(fmt, values)
    assert len(real) <= bound <= 10 * len(real) + 200, (fmt, values)


# --- the time limit counts CPU time ---------------------------------------------------------------------------------


def test_time_spent_off_the_cpu_does_not_count():
    """A render that waits (here a config filter sleeping 0.4 s in all) is within seconds=0.1: only CPU time counts."""

    def nap(value: object) -> object:
        time.sleep(0.02)
        return value

    template = JinjaPromptTemplate("{% for i in range(20) %}{{ i|nap }}{% endfor %}", filters=dict(nap=nap), template_limits=dict(seconds=0.1))
    assert template.render({"q": "x"}, masked=None) == "".join(map(str, range(20)))


def test_a_loaded_machine_gives_the_same_result(monkeypatch):
    """A machine so loaded that each check finds ten more wall-clock seconds gone: the chat template still renders."""
    ticks = iter(range(10**9))
    real = promptkit.text.sandbox.monotonic
    monkeypatch.setattr(promptkit.text.sandbox, "monotonic", lambda: real() + 10 * next(ticks))
    template = ChatTemplate("{% for i in range(100) %}{% for j in range(100) %}{% endfor %}{{ i }}{% endfor %}", limits=dict(seconds=5))
    assert template.render(USER) == "".join(map(str, range(100)))


# --- namespaces: no underscore names, in either kind of template ----------------------------------------------------


@pytest.mark.parametrize(
    ("template", "name"),
    [
        ("{% set ns = namespace() %}{% set ns.__dict__ = 1 %}{{ ns }}", "__dict__"),
        ("{% set ns = namespace() %}{% set ns._hidden = 1 %}", "_hidden"),
        ("{% set ns = namespace(_a=1) %}", "_a"),
    ],
)
def test_underscore_names_on_a_namespace_are_refused(template, name):
    """Storing an underscore-prefixed name on a namespace is refused in Jinja prompt templates as in chat templates."""
    refusal = f"a template cannot store the underscore-prefixed attribute {name!r} on a namespace"
    with pytest.raises(TemplateError) as caught:
        JinjaPromptTemplate(template).render({"q": "x"}, masked=None)
    shown = repr(template if len(template) <= 60 else template[:57] + "...")
    assert str(caught.value) == f"template: {shown} failed: {refusal}"
    with pytest.raises(MetaTemplateError) as chat:
        ChatTemplate(template).render(USER)
    assert str(chat.value) == f"the chat template (inline) raised: {refusal}"


def test_namespace_with_plain_names_still_works():
    """namespace() with ordinary names, set and read, as before."""
    assert JinjaPromptTemplate("{% set ns = namespace(n=1) %}{% set ns.n = ns.n + 1 %}{{ ns.n }}").render({"q": "x"}, masked=None) == "2"


def test_the_estimate_of_a_container_stops_at_the_budget():
    """A container repeating itself 2**40 times is estimated past the budget in at most budget steps (else: hours)."""
    nested: list[object] = ["x" * 1000]
    for _ in range(40):
        nested = [nested, nested]
    assert format_bound("{}", (nested,), {}, budget=10**6) > 10**6
