"""JinjaPromptTemplate: Jinja texts, chosen explicitly; sandboxed; row values are data; the answer is masked."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from promptkit import ConfigError, JinjaPromptTemplate, PromptTemplate, TemplateError

MC = "{{ question }}\n{% for o in options %}\n{{ 'ABCD'[loop.index0] }}. {{ o }}\n{% endfor %}\nAnswer: {{ answer }}"
ROW = {"question": "Which is prime?", "options": ["4", "7", "9"], "answer": "B"}


def test_loop_over_options_with_block_lines_trimmed():
    """A line holding only a block tag leaves no blank line (trim_blocks/lstrip_blocks); the answer is masked."""
    assert JinjaPromptTemplate(MC).render(ROW, masked="answer") == "Which is prime?\nA. 4\nB. 7\nC. 9\nAnswer: "


def test_shot_shows_the_answer_and_trailing_newline_is_kept():
    """render_shot shows the answer; a template's final newline survives."""
    assert JinjaPromptTemplate("Q: {{ question }}\nA: {{ answer }}\n").render_shot(ROW) == "Q: Which is prime?\nA: B\n"


def test_plain_prompt_template_never_treats_braces_as_jinja():
    """Without JinjaPromptTemplate, {{question}} is OpenCompass's '{' + value + '}', never Jinja."""
    assert PromptTemplate("{{question}}").render(ROW) == "{Which is prime?}"


@pytest.mark.parametrize("value", ["{{ 7*7 }}", "{% raw %}x{% endraw %}", "{% for x in y %}", "{answer}", "</E>", "{# c #}"])
def test_row_values_render_literally(value):
    """A row value that looks like Jinja, a placeholder or the ice token is inserted as written, once."""
    assert JinjaPromptTemplate("<{{ question }}>").render({"question": value, "answer": "B"}, masked="answer") == f"<{value}>"


@given(st.text())
def test_any_row_text_is_inserted_literally(text):
    """Property: the rendered text is exactly the value between the template's literals."""
    assert JinjaPromptTemplate("[{{ q }}]").render({"q": text}) == f"[{text}]"


def test_chat_and_label_shapes_with_ice_token():
    """Chat and label-keyed shapes work as in PromptTemplate; shots go in at the ice token as finished text."""
    chat = JinjaPromptTemplate(
        dict(begin="</E>", round=[dict(role="HUMAN", prompt="{{ question | upper }}"), dict(role="BOT", prompt="{{ answer }}")]),
        ice_token="</E>",
    )
    rendered = chat.render(ROW, ice="SHOT {{ question }}\n", masked="answer")
    assert [getattr(item, "prompt", item) for item in rendered.items if not hasattr(item, "section")] == ["SHOT {{ question }}\n", "WHICH IS PRIME?", ""]
    labels = JinjaPromptTemplate({"A": "{{ question }} A", "B": "{{ question }} B"})
    assert labels.render(ROW, label="B") == "Which is prime? B"


def test_undefined_variable_names_template_variable_and_columns():
    """A misspelt variable is an error naming the template, the variable and the row's columns (with a suggestion)."""
    with pytest.raises(TemplateError) as caught:
        JinjaPromptTemplate("Q: {{ qestion }}").render(ROW)
    assert str(caught.value) == (
        "key 'qestion': template: variable 'qestion' is not defined in 'Q: {{ qestion }}'; "
        "the row has the columns ['answer', 'options', 'question'] (did you mean 'question'?)"
    )


def test_undefined_variable_in_pipeline_names_the_row(make_renderer):
    """Through the pipeline the error also names the dataset and the row."""
    renderer = make_renderer(
        [{"question": "q0", "answer": "a"}],
        dict(prompt_template=dict(type="JinjaPromptTemplate", template="{{ questoin }}"), retriever=dict(type="ZeroRetriever"),
             inferencer=dict(type="GenInferencer")),
    )
    with pytest.raises(TemplateError, match=r"^dataset 'demo', row 0, key 'questoin': template: variable 'questoin' is not defined"):
        renderer.render(0)


def test_few_shot_config_masks_the_answer_of_the_item_under_test(make_renderer):
    """ice_template and prompt_template in Jinja: shots show their answers, the item under test does not."""
    renderer = make_renderer(
        [{"question": "1+1?", "answer": "2"}],
        dict(
            ice_template=dict(type="JinjaPromptTemplate", template="Q: {{ question }}\nA: {{ answer }}\n"),
            prompt_template=dict(type="JinjaPromptTemplate", template="</E>Q: {{ question }}\nA: {{ answer }}", ice_token="</E>"),
            retriever=dict(type="FixKRetriever", fix_id_list=[0, 1]),
            inferencer=dict(type="GenInferencer"),
        ),
        train_rows=[{"question": "2+2?", "answer": "4"}, {"question": "{{ answer }}", "answer": "6"}],
    )
    # FixKRetriever joins shots with its default ice_separator and ice_eos_token (each "\n"), as OpenCompass does.
    assert renderer.render(0)[0].prompt == "Q: 2+2?\nA: 4\n\nQ: {{ answer }}\nA: 6\n\nQ: 1+1?\nA: "


def test_filters_from_config_must_be_callables():
    """Custom filters are Python callables; a string is refused, never evaluated."""
    assert JinjaPromptTemplate("{{ question | shout }}", filters={"shout": lambda s: s.upper() + "!"}).render(ROW) == "WHICH IS PRIME?!"
    with pytest.raises(ConfigError, match=r"filter 'shout' must be a Python callable \(got 'lambda s: s.upper\(\)' that is a str\)"):
        JinjaPromptTemplate("{{ question | shout }}", filters={"shout": "lambda s: s.upper()"})


def test_syntax_error_names_template_and_line():
    """A template that does not parse fails at construction with its line."""
    with pytest.raises(TemplateError, match=r"^template: Jinja syntax error on line 2 of 'a\\n{% for x in y %}': Unexpected end of template"):
        JinjaPromptTemplate("a\n{% for x in y %}")


@pytest.mark.parametrize(
    "source",
    [
        "{{ ''.__class__ }}",
        "{{ question.__class__.__mro__ }}",
        "{{ '{0.__class__}'.format(question) }}",
        "{{ '{x.__class__.__init__.__globals__}'.format_map({'x': question}) }}",
        "{{ options.append('x') }}",
        "{{ cycler.__init__.__globals__ }}",
        "{{ lipsum.__globals__ }}",
    ],
)
def test_sandbox_refuses_escapes_and_mutation(source):
    """Attribute escapes, str.format tricks and changing a row are errors naming the template."""
    row = {"question": "q", "options": ["a"]}
    with pytest.raises(TemplateError, match=r"^template: .* failed: "):
        JinjaPromptTemplate(source).render(row)
    assert row == {"question": "q", "options": ["a"]}


def test_an_ice_token_inside_a_jinja_block_is_explained():
    """The shots go in at the token outside Jinja, so a token inside {% if %} cannot work: the error says where to put it."""
    with pytest.raises(TemplateError, match=r"key 'ice_token': ice_token '</E>' sits inside a Jinja block or expression in .*put the token outside any"):
        JinjaPromptTemplate("{% if use_shots %}</E>{% endif %}Q: {{ question }}", ice_token="</E>")
