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
(``course_model``); this module may not import the course tooling, so the course's real-model
settings live here, at the end, and the course's ``course_model`` uses them: the timeout and retries
(``MINIAGENT_TIMEOUT``, ``MINIAGENT_MAX_RETRIES``; never ``ChatOpenAI``'s own defaults, which stay
upstream's), the one banner line that names the model and the URL (the key is never shown), and
a failure told in two lines, what went wrong and the fix (``--traceback`` or
``MINIAGENT_TRACEBACK=1`` adds the traceback, with the key blanked out).

All wording is in ``TEXT`` below: English, and Simplified Chinese (``MINIAGENT_LANG=zh``, or a
Chinese locale such as ``LANG=zh_CN.UTF-8``, as for the course tooling); a missing key falls back
to English. Lines wrap by terminal columns, a 汉字 taking two.
"""

from __future__ import annotations

import argparse
import os
import sys
import textwrap
import unicodedata
from collections.abc import Callable
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
        "question_line": "{label}: {question}",
        "round": "Round {n}",
        "model_sees": "model sees   {n} message(s)",
        "model_said": "model said   {text}",
        "model_silent": "model said   (nothing -- only tool calls)",
        "tool_call": "tool call    {call}",
        "tool_result": "tool result  {name} -> {content}",
        "no_calls": "no tool calls: the loop ends here",
        "final": "Final answer",
        "final_line": "{label}:",
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
        # --help
        "help_description": "Watch an agent's loop turn: a scripted model answers a question with "
        "two tool calls, and every round is printed. Offline, no key: a real model plays only "
        "when MINIAGENT_MODEL names one.",
        "help_traceback": "when a real model fails, print the full traceback too (the key blanked "
        "out); MINIAGENT_TRACEBACK=1 does the same",
        "help_variables": """a real model (optional; any OpenAI-compatible endpoint):
  MINIAGENT_MODEL=openai:<model>   the model that plays the story (unset: the scripted fake)
  OPENAI_BASE_URL=<url>            its endpoint, e.g. http://localhost:11434/v1 (Ollama);
                                   unset: https://api.openai.com/v1
  OPENAI_API_KEY=<key>             the key it expects (a local server takes any dummy value);
                                   never printed
  MINIAGENT_TIMEOUT=<seconds>      how long one request may take (default {timeout:g})
  MINIAGENT_MAX_RETRIES=<n>        retries of a request that timed out or failed to connect
                                   (or got a 429 or 5xx; default {retries})
  MINIAGENT_TRACEBACK=1            on failure, the full traceback too (as --traceback)""",
        # a real model: the banner, and failures in two lines (the [model] table of the
        # course's cli.en.toml says the same; a test keeps the two equal)
        "real_banner": "Real model {model} at {url} (key hidden; timeout {timeout:g} s, "
        "max retries {retries})",
        "real_bad_timeout": "{var} must be a number of seconds above 0, not {value!r} (unset it "
        "for the default, {default}).",
        "real_bad_retries": "{var} must be a whole number, 0 or more, not {value!r} (unset it for "
        "the default, {default}).",
        "real_bad_name": "MINIAGENT_MODEL={name}: {error}",
        "real_no_key": "No API key for model {model} at {url}: OPENAI_API_KEY is not set.",
        "real_no_key_fix": "Set it to the key your endpoint expects; a local server (Ollama, "
        "vLLM, llama.cpp) takes any dummy value: export OPENAI_API_KEY=local",
        "real_auth": "{url} refused the key for model {model} ({status}: {detail}).",
        "real_auth_fix": "Check OPENAI_API_KEY: it must be a key this endpoint accepts, and "
        "OPENAI_BASE_URL the endpoint the key belongs to.",
        "real_forbidden": "{url} does not let this key use model {model} ({status}: {detail}).",
        "real_forbidden_fix": "Use a key with access to this model, or name another one in "
        "MINIAGENT_MODEL.",
        "real_not_found": "{url} has no model {model} there ({status}: {detail}).",
        "real_not_found_fix": "Check the model name in MINIAGENT_MODEL (GET {url}/models lists "
        "the server's) and that OPENAI_BASE_URL ends in /v1.",
        "real_connection": "Cannot connect to {url} for model {model}: nothing answers there.",
        "real_connection_fix": "Start your server, or correct OPENAI_BASE_URL (Ollama: "
        "http://localhost:11434/v1; vLLM, llama.cpp: the port you started it on).",
        "real_timeout": "Model {model} at {url} did not answer within {timeout:g} s "
        "({attempts} attempt(s)).",
        "real_timeout_fix": "Is the server busy, or still loading the model? Allow longer with "
        "MINIAGENT_TIMEOUT=<seconds> (and MINIAGENT_MAX_RETRIES=<n>).",
        "real_other": "Model {model} at {url} failed: {kind}: {detail}",
        "real_other_fix": "The server's message says why; Day 15's \"When the endpoint fails\" "
        "lists what each error means.",
        "real_more": "Full traceback: --traceback or MINIAGENT_TRACEBACK=1.",
    },
    "zh": {
        # the story (tool names and argument names stay: they are code)
        "question": "埃菲尔铁塔在哪里？那里现在天气怎么样？",
        "landmark": "埃菲尔铁塔",
        "city": "巴黎",
        "forecast": "晴，21 °C",
        "say_1": "我得先知道埃菲尔铁塔在哪个城市。",
        "say_2": "它在巴黎。现在我来查一下那里的天气。",
        "answer": "埃菲尔铁塔在巴黎，那里现在天气晴朗，气温 21 °C。",
        "find_city_doc": "返回某个著名地标所在的城市。",
        "check_weather_doc": "返回某个城市当前的天气。",
        # the printed trace: the labels fill 13 columns, as the English ones (a 汉字 takes two)
        "title": "miniagent 演示：ReAct 循环，一轮一轮地看",
        "question_label": "问题",
        "question_line": "{label}：{question}",
        "round": "第 {n} 轮",
        "model_sees": "模型看到     {n} 条消息",
        "model_said": "模型说       {text}",
        "model_silent": "模型说       （什么也没说，只有工具调用）",
        "tool_call": "工具调用     {call}",
        "tool_result": "工具结果     {name} -> {content}",
        "no_calls": "没有工具调用：循环到此结束",
        "final": "最终回答",
        "final_line": "{label}：",
        "state": "运行结束后的状态：{n} 条消息（{types}）",
        "loop": "在图中走过的路径：{path}",
        # --agent create_agent
        "agent_help": "由哪个 agent 来演这段故事：react（create_react_agent，默认）或 "
        "create_agent（带中间件的 create_agent）",
        "mw_title": "miniagent 演示：带中间件的 create_agent，一个节点一个节点地看",
        "mw_stack": "中间件：{names}（before 钩子按这个顺序运行，after 钩子顺序相反）",
        "mw_nodes": "图的节点：{nodes}",
        "mw_node": "[{node}]",
        "mw_no_update": "没有更新状态：继续",
        "mw_set": "设置 {channel} = {value}",
        "log_before_agent": "日志 before_agent：运行开始时有 {n} 条消息",
        "log_before_model": "日志 before_model：模型将看到 {n} 条消息",
        "log_wrap_model_in": "日志 wrap_model_call：-> handler（即模型，绑定了 {n} 个工具）",
        "log_wrap_model_out": "日志 wrap_model_call：<- {n} 个工具调用",
        "log_after_model": "日志 after_model：状态里现在有 {n} 条消息",
        "log_wrap_tool": "日志 wrap_tool_call：{name} -> handler",
        "log_after_agent": "日志 after_agent：运行结束时有 {n} 条消息",
        # --help (help_traceback and help_variables: as [trace] of the course's cli.zh.toml)
        "help_description": "看 agent 的循环一轮一轮地转：一个脚本化的模型用两次工具调用回答一个"
        "问题，每一轮都打印出来。离线运行，不需要 key：只有 MINIAGENT_MODEL 指定了真实模型时，"
        "才会由它来演。",
        "help_traceback": "真实模型出错时也打印完整的 traceback（key 已抹去）；"
        "MINIAGENT_TRACEBACK=1 同此",
        "help_variables": """真实模型（可选；任何 OpenAI 兼容端点均可）：
  MINIAGENT_MODEL=openai:<model>   演这段故事的模型（不设置：脚本化的假模型）
  OPENAI_BASE_URL=<url>            端点，如 http://localhost:11434/v1（Ollama）；
                                   不设置：https://api.openai.com/v1
  OPENAI_API_KEY=<key>             端点要求的 key（本地服务器随便填个值即可）；
                                   绝不会打印出来
  MINIAGENT_TIMEOUT=<seconds>      一个请求最多等多少秒（默认 {timeout:g}）
  MINIAGENT_MAX_RETRIES=<n>        请求超时或连不上时的重试次数
                                   （收到 429 或 5xx 时也重试；默认 {retries}）
  MINIAGENT_TRACEBACK=1            出错时也打印完整的 traceback（同 --traceback）""",
        # a real model: as the [model] table of the course's cli.zh.toml (a test keeps them equal)
        "real_banner": "真实模型 {model}，位于 {url}（key 已隐藏；超时 {timeout:g} 秒，"
        "最多重试 {retries} 次）",
        "real_bad_timeout": "{var} 必须是大于 0 的秒数，不能是 {value!r}（不设置它就用默认值 "
        "{default}）。",
        "real_bad_retries": "{var} 必须是 0 或更大的整数，不能是 {value!r}（不设置它就用默认值 "
        "{default}）。",
        "real_bad_name": "MINIAGENT_MODEL={name}: {error}",
        "real_no_key": "{url} 上的模型 {model} 没有 API key：OPENAI_API_KEY 没有设置。",
        "real_no_key_fix": "把它设成你的端点要求的 key；本地服务器（Ollama、vLLM、llama.cpp）"
        "接受任意占位值：export OPENAI_API_KEY=local",
        "real_auth": "{url} 拒绝了模型 {model} 的 key（{status}: {detail}）。",
        "real_auth_fix": "检查 OPENAI_API_KEY：它必须是这个端点接受的 key，而 OPENAI_BASE_URL "
        "必须是这个 key 所属的端点。",
        "real_forbidden": "{url} 不允许这个 key 使用模型 {model}（{status}: {detail}）。",
        "real_forbidden_fix": "换一个有权使用这个模型的 key，或者在 MINIAGENT_MODEL "
        "里指定另一个模型。",
        "real_not_found": "{url} 上没有模型 {model}（{status}: {detail}）。",
        "real_not_found_fix": "检查 MINIAGENT_MODEL 里的模型名（GET {url}/models "
        "会列出服务器上的模型），并确认 OPENAI_BASE_URL 以 /v1 结尾。",
        "real_connection": "无法连接 {url}（模型 {model}）：那里没有任何服务响应。",
        "real_connection_fix": "启动你的服务器，或者改正 OPENAI_BASE_URL（Ollama："
        "http://localhost:11434/v1；vLLM、llama.cpp：你启动它时用的端口）。",
        "real_timeout": "{url} 上的模型 {model} 在 {timeout:g} 秒内没有响应（尝试了 {attempts} "
        "次）。",
        "real_timeout_fix": "服务器是不是太忙，或者还在加载模型？用 MINIAGENT_TIMEOUT=<seconds> "
        "放宽时限（以及 MINIAGENT_MAX_RETRIES=<n>）。",
        "real_other": "{url} 上的模型 {model} 出错：{kind}: {detail}",
        "real_other_fix": "服务器的消息说明了原因；Day 15 的“端点出错时”列出了每种错误的含义。",
        "real_more": "完整的 traceback：--traceback 或 MINIAGENT_TRACEBACK=1。",
    },
}

WIDTH = 100


def language() -> str:
    """The learner's language, as the course's own commands pick it (the runtime imports nothing
    of the course): ``MINIAGENT_LANG`` when set, else the locale's (``LC_ALL``,
    ``LC_MESSAGES``, ``LANG``: ``zh_CN.UTF-8`` gives ``zh``), else ``en``."""
    chosen = os.environ.get("MINIAGENT_LANG", "").strip().lower()
    if chosen:
        return chosen
    for var in ("LC_ALL", "LC_MESSAGES", "LANG"):
        value = os.environ.get(var, "")
        if value:  # the first one set decides, as for gettext
            locale = value.split(".")[0].split("@")[0]
            return "zh" if locale in ("zh_CN", "zh_SG", "zh_Hans", "zh") else "en"
    return "en"


def t(key: str, **kwargs: Any) -> str:
    """The text for ``key`` in the learner's language, formatted with ``kwargs``."""
    text = TEXT.get(language(), {}).get(key, TEXT["en"][key])
    return text.format(**kwargs) if kwargs else text


# ---- lines by terminal columns: a 汉字 takes two -------------------------------------------------

# A line never starts with a closing mark nor ends with an opening one (Chinese line breaking).
_NO_LINE_START = frozenset("，。；：、！？）」』】》〉”’,.;:!?)]}")
_NO_LINE_END = frozenset("（「『【《〈“‘([{")


def _is_wide(char: str) -> bool:
    return unicodedata.east_asian_width(char) in "WF"


def columns(text: str) -> int:
    """How many terminal columns ``text`` takes: two for a wide character (汉字, full-width
    punctuation), none for a combining mark, one otherwise."""
    return sum(0 if unicodedata.combining(c) else 2 if _is_wide(c) else 1 for c in text)


def _pieces(text: str) -> list[tuple[str, str]]:
    """``text`` cut where a line may break, as ``(space before it, piece)``: at a space, and
    between two 汉字 or a 汉字 and a word, but not before a closing mark nor after an opening one."""
    pieces: list[tuple[str, str]] = []
    space, current = "", ""
    for char in text:
        if char.isspace():
            if current:
                pieces.append((space, current))
                space, current = "", ""
            space += " "  # a tab or a newline counts as one space, as textwrap counts them
            continue
        if (
            current
            and (_is_wide(char) or _is_wide(current[-1]))
            and char not in _NO_LINE_START
            and current[-1] not in _NO_LINE_END
        ):
            pieces.append((space, current))
            space, current = "", ""
        current += char
    if current:
        pieces.append((space, current))
    return pieces


def wrap(text: str, width: int, indent: str = "", hang: str = "") -> list[str]:
    """``textwrap.wrap(text, width, initial_indent=indent, subsequent_indent=hang)`` by terminal
    columns; text without wide characters wraps exactly as ``textwrap`` wraps it."""
    if columns(text) == len(text):
        return textwrap.wrap(text, width, initial_indent=indent, subsequent_indent=hang)
    lines: list[str] = []
    line, empty = indent, True
    for space, piece in _pieces(text):
        joined = line + piece if empty else line + space + piece  # a line starts with no space
        if columns(joined) <= width:
            line, empty = joined, False
            continue
        if not empty:
            lines.append(line)
            line = hang
        while piece and columns(line + piece) > width:  # a word longer than a line: cut it
            cut = 1
            while cut < len(piece) and columns(line + piece[: cut + 1]) <= width:
                cut += 1
            lines.append(line + piece[:cut])
            line, piece = hang, piece[cut:]
        line, empty = line + piece, not piece
    if not empty:
        lines.append(line)
    return lines


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
    return wrap(label, WIDTH, indent=" " * indent, hang=" " * (indent + 13))


def _format_call(call: dict[str, Any]) -> str:
    args = ", ".join(f"{k}={v!r}" for k, v in call["args"].items())
    return f"{call['name']}({args})  [id {call['id']}]"


def render(model: Any = None, config: dict[str, Any] | None = None) -> str:
    """The whole trace as one string (``main`` prints it); ``config`` goes to ``stream``."""
    agent, model = build_agent(model)
    out = [t("title"), "=" * columns(t("title")), ""]
    out += wrap(t("question_line", label=t("question_label"), question=t("question")), WIDTH)
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
    out = ["", t("final_line", label=t("final"))] + _line(final, indent=2)
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
    out = [t("mw_title"), "=" * columns(t("mw_title")), ""]
    out += wrap(t("question_line", label=t("question_label"), question=t("question")), WIDTH)
    stack = f"ModelCallLimitMiddleware(run_limit={RUN_LIMIT}), LogMiddleware"  # list order
    out += wrap(t("mw_stack", names=stack), WIDTH)
    nodes = ", ".join(n for n in agent.nodes if n != "__start__")
    out += wrap(t("mw_nodes", nodes=nodes), WIDTH, hang="    ")
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


# ---- a real model: the course's settings, the banner, and failures in two lines ----------------
#
# The course's side (its ``course_model``, ``miniagent trace``) uses these functions with its
# own strings (``text``: a ``t``-like function of the short keys below); this module may not
# import the course tooling, so the mechanism lives here.

MODEL_VAR = "MINIAGENT_MODEL"
TIMEOUT_VAR = "MINIAGENT_TIMEOUT"
RETRIES_VAR = "MINIAGENT_MAX_RETRIES"
TRACEBACK_VAR = "MINIAGENT_TRACEBACK"
DEFAULT_TIMEOUT = 60.0
"""Seconds one request may take before the course gives up (the ``openai`` SDK's own: 600)."""
DEFAULT_MAX_RETRIES = 1
"""Retries after a timeout, a connection error, a 429 or a 5xx (the SDK's own: 2)."""
OPENAI_URL = "https://api.openai.com/v1"
Text = Callable[..., str]


def _demo_text(key: str, **fields: Any) -> str:
    return t(f"real_{key}", **fields)


class ModelSetupError(Exception):
    """The named model could not be set up (a bad variable, no key); the message says how to fix it."""


def _setting(name: str, parse: Callable[[str], Any], default: Any, key: str, text: Text) -> Any:
    raw = os.environ.get(name, "").strip()
    if not raw:
        return default
    try:
        value = parse(raw)
    except ValueError:
        value = None
    if value is None or value < 0 or (parse is float and not value > 0):
        raise ModelSetupError(text(key, var=name, value=raw, default=f"{default:g}"))
    return value


def real_model_settings(text: Text = _demo_text) -> dict[str, Any]:
    """``timeout`` and ``max_retries`` for a real model: ``MINIAGENT_TIMEOUT`` (seconds, default
    60) and ``MINIAGENT_MAX_RETRIES`` (default 1); a bad value raises ``ModelSetupError``."""
    timeout = _setting(TIMEOUT_VAR, float, DEFAULT_TIMEOUT, "bad_timeout", text)
    retries = _setting(RETRIES_VAR, int, DEFAULT_MAX_RETRIES, "bad_retries", text)
    return {"timeout": timeout, "max_retries": retries}


def _without_password(url: str) -> str:
    """``url`` without ``user:password@``, query or fragment: a URL may carry a credential too
    (``?api-key=...``)."""
    from urllib.parse import urlsplit, urlunsplit

    parts = urlsplit(url)
    netloc = parts.netloc.rpartition("@")[2]
    return urlunsplit(parts._replace(netloc=netloc, query="", fragment=""))


def endpoint_url(model: Any = None, base_url: str | None = None) -> str:
    """The URL ``model`` sends its requests to (``ChatOpenAI``'s ``base_url``, else the SDK's
    ``OPENAI_BASE_URL``, else OpenAI's), without a password."""
    url = base_url or getattr(model, "openai_api_base", None) or os.environ.get("OPENAI_API_BASE")
    url = url or os.environ.get("OPENAI_BASE_URL", "").strip() or OPENAI_URL
    return _without_password(str(url).rstrip("/"))


def build_real_model(name: str, text: Text = _demo_text, **kwargs: Any) -> Any:
    """``init_chat_model(name, **kwargs)`` with the course's timeout and retries where ``kwargs``
    sets none; a bad name or setting, or a missing key, raises ``ModelSetupError``."""
    settings = real_model_settings(text)
    if "request_timeout" not in kwargs:  # the field's own name: the caller set it
        kwargs.setdefault("timeout", settings["timeout"])
    kwargs.setdefault("max_retries", settings["max_retries"])
    from miniagent.chat_models import init_chat_model

    try:
        return init_chat_model(name, **kwargs)
    except ImportError as error:  # no openai SDK: its one sentence says what to install
        raise ModelSetupError(str(error)) from None
    except (ValueError, TypeError, NotImplementedError) as error:
        first = str(error).split("\n\n")[0]  # upstream's sentence, without its list of providers
        raise ModelSetupError(text("bad_name", name=name, error=first)) from None
    except Exception as error:  # the SDK's "api_key client option must be set", as upstream
        if kwargs.get("api_key") or os.environ.get("OPENAI_API_KEY"):
            raise
        url = endpoint_url(base_url=kwargs.get("base_url"))
        model = name.split(":", 1)[-1]
        lines = [text("no_key", model=model, url=url), text("no_key_fix")]
        raise ModelSetupError("\n".join(lines)) from error


def banner(model: Any, text: Text = _demo_text) -> str:
    """The one line that says a real model is in use: its name, its URL, "key hidden" and the
    timeout and retries it runs with (never the key)."""
    timeout = model.request_timeout
    return text(
        "banner",
        model=model.model_name,
        url=endpoint_url(model),
        timeout=timeout if isinstance(timeout, (int, float)) else 600,
        retries=2 if model.max_retries is None else model.max_retries,
    )


def _detail(error: BaseException) -> str:
    """The server's own words, short: ``body["message"]``, else the error's first line."""
    body = getattr(error, "body", None)
    message = body.get("message") if isinstance(body, dict) else None
    if not isinstance(message, str) or not message.strip():
        message = getattr(error, "message", None) or str(error) or type(error).__name__
    message = " ".join(str(message).split())
    return message if len(message) <= 160 else message[:157] + "..."


def describe_failure(error: BaseException, model: Any, text: Text = _demo_text) -> list[str] | None:
    """Two lines for a real model's failure, what went wrong (naming the URL and the model) and
    the fix; ``None`` for an error that is not the model's.

    Keyed on ``miniagent.exceptions``' classes, which ``ChatOpenAI``'s errors derive from
    (``OpenAIAuthenticationError`` is an ``openai.AuthenticationError`` and a
    ``ModelAuthenticationError``), so no SDK import is needed here.
    """
    from miniagent import exceptions as ex

    if isinstance(error, ModelSetupError):
        return str(error).splitlines()
    if isinstance(error, ImportError) and "openai" in str(error):  # the SDK, first needed now
        return [str(error)]
    fields = {
        "model": getattr(model, "model_name", "?"),
        "url": endpoint_url(model),
        "status": getattr(error, "status_code", None) or "",
        "detail": _detail(error),
    }
    kinds = [
        (ex.ModelAuthenticationError, "auth"),
        (ex.ModelPermissionDeniedError, "forbidden"),
        (ex.ModelNotFoundError, "not_found"),
        (ex.ModelTimeoutError, "timeout"),
        (ex.ModelConnectionError, "connection"),
    ]
    kind = next((key for cls, key in kinds if isinstance(error, cls)), None)
    if kind == "timeout":
        timeout = getattr(model, "request_timeout", None)
        retries = getattr(model, "max_retries", None)
        fields["timeout"] = timeout if isinstance(timeout, (int, float)) else 600
        fields["attempts"] = 1 + (2 if retries is None else retries)
    if kind is None:
        sdk = any(c.__module__.split(".")[0] == "openai" for c in type(error).__mro__)
        if not (isinstance(error, ex.ModelError) or sdk):
            return None
        kind = "other"
        fields["kind"] = type(error).__name__
    return [text(kind, **fields), text(f"{kind}_fix", **fields)]


def secrets_of(model: Any = None) -> list[str]:
    """The strings no output may show: the model's key and ``OPENAI_API_KEY``."""
    found = [os.environ.get("OPENAI_API_KEY", "")]
    key = getattr(model, "openai_api_key", None)
    if key is not None and hasattr(key, "get_secret_value"):
        found.append(key.get_secret_value())
    return [s for s in found if len(s.strip()) >= 4]


def redact(text: str, secrets: list[str]) -> str:
    """``text`` with every secret blanked out."""
    for secret in secrets:
        text = text.replace(secret, "***")
    return text


def wants_traceback(flag: bool = False) -> bool:
    """``--traceback`` given, or ``MINIAGENT_TRACEBACK`` set to anything but ``0``/empty."""
    return flag or os.environ.get(TRACEBACK_VAR, "").strip() not in ("", "0")


def report_failure(
    lines: list[str], error: BaseException, model: Any, *, show_traceback: bool, more: str
) -> None:
    """Print the failure to stderr: the traceback first if asked (the key blanked out), then
    the two lines, the second ending with how to see the traceback."""
    import traceback

    out = []
    if isinstance(error, ModelSetupError):
        pass  # the message says it all: where it came from is no help
    elif show_traceback:
        out.append("".join(traceback.format_exception(type(error), error, error.__traceback__)))
    else:
        lines = [*lines[:-1], f"{lines[-1]} {more}"]
    out += lines
    sys.stderr.write(redact("\n".join(out), secrets_of(model)) + "\n")


def named_model() -> Any:
    """The model named in ``MINIAGENT_MODEL`` (``openai:<model>``), else ``None``: only a
    named model is real (the course's ``course_model`` switch, read here without the course
    tooling), with the course's timeout and retries."""
    name = os.environ.get(MODEL_VAR, "").strip()
    if not name:
        return None
    return build_real_model(name)


class _HelpFormatter(argparse.RawDescriptionHelpFormatter):
    """argparse's, except that an option's help with 汉字 wraps by terminal columns."""

    def _split_lines(self, text: str, width: int) -> list[str]:
        if columns(text) == len(text):
            return super()._split_lines(text, width)
        return wrap(" ".join(text.split()), width)


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m miniagent.demo",
        description="\n".join(wrap(t("help_description"), 79)),
        epilog=t("help_variables", timeout=DEFAULT_TIMEOUT, retries=DEFAULT_MAX_RETRIES),
        formatter_class=_HelpFormatter,
    )
    parser.add_argument("--agent", choices=list(RENDERERS), default="react", help=t("agent_help"))
    parser.add_argument("--traceback", action="store_true", help=t("help_traceback"))
    return parser


def main(argv: list[str] | None = None) -> int:
    """Run the demo; a real model's failure is told in two lines on stderr, and returns 1."""
    args = _parser().parse_args(argv)
    show_traceback = wants_traceback(args.traceback)
    model = None
    try:
        model = named_model()
        if model is not None:
            print(banner(model), flush=True)  # before the run: a slow server shows what it waits on
        out = RENDERERS[args.agent](model)
    except KeyboardInterrupt:  # Ctrl+C while a slow server thinks: stop quietly
        print()
        return 130
    except Exception as error:
        lines = describe_failure(error, model) if os.environ.get(MODEL_VAR, "").strip() else None
        if lines is None:
            raise
        report_failure(lines, error, model, show_traceback=show_traceback, more=t("real_more"))
        return 1
    sys.stdout.write(out + "\n")
    return 0


if __name__ == "__main__":
    if status := main():  # 0 falls through: whoever ran this module goes on
        raise SystemExit(status)
