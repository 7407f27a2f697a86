"""Function message. Mirrors ``langchain_core/messages/function.py``."""

from typing import Literal

from miniagent.messages.base import BaseMessage


class FunctionMessage(BaseMessage):
    """The result of a function, in OpenAI's legacy function calling
    (langchain_core/messages/function.py:15).

    The older form of ``ToolMessage``: it names the function (``name`` is required) but has no
    ``tool_call_id``, so nothing ties it to one call of a reply. ``("function", "42")`` cannot
    become one (no name); ``{"role": "function", "name": "add", "content": "42"}`` can.
    Upstream's ``FunctionMessageChunk`` is left out: no model of the miniature streams one.
    """

    name: str

    type: Literal["function"] = "function"
