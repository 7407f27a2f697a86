"""Mirrors ``langchain_openai/chat_models/__init__.py``."""

from miniagent.openai.chat_models.base import ChatOpenAI

__all__ = ["ChatOpenAI"]
