"""The public surface: one sorted, complete __all__."""

from __future__ import annotations

import promptkit


def test_all_is_sorted_and_complete():
    """__all__ is sorted and every public name of the package is in it."""
    assert promptkit.__all__ == sorted(promptkit.__all__)
    public = {name for name in dir(promptkit) if not name.startswith("_") and not isinstance(getattr(promptkit, name), type(promptkit))}
    assert public == set(promptkit.__all__)


def test_everything_exported_is_documented():
    """Every exported name appears in docs/api.md."""
    import re
    from pathlib import Path

    docs = (Path(__file__).parents[1] / "docs" / "api.md").read_text()
    missing = [name for name in promptkit.__all__ if not re.search(rf"`{name}[`(]", docs)]
    assert not missing, f"undocumented: {missing}"
