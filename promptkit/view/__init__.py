"""The browser view: rendered prompts as one self-contained HTML page (``promptkit view``)."""

from promptkit.view.page import HtmlView

__all__ = ["HtmlView"]
