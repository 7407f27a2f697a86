"""Watch the ReAct loop turn: ``python -m miniagent.demo``.

A scripted model answers a question with two tool calls, one after the other (the second
needs the first one's result), then a final answer. The demo streams the agent's updates and
prints them round by round: what the model said, which tools it called, what each tool
returned, and the final answer. No network, no API key: ``ScriptedChatModel`` plays the model.

A real model plays it only when you name one: ``MINIAGENT_MODEL=openai:<model>`` (resolved by
``miniagent.chat_models.init_chat_model``; set ``OPENAI_BASE_URL`` for Ollama, vLLM & co.). An
exported ``OPENAI_API_KEY`` alone changes nothing. The course tooling has the same switch
(``course_model``); this module may not import the course tooling, so ``main`` reads the
variable itself.

All wording is in ``TEXT`` below (``MINIAGENT_LANG=zh`` picks a translation once one is added;
missing keys fall back to English).
"""

from __future__ import annotations

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
    },
}

WIDTH = 100


def t(key: str, **kwargs: Any) -> str:
    """The text for ``key`` in the learner's language, formatted with ``kwargs``."""
    lang = os.environ.get("MINIAGENT_LANG", "en") or "en"
    text = TEXT.get(lang, {}).get(key, TEXT["en"][key])
    return text.format(**kwargs) if kwargs else text


def build_agent(model: Any = None) -> Any:
    """The agent: two tools and ``model``, by default one that follows a three-reply script."""
    from miniagent.messages import AIMessage
    from miniagent.prebuilt import create_react_agent
    from miniagent.testing import ScriptedChatModel
    from miniagent.tools import tool

    def find_city(landmark: str) -> str:
        return t("city")

    def check_weather(city: str) -> str:
        return t("forecast")

    find_city.__doc__, check_weather.__doc__ = t("find_city_doc"), t("check_weather_doc")
    model = model or ScriptedChatModel(
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
    return create_react_agent(model, [tool(find_city), tool(check_weather)]), model


def _line(label: str, indent: int = 4) -> list[str]:
    """``label`` wrapped to the page width; continuation lines align after the label column."""
    return textwrap.wrap(
        label, WIDTH, initial_indent=" " * indent, subsequent_indent=" " * (indent + 13)
    )


def _format_call(call: dict[str, Any]) -> str:
    args = ", ".join(f"{k}={v!r}" for k, v in call["args"].items())
    return f"{call['name']}({args})  [id {call['id']}]"


def render(model: Any = None) -> str:
    """The whole trace as one string (``main`` prints it)."""
    agent, model = build_agent(model)
    out = [t("title"), "=" * len(t("title")), ""]
    out += textwrap.wrap(f"{t('question_label')}: {t('question')}", WIDTH)
    nodes: list[str] = []
    state: dict[str, Any] = {}
    inputs = {"messages": [("user", t("question"))]}
    for mode, chunk in agent.stream(inputs, stream_mode=["updates", "values"]):
        if mode == "values":
            state = chunk
            continue
        seen = len(state.get("messages", ()))  # the state before this step: what the model saw
        for node, update in chunk.items():
            nodes.append(node)
            for message in update["messages"]:
                out += _describe(node, message, seen, rounds=nodes.count("agent"))
    final = state["messages"][-1].content
    out += ["", f"{t('final')}:"] + _line(final, indent=2)
    types = ", ".join(m.type for m in state["messages"])
    out += ["", t("state", n=len(state["messages"]), types=types)]
    out += [t("loop", path=" -> ".join(_collapse(nodes) + ["end"]))]
    return "\n".join(out)


def _describe(node: str, message: Any, seen: int, rounds: int) -> list[str]:
    """The lines for one message: a model turn opens a new round, a tool result belongs to it."""
    if node != "agent":
        return _line(t("tool_result", name=message.name, content=message.content))
    lines = ["", t("round", n=rounds)]
    lines += _line(t("model_sees", n=seen))
    lines += _line(t("model_said", text=message.content) if message.content else t("model_silent"))
    for call in message.tool_calls:
        lines += _line(t("tool_call", call=_format_call(call)))
    if not message.tool_calls:
        lines += _line(t("no_calls"))
    return lines


def _collapse(nodes: list[str]) -> list[str]:
    """``agent, tools, tools, agent`` -> ``agent, tools, agent`` (v2 runs one task per call)."""
    return [n for i, n in enumerate(nodes) if i == 0 or n != nodes[i - 1]]


def main() -> None:
    name = os.environ.get("MINIAGENT_MODEL", "").strip()  # only a named model is real
    model = None
    if name:
        from miniagent.chat_models import init_chat_model

        model = init_chat_model(name)
    sys.stdout.write(render(model) + "\n")


if __name__ == "__main__":
    main()
