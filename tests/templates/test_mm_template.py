"""MMPromptTemplate: AISBench's tagged content (strictly) and the column convention."""

from __future__ import annotations

import pytest

from promptkit import MMPromptTemplate, RoleItem, TemplateError

T, IMG, A, V, C = "<AIS_TEXT_START>", "<AIS_IMAGE_START>", "<AIS_AUDIO_START>", "<AIS_VIDEO_START>", "<AIS_CONTENT_TAG>"
TEXT = {"type": "text", "text": "{question}"}
IMAGE = {"type": "image_url", "image_url": {"url": "file://{image}"}}


def parts(template: dict, row: dict) -> list[dict]:
    [item] = [item for item in MMPromptTemplate(template).render(row) if isinstance(item, RoleItem) and item.parts is not None]
    return [part.dump() for part in item.parts]


def human(**prompt_mm) -> dict:
    return dict(round=[dict(role="HUMAN", prompt_mm=prompt_mm)])


def test_parts_follow_segment_order_one_part_per_segment():
    """Interleaved text and images keep their order; consecutive texts are not merged."""
    content = T + "a" + C + IMG + "1.png" + C + T + "b" + C + T + "c" + C + IMG + "2.png" + C
    assert parts(human(text=TEXT, image=IMAGE), {"content": content}) == [
        {"type": "text", "text": "a"},
        {"type": "image_url", "image_url": {"url": "file://1.png"}},
        {"type": "text", "text": "b"},
        {"type": "text", "text": "c"},
        {"type": "image_url", "image_url": {"url": "file://2.png"}},
    ]


def test_missing_final_tag_and_empty_text_segment():
    """The last segment's closing tag may be omitted; an empty text segment is still a part."""
    assert parts(human(text={"type": "text", "text": "Q: {question}!"}, image=IMAGE), {"content": IMG + "x.png" + C + T + C + T + "hi"}) == [
        {"type": "image_url", "image_url": {"url": "file://x.png"}},
        {"type": "text", "text": "Q: !"},
        {"type": "text", "text": "Q: hi!"},
    ]


def test_url_shapes_and_extra_keys_are_kept():
    """Nested {'url': ...} keeps extra keys (detail); a plain-string url and a bare {image} are filled too."""
    nested = {"type": "image_url", "image_url": {"url": "data:image/png;base64,{image}", "detail": "high"}, "id": 7}
    plain = {"type": "image_url", "image_url": "{image}"}
    assert parts(human(image=nested), {"content": IMG + "QUJD" + C}) == [
        {"type": "image_url", "image_url": {"url": "data:image/png;base64,QUJD", "detail": "high"}, "id": 7}
    ]
    assert parts(human(image=plain), {"content": IMG + "https://x/y.png" + C}) == [{"type": "image_url", "image_url": "https://x/y.png"}]


def test_other_placeholders_are_filled_from_the_row_payloads_stay_literal():
    """{subject} is filled (AISBench leaves it); a payload holding '{subject}' or a tag-free brace stays as written."""
    template = human(text={"type": "text", "text": "[{subject}] {question}"})
    assert parts(template, {"subject": "art", "content": T + "Why {subject}? {answer}" + C, "answer": "gold"}) == [
        {"type": "text", "text": "[art] Why {subject}? {answer}"}
    ]


def test_begin_system_prompt_is_formatted():
    t = MMPromptTemplate(dict(begin=[dict(role="SYSTEM", prompt="Expert in {subject}.")], round=human(text=TEXT)["round"]))
    system = t.render({"subject": "birds", "content": T + "q" + C})[1]
    assert system == RoleItem("SYSTEM", "Expert in birds.")


def test_tagged_content_may_sit_in_a_placeholder_column():
    """As in seed 002, the tagged string can be the text part's own column instead of `content`."""
    assert parts(human(text={"type": "text", "text": "{anything}: {question}"}, audio={"type": "audio_url", "audio_url": {"url": "{audio}"}}),
                 {"anything": "hey", "question": T + "listen" + C + A + "a.wav" + C}) == [
        {"type": "text", "text": "hey: listen"},
        {"type": "audio_url", "audio_url": {"url": "a.wav"}},
    ]


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("stray" + C + T + "x" + C, r"segment 0 \('stray'\) of column 'content' does not start with a start tag"),
        (T + "x" + C + "<AIS_PDF_START>a.pdf" + C, r"segment 1 \('<AIS_PDF_START>a.pdf'\) of column 'content' starts with the unknown tag '<AIS_PDF_START>'"),
        (T + "x" + C + "pre" + T + "y", r"segment 1 \('pre<AIS_TEXT_START>y'\) of column 'content' does not start with a start tag"),
        (T + "a" + T + "b" + C, r"segment 0 .* holds a second start tag <AIS_TEXT_START>; close each segment with <AIS_CONTENT_TAG>"),
        (T + "a" + C + C, r"segment 1 \(''\) of column 'content' is empty"),
    ],
)
def test_malformed_tagged_content_is_an_error_naming_the_segment(content: str, message: str):
    """AISBench drops such segments silently."""
    with pytest.raises(TemplateError, match=message):
        MMPromptTemplate(human(text=TEXT, image=IMAGE)).render({"content": content})


def test_a_modality_the_template_lacks_is_an_error():
    with pytest.raises(TemplateError, match=r"segment 1 of column 'content' is video, but prompt_mm has no 'video' part \(it has text, image\)") as info:
        MMPromptTemplate(human(text=TEXT, image=IMAGE)).render({"content": T + "x" + C + V + "v.mp4" + C})
    assert info.value.context["key"] == "content segment 1"


def test_column_convention_lists_and_none():
    """Parts in prompt_mm order; a list column gives one part per path; None or [] gives none."""
    template = human(text={"type": "text", "text": "{question}"}, image={"type": "image_url", "image_url": {"url": "file://{images}"}})
    assert parts(template, {"question": "q", "images": ["a.png", "b.png"]}) == [
        {"type": "text", "text": "q"},
        {"type": "image_url", "image_url": {"url": "file://a.png"}},
        {"type": "image_url", "image_url": {"url": "file://b.png"}},
    ]
    assert parts(template, {"question": "q", "images": []}) == [{"type": "text", "text": "q"}]
    assert parts(template, {"question": "q", "images": None}) == [{"type": "text", "text": "q"}]


def test_column_convention_missing_column_is_an_error():
    template = human(text=TEXT, image={"type": "image_url", "image_url": {"url": "{imgae}"}})
    with pytest.raises(TemplateError, match=r"the image part's url needs the column 'imgae', which the row does not have \(columns: question, image\)"):
        MMPromptTemplate(template).render({"question": "q", "image": "a.png"})


@pytest.mark.parametrize(
    ("template", "message"),
    [
        ("just a string", r"MMPromptTemplate takes a chat template"),
        (human(picture=IMAGE), r"unknown modality 'picture'"),
        (human(image={"type": "text", "text": "{image}"}), r"the image part must be a dict with type 'image_url'"),
        (human(image={"type": "image_url", "image_url": {"detail": "low"}}), r"the image part needs its url as a str"),
        (dict(round=[dict(role="HUMAN", prompt="x", prompt_mm={"text": TEXT})]), r"takes 'prompt' or 'prompt_mm', not both"),
        (dict(round=[dict(role="HUMAN", prompt_mm={})]), r"prompt_mm must be a dict of part templates by modality"),
    ],
)
def test_malformed_templates(template, message):
    with pytest.raises(TemplateError, match=message):
        MMPromptTemplate(template)


def test_prompt_mm_needs_mm_prompt_template():
    from promptkit import PromptTemplate

    with pytest.raises(TemplateError, match=r"unknown key 'prompt_mm' in a role item \(multimodal parts need MMPromptTemplate\)"):
        PromptTemplate(human(text=TEXT))
