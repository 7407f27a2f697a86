"""Day 07：历史里有哪个工具调用没有得到回答，就在模型看到它之前拒绝这段聊天历史。

课文：      course/days/day07-history.zh.md
notebook：  notebooks/day07_history.zh.ipynb
检查：      miniagent check day07        卡住了？ miniagent hint day07

两部分，分别评分：

(1) ``_validate_chat_history``：写出这个函数。
(2) 当一回评分器：写出能把正确的 ``_validate_chat_history`` 和错误版本区分开的测试。
"""

from __future__ import annotations

from collections.abc import Sequence

from miniagent.errors import ErrorCode, create_error_message
from miniagent.messages import AIMessage, BaseMessage, HumanMessage, ToolMessage
from miniagent_course.todo import NotStarted


def _validate_chat_history(messages: Sequence[BaseMessage]) -> None:
    """若 ``messages`` 里有工具调用没有对应的 ``ToolMessage``，抛出 ``ValueError``；否则返回 None。

    输入：``messages``，任意消息序列（list、tuple）；它保持不变。

    输出：每个工具调用都得到回答时返回 ``None``。工具调用是序列中任何一条 ``AIMessage`` 的
    ``tool_calls`` 里的一个 dict ``{"name", "args", "id", "type"}``（``AIMessage`` 的子类也算
    ``AIMessage``）；只要 ``messages`` 中任何位置有一条 ``ToolMessage`` 的 ``tool_call_id`` 是
    这个 ``"id"``，这个调用就算*得到回答*。回答出现在哪里、``invalid_tool_calls``，以及没有
    回答任何调用的 ``ToolMessage``，都不检查（见课文的“边界情况与意外”）。

    错误：有调用没得到回答时，抛出 ``ValueError``，文本一字不差如下，其中 ``<calls>`` 是前三个
    未得到回答的调用 dict 组成的列表，按它们在历史中的顺序，以 Python 打印列表的方式写出::

        Found AIMessages with tool_calls that do not have a corresponding ToolMessage. Here are the first few of those tool calls: <calls>.

        Every tool call (LLM requesting to call a tool) in the message history MUST have a corresponding ToolMessage (result of a tool invocation to return to the LLM) - this is required by most LLM providers.
        For troubleshooting, visit: https://docs.langchain.com/oss/python/langgraph/errors/INVALID_CHAT_HISTORY

    （第一行以 ``.`` 结尾，接着是一个空行；最后一行是 ``create_error_message`` 为
    ``ErrorCode.INVALID_CHAT_HISTORY`` 添加的那一行。）

    >>> call = {"name": "add", "args": {"a": 1}, "id": "call_1"}
    >>> _validate_chat_history([AIMessage("", tool_calls=[call])])
    Traceback (most recent call last):
    ValueError: Found AIMessages with tool_calls that do not have a corresponding ToolMessage. ...

    上游：``langgraph/prebuilt/chat_agent_executor.py:243``（langgraph-prebuilt 1.1.3）。
    """
    # TODO(day07): 把下面这行换成你的代码。
    raise NotStarted("day07")


# --- 第 2 部分：当一回评分器 ----------------------------------------------------------------
#
# 写一些测试函数，想写多少都行，每个都命名为 test_<它检查什么>，接受一个参数：被测的函数（把它
# 叫作 `validate`）。测试用一段历史调用 `validate(...)`，并断言一个正确的
# _validate_chat_history 会做什么：返回 None，或者抛出那个 ValueError（在 `import pytest`
# 之后写 `with pytest.raises(ValueError) as caught:`；文本是 `str(caught.value)`）。评分器先用
# 一个正确的函数运行你的测试（必须全部通过），再用几个看似合理的错误版本运行（你的测试合起来
# 至少要抓住六个）。是哪些错误版本？这正是练习本身：想一想别人可能在哪里写错。
#
#     def test_an_answered_call_passes(validate):
#         call = {"name": "add", "args": {"a": 1}, "id": "call_1"}
#         history = [AIMessage("", tool_calls=[call]), ToolMessage("2", tool_call_id="call_1")]
#         assert validate(history) is None


def test_my_first_check(validate):
    """你的第一个测试：把下面这行换成一项检查（再添加更多 test_ 函数）。"""
    # TODO(day07): 第 2 部分，你的测试。
    raise NotStarted("day07")


# translates: e809b3cf4e7efc58 (the version of stub.py this follows)
