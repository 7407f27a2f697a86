"""Watch the ReAct loop turn: ``python -m miniagent.demo``.

A scripted model answers a question with two tool calls, one after the other (the second
needs the first one's result), then a final answer. The demo streams the agent's updates and
prints them round by round: what the model said, which tools it called, what each tool
returned, and the final answer. No network, no API key: ``ScriptedChatModel`` plays the model.

``python -m miniagent.demo --agent create_agent`` runs the same story through ``create_agent``
with two middleware: ``ModelCallLimitMiddleware(run_limit=3)`` and a small logging middleware
(every hook kind). It prints the graph's nodes, then each node as it runs, with the lines the
logging hooks wrote inside it: the hook order, and what the limit counts.

A real model plays it only when you name one: ``MINIAGENT_MODEL=openai:<model>`` (resolved by
``miniagent.chat_models.init_chat_model``; set ``OPENAI_BASE_URL`` for Ollama, vLLM & co.). An
exported ``OPENAI_API_KEY`` alone changes nothing. The course tooling has the same switch
(``course_model``); this module may not import the course tooling, so ``main`` reads the
variable itself.

All wording is in ``TEXT`` below (``MINIAGENT_LANG=zh`` picks a translation once one is added;
missing keys fall back to English).
"""

from __future__ import annotations

import argparse
import os
import sys
import textwrap
from typing import Any

TEXT: dict[str, dict[str, str]] = {
    "en": {
        # the story the scripted model plays
        "question": "Where is the Eiffel Tower, and what is the weather like there?",
        "landmark": "Eiffel Tower",
        "city": "Paris",
        "forecast": "sunny, 21 °C",
        "say_1": "First I need to know which city the Eiffel Tower is in.",
        "say_2": "It is in Paris. Now let me check the weather there.",
        "answer": "The Eiffel Tower is in Paris, where it is sunny and 21 °C right now.",
        "find_city_doc": "Return the city a famous landmark is in.",
        "check_weather_doc": "Return the current weather in a city.",
        # the printed trace
        "title": "miniagent demo: the ReAct loop, round by round",
        "question_label": "Question",
        "round": "Round {n}",
        "model_sees": "model sees   {n} message(s)",
        "model_said": "model said   {text}",
        "model_silent": "model said   (nothing -- only tool calls)",
        "tool_call": "tool call    {call}",
        "tool_result": "tool result  {name} -> {content}",
        "no_calls": "no tool calls: the loop ends here",
        "final": "Final answer",
        "state": "State after the run: {n} messages ({types})",
        "loop": "The path through the graph: {path}",
        # --agent create_agent
        "agent_help": "which agent runs the story: react (create_react_agent, the default) "
        "or create_agent (create_agent with middleware)",
        "mw_title": "miniagent demo: create_agent with middleware, node by node",
        "mw_stack": "Middleware: {names} (before hooks run in this order, after hooks reversed)",
        "mw_nodes": "Graph nodes: {nodes}",
        "mw_node": "[{node}]",
        "mw_no_update": "no state update: go on",
        "mw_set": "sets {channel} = {value}",
        "log_before_agent": "log  before_agent: the run starts with {n} message(s)",
        "log_before_model": "log  before_model: the model will see {n} message(s)",
        "log_wrap_model_in": "log  wrap_model_call: -> handler (the model, {n} tool(s) bound)",
        "log_wrap_model_out": "log  wrap_model_call: <- {n} tool call(s)",
        "log_after_model": "log  after_model: the state now holds {n} message(s)",
        "log_wrap_tool": "log  wrap_tool_call: {name} -> handler",
        "log_after_agent": "log  after_agent: the run ends with {n} message(s)",
    },
}

WIDTH = 100


def t(key: str, **kwargs: Any) -> str:
    """The text for ``key`` in the learner's language, formatted with ``kwargs``."""
    lang = os.environ.get("MINIAGENT_LANG", "en") or "en"
    text = TEXT.get(lang, {}).get(key, TEXT["en"][key])
    return text.format(**kwargs) if kwargs else text


def _story_tools() -> list[Any]:
    """The two tools of the story, their docstrings from ``TEXT``."""
    from miniagent.tools import tool

    def find_city(landmark: str) -> str:
        return t("city")

    def check_weather(city: str) -> str:
        return t("forecast")

    find_city.__doc__, check_weather.__doc__ = t("find_city_doc"), t("check_weather_doc")
    return [tool(find_city), tool(check_weather)]


def _story_model() -> Any:
    """A model that follows the story's three-reply script."""
    from miniagent.messages import AIMessage
    from miniagent.testing import ScriptedChatModel

    return ScriptedChatModel(
        [
            AIMessage(
                t("say_1"),
                id="ai-1",
                tool_calls=[
                    {"name": "find_city", "args": {"landmark": t("landmark")}, "id": "call_1"}
                ],
            ),
            AIMessage(
                t("say_2"),
                id="ai-2",
                tool_calls=[{"name": "check_weather", "args": {"city": t("city")}, "id": "call_2"}],
            ),
            AIMessage(t("answer"), id="ai-3"),
        ]
    )


def build_agent(model: Any = None) -> Any:
    """The agent: two tools and ``model``, by default one that follows a three-reply script."""
    from miniagent.prebuilt import create_react_agent

    model = model or _story_model()
    return create_react_agent(model, _story_tools()), model


def _line(label: str, indent: int = 4) -> list[str]:
    """``label`` wrapped to the page width; continuation lines align after the label column."""
    return textwrap.wrap(
        label, WIDTH, initial_indent=" " * indent, subsequent_indent=" " * (indent + 13)
    )


def _format_call(call: dict[str, Any]) -> str:
    args = ", ".join(f"{k}={v!r}" for k, v in call["args"].items())
    return f"{call['name']}({args})  [id {call['id']}]"


def render(model: Any = None, config: dict[str, Any] | None = None) -> str:
    """The whole trace as one string (``main`` prints it); ``config`` goes to ``stream``."""
    agent, model = build_agent(model)
    out = [t("title"), "=" * len(t("title")), ""]
    out += textwrap.wrap(f"{t('question_label')}: {t('question')}", WIDTH)
    nodes: list[str] = []
    state: dict[str, Any] = {}
    inputs = {"messages": [("user", t("question"))]}
    for mode, chunk in agent.stream(inputs, config, stream_mode=["updates", "values"]):
        if mode == "values":
            state = chunk
            continue
        seen = len(state.get("messages", ()))  # the state before this step: what the model saw
        for node, update in chunk.items():
            nodes.append(node)
            for message in update["messages"]:
                out += _describe(node, message, seen, rounds=nodes.count("agent"))
    out += _summary(state)
    out += [t("loop", path=" -> ".join(_collapse(nodes) + ["end"]))]
    return "\n".join(out)


def _summary(state: dict[str, Any]) -> list[str]:
    """The final answer and what the state holds after the run."""
    final = state["messages"][-1].content
    out = ["", f"{t('final')}:"] + _line(final, indent=2)
    types = ", ".join(m.type for m in state["messages"])
    return out + ["", t("state", n=len(state["messages"]), types=types)]


def _describe(node: str, message: Any, seen: int, rounds: int) -> list[str]:
    """The lines for one message: a model turn opens a new round, a tool result belongs to it."""
    if node != "agent":
        return _line(t("tool_result", name=message.name, content=message.content))
    return ["", t("round", n=rounds), *_model_turn(message, seen)]


def _model_turn(message: Any, seen: int) -> list[str]:
    """What the model saw (a count), said and called."""
    lines = _line(t("model_sees", n=seen))
    lines += _line(t("model_said", text=message.content) if message.content else t("model_silent"))
    for call in message.tool_calls:
        lines += _line(t("tool_call", call=_format_call(call)))
    if not message.tool_calls:
        lines += _line(t("no_calls"))
    return lines


def _collapse(nodes: list[str]) -> list[str]:
    """``agent, tools, tools, agent`` -> ``agent, tools, agent`` (v2 runs one task per call)."""
    return [n for i, n in enumerate(nodes) if i == 0 or n != nodes[i - 1]]


# ---- --agent create_agent: the same story through create_agent, with middleware ---------------

RUN_LIMIT = 3  # the story needs three model calls; a real model that wanders is stopped


def build_middleware_agent(model: Any = None) -> tuple[Any, Any, list[str]]:
    """``create_agent`` with ``ModelCallLimitMiddleware`` and a logging middleware that
    overrides every hook kind; returns the agent, the model and the log the hooks write to."""
    from miniagent.agents import create_agent
    from miniagent.agents.middleware import AgentMiddleware, ModelCallLimitMiddleware

    log: list[str] = []

    class LogMiddleware(AgentMiddleware):
        """Writes one line per hook; changes nothing."""

        def before_agent(self, state: Any, runtime: Any) -> None:
            log.append(t("log_before_agent", n=len(state["messages"])))

        def before_model(self, state: Any, runtime: Any) -> None:
            log.append(t("log_before_model", n=len(state["messages"])))

        def wrap_model_call(self, request: Any, handler: Any) -> Any:
            log.append(t("log_wrap_model_in", n=len(request.tools)))
            response = handler(request)
            log.append(t("log_wrap_model_out", n=len(response.result[-1].tool_calls)))
            return response

        def after_model(self, state: Any, runtime: Any) -> None:
            log.append(t("log_after_model", n=len(state["messages"])))

        def wrap_tool_call(self, request: Any, handler: Any) -> Any:
            log.append(t("log_wrap_tool", name=request.tool_call["name"]))
            return handler(request)

        def after_agent(self, state: Any, runtime: Any) -> None:
            log.append(t("log_after_agent", n=len(state["messages"])))

    model = model or _story_model()
    middleware = [ModelCallLimitMiddleware(run_limit=RUN_LIMIT), LogMiddleware()]
    return create_agent(model, _story_tools(), middleware=middleware), model, log


def render_create_agent(model: Any = None, config: dict[str, Any] | None = None) -> str:
    """The ``create_agent`` run node by node, with the log lines each node's hooks wrote."""
    agent, model, log = build_middleware_agent(model)
    out = [t("mw_title"), "=" * len(t("mw_title")), ""]
    out += textwrap.wrap(f"{t('question_label')}: {t('question')}", WIDTH)
    stack = f"ModelCallLimitMiddleware(run_limit={RUN_LIMIT}), LogMiddleware"  # list order
    out += textwrap.wrap(t("mw_stack", names=stack), WIDTH)
    nodes = ", ".join(n for n in agent.nodes if n != "__start__")
    out += textwrap.wrap(t("mw_nodes", nodes=nodes), WIDTH, subsequent_indent="    ")
    state: dict[str, Any] = {}
    inputs = {"messages": [("user", t("question"))]}
    for mode, chunk in agent.stream(inputs, config, stream_mode=["updates", "values"]):
        if mode == "values":
            state = chunk
            continue
        seen = len(state.get("messages", ()))
        for node, update in chunk.items():
            out += ["", t("mw_node", node=node)]
            out += [line for entry in log for line in _line(entry)]  # written inside this node
            log.clear()
            out += _node_update(node, update, seen)
    return "\n".join(out + _summary(state))


def _node_update(node: str, update: dict[str, Any] | None, seen: int) -> list[str]:
    """What one node wrote to the state: messages described, other keys shown."""
    if not update:
        return _line(t("mw_no_update"))
    lines: list[str] = []
    for key, value in update.items():
        if key != "messages":
            lines += _line(t("mw_set", channel=key, value=repr(value)))
            continue
        for message in value:
            if node == "model":
                lines += _model_turn(message, seen)
            elif message.type == "tool":
                lines += _line(t("tool_result", name=message.name, content=message.content))
            else:
                lines += _line(f"{message.type}: {message.content}")
    return lines


RENDERERS = {"react": render, "create_agent": render_create_agent}


def named_model() -> Any:
    """The model named in ``MINIAGENT_MODEL`` (``openai:<model>``), else ``None``: only a
    named model is real (the course's ``course_model`` switch, read here without the course
    tooling)."""
    name = os.environ.get("MINIAGENT_MODEL", "").strip()
    if not name:
        return None
    from miniagent.chat_models import init_chat_model

    return init_chat_model(name)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m miniagent.demo")
    parser.add_argument("--agent", choices=list(RENDERERS), default="react", help=t("agent_help"))
    args = parser.parse_args(argv)
    sys.stdout.write(RENDERERS[args.agent](named_model()) + "\n")


if __name__ == "__main__":
    main()
