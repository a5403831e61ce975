"""token_view: each token's piece by its offsets, the answer loss mask, the ppl/ll junction; token_encoder's inputs."""

from __future__ import annotations

import pytest

from promptkit import ConfigError, HFTokenizer
from promptkit.meta_templates.spans import Span
from promptkit.records.token_view import token_encoder, token_view


@pytest.fixture(scope="module")
def bpe(trained_tokenizer) -> HFTokenizer:
    return HFTokenizer(trained_tokenizer(texts=["Question: what? Answer: 4 Answer: A"] * 3))


class Fixed:
    """An encoder that returns the tokens it is given."""

    def __init__(self, ids: list[int], offsets: list[tuple[int, int]]) -> None:
        self.ids, self.offsets = ids, offsets

    def encode_offsets(self, text: str) -> tuple[list[int], list[tuple[int, int]]]:
        return self.ids, self.offsets


def test_a_token_takes_the_piece_of_its_first_character_that_is_not_a_space(bpe):
    """' 4' joins the template's space to the answer: an answer token, masked; the question's tokens are not."""
    final = "Question: what? Answer: 4"
    view = token_view(final, [Span("shot[0]", 0, 24), Span("shot[0].answer", 24, 25)], bpe)
    pieces = [bpe._tokenizer.decode([i]) for i in view.input_ids]
    assert pieces[-1] == " 4" and view.labels[-1] == "shot[0].answer" and view.loss_mask[-1] == 1
    assert set(view.labels[:-1]) == {"shot[0]"} and sum(view.loss_mask) == 1
    assert view.junction is None  # no answer slot, no continuation: nothing is scored


def test_a_token_of_no_character_is_wrapper_and_unmasked():
    """A token the tokenizer added (offsets (0, 0), e.g. a BOS) covers no text of the input: wrapper, mask 0."""
    view = token_view("4", [Span("answer_slot", 0, 1)], Fixed([1, 7], [(0, 0), (0, 1)]))
    assert view.labels == ("wrapper", "answer_slot") and view.loss_mask == (0, 1)


def test_junction_differs_when_the_context_ends_with_the_space_the_answer_token_carries(bpe):
    """'Answer: ' + 'A': the context ends in a lone ' ' token and the whole has ' A', so the sliced continuation is empty."""
    final = "Answer: A"
    view = token_view(final, [Span("query", 0, 8), Span("answer_slot", 8, 9)], bpe)
    (alone,) = bpe.encode_offsets("A")[0]
    assert view.junction is not None
    assert view.junction.dump() == {
        "continuation": "A",
        "context_tokens": len(bpe.encode_offsets("Answer: ")[0]),
        "continuation_ids": [],
        "junction_differs": True,
        "continuation_alone_ids": [alone],
    }


def test_junction_agrees_when_the_continuation_carries_its_space(bpe):
    """'Answer:' + ' A': the continuation's tokens are the same in context and alone; only the flag is given."""
    view = token_view("Answer: A", [Span("query", 0, 7), Span("answer_slot", 7, 9)], bpe)
    assert view.junction is not None
    assert view.junction.dump() == {
        "continuation": " A",
        "context_tokens": len(bpe.encode_offsets("Answer:")[0]),
        "continuation_ids": bpe.encode_offsets(" A")[0],
        "junction_differs": False,
    }


def test_ll_continuation_outside_the_input_follows_it(bpe):
    """LLInferencer's continuation that the input does not hold: the context is the whole input."""
    view = token_view("Question: what?", [Span("query", 0, 15)], bpe, continuation=" Answer: 4")
    assert view.junction is not None and view.junction.context_tokens == len(view.input_ids)
    assert view.junction.continuation_ids == tuple(bpe.encode_offsets("Question: what? Answer: 4")[0][len(view.input_ids) :])


def test_record_fields_have_one_entry_per_token(bpe):
    """dump(): input_ids, token_labels and loss_mask of one length; junction only for scored prompts."""
    fields = token_view("Answer: A", [Span("query", 0, 8), Span("answer_slot", 8, 9)], bpe).dump()
    assert list(fields) == ["input_ids", "token_labels", "loss_mask", "junction"]
    assert len(fields["input_ids"]) == len(fields["token_labels"]) == len(fields["loss_mask"])


def test_token_encoder_takes_paths_tokenizers_and_transformers_tokenizers(trained_tokenizer, tmp_path):
    """A tokenizer.json path, a tokenizers.Tokenizer and a transformers fast tokenizer give the same tokens."""
    tokenizers = pytest.importorskip("tokenizers")
    transformers = pytest.importorskip("transformers")
    path = trained_tokenizer(texts=["alpha beta"])
    fast = transformers.PreTrainedTokenizerFast(tokenizer_file=str(path))
    encoders = [token_encoder(str(path)), token_encoder(tokenizers.Tokenizer.from_file(str(path))), token_encoder(fast)]
    assert len({tuple(map(tuple, encoder.encode_offsets("alpha beta gamma"))) for encoder in encoders}) == 1


def test_token_encoder_refuses_what_gives_no_offsets():
    """A counting function has no token ids or offsets: the error lists what tokenizer= takes."""
    with pytest.raises(ConfigError) as caught:
        token_encoder(len)
    assert str(caught.value) == (
        "key 'tokenizer': tokenizer must be a tokenizer.json path, an HFTokenizer, a tokenizers.Tokenizer, a transformers fast "
        "tokenizer or an object with encode_offsets(text) -> (ids, offsets) (got <built-in function len> that is a "
        "builtin_function_or_method); a slow (Python) transformers tokenizer has no offsets: load it with use_fast=True"
    )
