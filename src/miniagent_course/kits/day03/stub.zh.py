"""Day 03：手写 ReAct 循环。调用模型，执行它要的工具，把结果送回去。

课文：      course/days/day03-react-loop.zh.md
Notebook：  notebooks/day03_react_loop.zh.ipynb
检查：      miniagent check day03        卡住了？  miniagent hint day03

分两部分，分别评分：

(1) ``run_loop``：``create_react_agent`` 搭成图的那个循环，写成一个普通的循环。
(2) 预测：``predictions`` 写下*默认*的 ``create_react_agent`` 怎样结束当天的每个脚本，要在
    notebook 里运行它们之前写。评分器会运行这个 agent。

通过之后，``miniagent mine`` 也会在当天的脚本上运行你的循环。
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from miniagent.graph.message import add_messages
from miniagent.messages import AIMessage, BaseMessage, ToolMessage
from miniagent.prebuilt.tool_node import INVALID_TOOL_NAME_ERROR_TEMPLATE, TOOL_CALL_ERROR_TEMPLATE
from miniagent_course.todo import NotStarted


def run_loop(
    model: Any, tools: Sequence[Any], messages: Sequence[Any], max_steps: int
) -> list[BaseMessage]:
    """运行 ReAct 循环，返回整段对话：先是输入，然后是每一条新消息。

    输入：

    * ``model`` -- 一个聊天模型；``tools`` -- 一个非空的工具列表（``@tool``）；
    * ``messages`` -- 到目前为止的对话，可以是消息，也可以是 ``add_messages`` 接受的任何东西
      （``("user", "2 + 3?")``）；调用方的列表保持不变；
    * ``max_steps`` -- 这次运行最多可以调用模型几次（1 或更多）。

    输出：一个消息列表，和带错误处理的默认 agent 返回的相同（用
    ``miniagent.testing.message_trace`` 比较，它把随机 id 记作 ``<id-1>``、……）::

        create_react_agent(model, ToolNode(tools, handle_tool_errors=True)).invoke(
            {"messages": messages}, {"recursion_limit": 2 * max_steps})["messages"]

    也就是说：每条消息都有 id；模型绑定了这些工具，每次调用时都看到整段对话；每条调用工具的
    回复后面，按调用顺序，每个调用跟一条 ``ToolMessage``，其 ``tool_call_id`` 就是该调用的 id；
    列表以一条不带工具调用的回复结尾，或者，当第 ``max_steps`` 条回复仍然调用工具时，以
    ``AIMessage(id=<that reply's id>, content="Sorry, need more steps to process this
    request.")`` 结尾，它占据那条回复的位置。

    错误：不会有错误抛到外面。失败的调用是一条 ``ToolMessage``，``status="error"``，带着该调用的
    ``name``，文本是下面之一：

    * 工具抛出了异常（任何 ``Exception``）：``TOOL_CALL_ERROR_TEMPLATE``，其中
      ``error=repr(error)``，例如 ``Error: ValueError('cannot use 7')\\n Please fix your
      mistakes.``；
    * 没有这个名字的工具（什么都不运行）：``INVALID_TOOL_NAME_ERROR_TEMPLATE``，其中
      ``requested_tool`` 是这个名字，``available_tools`` 是各工具的名字用 ``", "`` 连起来，
      例如 ``Error: multiply is not a valid tool, try one of [add, fail].``

    >>> from miniagent.testing import ScriptedChatModel
    >>> from miniagent.tools import tool
    >>> @tool
    ... def add(a: int, b: int) -> int:
    ...     "Add two integers."
    ...     return a + b
    >>> call = {"name": "add", "args": {"a": 2, "b": 3}, "id": "c1"}
    >>> model = ScriptedChatModel([AIMessage("", tool_calls=[call]), AIMessage("5")])
    >>> [(m.type, m.content) for m in run_loop(model, [add], [("user", "2 + 3?")], 5)]
    [('human', '2 + 3?'), ('ai', ''), ('tool', '5'), ('ai', '5')]

    评分器的工具只接收合法参数（参数错误，``ToolNode`` 有它自己的措辞：见课文的*边界情况与
    意外*）。
    """
    # TODO(day03): 在这里写出循环。
    raise NotStarted("day03")


def predictions() -> dict[str, str]:
    """你对**默认** agent 怎样结束课文表格里每个脚本的预测。

    agent 是 ``create_react_agent(model, [add, profile, fail, search])``（工具是一个普通列表，
    所以它的 ``ToolNode`` 按默认方式处理错误），运行时带 ``{"recursion_limit": 2 * max_steps}``。
    这些脚本（课文的*第 2 部分*和 notebook 的最后一节列出了它们）：``one_call``、
    ``parallel_calls``、``two_rounds``、``tool_raises``、``raises_beside_a_good_call``、
    ``tool_exception``、``unknown_tool``、``endless_calls``、``answer_at_the_cap`` 和
    ``bad_arguments``。

    对每个脚本，给出 ``invoke`` 返回的各条消息的类型，按顺序用一个空格隔开：``"human"``、
    ``"ai"``、``"tool"``，``status="error"`` 的 ``ToolMessage`` 写作 ``"tool-error"``；或者，当
    ``invoke`` 抛出异常时，写 ``"raises <the exception's class name>"``。
    它的形状（只是占位，不是答案）：``{"one_call": "human ai", "tool_raises": "raises
    KeyError", ...}``。评分器会在每个脚本上运行这个 agent，逐个比较。

    密封：缺了某一项（或者某一项不是这种形式）的表不会被评分，只会告诉你填了几项。你第一张完整
    的表会在显示任何真实结果之前被记录为首次作答：那一次运行（``pytest``、``miniagent check``
    或 notebook 里的表格单元）只告诉你哪几行错了，之后的运行才显示真实运行的结果。
    """
    # TODO(day03): 把下面这行换成 `return {"one_call": "...", ...}`。
    raise NotStarted("day03")


# translates: 58546e975cbc2963 (the version of stub.py this follows)
