"""The JSON text of an engine line, put together: a request block's constant text encoded once, the prompt's own.

An engine line (:mod:`promptkit.records.engines`) is the same object for every prompt of a request block but for
its ``custom_id`` and its prompt.  :func:`line_text` encodes the block's line once, with stand-ins for those two, and
cuts the text around them; a prompt's line is then the pieces with its id and its prompt's JSON in between, and its newline.

Most of a line's bytes are its prompt, and most of a prompt's bytes recur: fixed shots and a system turn make the
same prefix for every row of a dataset.  A JSON string's text is the text of each of its characters in turn
(``ensure_ascii=False`` escapes ``"``, ``\\`` and control characters one by one), so:

* :class:`PrefixText` writes a completion string that starts with a prefix it has seen as that prefix's text,
  escaped once, then the rest's;
* :class:`MessagesText` writes chat messages: the leading messages lists in a row share (a constant prefix) as one
  text, checked against private copies of them, and each message whose content is a string object it has written
  before as that message's text (the messages of a constant prefix share their content strings from prompt to prompt).

Both are exact by construction — ``str.startswith``, equality and object identity decide, never a guess — and give up (``None``)
for what they do not write (content parts, tool calls): the caller then encodes the whole line as before.
``tests/test_line_text.py`` checks the text against :class:`~promptkit.records.json_text.JsonText` of the line.
"""

from __future__ import annotations

import json.encoder
from collections.abc import Callable
from typing import Any

from promptkit.meta_templates.protocol import FinalInput
from promptkit.records.json_text import JsonText

__all__ = ["LineText", "MessagesText", "PrefixText", "line_text"]

#: A request block's line for a prompt, from its id and final input (what an engine format's ``_maker`` returns).
LineMaker = Callable[[str, FinalInput], dict[str, Any]]
#: A block's line text for a prompt, with its newline, or ``None`` when the prompt's text must be encoded whole.
LineText = Callable[[str, FinalInput], "str | None"]

_escaped: Callable[[str], str] = json.encoder.encode_basestring  # the C function when the accelerator is there
#: Stand-ins for the id and the prompt while a block's line is encoded (NUL characters: no model name or parameter
#: holds them, and a block where one appears twice is encoded line by line instead).
_ID = "\x00promptkit custom_id\x00"
_PROMPT = "\x00promptkit prompt\x00"
_MESSAGES = [{"role": _PROMPT, "content": ""}]
#: The keys of a message :class:`MessagesText` writes, in order.
_ROLE_CONTENT = ("role", "content")
_DICT = {dict}


def line_text(line: LineMaker, chat: bool, encode: JsonText) -> LineText | None:
    """The text maker of a block whose lines ``line`` makes (``chat``: prompts are messages), or ``None`` when the
    block's constant part is not text to reuse (it holds NaN or Infinity, which each line then notes)."""
    stand_in: Any = _MESSAGES if chat else _PROMPT
    nulls: list[str] = []
    whole = encode(line(_ID, stand_in), nulls)
    ident, prompt = encode(_ID), encode(stand_in)
    if nulls or whole.count(ident) != 1 or whole.count(prompt) != 1 or whole.index(ident) > whole.index(prompt):
        return None
    head, rest = whole.split(ident)
    middle, tail = rest.split(prompt)
    tail += "\n"
    if chat:
        messages = MessagesText(encode.compact)

        def chat_line(ident: str, final: FinalInput) -> str | None:
            text = messages(final) if type(final) is list else None
            return None if text is None else f"{head}{_escaped(ident)}{middle}{text}{tail}"

        return chat_line
    prompts = PrefixText()

    def completion_line(ident: str, final: FinalInput) -> str | None:
        return f"{head}{_escaped(ident)}{middle}{prompts(final)}{tail}" if type(final) is str else None

    return completion_line


class PrefixText:
    """JSON text of strings, a shared prefix escaped once (see the module docstring).

    The prefix is the longest one the first strings share (at least :attr:`SHORTEST` characters), looked for until
    one is found or :attr:`TRIES` strings have shared none; a string that does not start with it is written whole.

    >>> text = PrefixText()
    >>> [text(s) for s in ("<s>" * 50 + 'a "b"', "<s>" * 50 + "c\\n")][1] == json.dumps("<s>" * 50 + "c\\n", ensure_ascii=False)
    True
    """

    #: The shortest prefix worth keeping, in characters (escaping fewer costs less than checking for them).
    SHORTEST = 128
    #: How many strings may share no prefix before it is no longer looked for.
    TRIES = 8

    __slots__ = ("_last", "_prefix", "_text", "_tries")

    def __init__(self) -> None:
        self._prefix: str | None = None
        self._text = ""  # the prefix's JSON text without its closing quote
        self._last: str | None = None
        self._tries = self.TRIES

    def __call__(self, value: str) -> str:
        prefix = self._prefix
        if prefix is not None and value.startswith(prefix):
            return self._text + _escaped(value[len(prefix) :])[1:]
        if prefix is None and self._tries:
            self._look(value)
        return _escaped(value)

    def _look(self, value: str) -> None:
        """Keep the prefix ``value`` shares with the string before it, when it is long enough."""
        last, self._last = self._last, value
        if last is None:
            return
        self._tries -= 1
        shared = _shared_length(last, value)
        if shared >= self.SHORTEST:
            self._prefix = value[:shared]
            self._text = _escaped(self._prefix)[:-1]
            self._last = None


def _shared_length(first: str, second: str) -> int:
    """How many characters ``first`` and ``second`` start with alike (a binary search with ``startswith``)."""
    low, high = 0, min(len(first), len(second))
    while low < high:
        middle = (low + high + 1) // 2
        if second.startswith(first[:middle]):
            low = middle
        else:
            high = middle - 1
    return low


class MessagesText:
    """JSON text of chat messages (a list of ``{"role", "content"}`` dicts with string values), the messages of a
    constant prefix written once (see the module docstring); ``None`` for a list that holds anything else.

    Two memos, both exact:

    * the *head*: the leading messages two lists in a row shared (the same content objects, equal roles — a system
      turn, fixed shots), kept as private copies and as their joined text; a list whose first messages equal the
      copies, key order included, starts with that text;
    * each message whose content string was written before (the same object, with the same role) is taken as it was
      written: a retriever's shots recur as the same objects, in other places.

    >>> shared = "Answer briefly. " * 10
    >>> text = MessagesText()
    >>> first = text([{"role": "system", "content": shared}, {"role": "user", "content": "Hi"}])
    >>> text([{"role": "system", "content": shared}, {"role": "user", "content": 'Say "x"'}]) == json.dumps(
    ...     [{"role": "system", "content": shared}, {"role": "user", "content": 'Say "x"'}], ensure_ascii=False)
    True
    """

    #: The shortest content kept for reuse, in characters (a row's short content is cheaper to escape than to keep).
    SHORTEST = 64
    #: How many contents are kept; all are let go when it is reached (a retriever's shots change from row to row).
    SIZE = 4096

    __slots__ = ("_head", "_item", "_key", "_kept", "_last")

    def __init__(self, compact: bool = False) -> None:
        item, key = (",", ":") if compact else (", ", ": ")
        self._item = item
        #: A message's text before its role and before its content: '{"role": ' and ', "content": '.
        self._key = (f'{{"role"{key}', f'{item}"content"{key}')
        self._kept: dict[int, tuple[str, str, str]] = {}  # id(content) → (content, role, the message's text)
        #: The roles and contents of the last list written message by message (held: their ids are not reused).
        self._last: tuple[list[str], list[str]] = ([], [])
        #: The head: private copies of its messages (never handed out, so never changed) and their joined text.
        self._head: tuple[list[dict[str, str]], str] | None = None

    def __call__(self, messages: list[Any]) -> str | None:
        head = self._head
        if head is not None:
            copies, text = head
            count = len(copies)
            shared = messages[:count]
            # Equal to the copies (dicts of two string values, role and content), in their key order (role first).
            if (
                len(messages) > count
                and shared == copies
                and {*map(type, shared)} == _DICT
                and [*map(next, map(iter, shared))].count("role") == count
            ):
                rest = self._texts(messages[count:])
                return None if rest is None else f"[{text}{self._item}{self._item.join(rest)}]"
        texts = self._texts(messages)
        if texts is None:
            return None
        self._remember(messages, texts)
        return f"[{self._item.join(texts)}]"

    def _texts(self, messages: list[Any]) -> list[str] | None:
        """Each message's text (``None``: a message that is not a plain role-and-content dict)."""
        kept = self._kept
        before_role, before_content = self._key
        texts = []
        for message in messages:
            if type(message) is not dict or tuple(message) != _ROLE_CONTENT:
                return None
            role, content = message["role"], message["content"]
            if type(role) is not str or type(content) is not str:
                return None
            known = kept.get(id(content))
            if known is not None and known[0] is content and known[1] == role:
                texts.append(known[2])
                continue
            text = f"{before_role}{_escaped(role)}{before_content}{_escaped(content)}}}"
            if len(content) >= self.SHORTEST:
                if len(kept) >= self.SIZE:
                    kept.clear()
                kept[id(content)] = (content, role, text)  # the entry holds the content: its id is not reused meanwhile
            texts.append(text)
        return texts

    def _remember(self, messages: list[dict[str, str]], texts: list[str]) -> None:
        """Note the list written message by message; the leading messages it shares with the last such list (all but
        its last message at most) become the head."""
        roles, contents = [message["role"] for message in messages], [message["content"] for message in messages]
        last_roles, last_contents = self._last
        self._last = (roles, contents)
        count = 0
        for role, content, last_role, last_content in zip(roles[:-1], contents, last_roles, last_contents, strict=False):
            if content is not last_content or role != last_role:
                break
            count += 1
        if count:
            copies = [{"role": role, "content": content} for role, content in zip(roles[:count], contents[:count], strict=True)]
            self._head = (copies, self._item.join(texts[:count]))
