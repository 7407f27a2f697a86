"""Day 06：判断 create_react_agent 是否必须自己把工具绑定到模型上。

课文：      course/days/day06-bind-tools.zh.md
notebook：  notebooks/day06_bind_tools.zh.ipynb
检查：      miniagent check day06        卡住了？ miniagent hint day06

两部分，分别评分：

(1) ``_should_bind_tools``：写出这个函数。
(2) 当一回评分器：写出能把正确的 ``_should_bind_tools`` 和错误版本区分开的测试。
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from miniagent.models import BaseChatModel
from miniagent.runnables import RunnableBinding, RunnableSequence
from miniagent_course.todo import NotStarted


def _should_bind_tools(model: Any, tools: Sequence[Any], num_builtin: int = 0) -> bool:
    """``create_react_agent`` 必须自己调用 ``model.bind_tools(...)`` 吗？

    输入：

    * ``model`` -- 用户作为 agent 的模型传入的东西：一个聊天模型（``BaseChatModel``）、一个
      ``RunnableBinding``（由 ``bind_tools``、``bind``、``with_config`` 等构建）、一个
      ``RunnableSequence``（例如 ``model.bind_tools(tools) | parser``），或任何其他 Runnable；
    * ``tools`` -- agent 的 ToolNode 将要运行的工具；每个都有 ``.name``；
    * ``num_builtin`` -- 除这些工具之外，用户还传入了多少个供应商内置工具（普通 dict，例如
      ``{"type": "mcp", ...}``）。

    输出：

    * ``True``：用户没有绑定工具，即什么都没绑定，或者绑定的 ``.kwargs`` 里没有 ``"tools"``；
    * ``False``：用户绑定了工具，而且它们和 ``tools`` 对得上，即已绑定的工具 dict 的个数等于
      ``tools`` 的个数加上 ``num_builtin``，并且每个工具的名字都在已绑定的名字之中。（这时
      agent 原样保留用户的绑定。）

    对一个序列，按它第一个是绑定或聊天模型的步骤来判断（没有这样的步骤时，就按序列本身）。
    已绑定的工具 dict 用 OpenAI 风格写明工具名，即
    ``{"type": "function", "function": {"name": "add", ...}}``，或用 Anthropic 风格，带一个
    非空的 ``"name"``；一个 dict 两者都有时以 OpenAI 的形状为准，两者都没有的 dict 不写明任何
    名字。

    错误：已绑定的工具对不上时抛出 ``ValueError``，文本一字不差，是下面两条之一，先检查数量
    （其中的数字和名字只是例子；上游在 "match" 和 "Got" 之间没有写句号，第二条打印的是缺失
    名字组成的 Python *集合*）::

        Number of tools in the model.bind_tools() and tools passed to create_react_agent must match Got 2 tools, expected 1
        Missing tools '{'mul'}' in the model.bind_tools()

    >>> from miniagent.testing import FakeToolCallingModel
    >>> from miniagent.tools import tool
    >>> @tool
    ... def add(a: int, b: int) -> int:
    ...     "Add two integers."
    ...     return a + b
    >>> _should_bind_tools(FakeToolCallingModel().bind_tools([add]), [add])
    False

    课文：Day 06 页面上的“逐行看”和“边界情况与意外”。
    上游：``langgraph/prebuilt/chat_agent_executor.py:173``（langgraph-prebuilt 1.1.3）。
    """
    # TODO(day06): 把下面这行换成你的代码（大约 30 行）。
    raise NotStarted("day06")


# --- 第 2 部分：当一回评分器 ----------------------------------------------------------------
#
# 写一些测试函数，想写多少都行，每个都命名为 test_<它检查什么>，接受一个参数：被测的函数（把它
# 叫作 `should_bind`）。测试调用 `should_bind(...)`，并断言一个正确的 _should_bind_tools 会
# 返回什么或抛出什么。用 miniagent.testing.FakeToolCallingModel（tool_style="openai" 或
# "anthropic"）构建模型，用 miniagent.tools.tool 构建工具。评分器先用一个正确的函数运行你的
# 测试（必须全部通过），再用几个看似合理的错误版本运行（你的测试合起来至少要抓住七个）。是
# 哪些错误版本？这正是练习本身：想一想别人可能在哪里写错。
#
#     def test_a_bare_model_needs_binding(should_bind):
#         assert should_bind(FakeToolCallingModel(), [add]) is True


def test_my_first_check(should_bind):
    """你的第一个测试：把下面这行换成一项检查（再添加更多 test_ 函数）。"""
    # TODO(day06): 第 2 部分，你的测试。
    raise NotStarted("day06")


# translates: 324e42aea43a9490 (the version of stub.py this follows)
