"""``JinjaPromptTemplate``: a prompt template whose texts are Jinja, chosen explicitly by its type.

A :class:`~promptkit.templates.PromptTemplate` never treats ``{{ }}`` as Jinja
(OpenCompass renders ``{{x}}`` as ``{`` + value + ``}``, and so does promptkit).
Jinja is used only when the config says ``type=JinjaPromptTemplate``; then
every text of the template — the string, each role's ``prompt``, each label's
template — is Jinja, with the same three shapes, ``ice_token`` and
``sep_token`` as ``PromptTemplate``.

>>> t = JinjaPromptTemplate("{{ question }}\\n{% for o in options %}{{ 'ABCD'[loop.index0] }}. {{ o }}\\n{% endfor %}Answer: {{ answer }}")
>>> t.render({'question': '2+2?', 'options': ['4', '{{ 7*7 }}'], 'answer': 'A'}, masked='answer')
'2+2?\\nA. 4\\nB. {{ 7*7 }}\\nAnswer: '

Rules (those of every promptkit template):

* Compiled once per distinct text; rendering is one pass.  Row values are
  data: a value holding ``{{ 7*7 }}`` or ``{% raw %}`` is inserted as written,
  and the shots are spliced in at ``ice_token`` as finished text.
* The answer column of the item under test is masked (empty in gen mode).
* Sandboxed (an immutable Jinja sandbox): attribute escapes such as
  ``{{ ''.__class__ }}`` or ``str.format`` tricks are errors, and a template
  cannot change a row.  Each render is bounded by
  ``template_limits=dict(seconds=..., max_chars=...)``
  (:class:`~promptkit.TemplateLimits`; defaults 5 s and 8 Mi characters), and
  any exception a template raises (``1/0``, a macro that recurses without
  end) is a :class:`~promptkit.TemplateError` naming the text and the row.
* An undefined variable is an error naming the template, the variable and the
  row's columns (the pipeline adds the row index).
* Whitespace: ``trim_blocks`` and ``lstrip_blocks`` (a line holding only a
  ``{% tag %}`` leaves no blank line, as in chat templates); a trailing newline
  is kept.
* ``filters=dict(name=callable)`` adds filters; they must be Python callables
  (a string is never evaluated).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping
from typing import Any

from promptkit.errors import ConfigError, TemplateError
from promptkit.templates.prompt_template import PromptTemplate, RoleSpec, TextCompiler, _Role
from promptkit.text.limits import TemplateLimits

__all__ = ["JinjaPromptTemplate"]


class JinjaPromptTemplate(PromptTemplate):
    """A :class:`PromptTemplate` whose texts are Jinja (see the module docstring).

    ``filters`` maps a name to a Python callable usable as ``{{ value | name }}``; ``template_limits`` bounds
    each render (a :class:`~promptkit.TemplateLimits` or a dict of its fields).
    """

    def __init__(
        self,
        template: str | Mapping[Hashable, Any],
        ice_token: str | None = None,
        sep_token: str | None = None,
        filters: Mapping[str, Callable[..., Any]] | None = None,
        template_limits: TemplateLimits | Mapping[str, Any] | None = None,
    ) -> None:
        filters = dict(filters or {})
        for name, function in filters.items():
            if not callable(function):
                raise ConfigError(
                    f"filter {name!r} must be a Python callable (got {function!r} that is a {type(function).__name__}); "
                    "import or define the function in the config and pass it itself",
                    key=f"filters.{name}",
                )
        self.filters = filters
        self.template_limits = TemplateLimits.of(template_limits)
        from promptkit.templates import _jinja_text  # Jinja is imported when a config first builds a Jinja template

        self._env = _jinja_text.environment(filters) if filters else _jinja_text.PLAIN
        self._compiled: dict[tuple[str, str], _jinja_text.JinjaText] = {}
        if ice_token:
            self._check_ice_token_outside_blocks(template, ice_token)
        super().__init__(template, ice_token=ice_token, sep_token=sep_token)

    def _check_ice_token_outside_blocks(self, template: Any, ice_token: str) -> None:
        """The shots are spliced in at ``ice_token`` outside Jinja, so each text is cut there first: the token cannot sit in a block."""
        from promptkit.templates._jinja_text import parses, shown

        for text in _strings(template):
            if ice_token not in text:
                continue
            if not all(parses(self._env, piece) for piece in text.split(ice_token)):
                raise TemplateError(
                    f"ice_token {ice_token!r} sits inside a Jinja block or expression in {shown(text)}; the shots are spliced in "
                    "at the token as finished text, outside Jinja, so put the token outside any {% ... %} block and {{ ... }}",
                    key="ice_token",
                )

    def _text_compiler(self, where: str) -> TextCompiler:
        from promptkit.templates._jinja_text import JinjaText

        def compile(source: str) -> Any:
            key = (where, source)
            text = self._compiled.get(key)
            if text is None:
                text = self._compiled[key] = JinjaText(self._env, source, where, self.template_limits)
            return text

        return compile

    def _make_role(self, spec: Mapping[str, Any], ice_token: str | None, sep_token: str | None, where: str) -> RoleSpec:  # type: ignore[override]  # needs the template's compiler
        return _Role(spec, ice_token, sep_token, where, self._text_compiler(where))

    def __reduce__(self) -> tuple[type[JinjaPromptTemplate], tuple[Any, ...]]:
        # Compiled Jinja texts do not pickle; the template as configured does, and compiles again where it is loaded.
        return JinjaPromptTemplate, (self.template, self.ice_token, self.sep_token, self.filters, self.template_limits)

    def __repr__(self) -> str:
        return f"JinjaPromptTemplate(template={self.template!r}, ice_token={self.ice_token!r}, sep_token={self.sep_token!r})"


def _strings(value: Any) -> list[str]:
    """Every string in a template: prompts, begin/end items, label values."""
    if isinstance(value, str):
        return [value]
    if isinstance(value, Mapping):
        return [text for item in value.values() for text in _strings(item)]
    if isinstance(value, (list, tuple)):
        return [text for item in value for text in _strings(item)]
    return []
