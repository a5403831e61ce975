"""A model folder's special tokens are read exactly as transformers 5 reads them: special_tokens_map.json only for an
older save (no added_tokens_decoder), then replacing the config's; model-specific and extra special tokens too."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from promptkit import ChatTemplateModel
from promptkit.chat_templates import ChatTemplate

SHOWN = ("bos_token", "eos_token", "unk_token", "sep_token", "pad_token", "cls_token", "mask_token", "image_token", "additional_special_tokens")
TEMPLATE = " ".join(f"{name}={{{{ {name}|default('-') }}}}" for name in SHOWN) + "{% for m in messages %} {{ m.content }}{{ eos_token }}{% endfor %}"
DECODER = {"0": {"content": "<s>", "lstrip": False, "normalized": False, "rstrip": False, "single_word": False, "special": True}}
MAP = {"eos_token": "<|other_end|>", "pad_token": "<pad>", "unk_token": {"content": "<unk2>", "lstrip": False}, "additional_special_tokens": ["<x>"]}
CONVERSATION = [{"role": "user", "content": "hi"}]

# name: (tokenizer_config.json without its template, special_tokens_map.json or None, what the template renders)
FOLDERS = {
    "older_save_map_replaces": (
        {"bos_token": "<s>", "eos_token": "</s>"}, MAP,
        "bos_token=<s> eos_token=<|other_end|> unk_token=<unk2> sep_token=- pad_token=<pad> cls_token=- mask_token=- image_token=- "
        "additional_special_tokens=- hi<|other_end|>",
    ),
    "decoder_map_unread": (
        {"bos_token": "<s>", "eos_token": "</s>", "added_tokens_decoder": DECODER}, MAP,
        "bos_token=<s> eos_token=</s> unk_token=- sep_token=- pad_token=- cls_token=- mask_token=- image_token=- additional_special_tokens=- hi</s>",
    ),
    "empty_decoder_map_unread": (
        {"bos_token": "<s>", "eos_token": "</s>", "added_tokens_decoder": {}}, MAP,
        "bos_token=<s> eos_token=</s> unk_token=- sep_token=- pad_token=- cls_token=- mask_token=- image_token=- additional_special_tokens=- hi</s>",
    ),
    "map_null_removes": (
        {"bos_token": "<s>", "eos_token": "</s>"}, {"eos_token": None},
        "bos_token=<s> eos_token=- unk_token=- sep_token=- pad_token=- cls_token=- mask_token=- image_token=- additional_special_tokens=- hi",
    ),
    "map_added_token_object": (
        {"bos_token": "<s>", "eos_token": "</s>"}, {"bos_token": {"content": "<B>", "special": True}},
        "bos_token=<B> eos_token=</s> unk_token=- sep_token=- pad_token=- cls_token=- mask_token=- image_token=- additional_special_tokens=- hi</s>",
    ),
    "config_model_specific_token": (
        {"bos_token": "<s>", "image_token": "<image_soft>", "add_bos_token": True}, None,
        "bos_token=<s> eos_token=- unk_token=- sep_token=- pad_token=- cls_token=- mask_token=- image_token=<image_soft> additional_special_tokens=- hi",
    ),
    "map_model_specific_token": (
        {"bos_token": "<s>"}, {"image_token": "<img>"},
        "bos_token=<s> eos_token=- unk_token=- sep_token=- pad_token=- cls_token=- mask_token=- image_token=<img> additional_special_tokens=- hi",
    ),
    "extra_special_tokens_dict": (
        {"bos_token": "<s>"}, {"extra_special_tokens": {"image_token": "<img2>"}},
        "bos_token=<s> eos_token=- unk_token=- sep_token=- pad_token=- cls_token=- mask_token=- image_token=<img2> additional_special_tokens=- hi",
    ),
    "extra_special_tokens_merged": (
        {"bos_token": "<s>", "extra_special_tokens": ["<e1>"]}, {"extra_special_tokens": ["<e2>", {"content": "<e3>"}], "additional_special_tokens": ["<e4>"]},
        "bos_token=<s> eos_token=- unk_token=- sep_token=- pad_token=- cls_token=- mask_token=- image_token=- additional_special_tokens=- hi",
    ),
    "additional_of_config_wins": (
        {"bos_token": "<s>", "additional_special_tokens": ["<a>"]}, {"additional_special_tokens": ["<b>"]},
        "bos_token=<s> eos_token=- unk_token=- sep_token=- pad_token=- cls_token=- mask_token=- image_token=- additional_special_tokens=- hi",
    ),
}  # fmt: skip


def write(folder: Path, config: dict, token_map: dict | None) -> Path:
    folder.mkdir(parents=True)
    (folder / "tokenizer_config.json").write_text(json.dumps({"chat_template": TEMPLATE, **config}), encoding="utf-8")
    if token_map is not None:
        (folder / "special_tokens_map.json").write_text(json.dumps(token_map), encoding="utf-8")
    return folder


@pytest.mark.parametrize("name", FOLDERS)
def test_folder_renders_as_transformers(tmp_path, hf_tokenizer, name):
    """The rendered text, the special tokens the template sees and the extra special tokens are transformers' own."""
    config, token_map, expected = FOLDERS[name]
    folder = write(tmp_path / name, config, token_map)
    ours = ChatTemplate.from_folder(folder)
    theirs = hf_tokenizer(folder)
    assert ours.render(CONVERSATION) == theirs.apply_chat_template(CONVERSATION, tokenize=False) == expected
    assert dict(ours.special_tokens) == theirs.special_tokens_map
    assert (ours.special_tokens.get("eos_token"), ours.special_tokens.get("bos_token")) == (theirs.eos_token, theirs.bos_token)
    assert [str(token) for token in theirs.extra_special_tokens] == [t for t in ours.added_tokens if t not in ("<s>",)]


def test_extra_special_tokens_are_control_tokens(tmp_path):
    """The extra special tokens (the map's, here) are control tokens of the model: row text cannot carry them."""
    folder = write(tmp_path / "m", {"bos_token": "<s>", "eos_token": "</s>"}, MAP)
    assert {"<x>", "<|other_end|>", "<pad>", "<unk2>"} <= set(ChatTemplateModel(abbr="m", path=str(folder)).control_tokens)
