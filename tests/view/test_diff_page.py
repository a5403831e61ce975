"""The diff page: self-contained, row text escaped, each piece in the view's colours."""

from __future__ import annotations

from promptkit.diff import RecordSet, diff_records
from promptkit.view.diff_page import diff_html


def test_hostile_text_is_escaped_and_nothing_is_loaded():
    """A prompt holding markup shows as text; the page has no script and loads nothing."""
    a = {"dataset": "d", "index": 0, "prompt": "Q: </script><img src=x onerror=alert(1)>", "spans": [{"piece": "query", "start": 0, "end": 40}]}
    b = {**a, "prompt": "Q: <b>bold</b>", "spans": [{"piece": "query", "start": 0, "end": 14}]}
    page = diff_html(diff_records(RecordSet("A", [a]), RecordSet("B", [b])))
    body = page.split("</style>", 1)[1]
    assert "<img" not in body and "<b>" not in body and "<script" not in page and "://" not in page
    assert '<span class="label sp k-query">query</span>' in page
    assert "<del>&lt;/script&gt;&lt;img src=x onerror=alert(1)&gt;</del><ins>&lt;b&gt;bold&lt;/b&gt;</ins>" in page


def test_shots_alternate_colours_and_newlines_are_marked():
    """Shot answers take the view's shot-answer class (odd shots the second shade); a newline shows its mark."""
    a = {"dataset": "d", "index": 0, "prompt": "x\ny", "spans": [{"piece": "shot[1].answer", "start": 0, "end": 3}]}
    b = {**a, "prompt": "x\nz"}
    page = diff_html(diff_records(RecordSet("A", [a]), RecordSet("B", [b])))
    assert '<span class="label sp k-shot-answer s-odd">shot 1 answer</span>' in page
    assert 'x<span class="ws">⏎</span>\n<del>y</del><ins>z</ins>' in page
