"""Human message. Mirrors ``langchain_core/messages/human.py``."""

from typing import Literal

from miniagent.messages.base import BaseMessage


class HumanMessage(BaseMessage):
    """A message from the user (langchain_core/messages/human.py:9)."""

    type: Literal["human"] = "human"
