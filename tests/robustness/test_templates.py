"""Untrusted templates are bounded: a hostile chat template or Jinja prompt template ends in one clear error naming it and the row."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import promptkit
from promptkit import (
    ChatTemplate,
    ChatTemplateModel,
    ConfigError,
    JinjaPromptTemplate,
    MetaTemplateError,
    Renderer,
    TemplateError,
    TemplateLimits,
    build_dataset,
)

ROOT = Path(promptkit.__file__).parents[1]
LIMIT = "exceeded its limits: "
MAX = "over max_chars=8,388,608"

# Chat templates: (template, what the error says after "the chat template (...) "). The limit errors end with a hint
# naming the limit to raise; an exception the template raises is reported as its type and message.
HOSTILE_CHAT = {
    "nested_loops": (
        "{% for i in range(100000) %}{% for j in range(100000) %}{% endfor %}{% endfor %}",
        LIMIT + "it took more than seconds=0.2 of CPU time; if you trust the template, raise template_limits=dict(seconds=...) in the model config",
    ),
    "exponential_macro": (
        "{% macro f(n) %}{% if n %}{{ f(n - 1) }}{{ f(n - 1) }}{% endif %}{% endmacro %}{{ f(40) }}",
        LIMIT + "it took more than seconds=0.2 of CPU time; if you trust the template, raise template_limits=dict(seconds=...) in the model config",
    ),
    "string_times": ("{{ 'x' * 10**9 }}", LIMIT + f"it would build a string of 1,000,000,000 characters with '*', {MAX}"),
    "join_filter": ("{{ (['x' * 1000000] * 8)|join('y' * 1000000) }}", LIMIT + f"it would build a string of 15,000,000 characters with the filter 'join', {MAX}"),
    "join_method": ("{{ ('y' * 1000000).join(['x' * 1000000] * 8) }}", LIMIT + f"it would build a string of 15,000,000 characters with str.join, {MAX}"),
    "center_filter": ("{{ 'x'|center(10**9) }}", LIMIT + f"it would build a string of 1,000,000,000 characters with the filter 'center', {MAX}"),
    "replace_filter": (
        "{{ ('x' * 1000)|replace('', 'y' * 1000000) }}",
        LIMIT + f"it would build a string of 1,001,001,000 characters with the filter 'replace', {MAX}",
    ),
    "format_filter": ("{{ '%*d'|format(10**9, 1) }}", LIMIT + f"it would build a string of 1,000,000,003 characters with the filter 'format', {MAX}"),
    "indent_filter": ("{{ ('a\\n' * 1000)|indent(10**5) }}", LIMIT + f"it would build a string of 100,102,000 characters with the filter 'indent', {MAX}"),
    "batch_filter": ("{{ [1]|batch(10**9, 'x')|list }}", LIMIT + f"it would build a list of 1,000,000,000 items with the filter 'batch', {MAX}"),
    "tojson_indent": ("{{ messages|tojson(indent=10**8) }}", LIMIT + f"it would build a string of 200,000,002 characters with the filter 'tojson', {MAX}"),
    "ljust": ("{{ 'x'.ljust(10**9) }}", LIMIT + f"it would build a string of 1,000,000,000 characters with str.ljust, {MAX}"),
    "zfill": ("{{ '1'.zfill(10**9) }}", LIMIT + f"it would build a string of 1,000,000,000 characters with str.zfill, {MAX}"),
    "expandtabs": ("{{ ('\\t' * 1000).expandtabs(10**6) }}", LIMIT + f"it would build a string of 1,000,001,000 characters with str.expandtabs, {MAX}"),
    "str_format": (
        "{{ '{0}{0}{0}{0}{0}{0}{0}{0}{0}{0}'.format('x' * 1000000) }}",
        LIMIT + f"it would build a string of 10,000,000 characters with str.format, {MAX}",
    ),
    "percent": (
        "{% set a = 'x' * 1000000 %}{{ '%s' * 10 % (a, a, a, a, a, a, a, a, a, a) }}",
        LIMIT + f"it would build a string of 10,000,020 characters with '%', {MAX}",
    ),
    "doubling_plus": (
        "{% set ns = namespace(s='x' * 1000000) %}{% for i in range(20) %}{% set ns.s = ns.s + ns.s %}{% endfor %}{{ ns.s }}",
        LIMIT + f"it would build a string of 16,000,000 characters with '+', {MAX}",
    ),
    "doubling_tilde": (
        "{% set ns = namespace(s='x' * 1000000) %}{% for i in range(20) %}{% set ns.s = ns.s ~ ns.s %}{% endfor %}{{ ns.s }}",
        LIMIT + f"it would build a string of 16,000,000 characters with '~', {MAX}",
    ),
    "long_tilde": ("{% set a = 'x' * 8000000 %}{{ a ~ a ~ a ~ a ~ a ~ a ~ a ~ a ~ a ~ a }}", LIMIT + f"it would build a string of 80,000,000 characters with '~', {MAX}"),
    "output": ("{% for i in range(100) %}{{ 'x' * 100000 }}{% endfor %}", LIMIT + "its output would exceed max_chars=8,388,608 characters"),
    "power": ("{{ 2 ** (10 ** 10) }}", LIMIT + "it would build an integer of about 3,010,299,956 digits with '**', over the 4,300 digits Python prints"),
    "recursion": ("{% macro f(n) %}{{ f(n + 1) }}{% endmacro %}{{ f(0) }}", "failed on these messages: RecursionError: maximum recursion depth exceeded"),
    "division_by_zero": ("{{ 1 / 0 }}", "failed on these messages: ZeroDivisionError: division by zero"),
    "overflow": ("{{ '%d' % (1e308 * 10) }}", "failed on these messages: OverflowError: cannot convert float infinity to integer"),
    "huge_range": (
        "{{ range(10 ** 9)|list }}",
        "failed on these messages: OverflowError: Range too big. The sandbox blocks ranges larger than MAX_RANGE (100000).",
    ),
    "unicode": (
        "{{ '\\ud800'.encode() }}",
        "failed on these messages: UnicodeEncodeError: 'utf-8' codec can't encode character '\\ud800' in position 0: surrogates not allowed",
    ),
    "type_error": ("{{ messages + 1 }}", 'failed on these messages: TypeError: can only concatenate list (not "int") to list'),
}
# The limit errors other than time carry the max_chars hint.
for _name, (_template, _detail) in HOSTILE_CHAT.items():
    if _detail.endswith(MAX) or _detail.endswith("max_chars=8,388,608 characters"):
        HOSTILE_CHAT[_name] = (_template, _detail + "; if you trust the template, raise template_limits=dict(max_chars=...) in the model config")

# Jinja prompt templates (short, so that the error shows them whole): (template, what the error says after the template).
HOSTILE_JINJA = {
    "nested_loops": (
        "{% for i in range(100000) %}{% for j in range(100000) %}{% endfor %}{% endfor %}",
        LIMIT + "it took more than seconds=0.2 of CPU time; if you trust the template, raise template_limits=dict(seconds=...) in the template config",
    ),
    "string_times": (
        "{{ question * 10**9 }}",
        LIMIT + f"it would build a string of 2,000,000,000 characters with '*', {MAX}; "
        "if you trust the template, raise template_limits=dict(max_chars=...) in the template config",
    ),
    "ljust": (
        "{{ question.ljust(10**9) }}",
        LIMIT + f"it would build a string of 1,000,000,000 characters with str.ljust, {MAX}; "
        "if you trust the template, raise template_limits=dict(max_chars=...) in the template config",
    ),
    "recursion": ("{% macro f(n) %}{{ f(n + 1) }}{% endmacro %}{{ f(0) }}", "failed: RecursionError: maximum recursion depth exceeded"),
    "division_by_zero": ("{{ question }}{{ 1 / 0 }}", "failed: ZeroDivisionError: division by zero"),
    "overflow": ("{{ '%d' % (1e308 * 10) }}", "failed: OverflowError: cannot convert float infinity to integer"),
    "huge_range": ("{{ range(10 ** 9)|list }}", "failed: OverflowError: Range too big. The sandbox blocks ranges larger than MAX_RANGE (100000)."),
}

ROWS = {"train": [{"question": "dev", "answer": "a"}], "test": [{"question": "hi", "answer": "a"}]}
READER = dict(input_columns=["question"], output_column="answer")
CHAT_PROMPT = dict(type="PromptTemplate", template=dict(round=[dict(role="HUMAN", prompt="{question}")]))


def dataset(prompt_template: dict) -> object:
    infer = dict(prompt_template=prompt_template, retriever=dict(type="ZeroRetriever"), inferencer=dict(type="GenInferencer"))
    return build_dataset(dict(abbr="d", type="RowsDataset", rows=ROWS, reader_cfg=READER, infer_cfg=infer))


@pytest.mark.parametrize("name", HOSTILE_CHAT)
def test_hostile_chat_template_is_one_error_naming_template_and_row(name):
    """Each hostile chat template is a MetaTemplateError naming the template, the model and the row, quickly."""
    template, detail = HOSTILE_CHAT[name]
    model = ChatTemplateModel(abbr="m", chat_template=template, template_limits=dict(seconds=seconds_for(detail)))
    with pytest.raises(MetaTemplateError) as caught:
        list(Renderer(dataset(CHAT_PROMPT), model))
    assert str(caught.value) == f"dataset 'd', model 'm', row 0: the chat template (inline) {detail}"


@pytest.mark.parametrize("name", HOSTILE_JINJA)
def test_hostile_jinja_prompt_template_is_one_error_naming_template_and_row(name):
    """Each hostile Jinja prompt template is a TemplateError naming the template text and the row."""
    template, detail = HOSTILE_JINJA[name]
    with pytest.raises(TemplateError) as caught:
        list(Renderer(dataset(dict(type=JinjaPromptTemplate, template=template, template_limits=dict(seconds=seconds_for(detail)))), None))
    assert str(caught.value) == f"dataset 'd', row 0: template: {shown(template)} {detail}"


def seconds_for(detail: str, short: float = 0.2) -> float:
    """The time limit of a case: short where the case is the time limit (a loop that never ends), else long enough that
    no machine is slow enough to reach it before the error the case is about (the limit counts CPU time: load cannot)."""
    return short if f"seconds={short:g}" in detail else 30.0


def shown(template: str) -> str:
    """How an error quotes a Jinja prompt template: whole up to 60 characters, else cut."""
    return repr(template if len(template) <= 60 else template[:57] + "...")


def test_exception_of_a_config_filter_is_a_template_error():
    """A config filter that raises MemoryError (or anything) is reported as the template's failure, not a traceback."""

    def boom(value: str) -> str:
        raise MemoryError

    template = JinjaPromptTemplate("{{ question | boom }}", filters=dict(boom=boom))
    with pytest.raises(TemplateError, match=r"^template: '\{\{ question \| boom \}\}' failed: MemoryError$"):
        template.render({"question": "hi", "answer": "a"})


def test_a_template_too_deeply_nested_to_compile_is_an_error():
    """Nesting too deep for the compiler is a MetaTemplateError when the template is loaded, not a RecursionError."""
    with pytest.raises(MetaTemplateError) as caught:
        ChatTemplate("{{ " + "(" * 3000 + "1" + ")" * 3000 + " }}")
    assert caught.value.message == "inline: chat template 'default' cannot be compiled: RecursionError: maximum recursion depth exceeded"


def test_a_multiline_template_message_is_reported_on_one_line():
    """raise_exception with line breaks in its message gives a one-line error."""
    with pytest.raises(MetaTemplateError) as caught:
        ChatTemplate("{{ raise_exception('first\\nsecond') }}").render([{"role": "user", "content": "x"}])
    assert str(caught.value) == "the chat template (inline) raised: first second"


@pytest.mark.parametrize(
    ("file", "content", "offset"),
    [
        ("chat_template.jinja", b"{{ messages }}\xff", 14),
        ("tokenizer_config.json", b'{"chat_template": "\xe9t\xe9"}', 19),
    ],
)
def test_a_model_folder_file_that_is_not_utf8_names_file_and_offset(tmp_path, file, content, offset):
    """A chat template or tokenizer_config.json that is not UTF-8 is a ConfigError naming the file and the byte offset."""
    folder = tmp_path / "model"
    folder.mkdir()
    (folder / file).write_bytes(content)
    path = folder / file
    byte = content[offset]
    with pytest.raises(ConfigError) as caught:
        ChatTemplateModel(abbr="m", path=str(folder))
    reason = "invalid start byte" if byte == 0xFF else "invalid continuation byte"
    assert caught.value.message == f"{path} is not UTF-8 text: byte 0x{byte:02x} at offset {offset} cannot be decoded ({reason}); save the file as UTF-8"
    assert caught.value.context["file"] == str(path)


def test_limits_are_settable_in_the_model_and_template_config():
    """A template that passes the default limit renders once the config raises it; the limits are validated."""
    big = "{{ 'x' * 10**7 }}"
    with pytest.raises(MetaTemplateError, match="over max_chars=8,388,608"):
        ChatTemplateModel(chat_template=big).render("hi")
    assert len(ChatTemplateModel(chat_template=big, template_limits=dict(max_chars=10**7)).render("hi")) == 10**7
    assert len(JinjaPromptTemplate(big, template_limits=TemplateLimits(max_chars=10**7)).render({"q": "x"}, masked=None)) == 10**7
    assert ChatTemplateModel(chat_template="x", template_limits=dict(seconds=30)).chat_template.limits == TemplateLimits(seconds=30)
    with pytest.raises(ConfigError) as caught:
        ChatTemplateModel(chat_template="x", template_limits=dict(secs=1))
    assert str(caught.value) == "key 'template_limits.secs': unknown key 'secs' in template_limits (did you mean 'seconds'?); it takes ['seconds', 'max_chars']"
    with pytest.raises(ConfigError) as caught:
        JinjaPromptTemplate("x", template_limits=dict(seconds=0))
    assert caught.value.message == "template_limits seconds must be a positive number (got 0)"
    with pytest.raises(ConfigError) as caught:
        TemplateLimits(max_chars=True)
    assert caught.value.message == "template_limits max_chars must be a positive int (got True)"


def test_bundled_chat_templates_render_long_conversations_as_transformers(hf_tokenizer):
    """Every bundled chat template renders a 40-message conversation (its loop checked at each item) as transformers does."""
    conversation = [{"role": "user" if i % 2 == 0 else "assistant", "content": f"message {i}: {'{{ 7*7 }}' if i == 3 else 'text'}"} for i in range(41)]
    folders = sorted(path.parent for path in (ROOT / "configs" / "models" / "hf").glob("*/tokenizer_config.json"))
    assert len(folders) >= 8
    for folder in folders:
        ours = ChatTemplate.from_folder(folder).render(conversation, add_generation_prompt=True)
        assert ours == hf_tokenizer(folder).apply_chat_template(conversation, add_generation_prompt=True, tokenize=False), folder.name


# --- through the CLI: exit 1, one line, no traceback ------------------------------------------------------------------


def run_cli(*args: str) -> subprocess.CompletedProcess[str]:
    environment = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run([sys.executable, "-m", "promptkit", *args], capture_output=True, text=True, env=environment, timeout=120)


def write_configs(tmp_path: Path, prompt_template: str) -> Path:
    (tmp_path / "data").mkdir(exist_ok=True)
    (tmp_path / "data" / "test.jsonl").write_text('{"question": "hi", "answer": "a"}\n')
    config = tmp_path / "hostile_gen.py"
    config.write_text(
        "from promptkit import GenInferencer, JinjaPromptTemplate, JsonlDataset, PromptTemplate, ZeroRetriever\n\n"
        "datasets = [dict(abbr='d', type=JsonlDataset, path='data/test.jsonl',\n"
        "                 reader_cfg=dict(input_columns=['question'], output_column='answer'),\n"
        f"                 infer_cfg=dict(prompt_template={prompt_template},\n"
        "                                retriever=dict(type=ZeroRetriever), inferencer=dict(type=GenInferencer)))]\n"
    )
    return config


def write_model(tmp_path: Path, files: dict[str, bytes], seconds: float = 0.5) -> Path:
    folder = tmp_path / "model"
    folder.mkdir()
    for name, content in files.items():
        (folder / name).write_bytes(content)
    config = tmp_path / "model.py"
    config.write_text(f"models = [dict(abbr='m', type='HuggingFacewithChatTemplate', path={str(folder)!r}, template_limits=dict(seconds={seconds}))]\n")
    return config


CHAT_PROMPT_SOURCE = "dict(type=PromptTemplate, template=dict(round=[dict(role='HUMAN', prompt='{question}')]))"


@pytest.mark.parametrize("command", ["render", "preview"])
@pytest.mark.parametrize("name", ["nested_loops", "string_times", "recursion", "division_by_zero"])
def test_cli_hostile_chat_template_in_a_model_folder(tmp_path, name, command):
    """A model folder whose tokenizer_config.json holds a hostile chat template: exit 1, one line naming config, model and row."""
    template, detail = HOSTILE_CHAT[name]
    detail = detail.replace("seconds=0.2", "seconds=0.5")
    model = write_model(tmp_path, {"tokenizer_config.json": json.dumps({"chat_template": template}).encode()}, seconds_for(detail, 0.5))
    config = write_configs(tmp_path, CHAT_PROMPT_SOURCE)
    done = run_cli(command, str(config), "--model", str(model))
    assert (done.returncode, done.stdout) == (1, "")
    assert done.stderr == f"promptkit: error: config {config}, dataset 'd', model 'm', row 0: the chat template ({tmp_path / 'model'}) {detail}\n"


@pytest.mark.parametrize("name", ["string_times", "division_by_zero"])
def test_cli_hostile_jinja_prompt_template(tmp_path, name):
    """A hostile Jinja prompt template in a dataset config: exit 1, one line naming the config, the template and the row."""
    template, detail = HOSTILE_JINJA[name]
    config = write_configs(tmp_path, f"dict(type=JinjaPromptTemplate, template={template!r})")
    done = run_cli("render", str(config))
    assert (done.returncode, done.stdout) == (1, "")
    assert done.stderr == f"promptkit: error: config {config}, dataset 'd', row 0: template: {template!r} {detail}\n"


def test_cli_chat_template_file_not_utf8(tmp_path):
    """A chat_template.jinja that is not UTF-8: exit 1, one line naming the file and the byte offset."""
    model = write_model(tmp_path, {"chat_template.jinja": b"{{ messages }}\xff", "tokenizer_config.json": b"{}"})
    config = write_configs(tmp_path, CHAT_PROMPT_SOURCE)
    done = run_cli("render", str(config), "--model", str(model))
    path = tmp_path / "model" / "chat_template.jinja"
    assert (done.returncode, done.stdout) == (1, "")
    assert done.stderr == (
        f"promptkit: error: config {model}, model 'm', file {path}: {path} is not UTF-8 text: byte 0xff at offset 14 cannot be decoded "
        "(invalid start byte); save the file as UTF-8\n"
    )
