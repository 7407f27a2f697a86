"""``init_chat_model``: a chat model from a ``"provider:model"`` string.

Mirrors ``langchain/chat_models/__init__.py`` (langchain 1.5.2); the code is in ``base.py``.
"""

from miniagent.chat_models.base import init_chat_model

__all__ = ["init_chat_model"]
