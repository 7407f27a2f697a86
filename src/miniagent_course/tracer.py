"""What exactly did the model see? A callback handler that records every model call.

Built on the callback protocol of miniagent's chat models (ARCHITECTURE.md, "Callbacks"):
``on_chat_model_start(serialized, messages, *, run_id, invocation_params, ...)``, upstream's
hook (``langchain_core/callbacks/base.py``), is called once per model call with the messages
as the model received them (after the prompt, the trimming, the middleware) and the call's
parameters, the bound ``tools`` and ``tool_choice`` among them.

For each call the tracer keeps the messages, the tools and the **provider payload**: the JSON
body of the Chat Completions request, built by the very code the real model sends it with
(``miniagent.openai.ChatOpenAI._get_request_payload``, langchain-openai's twin). So an offline
fake shows the request a real model would have received, and for ``ChatOpenAI`` the payload
is the body on the wire. Two notes: the payload is the one ``invoke`` sends; when a model
streams (``stream_mode="messages"``) its request also says ``"stream": true`` (and, against
OpenAI itself, ``"stream_options"``). A fake binds tools with its own plain ``bind_tools``,
so its ``tool_choice`` is the one given (``ChatOpenAI`` spells ``"any"`` as ``"required"``).

The API key is not among the parameters a model reports, so it never reaches a record.

    tracer = PayloadTracer()
    agent.invoke({"messages": [("user", "hi")]}, {"callbacks": [tracer]})
    print(tracer.calls[0].payload_json())
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

_NOT_REQUEST_PARAMETERS = ("model_name", "_type")  # what asdict() adds beside the settings


@dataclass
class ModelCall:
    """One model call: what the model saw."""

    run_id: Any
    model: str
    messages: list[Any]
    tools: list[dict[str, Any]]
    invocation_params: dict[str, Any]
    payload: dict[str, Any] | None
    payload_error: str | None = None
    metadata: dict[str, Any] = field(default_factory=dict)

    def payload_json(self, indent: int | None = 2) -> str:
        """The request body as JSON (non-ASCII kept, as the SDK sends it)."""
        return json.dumps(self.payload, ensure_ascii=False, indent=indent)


def request_payload(
    messages: list[Any], invocation_params: dict[str, Any], *, model: str | None = None
) -> dict[str, Any]:
    """The Chat Completions body for ``messages`` and a call's ``invocation_params``.

    The parameters of a ``ChatOpenAI`` call are its default request parameters plus the
    call's kwargs (``_get_invocation_params``), so a payload-only ``ChatOpenAI`` of the same
    model name, given them as kwargs, builds the same body. No key, no SDK, no network.
    """
    from miniagent.openai import ChatOpenAI

    params = dict(invocation_params)
    name = params.pop("model", None) or params.get("model_name") or model or params.get("_type")
    for key in _NOT_REQUEST_PARAMETERS:
        params.pop(key, None)
    stop = params.pop("stop", None)
    builder = ChatOpenAI(model=name, api_key="payload-only", stream_usage=False)
    return builder._get_request_payload(messages, stop=stop, **params)


class PayloadTracer:
    """Record every chat-model call of a run: messages, tools, provider payload.

    Pass it as a callback: ``agent.invoke(inputs, {"callbacks": [tracer]})``. ``model`` names
    the model in a fake's payload (a fake has no model name; by default its ``_llm_type``).
    """

    def __init__(self, model: str | None = None) -> None:
        self.model = model
        self.calls: list[ModelCall] = []

    def on_chat_model_start(
        self,
        serialized: dict[str, Any],
        messages: list[list[Any]],
        *,
        run_id: Any,
        invocation_params: dict[str, Any] | None = None,
        metadata: dict[str, Any] | None = None,
        **kwargs: Any,
    ) -> None:
        params = dict(invocation_params or {})
        batch = list(messages[0])
        try:
            payload, error = request_payload(batch, params, model=self.model), None
        except Exception as e:  # a tracer reports; it never breaks the run
            payload, error = None, f"{type(e).__name__}: {e}"
        self.calls.append(
            ModelCall(
                run_id=run_id,
                model=serialized.get("name", ""),
                messages=batch,
                tools=list(params.get("tools") or []),
                invocation_params=params,
                payload=payload,
                payload_error=error,
                metadata=dict(metadata or {}),
            )
        )

    def payloads(self) -> list[dict[str, Any] | None]:
        """Every call's payload, in call order."""
        return [call.payload for call in self.calls]

    def to_json(self, indent: int | None = 2) -> str:
        """All payloads as one JSON list."""
        return json.dumps(self.payloads(), ensure_ascii=False, indent=indent)
