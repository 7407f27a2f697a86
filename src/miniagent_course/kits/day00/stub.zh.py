"""Day 00 热身：从 agent 状态里读出一个值，不管状态是什么类型。

课文：      course/days/day00-welcome.zh.md
Notebook：  notebooks/day00_welcome.zh.ipynb
检查：      miniagent check day00        卡住了？  miniagent hint day00

分两部分，分别评分：

(1) ``_get_state_value``：写出这个函数。
(2) 当一回评分器：写测试，把正确的 ``_get_state_value`` 和错误的版本区分开。
"""

from __future__ import annotations

from typing import Any

from miniagent_course.todo import NotStarted


def _get_state_value(state: Any, key: str, default: Any = None) -> Any:
    """返回 agent 的 ``state`` 里 ``key`` 下存的值，或者 ``default``。

    输入：

    * ``state`` -- 一个 agent 状态：一个 ``dict``（``AgentState`` 是 TypedDict，运行时就是普通
      dict；dict 的子类也算 dict），或者任何别的对象（pydantic 的 ``AgentStatePydantic``、
      dataclass、带 ``__slots__`` 的对象、不是 ``dict`` 的映射）；
    * ``key`` -- 一个状态字段的名字；``default`` -- 任意值。

    输出：对 ``dict``，是 ``key`` 下存的值；对任何别的对象，是它名为 ``key`` 的属性。返回的就是
    存着的那个对象本身，即使它是假值（``0``、``[]``、``None``）；只有键或属性不存在时，才返回
    ``default``。

    错误：没有。缺少键或属性不算错误。

    >>> _get_state_value({"messages": []}, "remaining_steps", 25)
    25

    上游：``langgraph/prebuilt/chat_agent_executor.py:129``（langgraph-prebuilt 1.1.3）。
    """
    # TODO(day00): 把下面这行换成你的代码（一个表达式就够了）。
    raise NotStarted("day00")


# --- 第 2 部分：当一回评分器 ----------------------------------------------------------------
#
# 写测试函数，想写几个就写几个，每个都命名为 test_<它检查什么>，并接收一个参数：被测的函数
# （叫它 `get`）。测试调用 `get(...)`，并断言一个正确的 _get_state_value 应该返回什么；一个
# 测试只要抛出异常，不管什么原因，就算拒绝了 `get`。
# 评分器会把你的测试先在一个正确的函数上运行（必须全部通过），再在几个看似合理的错误版本上
# 运行（你的测试合起来至少要抓住八个）。是哪些错误版本？这正是练习本身：想想别人可能在哪里
# 写错，再想想 agent 可能收到的每一种状态。`miniagent check day00` 会告诉你抓住了几个。
#
#     def test_a_dict_gives_its_value(get):
#         assert get({"messages": ["hi"]}, "messages") == ["hi"]


def test_my_first_check(get):
    """你的第一个测试：把下面这行换成一个检查（再添加更多 test_ 函数）。"""
    # TODO(day00): 第 2 部分，你的测试。
    raise NotStarted("day00")


# translates: e50123f94b95b2b8 (the version of stub.py this follows)
