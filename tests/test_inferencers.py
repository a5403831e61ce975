"""The inferencers of real configs: the prompts each sends, in order, what each record carries, and what each refuses."""

from __future__ import annotations

from pathlib import Path

import pytest

from promptkit import ConfigError, PromptkitError, TemplateError, build_dataset
from promptkit.frontends.opencompass.registry import OUT_OF_SCOPE, REGISTRY, resolve_type
from promptkit.plan.inferencers import ChatInferencer, ChatRows, CLPInferencer, SCInferencer

ZERO = dict(type="ZeroRetriever")
STRING = dict(type="PromptTemplate", template="Q: {question}\nA: {answer}")
ROWS = [{"question": "1+1?", "answer": "2"}, {"question": "2+2?", "answer": "4"}, {"question": "3+3?", "answer": "6"}]
CHAT = dict(type="ChatModel")
INTERNLM = dict(
    type="CompletionModel",
    meta_template=dict(round=[dict(role="HUMAN", begin="<|User|>:", end="\n"), dict(role="BOT", begin="<|Bot|>:", end="<eoa>\n", generate=True)]),
)
DIALOGUES = [
    {"dialogue": [
        {"role": "system", "content": "Be kind."},
        {"role": "user", "content": "Hi"},
        {"role": "assistant", "content": "Hello"},
        {"role": "user", "content": "Bye"},
        {"role": "assistant", "content": "Goodbye"},
    ]}
]


def chat_infer(mode: str, template: dict | None = None) -> dict:
    infer = dict(retriever=ZERO, inferencer=dict(type="ChatInferencer", infer_mode=mode))
    return dict(infer, prompt_template=template or dict(type="PromptTemplate", template="{dialogue}"))


def prompts(renderer) -> list:
    return [p.prompt for p in renderer]


def test_every_inferencer_of_the_real_configs_is_registered_by_its_opencompass_name():
    """OpenCompass's and AISBench's dotted names resolve to promptkit's classes."""
    for name in ("ChatInferencer", "LLInferencer", "CLPInferencer", "PPLOnlyInferencer", "InferencePPLOnlyInferencer", "SCInferencer", "SWCELossInferencer"):
        assert resolve_type(f"opencompass.openicl.icl_inferencer.{name}", "inferencer", "k") is REGISTRY["inferencer"][name]
    assert resolve_type("ais_bench.benchmark.openicl.icl_inferencer.LMMGenInferencer", "inferencer", "k").__name__ == "LMMGenInferencer"
    assert "Inferencer" not in REGISTRY["inferencer"]


@pytest.mark.parametrize("name", sorted(OUT_OF_SCOPE["inferencer"]))
def test_inferencers_that_need_the_model_in_the_loop_get_one_line_saying_so(name: str):
    """Agent, Attack and ToT inferencers: a ConfigError naming the config's key, the class and why."""
    cfg = dict(abbr="agent", type="RowsDataset", rows=ROWS, reader_cfg=dict(input_columns=["question"], output_column="answer"),
               infer_cfg=dict(prompt_template=STRING, retriever=ZERO, inferencer=dict(type=f"opencompass.openicl.icl_inferencer.{name}")))
    with pytest.raises(ConfigError) as caught:
        build_dataset(cfg, Path("agent.py"))
    assert "\n" not in str(caught.value)
    assert str(caught.value).startswith(f"config agent.py, dataset 'agent', key 'infer_cfg.inferencer.type': {name} ")
    assert "cannot be rendered ahead of time" in caught.value.message


def test_an_out_of_scope_class_given_as_a_class_is_refused_too():
    """A placeholder class of that name (as an import from opencompass gives) gets the same line."""
    placeholder = type("ToTInferencer", (), {})
    with pytest.raises(ConfigError, match="^key 'k': ToTInferencer searches a tree of thoughts"):
        resolve_type(placeholder, "inferencer", "k")


# -- ChatInferencer ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("mode", "turns"),
    [("last", [1]), ("every_with_gt", [0, 1])],
)
def test_chat_inferencer_sends_the_chat_before_each_assistant_turn(make_renderer, mode, turns):
    """A row holding messages: the history before each turn to answer, numbered; no shots."""
    renderer = make_renderer(DIALOGUES, chat_infer(mode), reader_cfg=dict(input_columns=["dialogue"], output_column=None), model=CHAT)
    sent = list(renderer)
    assert [p.turn for p in sent] == turns
    assert sent[-1].prompt == [
        {"role": "system", "content": "Be kind."},
        {"role": "user", "content": "Hi"},
        {"role": "assistant", "content": "Hello"},
        {"role": "user", "content": "Bye"},
    ]
    assert all(p.ice_idx == [] for p in sent)


def test_chat_inferencer_every_puts_the_models_replies_in_the_history(make_renderer):
    """infer_mode='every': turn 1's history holds the reply to turn 0."""
    renderer = make_renderer(DIALOGUES, chat_infer("every"), reader_cfg=dict(input_columns=["dialogue"], output_column=None), model=INTERNLM,
                             replies={0: ["Hey there"]})
    assert prompts(renderer)[1] == "<|User|>:Be kind.\n<|User|>:Hi\n<|Bot|>:Hey there<eoa>\n<|User|>:Bye\n<|Bot|>:"


def test_chat_inferencer_builds_one_exchange_per_element_of_list_columns(make_renderer):
    """Columns of lists of strings: the template's turns per element, then the answer as the assistant message."""
    rows = [{"question": ["q1", "q2"], "answer": ["a1", "a2"]}]
    template = dict(type="PromptTemplate", template=dict(round=[dict(role="HUMAN", prompt="{question}")]))
    renderer = make_renderer(rows, chat_infer("last", template), model=CHAT)
    assert prompts(renderer) == [[{"role": "user", "content": "q1"}, {"role": "assistant", "content": "a1"}, {"role": "user", "content": "q2"}]]


def test_chat_inferencer_without_a_template_sends_the_one_input_column():
    """No prompt_template: the input column is the user message, the answer the assistant's."""
    rows = ChatRows(None, ["question"], "answer")
    assert rows.chat(ROWS[0]) == [("user", "1+1?"), ("assistant", "2")]
    with pytest.raises(ConfigError, match="sends the one input column as the user message; reader_cfg has 2 input columns"):
        ChatRows(None, ["question", "hint"], "answer").chat({"question": "q", "hint": "h", "answer": "a"})


def test_chat_inferencer_refuses_rows_it_cannot_make_a_chat_of(make_renderer):
    """Mixed column types, and a chat with no assistant turn, are errors naming the row."""
    renderer = make_renderer([{"question": "q", "answer": 3}], chat_infer("last", STRING))
    with pytest.raises(TemplateError, match="^dataset 'demo', row 0: ChatInferencer cannot make a chat of the row"):
        renderer.render(0)
    messages = [{"dialogue": [{"role": "user", "content": "Hi"}]}]
    renderer = make_renderer(messages, chat_infer("last"), reader_cfg=dict(input_columns=["dialogue"], output_column=None))
    with pytest.raises(TemplateError, match="has no assistant message, so ChatInferencer has no turn to ask the model for"):
        renderer.render(0)


def test_chat_inferencer_defaults_to_the_last_turn():
    """OpenCompass's default infer_mode is 'last'; an unknown mode is refused."""
    assert ChatInferencer().infer_mode == "last"
    with pytest.raises(ConfigError, match="infer_mode must be one of 'every', 'every_with_gt', 'last'"):
        ChatInferencer(infer_mode="first")


# -- the scoring inferencers ----------------------------------------------------------------


def test_ll_inferencer_sends_ppl_prompts_with_the_rows_continuation(make_renderer):
    """One prompt per label, each record with the row's 'cont' as 'continuation'."""
    rows = [{"opt1": "A cat", "opt2": "A dog", "cont": "barks.", "answer": "B"}]
    infer = dict(prompt_template=dict(type="PromptTemplate", template={"A": "{opt1}", "B": "{opt2}"}), retriever=ZERO, inferencer=dict(type="LLInferencer"))
    records = [p.to_record() for p in make_renderer(rows, infer, reader_cfg=dict(input_columns=["opt1", "opt2"], output_column="answer"))]
    assert [(r["label"], r["prompt"], r["continuation"]) for r in records] == [("A", "A cat", "barks."), ("B", "A dog", "barks.")]


def test_ll_inferencer_without_a_cont_column_says_so(make_renderer):
    """The error names the column it reads and the row's columns."""
    infer = dict(prompt_template=dict(type="PromptTemplate", template={"2": "{question} 2", "4": "{question} 4"}), retriever=ZERO,
                 inferencer=dict(type="LLInferencer"))
    with pytest.raises(ConfigError, match=r"^dataset 'demo', row 0, key 'cont': LLInferencer scores each row's continuation, read from the column 'cont'; "
                       r"the row has none \(columns: question, answer\)$"):
        make_renderer(ROWS, infer).render(0)


def test_clp_inferencer_sends_one_prompt_with_the_first_rows_choices(make_renderer):
    """The answer renders as ''; every record carries the first test row's choices."""
    rows = [dict(r, choices=["no", "yes"] if i == 0 else ["x"]) for i, r in enumerate(ROWS)]
    records = [p.to_record() for p in make_renderer(rows, dict(prompt_template=STRING, retriever=ZERO, inferencer=dict(type="CLPInferencer")))]
    assert [(r["prompt"], r["choices"]) for r in records] == [(f"Q: {r['question']}\nA: ", ["no", "yes"]) for r in ROWS]


def test_clp_inferencer_keeps_one_token_for_the_choice(make_renderer):
    """With max_seq_len=7 words a prompt of 7 words is too long: the shot is dropped (GenInferencer keeps it)."""
    infer = dict(ice_template=dict(type="PromptTemplate", template="Q: {question} A: {answer} "),
                 prompt_template=dict(type="PromptTemplate", template="</E>Q: {question} A:", ice_token="</E>"),
                 retriever=dict(type="FixKRetriever", fix_id_list=[0]))
    model = dict(type="CompletionModel", token_counter="whitespace", max_seq_len=7)
    gen = make_renderer(ROWS[:2], dict(infer, inferencer=dict(type="GenInferencer")), model=model).render(1)[0]
    clp = make_renderer([dict(r, choices=["x"]) for r in ROWS[:2]], dict(infer, inferencer=dict(type="CLPInferencer")), model=model).render(1)[0]
    assert (gen.ice_idx, clp.ice_idx) == ([0], [])


def test_clp_inferencer_refuses_chat_models_when_prompts_are_asked_for(make_renderer):
    """One line saying why; the renderer still answers len()."""
    renderer = make_renderer([dict(r, choices=["x"]) for r in ROWS], dict(prompt_template=STRING, retriever=ZERO, inferencer=dict(type="CLPInferencer")), model=CHAT)
    assert len(renderer) == 3
    with pytest.raises(ConfigError, match="^dataset 'demo', model 'ChatModel': CLPInferencer reads the next token's log-probabilities, which an API"):
        renderer.render(0)
    with pytest.raises(ConfigError, match=r"single-token choices only \(single_token=True\)"):
        CLPInferencer(single_token=False)


def test_ppl_only_inferencers_send_one_whole_prompt_per_row(make_renderer):
    """ppl mode (the BOT turn's end is rendered), no label; InferencePPLOnlyInferencer adds the row's spans."""
    rows = [{"text": "Some text.", "label": [[0, 4, 1]]}]
    chat = dict(type="PromptTemplate", template=dict(round=[dict(role="HUMAN", prompt="{text}"), dict(role="BOT", prompt="")]))
    reader = dict(input_columns=["text"], output_column=None)
    only = make_renderer(rows, dict(prompt_template=chat, retriever=ZERO, inferencer=dict(type="PPLOnlyInferencer")), reader_cfg=reader, model=INTERNLM)
    spans = make_renderer(rows, dict(prompt_template=chat, retriever=ZERO, inferencer=dict(type="InferencePPLOnlyInferencer")), reader_cfg=reader)
    assert [p.to_record() for p in only][0] | {"n_shots": 0} == {
        "dataset": "demo", "model": "CompletionModel", "index": 0, "mode": "ppl", "prompt": "<|User|>:Some text.\n<|Bot|>:<eoa>\n",
        "ice_idx": [], "n_shots": 0, "truncated": False, "label": None,
        "id": "demo/0", "gold": None, "request": {"model": None, "add_special_tokens": True}, "fingerprint": "sha256:ea703e91a6b6c3cf",
        "provenance": {
            "template": "sha256:0d4e98742a55f578", "meta_template": "sha256:5ab993de4e9d6cf1", "chat_template": None, "tokenizer": None,
            "shots": "sha256:4f53cda18c2baa0c", "row": "sha256:e432cc6fd4af0bf2",
        },
    }
    assert next(iter(spans)).to_record()["label_spans"] == [[0, 4, 1]]


def test_ppl_only_and_swce_need_no_answer_column(make_renderer):
    """output_column must be None, as OpenCompass asserts."""
    for name in ("PPLOnlyInferencer", "SWCELossInferencer"):
        with pytest.raises(ConfigError, match="reader_cfg.output_column must be None"):
            make_renderer(ROWS, dict(prompt_template=STRING, retriever=ZERO, inferencer=dict(type=name)))


def test_sc_inferencer_sends_the_gen_prompt_with_its_sample_count(make_renderer):
    """GenInferencer's prompt, with sc_size in every record; sc_size must be a positive int."""
    record = make_renderer(ROWS, dict(prompt_template=STRING, retriever=ZERO, inferencer=dict(type="SCInferencer", sc_size=20, max_out_len=512))).render(0)[0]
    assert (record.prompt, record.to_record()["sc_size"]) == ("Q: 1+1?\nA: ", 20)
    with pytest.raises(ConfigError, match=r"sc_size must be a positive int, the samples drawn per prompt \(got 0\)"):
        SCInferencer(sc_size=0)


def test_swce_sends_the_rows_text_without_shots_or_meta_template(make_renderer):
    """The ice_template and the retriever's shots are not read; a string passes a meta template untouched."""
    infer = dict(ice_template=dict(type="PromptTemplate", template="{text}"),
                 prompt_template=dict(type="PromptTemplate", template="</E>{text}", ice_token="</E>"),
                 retriever=dict(type="FixKRetriever", fix_id_list=[0]), inferencer=dict(type="SWCELossInferencer"))
    renderer = make_renderer([{"text": "one"}, {"text": "two"}], infer, reader_cfg=dict(input_columns=["text"], output_column=None), model=INTERNLM)
    assert [(p.prompt, p.ice_idx) for p in renderer] == [("one", []), ("two", [])]


def test_swce_refuses_chat_templates_and_chat_models(make_renderer):
    """A chat template's PromptList is no text to tokenize; a chat model has no tokenizer to run."""
    reader = dict(input_columns=["text"], output_column=None)
    chat = dict(type="PromptTemplate", template=dict(round=[dict(role="HUMAN", prompt="{text}")]))
    with pytest.raises(ConfigError, match="tokenizes the text of a string prompt_template"):
        make_renderer([{"text": "t"}], dict(prompt_template=chat, retriever=ZERO, inferencer=dict(type="SWCELossInferencer")), reader_cfg=reader)
    renderer = make_renderer([{"text": "t"}], dict(prompt_template=dict(type="PromptTemplate", template="{text}"), retriever=ZERO,
                                                   inferencer=dict(type="SWCELossInferencer")), reader_cfg=reader, model=CHAT)
    with pytest.raises(PromptkitError, match="use a completion model config"):
        renderer.render(0)


def test_lmm_gen_inferencer_sends_gen_inferencers_prompts(make_renderer):
    """AISBench's LMMGenInferencer: the same prompts as GenInferencer."""
    gen = make_renderer(ROWS, dict(prompt_template=STRING, retriever=ZERO, inferencer=dict(type="GenInferencer")), model=CHAT)
    lmm = make_renderer(ROWS, dict(prompt_template=STRING, retriever=ZERO, inferencer=dict(type="LMMGenInferencer")), model=CHAT)
    assert prompts(lmm) == prompts(gen)


def test_the_pipeline_asks_the_inferencer_and_never_names_its_class():
    """The renderer, the plan and the dialogues name none of the inferencers added for real configs."""
    package = Path(__file__).parents[1] / "promptkit"
    source = "".join((package / name).read_text() for name in ("render/renderer.py", "plan/plan.py", "plan/dialogue.py"))
    for name in ("ChatInferencer", "LLInferencer", "CLPInferencer", "PPLOnlyInferencer", "SCInferencer", "SWCELossInferencer", "LMMGenInferencer"):
        assert name not in source
