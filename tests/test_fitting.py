"""Fitting shots into max_seq_len: the same shots as OpenCompass's drop-the-last-shot loop, from cached counts."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from promptkit import ConfigError, Renderer, build_dataset, build_model
from promptkit.meta_templates import count_tokens
from promptkit.tokens.counters import HFTokenizer

tokenizers = pytest.importorskip("tokenizers")

WORDS = ["the", "cat", "sat", "on", "mat", "42", "+", "=", "why?", "Überlänge", "北京", "答案", "\n", "{x}", "</E>"]


@pytest.fixture(scope="module")
def bpe_tokenizer_json(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A small byte-level BPE tokenizer.json trained here, on made-up text (nothing downloaded)."""
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers, trainers

    tokenizer = Tokenizer(models.BPE())
    tokenizer.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    tokenizer.decoder = decoders.ByteLevel()
    trainer = trainers.BpeTrainer(vocab_size=400, initial_alphabet=pre_tokenizers.ByteLevel.alphabet(), special_tokens=["<s>"])
    corpus = [" ".join(WORDS[(i * 7 + j) % len(WORDS)] for j in range(12)) for i in range(300)]
    tokenizer.train_from_iterator(corpus, trainer)
    path = tmp_path_factory.mktemp("tok") / "tokenizer.json"
    tokenizer.save(str(path))
    return path


def dataset(pool: list[str], query: str, shots: list[int], chat: bool):
    """A dataset with one test row and FixK shots, string or chat templates."""
    if chat:
        ice = dict(type="PromptTemplate", template=dict(round=[dict(role="HUMAN", prompt="{q}"), dict(role="BOT", prompt="{a}")]))
        prompt = dict(
            type="PromptTemplate",
            template=dict(begin=[dict(role="SYSTEM", fallback_role="HUMAN", prompt="Answer."), "</E>"], round=[dict(role="HUMAN", prompt="{q}"), dict(role="BOT", prompt="{a}")]),
            ice_token="</E>",
        )
    else:
        ice = dict(type="PromptTemplate", template="Q: {q}\nA: {a}")
        prompt = dict(type="PromptTemplate", template="Solve.\n</E>Q: {q}\nA: {a}", ice_token="</E>")
    rows = dict(train=[{"q": text, "a": f"answer {i}"} for i, text in enumerate(pool)], test=[{"q": query, "a": "gold"}])
    return build_dataset(
        dict(
            abbr="fit",
            type="RowsDataset",
            rows=rows,
            reader_cfg=dict(input_columns=["q"], output_column="a"),
            infer_cfg=dict(ice_template=ice, prompt_template=prompt, retriever=dict(type="FixKRetriever", fix_id_list=shots), inferencer=dict(type="GenInferencer")),
        )
    )


def drop_last_loop(pool, query, shots, chat, model_cfg, counter, limit):
    """OpenCompass's loop, spelled out: render with all shots; while too long, drop the last one and render again."""
    model = build_model({k: v for k, v in model_cfg.items() if k != "max_seq_len"})  # the loop below is the only limit
    kept = list(shots)
    while True:
        final = Renderer(dataset(pool, query, kept, chat), model).render(0)[0].prompt
        if not kept or count_tokens(final, counter) <= limit:
            return kept, final
        kept = kept[:-1]


texts = st.lists(st.sampled_from(WORDS), min_size=0, max_size=14).map(" ".join)
cases = st.fixed_dictionaries(
    dict(
        pool=st.lists(texts, min_size=1, max_size=10),
        query=texts,
        picks=st.lists(st.integers(0, 9), min_size=0, max_size=8),
        chat=st.booleans(),
        meta=st.booleans(),
        limit=st.integers(1, 140),
        counter=st.sampled_from(["whitespace", "bpe"]),
    )
)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(case=cases)
def test_fitting_equals_the_drop_last_loop(case, bpe_tokenizer_json):
    """On random pools, queries, shot lists, limits, templates, meta templates and tokenizers: same shots, same prompt."""
    pool = case["pool"]
    shots = [i % len(pool) for i in case["picks"]]
    model_cfg: dict = dict(abbr="m", type="CompletionModel", max_seq_len=case["limit"])
    if case["meta"]:
        model_cfg.update(
            type="ChatModel" if case["chat"] else "CompletionModel",
            meta_template=dict(
                round=[
                    dict(role="HUMAN", api_role="HUMAN", begin="<u>", end="</u>"),
                    dict(role="BOT", api_role="BOT", begin="<b>", end="</b>", generate=True),
                ],
                reserved_roles=[dict(role="SYSTEM", api_role="SYSTEM", begin="<s>", end="</s>")],
            ),
        )
    if case["counter"] == "bpe":
        model_cfg["tokenizer"] = dict(type="HFTokenizer", path=str(bpe_tokenizer_json))
        counter = HFTokenizer(bpe_tokenizer_json)
    else:
        model_cfg["token_counter"] = "whitespace"
        counter = lambda text: len(text.split())  # noqa: E731
    expected_shots, expected_prompt = drop_last_loop(pool, case["query"], shots, case["chat"], model_cfg, counter, case["limit"])
    got = Renderer(dataset(pool, case["query"], shots, case["chat"]), build_model(model_cfg)).render(0)[0]
    event(f"kept {'all' if len(expected_shots) == len(shots) else 'none' if not expected_shots else 'some'} of the shots")
    assert (got.ice_idx, got.prompt) == (expected_shots, expected_prompt)
    assert got.to_record()["n_shots"] == len(expected_shots)
    assert got.truncated == (len(expected_shots) < len(shots))


def test_record_says_how_many_shots_were_kept(make_renderer):
    """A record names the shots kept, their number and whether any were dropped."""
    renderer = make_renderer(
        [{"question": "q0", "answer": "a0"}],
        dict(
            ice_template=dict(type="PromptTemplate", template="{question} {answer}"),
            prompt_template=dict(type="PromptTemplate", template="</E>{question}", ice_token="</E>"),
            retriever=dict(type="FixKRetriever", fix_id_list=[0, 1, 2]),
            inferencer=dict(type="GenInferencer"),
        ),
        model=dict(abbr="m", type="CompletionModel", max_seq_len=5, token_counter="whitespace"),
        train_rows=[{"question": f"s{i}", "answer": f"b{i}"} for i in range(3)],
    )
    record = renderer.render(0)[0].to_record()
    assert (record["ice_idx"], record["n_shots"], record["truncated"], record["prompt"]) == ([0, 1], 2, True, "s0 b0\ns1 b1\nq0")


def test_tokenizer_file_must_exist(tmp_path):
    """A tokenizer path that does not exist names the file and the key."""
    missing = tmp_path / "nope" / "tokenizer.json"
    with pytest.raises(ConfigError, match=rf"^key 'tokenizer.path': tokenizer file '{missing}' does not exist; give the path of a Hugging Face tokenizer.json on this machine$"):
        build_model(dict(abbr="m", type="CompletionModel", tokenizer=dict(type="HFTokenizer", path=str(missing))))


def test_tokenizer_config_errors(bpe_tokenizer_json):
    """Unknown tokenizer types and keys, and tokenizer with token_counter, are config errors."""
    with pytest.raises(ConfigError, match=r"unknown tokenizer type 'HFTokeniser' \(did you mean 'HFTokenizer'\?\)"):
        build_model(dict(abbr="m", type="CompletionModel", tokenizer=dict(type="HFTokeniser", path="x")))
    with pytest.raises(ConfigError, match=r"unknown key 'file' in tokenizer HFTokenizer"):
        build_model(dict(abbr="m", type="CompletionModel", tokenizer=dict(type="HFTokenizer", file="x")))
    with pytest.raises(ConfigError, match=r"the model config gives both tokenizer and token_counter; keep one"):
        build_model(dict(abbr="m", type="CompletionModel", tokenizer=dict(type="HFTokenizer", path=str(bpe_tokenizer_json)), token_counter="whitespace"))


def test_hf_tokenizer_counts_like_the_library(bpe_tokenizer_json):
    """HFTokenizer counts what tokenizers.Tokenizer encodes, without special tokens."""
    reference = tokenizers.Tokenizer.from_file(str(bpe_tokenizer_json))
    text = "the cat sat on 北京 {x}"
    assert HFTokenizer(bpe_tokenizer_json)(text) == len(reference.encode(text, add_special_tokens=False).ids) > 3


def test_missing_tokenizer_packages_name_the_extra(monkeypatch, bpe_tokenizer_json):
    """Without tokenizers or tiktoken installed, the error gives the pip command."""
    import sys

    from promptkit import MissingDependencyError

    monkeypatch.setitem(sys.modules, "tokenizers", None)
    monkeypatch.setitem(sys.modules, "tiktoken", None)
    with pytest.raises(MissingDependencyError, match=r"HFTokenizer needs the optional package 'tokenizers', which is not installed; install it with pip install 'promptkit\[tokenizers\]'"):
        build_model(dict(abbr="m", type="CompletionModel", tokenizer=dict(type="HFTokenizer", path=str(bpe_tokenizer_json))))
    with pytest.raises(MissingDependencyError, match=r"install it with pip install 'promptkit\[tiktoken\]'"):
        build_model(dict(abbr="m", type="CompletionModel", tokenizer=dict(type="TiktokenTokenizer", encoding="cl100k_base")))


def test_a_chat_template_that_trims_gets_the_loops_shots():
    """A chat template may trim message text, so the fitter's additive search does not apply: the result is the loop's at every limit."""
    from promptkit import Renderer, build_dataset, build_model
    from promptkit.plan.spec import PromptSpec

    pad = " " * 200
    rows = dict(train=[{"q": f"q{i}", "a": f"a{i}{pad}"} for i in range(4)], test=[{"q": "query", "a": "gold"}])
    chat = dict(round=[dict(role="HUMAN", prompt="{q}"), dict(role="BOT", prompt="{a}")])
    infer = dict(
        ice_template=dict(type="PromptTemplate", template=chat),
        prompt_template=dict(type="PromptTemplate", template=dict(begin=["</E>"], **chat), ice_token="</E>"),
        retriever=dict(type="FixKRetriever", fix_id_list=[0, 1, 2, 3]),
        inferencer=dict(type="GenInferencer"),
    )
    dataset = build_dataset(dict(abbr="fit", type="RowsDataset", rows=rows, reader_cfg=dict(input_columns=["q"], output_column="a"), infer_cfg=infer))
    template = "{% for m in messages %}<{{ m.role }}>{{ m.content | trim }}</{{ m.role }}>{% endfor %}{% if add_generation_prompt %}<assistant>{% endif %}"
    unlimited = Renderer(dataset, build_model(dict(abbr="m", type="HuggingFacewithChatTemplate", chat_template=template)))
    lengths = [len(unlimited.plan.render(PromptSpec(), unlimited.test_rows[0], [0, 1, 2, 3][:k])[1]) for k in range(5)]
    for limit in range(20, lengths[-1] + 2, 7):
        model = build_model(dict(abbr="m", type="HuggingFacewithChatTemplate", chat_template=template, max_seq_len=limit, token_counter="chars"))
        kept = len(Renderer(dataset, model).render(0)[0].ice_idx)
        loop = next((k for k in range(4, 0, -1) if lengths[k] <= limit), 0)
        assert kept == loop, (limit, kept, loop)
