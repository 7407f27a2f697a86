"""System message. Mirrors ``langchain_core/messages/system.py``."""

from typing import Literal

from miniagent.messages.base import BaseMessage


class SystemMessage(BaseMessage):
    """Instructions for the model (langchain_core/messages/system.py:9)."""

    type: Literal["system"] = "system"
