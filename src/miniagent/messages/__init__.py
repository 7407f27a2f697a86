"""Chat messages: the data that flows between a user, a chat model and tools.

Mirrors ``langchain_core/messages/`` (langchain-core 1.8.3), module by module: ``base.py``
(``BaseMessage``), ``system.py``, ``human.py``, ``ai.py`` (``AIMessage``, ``AIMessageChunk``,
token usage), ``tool.py`` (``ToolMessage``, tool calls), ``function.py`` (``FunctionMessage``,
the legacy form of a tool result), ``modifier.py`` (``RemoveMessage``) and ``utils.py``
(``AnyMessage``, ``convert_to_messages``). Streaming merges chunks with
``miniagent/utils/_merge.py`` and reads partial JSON with ``miniagent/utils/json.py``.
A message is a pydantic model; its ``repr`` hides fields that still hold their default, exactly
like upstream, so a miniagent message prints the same as a LangChain one.

Left out on purpose: ``ChatMessage`` and the ``*MessageChunk`` classes other than
``AIMessageChunk``, ``content_blocks`` (the v1 standard-content view) and
``BaseMessage + other`` building a prompt template.
"""

from miniagent.messages.ai import (
    AIMessage,
    AIMessageChunk,
    InputTokenDetails,
    OutputTokenDetails,
    UsageMetadata,
)
from miniagent.messages.base import (
    BaseMessage,
    BaseMessageChunk,
    get_msg_title_repr,
    merge_content,
)
from miniagent.messages.function import FunctionMessage
from miniagent.messages.human import HumanMessage
from miniagent.messages.modifier import REMOVE_ALL_MESSAGES, RemoveMessage
from miniagent.messages.system import SystemMessage
from miniagent.messages.tool import (
    InvalidToolCall,
    ToolCall,
    ToolCallChunk,
    ToolMessage,
    default_tool_chunk_parser,
    default_tool_parser,
    invalid_tool_call,
    tool_call,
    tool_call_chunk,
)
from miniagent.messages.utils import (
    AnyMessage,
    MessageLikeRepresentation,
    convert_to_messages,
    message_chunk_to_message,
)
from miniagent.utils._merge import merge_dicts as merge_dicts  # importable here before the split
from miniagent.utils._merge import merge_lists as merge_lists
from miniagent.utils.json import parse_partial_json as parse_partial_json
from miniagent.utils.utils import LC_AUTO_PREFIX, LC_ID_PREFIX

__all__ = [
    "AIMessage",
    "AIMessageChunk",
    "AnyMessage",
    "BaseMessage",
    "BaseMessageChunk",
    "FunctionMessage",
    "HumanMessage",
    "InputTokenDetails",
    "InvalidToolCall",
    "LC_AUTO_PREFIX",
    "LC_ID_PREFIX",
    "MessageLikeRepresentation",
    "OutputTokenDetails",
    "REMOVE_ALL_MESSAGES",
    "RemoveMessage",
    "SystemMessage",
    "ToolCall",
    "ToolCallChunk",
    "ToolMessage",
    "UsageMetadata",
    "convert_to_messages",
    "default_tool_chunk_parser",
    "default_tool_parser",
    "get_msg_title_repr",
    "invalid_tool_call",
    "merge_content",
    "message_chunk_to_message",
    "tool_call",
    "tool_call_chunk",
]
