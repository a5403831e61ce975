"""ChatTemplate: loading model folders, template selection, the sandbox, errors."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from promptkit import ConfigError, MetaTemplateError
from promptkit.chat_templates import ChatTemplate

SIMPLE = "{% for m in messages %}[{{ m.role }}]{{ m.content }}{% endfor %}{% if add_generation_prompt %}[assistant]{% endif %}"
USER = [{"role": "user", "content": "Hi"}]


def write_folder(folder: Path, config: dict, files: dict[str, str] | None = None) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "tokenizer_config.json").write_text(json.dumps(config), encoding="utf-8")
    for name, text in (files or {}).items():
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_text(text, encoding="utf-8")
    return folder


def test_folder_reads_template_and_added_token_objects(tmp_path):
    """bos_token given as an AddedToken object ({'content': ...}) is read as its content."""
    folder = write_folder(tmp_path, {"chat_template": "{{ bos_token }}" + SIMPLE, "bos_token": {"__type": "AddedToken", "content": "<s>"}, "eos_token": None})
    template = ChatTemplate.from_folder(folder)
    assert template.special_tokens == {"bos_token": "<s>"}
    assert template.render(USER) == "<s>[user]Hi"


def test_chat_template_jinja_wins_over_tokenizer_config(tmp_path):
    """chat_template.jinja beside tokenizer_config.json is the template, as transformers loads it."""
    folder = write_folder(tmp_path, {"chat_template": "ignored"}, {"chat_template.jinja": SIMPLE})
    assert ChatTemplate.from_folder(folder).render(USER) == "[user]Hi"


def test_special_tokens_map_of_an_older_save_replaces_the_config(tmp_path):
    """Without added_tokens_decoder, special_tokens_map.json supplies missing tokens and replaces the config's (as transformers 5)."""
    folder = write_folder(tmp_path, {"chat_template": "{{ bos_token }}{{ eos_token }}", "eos_token": "</s>"},
                          {"special_tokens_map.json": json.dumps({"bos_token": "<s>", "eos_token": "<other>"})})
    assert ChatTemplate.from_folder(folder).render(USER) == "<s><other>"


def test_named_templates_tool_use_picked_when_tools_given(tmp_path):
    """A list of named templates: 'default' normally, 'tool_use' when tools are passed, any by name."""
    folder = write_folder(tmp_path, {"chat_template": [{"name": "default", "template": "D"}, {"name": "tool_use", "template": "T"}, {"name": "rag", "template": "R"}]})
    template = ChatTemplate.from_folder(folder)
    assert template.render(USER) == "D"
    assert template.render(USER, tools=[{"type": "function", "function": {"name": "f"}}]) == "T"
    assert template.render(USER, template_name="rag") == "R"
    with pytest.raises(ConfigError, match=r"no chat template named 'nope'; it has \['default', 'rag', 'tool_use'\]"):
        template.render(USER, template_name="nope")


def test_additional_chat_templates_folder(tmp_path):
    """additional_chat_templates/<name>.jinja adds named templates beside chat_template.jinja."""
    folder = write_folder(tmp_path, {}, {"chat_template.jinja": "D", "additional_chat_templates/tool_use.jinja": "T"})
    assert dict(ChatTemplate.from_folder(folder).templates) == {"default": "D", "tool_use": "T"}


def test_missing_folder_says_nothing_is_downloaded(tmp_path):
    """A hub id instead of a local folder: the error says promptkit downloads nothing and what to do."""
    with pytest.raises(ConfigError) as caught:
        ChatTemplate.from_folder(tmp_path / "Qwen" / "Qwen2.5-7B-Instruct")
    assert "does not exist; promptkit downloads nothing: put the model's tokenizer_config.json" in str(caught.value)


def test_folder_without_template_names_both_places(tmp_path):
    """No chat_template.jinja and no chat_template key: the error names both and the alternatives."""
    folder = write_folder(tmp_path, {"bos_token": "<s>"})
    with pytest.raises(ConfigError, match="has no chat template: neither chat_template.jinja nor a 'chat_template' in tokenizer_config.json"):
        ChatTemplate.from_folder(folder)


def test_syntax_error_names_origin_and_line():
    """A template that does not parse fails at construction with its line."""
    with pytest.raises(MetaTemplateError, match=r"inline: chat template 'default' does not parse: .* \(template line 2\)"):
        ChatTemplate("ok\n{% for m in messages %}")


def test_raise_exception_becomes_meta_template_error():
    """raise_exception('...') in the template surfaces with the template's own message."""
    template = ChatTemplate("{{ raise_exception('System role not supported') }}")
    with pytest.raises(MetaTemplateError, match=r"^the chat template \(inline\) raised: System role not supported$"):
        template.render(USER)


def test_template_kwargs_override_special_tokens():
    """Extra kwargs become variables and win over a special token of the same name (as in transformers)."""
    template = ChatTemplate("{{ bos_token }}|{{ enable_thinking }}", special_tokens={"bos_token": "<s>"})
    assert template.render(USER, enable_thinking=False) == "<s>|False"
    assert template.render(USER, bos_token="") == "|"


def test_tojson_does_not_escape_html_and_takes_options():
    """tojson keeps <, >, & and non-ASCII, and accepts indent, separators and sort_keys."""
    template = ChatTemplate("{{ messages[0] | tojson }}|{{ {'b': 1, 'a': [1]} | tojson(indent=1, separators=(',', ':'), sort_keys=true) }}")
    out = template.render([{"role": "user", "content": "<a href='x'>&ü</a>"}])
    assert out == '{"role": "user", "content": "<a href=\'x\'>&ü</a>"}|{\n "a":[\n  1\n ],\n "b":1\n}'


def test_loop_controls_and_strftime_now():
    """{% break %}/{% continue %} work and strftime_now formats the current time."""
    template = ChatTemplate("{% for m in messages %}{% if loop.index > 1 %}{% break %}{% endif %}{{ m.content }}{% endfor %}{{ strftime_now('[%%]') }}")
    assert template.render([{"role": "user", "content": "a"}, {"role": "user", "content": "b"}]) == "a[%]"


def test_messages_are_not_changed_by_rendering():
    """The caller's message dicts are untouched, also by continue_final_message."""
    messages = [{"role": "user", "content": "Q"}, {"role": "assistant", "content": "A"}]
    ChatTemplate(SIMPLE).render(messages, continue_final_message=True)
    assert messages == [{"role": "user", "content": "Q"}, {"role": "assistant", "content": "A"}]


def test_continue_final_message_with_add_generation_prompt_is_refused():
    """The two flags exclude each other."""
    with pytest.raises(MetaTemplateError, match="continue_final_message and add_generation_prompt exclude each other"):
        ChatTemplate(SIMPLE).render(USER, continue_final_message=True, add_generation_prompt=True)


def test_continue_final_message_when_template_rewrites_the_message():
    """A template that drops the final message's text cannot continue it: the error says so."""
    with pytest.raises(MetaTemplateError, match="does not reproduce the final message 'A'"):
        ChatTemplate("{% for m in messages %}{{ m.content[:1] }}{% endfor %}").render([{"role": "user", "content": "Q"}, {"role": "assistant", "content": "A"}], continue_final_message=True)


def test_non_json_values_are_refused():
    """A template sees only JSON values; an object in a message is an error naming the message."""
    with pytest.raises(MetaTemplateError, match="message 0: a chat template only sees JSON values .*got a object"):
        ChatTemplate(SIMPLE).render([{"role": "user", "content": object()}])


def test_empty_conversation_is_refused():
    """No messages: an error, not an empty string."""
    with pytest.raises(MetaTemplateError, match="empty conversation"):
        ChatTemplate(SIMPLE).render([])


@pytest.mark.parametrize(
    "source",
    [
        "{{ ''.__class__ }}",
        "{{ messages.__class__.__mro__ }}",
        "{{ ''.__class__.__mro__[1].__subclasses__() }}",
        "{{ '{0.__class__}'.format(messages) }}",
        "{{ '{x.__class__.__init__.__globals__}'.format_map({'x': messages}) }}",
        "{{ raise_exception.__globals__ }}",
        "{% set ns = namespace(_x=1) %}",
        "{{ messages.append(1) }}",
        "{{ dict.__call__.__globals__ }}",
    ],
)
def test_sandbox_refuses_attribute_escapes(source):
    """Unsafe attributes, str.format tricks, private namespace names and mutation are errors, never output."""
    with pytest.raises(MetaTemplateError, match=r"^the chat template \(inline\) raised: "):
        ChatTemplate(source).render(USER)


def test_message_content_is_never_parsed_as_template():
    """A content holding Jinja syntax is rendered literally."""
    assert ChatTemplate(SIMPLE).render([{"role": "user", "content": "{{ 7*7 }} {% raw %}{{ x }}"}]) == "[user]{{ 7*7 }} {% raw %}{{ x }}"


@pytest.mark.parametrize(
    "source",
    [
        "{% for m in messages if m['role'] != 'system' %}{{ loop.index }}/{{ loop.length }}{{ m.content }}{% endfor %}",
        "{% macro show(x) %}{{ x['role'] }}:{{ x.content }}{% endmacro %}{% for m in messages %}{{ show(m) }}{% endfor %}",
        "{% set ns = namespace(text='') %}{% for m in messages %}{% set ns.text = ns.text + m.role %}{% endfor %}{{ ns.text }}",
        "{{ messages[0].content }}{{ messages[-1]['role'] }}{{ messages | map(attribute='role') | join(',') }}",
        "{% for m in messages %}{{ m.missing is defined }}{{ m['missing'] is defined }}{{ m.get('content') }}{% endfor %}",
        "{% for m in messages %}{{ m.keys() | list }}{{ m.items() | list | length }}{{ loop.cycle('a', 'b') }}{% endfor %}",
        "{% for m in messages recursive %}{{ loop.depth }}{{ loop.previtem is defined }}{{ loop.nextitem is defined }}{% endfor %}",
        "{% for m in messages %}{{ m.content | trim }}|{{ m['content'] | trim('{}') }}{% endfor %}",
        "{{ extra.values is callable }}{{ extra['values'] }}{{ extra.content }}",
    ],
)
def test_lookups_render_as_in_plain_jinja(source):
    """Lookups compiled with the inline path for dicts and `loop` give what an unsandboxed Jinja gives."""
    import jinja2

    messages = [{"role": "system", "content": " S "}, {"role": "user", "content": "{U}"}, {"role": "assistant", "content": "A\n"}]
    extra = {"values": "v", "content": "c"}
    plain = jinja2.Environment(trim_blocks=True, lstrip_blocks=True).from_string(source).render(messages=messages, extra=extra)
    assert ChatTemplate(source).render(messages, extra=extra) == plain


def test_a_dict_key_named_like_a_private_attribute_is_still_data():
    """`m['__class__']` reads the key (as Jinja does); `m.__class__` is refused."""
    messages = [{"role": "user", "content": "x", "__class__": "data"}]
    assert ChatTemplate("{{ messages[0]['__class__'] }}").render(messages) == "data"
    with pytest.raises(MetaTemplateError, match="'__class__' of a 'dict'"):
        ChatTemplate("{{ messages[0].__class__ }}").render(messages)


def test_bound_template_renders_as_render_with_the_same_arguments():
    """bind() once, then render many: the same text as render() with those arguments each time."""
    template = ChatTemplate(SIMPLE + "{{ tools | tojson }}{{ flag }}{{ bos_token }}", {"bos_token": "<s>"})
    bound = template.bind(tools=[{"name": "f"}], flag=True)
    for messages in (USER, USER + [{"role": "assistant", "content": "Hello"}]):
        assert bound.render(messages, add_generation_prompt=True) == template.render(messages, add_generation_prompt=True, tools=[{"name": "f"}], flag=True)
    assert bound.render(USER, plain_text=True) == '[user]Hi[{"name": "f"}]True<s>'


def test_template_kwargs_cannot_replace_arguments():
    """A template kwarg named like an argument apply_chat_template sets is refused, naming it."""
    with pytest.raises(ConfigError, match=r"template kwargs \['add_generation_prompt', 'messages'\] would replace arguments"):
        ChatTemplate(SIMPLE).bind(messages=[], add_generation_prompt=True)


def test_trim_filter_keeps_markup_and_chars():
    """trim strips whitespace or the given characters, and a Markup value stays Markup (as Jinja's)."""
    assert ChatTemplate("{{ messages[0].content | trim }}|{{ messages[0].content | trim(' x') }}").render([{"role": "u", "content": " xa x "}]) == "xa x|a"
    assert ChatTemplate("{{ ('<b> ' | safe | trim) ~ (' a' | trim) }}").render(USER) == "<b>a"
