"""Upstream-side twins of ``miniagent.testing``'s fakes, written on langchain-core's BaseChatModel.

Differential tests and the notebooks run the same script through ``miniagent.testing.X`` and
``upstream_fakes.X`` (``side("upstream").X``) and compare what comes out. The
fakes here are written for this repository (they are not copies):

* ``FakeToolCallingModel`` has the semantics of the ``FakeToolCallingModel`` in
  langgraph-prebuilt 1.1.3's ``tests/model.py`` (the helper the upstream agent tests use).
* ``ScriptedChatModel`` has the semantics of ``miniagent.testing.ScriptedChatModel``: replies
  from a script, records calls, ``bind_tools`` in OpenAI format, and a ``_stream`` that keeps
  tool calls (tool-call chunks), so ``stream_mode="messages"`` shows them. It takes the script
  and cuts replies into chunks with the same helpers as ours (``next_scripted_response``,
  ``script_chunks``), given langchain-core's chunk class.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import Any, Literal

from langchain_core.language_models import BaseChatModel, LanguageModelInput
from langchain_core.messages import AIMessage, AIMessageChunk, BaseMessage, ToolCall
from langchain_core.outputs import ChatGeneration, ChatGenerationChunk, ChatResult
from langchain_core.runnables import Runnable, RunnableLambda
from langchain_core.tools import BaseTool
from langchain_core.utils.function_calling import convert_to_openai_tool
from langgraph.prebuilt.chat_agent_executor import StructuredResponse
from pydantic import BaseModel, Field

from miniagent.testing import next_scripted_response, script_chunks


class FakeToolCallingModel(BaseChatModel):
    """Echoes the prompt joined by ``-``, ids ``"0"``, ``"1"``, ...; tool calls cycle."""

    tool_calls: list[list[ToolCall]] | None = None
    structured_response: StructuredResponse | None = None
    index: int = 0
    tool_style: Literal["openai", "anthropic"] = "openai"

    def _generate(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: Any = None,
        **kwargs: Any,
    ) -> ChatResult:
        content = "-".join([m.content for m in messages])
        calls = self.tool_calls[self.index % len(self.tool_calls)] if self.tool_calls else []
        message = AIMessage(content=content, id=str(self.index), tool_calls=calls.copy())
        self.index += 1
        return ChatResult(generations=[ChatGeneration(message=message)])

    @property
    def _llm_type(self) -> str:
        return "fake-tool-call-model"

    def with_structured_output(
        self, schema: type[BaseModel]
    ) -> Runnable[LanguageModelInput, StructuredResponse]:
        if self.structured_response is None:
            raise ValueError("Structured response is not set")
        return RunnableLambda(lambda _: self.structured_response)

    def bind_tools(
        self,
        tools: Sequence[dict[str, Any] | type[BaseModel] | Callable | BaseTool],
        **kwargs: Any,
    ) -> Runnable[LanguageModelInput, BaseMessage]:
        if len(tools) == 0:
            raise ValueError("Must provide at least one tool")
        specs: list[dict[str, Any]] = []
        for tool in tools:
            if isinstance(tool, dict):
                specs.append(tool)
            elif not isinstance(tool, BaseTool):
                raise TypeError(
                    "Only BaseTool and dict is supported by FakeToolCallingModel.bind_tools"
                )
            elif self.tool_style == "openai":
                specs.append({"type": "function", "function": {"name": tool.name}})
            elif self.tool_style == "anthropic":
                specs.append({"name": tool.name})
        return self.bind(tools=specs)


class ScriptedChatModel(BaseChatModel):
    """Returns deep copies of ``responses`` in order and records every call."""

    responses: list[AIMessage]
    calls: list[dict[str, Any]] = Field(default_factory=list)

    def __init__(self, responses: Sequence[AIMessage], **data: Any) -> None:
        super().__init__(responses=list(responses), **data)

    def _next_response(self, messages: list[BaseMessage], kwargs: dict[str, Any]) -> AIMessage:
        return next_scripted_response(self.responses, self.calls, messages, kwargs)

    def _generate(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: Any = None,
        **kwargs: Any,
    ) -> ChatResult:
        message = self._next_response(messages, kwargs)
        return ChatResult(generations=[ChatGeneration(message=message)])

    def _stream(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: Any = None,
        **kwargs: Any,
    ) -> Iterator[ChatGenerationChunk]:
        for chunk in script_chunks(self._next_response(messages, kwargs), AIMessageChunk):
            yield ChatGenerationChunk(message=chunk)

    @property
    def _llm_type(self) -> str:
        return "scripted-chat-model"

    def bind_tools(
        self,
        tools: Sequence[dict[str, Any] | type | Callable | BaseTool],
        *,
        tool_choice: str | None = None,
        **kwargs: Any,
    ) -> Runnable[LanguageModelInput, AIMessage]:
        formatted = [t if isinstance(t, dict) else convert_to_openai_tool(t) for t in tools]
        if tool_choice:
            kwargs["tool_choice"] = tool_choice
        return self.bind(tools=formatted, **kwargs)
