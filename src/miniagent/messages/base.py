"""The base message class and content merging. Mirrors ``langchain_core/messages/base.py``."""

from __future__ import annotations

import sys
from typing import Any, Optional, Union

from pydantic import BaseModel, ConfigDict, Field

from miniagent.utils._merge import merge_lists


class BaseMessage(BaseModel):
    """Base class of all messages (langchain_core/messages/base.py:92).

    ``content`` may be given positionally: ``HumanMessage("hi")``. Unknown keyword arguments
    are kept as extra fields (``extra="allow"``), as upstream does.
    """

    content: Union[str, list[Union[str, dict[Any, Any]]]]
    additional_kwargs: dict[Any, Any] = Field(default_factory=dict)
    response_metadata: dict[Any, Any] = Field(default_factory=dict)
    type: str
    name: Optional[str] = None
    id: Optional[str] = Field(default=None, coerce_numbers_to_str=True)

    # Not upstream: defer_build builds the schema on first use, not at import (import time).
    model_config = ConfigDict(extra="allow", defer_build=True)

    def __init__(self, content: Any = None, **kwargs: Any) -> None:
        super().__init__(content=content, **kwargs)

    def __repr_args__(self) -> Any:
        """Hide fields that hold their default (langchain_core/load/serializable.py:221).

        Upstream compares a ``default_factory`` field against ``None``, so
        ``additional_kwargs={}`` and ``tool_calls=[]`` always show; ``name=None`` never does.
        """
        fields = type(self).model_fields
        return [
            (k, v)
            for k, v in super().__repr_args__()
            if k not in fields or _field_default(fields[k]) != v
        ]

    @property
    def text(self) -> str:
        """The string content, or the joined ``text`` blocks of list content (base.py:262)."""
        if isinstance(self.content, str):
            return self.content
        return "".join(
            block if isinstance(block, str) else block["text"]
            for block in self.content
            if isinstance(block, str)
            or (block.get("type") == "text" and isinstance(block.get("text"), str))
        )

    def pretty_repr(self, html: bool = False) -> str:
        """A title bar, the name if any, then the content (base.py:308)."""
        title = get_msg_title_repr(self.type.title() + " Message", bold=html)
        if self.name is not None:
            title += f"\nName: {self.name}"
        return f"{title}\n\n{self.content}"

    def pretty_print(self) -> None:
        """Print ``pretty_repr()``; bold title in Jupyter/IPython (base.py:343)."""
        print(self.pretty_repr(html=hasattr(sys, "ps2")))


def _field_default(field: Any) -> Any:
    # A default_factory is never called here: upstream treats it as None (serializable.py:75).
    return None if field.default_factory is not None else field.default


def merge_content(first_content: Any, *contents: Any) -> Any:
    """Concatenate string or list contents (langchain_core/messages/base.py:365)."""
    merged = "" if first_content is None else first_content
    if isinstance(merged, list):
        merged = merged.copy()
    for content in contents:
        if isinstance(merged, str):
            merged = merged + content if isinstance(content, str) else [merged, *content]
        elif isinstance(content, list):
            merged = merge_lists(merged, content)
        elif merged and isinstance(merged[-1], str):
            merged[-1] += content
        elif content == "":
            pass
        elif merged:
            merged.append(content)
    return merged


class BaseMessageChunk(BaseMessage):
    """Marks a streamed piece of a message (langchain_core/messages/base.py:411).

    Upstream has a chunk class per message type; the miniature only streams model output, so
    ``AIMessageChunk`` is the one subclass.
    """


def get_msg_title_repr(title: str, *, bold: bool = False) -> str:
    """Center ``title`` in an 80-column bar of ``=`` (langchain_core/messages/base.py:503)."""
    padded = " " + title + " "
    sep = "=" * ((80 - len(padded)) // 2)
    second_sep = sep + "=" if len(padded) % 2 else sep
    if bold:
        padded = f"\033[1m{padded}\033[0m"
    return f"{sep}{padded}{second_sep}"
