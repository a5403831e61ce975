"""PromptList: OpenCompass's operations (format, replace, +, str) without its traps."""

from __future__ import annotations

import pytest

from promptkit import Marker, PromptList, RoleItem, TemplateError


def test_empty_and_plain_lists_compare_equal():
    """PromptList() == [] and a list of strings equals the same plain list."""
    assert PromptList() == []
    assert PromptList(["test", "123"]) == ["test", "123"]


def test_format_fills_strings_and_role_prompts_only():
    """format() fills str items and role prompts; unknown placeholders and other keys stay."""
    pl = PromptList(["hi {a}{b}", {"role": "HUMAN", "prompt": "hey {a}!", "begin": "<{a}>"}, "123"])
    assert pl.format(a=1, b=2, c=3) == ["hi 12", {"role": "HUMAN", "prompt": "hey 1!", "begin": "<{a}>"}, "123"]
    assert pl.format(b=2) == ["hi {a}2", {"role": "HUMAN", "prompt": "hey {a}!", "begin": "<{a}>"}, "123"]
    assert pl.format(d=1) == pl


def test_format_is_single_pass():
    """A value containing another placeholder is inserted literally (OpenCompass would expand it)."""
    assert PromptList(["{a}|{b}"]).format(a="{b}", b="B") == ["{b}|B"]


def test_replace_with_string():
    """replace(src, str) replaces inside strings and role prompts."""
    pl = PromptList(["hello world", {"role": "HUMAN", "prompt": "hello world"}, "123"])
    assert pl.replace("world", "there") == ["hello there", {"role": "HUMAN", "prompt": "hello there"}, "123"]


def test_replace_with_promptlist_splices_items():
    """replace(src, PromptList) splits strings on src and splices the items between the pieces."""
    pl = PromptList(["hello world", {"role": "HUMAN", "prompt": "hello world"}, "123"])
    dst = PromptList(["p", {"role": "BOT", "prompt": "x"}])
    assert pl.replace("2", dst) == ["hello world", {"role": "HUMAN", "prompt": "hello world"}, "1", "p", {"role": "BOT", "prompt": "x"}, "3"]
    assert PromptList(["a</E>b", "</E>"]).replace("</E>", PromptList(["X"])) == ["a", "X", "b", "X"]


def test_replace_with_plain_list_splices_instead_of_deleting():
    """A plain list is spliced like a PromptList (OpenCompass silently drops the item)."""
    assert PromptList(["a</E>b"]).replace("</E>", ["X"]) == ["a", "X", "b"]


def test_replace_inside_role_prompt_with_list_is_an_error():
    """A role prompt cannot hold items: the error says where to put the token."""
    with pytest.raises(TemplateError, match=r"'</E>' sits inside the prompt of a HUMAN item.*begin=\['</E>'\]"):
        PromptList([{"role": "HUMAN", "prompt": "</E>q"}]).replace("</E>", PromptList(["x"]))


def test_addition():
    """+ with a str appends one item; with lists concatenates; falsy operands change nothing."""
    pl = PromptList(["hello"])
    assert pl + " world" == ["hello", " world"]
    assert pl + PromptList([" world"]) == ["hello", " world"]
    assert "hi, " + pl == ["hi, ", "hello"]
    assert pl + "" == pl and pl + None == pl and [] + pl == pl
    pl += "!"
    assert pl == ["hello", "!"]


def test_list_plus_promptlist_concatenates_instead_of_recursing():
    """['z'] + PromptList(['a']) is a PromptList (OpenCompass recurses forever)."""
    result = ["z"] + PromptList(["a"])
    assert isinstance(result, PromptList) and result == ["z", "a"]


def test_str_concatenates_strings_and_prompts():
    """str() joins strings and role prompts with no separator; markers add nothing."""
    pl = PromptList(["hello", " world", {"role": "BOT", "prompt": "!"}, {"section": "round", "pos": "end"}])
    assert str(pl) == "hello world!"


def test_invalid_items_are_rejected_with_their_type():
    """A non-str, non-dict item names itself."""
    with pytest.raises(TemplateError, match=r"a prompt item must be a str, a role dict .* \(got 3 that is a int\)"):
        PromptList([3])


def test_unknown_role_key_is_rejected():
    """A typo in a role item's keys is caught."""
    with pytest.raises(TemplateError, match=r"unknown key 'promt' in a role item \(did you mean 'prompt'\?\)"):
        PromptList([{"role": "HUMAN", "promt": "x"}])


def test_typed_items_and_dump_round_trip():
    """Typed items dump to OpenCompass's dict layout and back."""
    pl = PromptList([Marker("round", "begin"), RoleItem("HUMAN", "q", fallback_role="SYSTEM"), Marker("round", "end")])
    assert PromptList(pl.dump()) == pl
    assert pl.dump()[1] == {"role": "HUMAN", "fallback_role": "SYSTEM", "prompt": "q"}


def test_repr_shows_roles_and_sections():
    """repr is one readable line per item."""
    pl = PromptList([Marker("round", "begin"), RoleItem("HUMAN", "q"), "text", Marker("round", "end")])
    assert repr(pl) == "PromptList([\n  <round>\n  HUMAN: 'q'\n  'text'\n  </round>\n])"


def test_promptlist_is_immutable_and_hashable():
    """Items cannot be changed in place, so a prompt shared between rows cannot leak."""
    pl = PromptList(["a"])
    with pytest.raises(TypeError):
        pl[0] = "b"  # type: ignore[index]
    assert hash(pl) == hash(PromptList(["a"]))
