"""A provider's errors reach the caller as upstream's: miniagent's ChatOpenAI and langchain-openai's.

The loopback server (``tests/runtime/sides/loopback.py``) answers with each failure a provider
reports: a 400, a context overflow, 401, 403, 404, 422, 429, 500, a server error that names the
context window, a closed port and a timeout. For ``invoke`` and ``stream``, both libraries must
raise the same class (``OpenAIAuthenticationError``...), a subclass of the same ``openai`` SDK
classes and of the same langchain-core ``ModelError`` family (``miniagent.exceptions`` on our
side), with the same ``is_retryable``, message, status, body and cause. Then the retry
middleware, which asks ``is_retryable`` (``_retry.default_retry_on``): how many requests the
server receives before the run gives up must be equal, e.g. one for a 401, three for a 429.
"""

from __future__ import annotations

import json
from types import SimpleNamespace
from typing import Any

import pytest

pytest.importorskip("langchain_openai")

import langchain_core.exceptions as up_exceptions  # noqa: E402
import openai  # noqa: E402
from langchain.agents import create_agent as up_create_agent  # noqa: E402
from langchain.agents.middleware import ModelRetryMiddleware as UpModelRetry  # noqa: E402
from langchain.agents.middleware import ToolRetryMiddleware as UpToolRetry  # noqa: E402
from langchain_core.messages import AIMessage as UpAIMessage  # noqa: E402
from langchain_core.tools import tool as up_tool  # noqa: E402
from langchain_openai import ChatOpenAI as UpChatOpenAI  # noqa: E402
from sides.loopback import LoopbackServer, Reply, closed_port_url, completion  # noqa: E402
from sides.upstream_fakes import ScriptedChatModel as UpScripted  # noqa: E402

import miniagent.exceptions as mini_exceptions  # noqa: E402
from miniagent.agents import create_agent as mini_create_agent  # noqa: E402
from miniagent.agents.middleware import ModelRetryMiddleware as MiniModelRetry  # noqa: E402
from miniagent.agents.middleware import ToolRetryMiddleware as MiniToolRetry  # noqa: E402
from miniagent.messages import AIMessage as MiniAIMessage  # noqa: E402
from miniagent.openai import ChatOpenAI as MiniChatOpenAI  # noqa: E402
from miniagent.testing import ScriptedChatModel  # noqa: E402
from miniagent.tools import tool as mini_tool  # noqa: E402

MINI = SimpleNamespace(
    ChatOpenAI=MiniChatOpenAI,
    exceptions=mini_exceptions,
    create_agent=mini_create_agent,
    ModelRetry=MiniModelRetry,
    ToolRetry=MiniToolRetry,
    AIMessage=MiniAIMessage,
    Scripted=ScriptedChatModel,
    tool=mini_tool,
)
UP = SimpleNamespace(
    ChatOpenAI=UpChatOpenAI,
    exceptions=up_exceptions,
    create_agent=up_create_agent,
    ModelRetry=UpModelRetry,
    ToolRetry=UpToolRetry,
    AIMessage=UpAIMessage,
    Scripted=UpScripted,
    tool=up_tool,
)
SIDES = {"mini": MINI, "up": UP}

FAMILY = (
    "LangChainException",
    "ModelError",
    "ModelAuthenticationError",
    "ModelPermissionDeniedError",
    "ModelInvalidRequestError",
    "ModelNotFoundError",
    "ModelRateLimitError",
    "ModelAPIError",
    "ModelConnectionError",
    "ModelTimeoutError",
    "ContextOverflowError",
)

OLD_OVERFLOW = (
    "This model's maximum context length is 128000 tokens. However, your messages resulted in "
    "130017 tokens. Please reduce the length of the messages."
)

# failure -> (the server's reply, None for a closed port; upstream's class, for the reader)
FAILURES: dict[str, tuple[Any, str]] = {
    "400": (lambda: Reply.error(400, "Invalid value: 'temperature'"), "OpenAIInvalidRequestError"),
    "context": (Reply.context_overflow, "OpenAIContextOverflowError"),
    # the code alone is not in the SDK's message, so upstream reads a plain invalid request
    "context_by_code_only": (
        lambda: Reply.context_overflow(OLD_OVERFLOW),
        "OpenAIInvalidRequestError",
    ),
    "401": (lambda: Reply.error(401, "Incorrect API key provided"), "OpenAIAuthenticationError"),
    "403": (lambda: Reply.error(403, "Project has no access"), "OpenAIPermissionDeniedError"),
    "404": (lambda: Reply.error(404, "The model does not exist"), "OpenAIModelNotFoundError"),
    "422": (lambda: Reply.error(422, "Unprocessable"), "UnprocessableEntityError"),
    "429": (lambda: Reply.error(429, "Rate limit reached"), "OpenAIRateLimitError"),
    "500": (lambda: Reply.error(500, "The server had an error"), "OpenAIAPIError"),
    "500_context_window": (
        lambda: Reply.error(500, "Your input exceeds the context window of this model"),
        "OpenAIAPIContextOverflowError",
    ),
    "connection": (None, "OpenAIConnectionError"),
    "timeout": (
        lambda: Reply(delay=2.0, body=json.dumps(completion("late")).encode()),
        "OpenAITimeoutError",
    ),
}

RETRYABLE = {"429", "500", "connection", "timeout"}
"""The failures whose error ``is_retryable`` (langchain-core: rate limit, 5xx, connection,
timeout); a 422 is no ``ModelError`` at all (upstream re-raises the SDK's own error)."""


def test_the_model_error_family_is_langchain_cores():
    """``miniagent.exceptions``: the same classes, bases and ``is_retryable`` as upstream's."""

    def family(module: Any) -> dict[str, Any]:
        return {
            name: ([b.__name__ for b in cls.__bases__], cls.is_retryable)
            for name, cls in vars(module).items()
            if isinstance(cls, type) and issubclass(cls, module.ModelError)
        }

    assert family(mini_exceptions) == family(up_exceptions)
    assert issubclass(mini_exceptions.ModelError, mini_exceptions.LangChainException)
    refusal = {"type": "refusal", "refusal": "No.", "extras": {"category": "cyber"}}
    for ns in (MINI, UP):
        message = ns.AIMessage("")
        error = ns.exceptions.ModelRefusalError.from_refusal(refusal, raw_message=message)
        assert str(error) == "Model refused to produce the requested output (category='cyber'): No."
        assert error.raw_message is message
        assert str(ns.exceptions.ModelRefusalError()) == (
            "Model refused to produce the requested output"
        )


SHORT = 0.5  # the client's timeout in the timeout case (the server waits 2 s); else 30 s


def _model(ns: SimpleNamespace, base_url: str, timeout: float = 30.0) -> Any:
    return ns.ChatOpenAI(
        model="loop-model", base_url=base_url, api_key="sk-test", max_retries=0, timeout=timeout
    )


def observe(ns: SimpleNamespace, error: BaseException) -> dict[str, Any]:
    """What a caller can see of a provider error."""
    kind = type(error)
    return {
        "class": kind.__name__,
        "qualname": kind.__qualname__,
        "family": [name for name in FAMILY if isinstance(error, getattr(ns.exceptions, name))],
        "is_retryable": getattr(error, "is_retryable", "-"),
        "sdk_bases": [c.__name__ for c in kind.__mro__ if c.__module__.startswith("openai")],
        "message": str(error),
        "status_code": getattr(error, "status_code", None),
        "body": getattr(error, "body", None),
        "code": getattr(error, "code", None),
        "cause": type(error.__cause__).__name__ if error.__cause__ else None,
    }


def raise_each(ns: SimpleNamespace, streamed: bool) -> dict[str, dict[str, Any]]:
    """Every failure once, through one server (and a closed port), as ``observe`` sees it."""
    seen: dict[str, dict[str, Any]] = {}
    with LoopbackServer() as server:
        for name, (reply, _) in FAILURES.items():
            if reply is None:
                model = _model(ns, closed_port_url())
            else:
                server.script(reply())
                model = _model(ns, server.base_url, SHORT if name == "timeout" else 30.0)
            with pytest.raises(Exception) as info:  # noqa: PT011 (any: that is the question)
                if streamed:
                    list(model.stream("hi"))
                else:
                    model.invoke("hi")
            seen[name] = observe(ns, info.value)
    return seen


@pytest.mark.parametrize("streamed", [False, True], ids=["invoke", "stream"])
def test_each_provider_failure_raises_upstreams_error(streamed: bool):
    mini, up = raise_each(MINI, streamed), raise_each(UP, streamed)
    for name in FAILURES:
        assert mini[name] == up[name], name
    # what the two libraries agree on, spelled out
    assert {name: up[name]["class"] for name in FAILURES} == {
        name: expected for name, (_, expected) in FAILURES.items()
    }
    retryable = {name for name in FAILURES if up[name]["is_retryable"] is True}
    assert retryable == RETRYABLE
    assert up["401"]["family"] == ["LangChainException", "ModelError", "ModelAuthenticationError"]
    assert up["401"]["sdk_bases"][0] == "AuthenticationError"  # an `except openai.X` still works
    assert up["context"]["family"][-1] == "ContextOverflowError"
    assert up["422"]["family"] == [] and up["422"]["cause"] is None  # the SDK's own error
    assert up["timeout"]["message"] == "Request timed out."


def test_the_error_classes_are_one_set_per_library():
    """``except OpenAIRateLimitError`` catches what a request raises, and the class is the
    module's: defined once (when the SDK is first imported), looked up by name."""
    from miniagent.openai.chat_models import base

    with LoopbackServer([Reply.error(429, "slow down")]) as server:
        with pytest.raises(base.OpenAIRateLimitError) as info:
            _model(MINI, server.base_url).invoke("hi")
    assert isinstance(info.value, openai.RateLimitError)
    assert isinstance(info.value, mini_exceptions.ModelRateLimitError)
    assert type(info.value).__module__ == "miniagent.openai.chat_models.base"
    with pytest.raises(AttributeError):
        base.OpenAINoSuchError  # noqa: B018


# ---- the retry middleware asks is_retryable ---------------------------------------------------


def _agent_run(ns: SimpleNamespace, base_url: str, on_failure: str, timeout: float = 30.0) -> Any:
    retry = ns.ModelRetry(max_retries=2, initial_delay=0, jitter=False, on_failure=on_failure)
    agent = ns.create_agent(_model(ns, base_url, timeout), tools=[], middleware=[retry])
    try:
        out = agent.invoke({"messages": [("user", "hi")]})
    except Exception as e:  # noqa: BLE001 (which one is the observation)
        return ["raised", type(e).__name__]
    return ["answered", out["messages"][-1].content]


def model_retries(
    ns: SimpleNamespace, on_failure: str, cases: list[str]
) -> dict[str, tuple[int, Any]]:
    """Per failure: how many requests the server received, and how the run ended."""
    seen = {}
    with LoopbackServer() as server:
        for name in cases:
            reply, _ = FAILURES[name]
            server.replies.clear()  # what a run that gave up early left over
            server.script(*(reply() for _ in range(3)))
            before = len(server.bodies)
            ended = _agent_run(ns, server.base_url, on_failure)
            seen[name] = (len(server.bodies) - before, ended)
    return seen


RETRY_CASES = {
    "continue": ["400", "context", "401", "403", "404", "422", "429", "500", "500_context_window"],
    "error": ["context", "401", "422", "429", "500"],
}


@pytest.mark.parametrize("on_failure", ["continue", "error"])
def test_model_retry_middleware_retries_what_upstreams_retries(on_failure: str):
    cases = RETRY_CASES[on_failure]
    mini, up = model_retries(MINI, on_failure, cases), model_retries(UP, on_failure, cases)
    assert mini == up
    # a rejected key is not retried, and never reaches on_failure: the run raises at once
    assert up["401"] == (1, ["raised", "OpenAIAuthenticationError"])
    assert up["context"] == (1, ["raised", "OpenAIContextOverflowError"])
    # a rate limit or a server error is tried 1 + max_retries times
    assert up["429"][0] == up["500"][0] == 3
    assert up["422"][0] == 3  # no ModelError: default_retry_on retries any other exception
    if on_failure == "error":
        assert up["429"] == (3, ["raised", "OpenAIRateLimitError"])
    else:
        assert up["429"][1] == [
            "answered",
            "Model call failed after 3 attempts with OpenAIRateLimitError: "
            "Error code: 429 - Rate limit reached",
        ]


def test_a_closed_port_and_a_timeout_are_retried():
    def tries(ns: SimpleNamespace) -> list[Any]:
        runs = [_agent_run(ns, closed_port_url(), "continue")]
        with LoopbackServer([FAILURES["timeout"][0]() for _ in range(3)]) as server:
            runs.append(_agent_run(ns, server.base_url, "continue", SHORT))
            runs.append(len(server.bodies))
        return runs

    mini, up = tries(MINI), tries(UP)
    assert mini == up
    assert up[0][1].startswith("Model call failed after 3 attempts with OpenAIConnectionError")
    assert up[2] == 3


def tool_retries(ns: SimpleNamespace, name: str) -> tuple[int, Any]:
    """A tool that calls a model behind the server; ToolRetryMiddleware's default retry_on."""
    reply, _ = FAILURES[name]
    with LoopbackServer([reply() for _ in range(3)]) as server:

        def summarize(text: str) -> str:
            """Summarize a text with a second model."""
            return _model(ns, server.base_url).invoke(text).content

        call = {"name": "summarize", "args": {"text": "long"}, "id": "c1", "type": "tool_call"}
        model = ns.Scripted([ns.AIMessage("", tool_calls=[call]), ns.AIMessage("done")])
        retry = ns.ToolRetry(max_retries=2, initial_delay=0, jitter=False)
        agent = ns.create_agent(model, tools=[ns.tool(summarize)], middleware=[retry])
        try:
            out = agent.invoke({"messages": [("user", "hi")]})
            ended = [[m.type, m.content] for m in out["messages"][2:]]
        except Exception as e:  # noqa: BLE001 (which one is the observation)
            ended = ["raised", type(e).__name__]
        return len(server.bodies), ended


def test_tool_retry_middleware_has_the_same_default():
    mini = {name: tool_retries(MINI, name) for name in ("401", "429")}
    up = {name: tool_retries(UP, name) for name in ("401", "429")}
    assert mini == up
    assert up["401"] == (1, ["raised", "OpenAIAuthenticationError"])
    assert up["429"][0] == 3
    assert up["429"][1][0] == [
        "tool",
        "Tool 'summarize' failed after 3 attempts with OpenAIRateLimitError: "
        "Error code: 429 - Rate limit reached. Please try again.",
    ]
