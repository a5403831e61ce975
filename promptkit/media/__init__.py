"""Media of multimodal prompts: the dataset's media policy, file reading with Pillow, descriptions for people."""

from promptkit.media.inspect import describe_media
from promptkit.media.policy import MEDIA_MODES, MediaPolicy, MediaResolver

__all__ = ["MEDIA_MODES", "MediaPolicy", "MediaResolver", "describe_media"]
