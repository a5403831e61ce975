"""Hugging Face chat templates, rendered byte-identically to ``transformers``' ``apply_chat_template``."""

from promptkit.chat_templates.template import SPECIAL_TOKEN_NAMES, BoundChatTemplate, ChatTemplate, FolderTokens

__all__ = ["SPECIAL_TOKEN_NAMES", "BoundChatTemplate", "ChatTemplate", "FolderTokens"]
