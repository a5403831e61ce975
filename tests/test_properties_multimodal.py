"""Invariants of dialogues and multimodal prompts, on generated rows."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from promptkit import ChatModel, CompletionModel, MMPromptTemplate, MultiTurnPromptTemplate

TAGS = {"text": "<AIS_TEXT_START>", "image": "<AIS_IMAGE_START>", "audio": "<AIS_AUDIO_START>", "video": "<AIS_VIDEO_START>"}
# Payloads that look like template syntax or tags of other systems, never containing an AIS tag.
PAYLOAD = st.lists(st.sampled_from(list("ab/.{} \n") + ["{question}", "{image}", "</E>", "<image>", "é", "中"]), max_size=8).map("".join)
SEGMENTS = st.lists(st.tuples(st.sampled_from(list(TAGS)), PAYLOAD), min_size=1, max_size=8)
PARTS = {
    "text": {"type": "text", "text": "{question}"},
    "image": {"type": "image_url", "image_url": {"url": "{image}"}},
    "audio": {"type": "audio_url", "audio_url": {"url": "{audio}"}},
    "video": {"type": "video_url", "video_url": {"url": "{video}"}},
}
TAGGED = MMPromptTemplate(dict(round=[dict(role="HUMAN", prompt_mm=PARTS)]))
COLUMNS = MMPromptTemplate(dict(round=[dict(role="HUMAN", prompt_mm={
    "text": {"type": "text", "text": "{question}"},
    "image": {"type": "image_url", "image_url": {"url": "file://{images}"}},
    "audio": {"type": "audio_url", "audio_url": {"url": "{clips}"}},
})]))
PLACEHOLDERS = CompletionModel(mm_placeholders=dict(image="<img>", audio="<aud>", video="<vid>"))


@given(SEGMENTS, st.booleans())
def test_tagged_content_gives_one_part_per_segment_in_order(segments, closing_tag):
    content = "<AIS_CONTENT_TAG>".join(TAGS[kind] + payload for kind, payload in segments) + ("<AIS_CONTENT_TAG>" if closing_tag else "")
    prompt = TAGGED.render({"content": content})
    [message] = ChatModel().render(prompt)
    got = [(part["type"], part["text"] if part["type"] == "text" else part[part["type"]]["url"]) for part in message["content"]]
    assert got == [("text" if kind == "text" else f"{kind}_url", payload) for kind, payload in segments]
    _, media = PLACEHOLDERS.render_with_media(prompt)
    assert [m["type"] for m in media] == [f"{kind}_url" for kind, _ in segments if kind != "text"]


@given(st.lists(PAYLOAD, max_size=5), st.lists(PAYLOAD, max_size=5), PAYLOAD)
def test_column_lists_give_one_part_per_path_in_order(images, clips, question):
    prompt = COLUMNS.render({"question": question, "images": images, "clips": clips})
    text, media = PLACEHOLDERS.render_with_media(prompt)
    assert media == [{"type": "image_url", "image_url": {"url": "file://" + p}} for p in images] + [
        {"type": "audio_url", "audio_url": {"url": p}} for p in clips
    ]
    assert text == question + "<img>" * len(images) + "<aud>" * len(clips)


ANSWERS = st.text(alphabet=st.characters(min_codepoint=0x4E00, max_codepoint=0x4E20), min_size=6, max_size=10)
DIALOGUE = st.integers(1, 5).flatmap(lambda n: st.tuples(st.lists(PAYLOAD, min_size=n, max_size=n), st.lists(ANSWERS, min_size=n, max_size=n, unique=True)))
MULTI = MultiTurnPromptTemplate(dict(round=[dict(role="HUMAN", prompt="Q: {question}"), dict(role="BOT", prompt="A: {answer}")]))


@given(DIALOGUE)
def test_a_turn_shows_earlier_answers_never_its_own_or_later(dialogue):
    questions, answers = dialogue
    row = {"question": questions, "answer": answers}
    for turn in range(len(questions)):
        text = CompletionModel().render(MULTI.render_turn(row, turn, masked="answer"))
        assert all(text.count(answer) == 1 for answer in answers[:turn])
        assert not any(answer in text for answer in answers[turn:])
        assert text.endswith("Q: " + questions[turn])
