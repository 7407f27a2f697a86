"""A chat model for OpenAI-compatible endpoints. Mirrors ``langchain_openai/__init__.py``.

``from miniagent.openai import ChatOpenAI``; the code is in ``chat_models/base.py``. The
``openai`` SDK it sends requests with is an optional extra (``miniagent[openai]``), imported
only when a request is sent.
"""

from miniagent.openai.chat_models import ChatOpenAI

__all__ = ["ChatOpenAI"]
