"""Day 11：``ToolNode`` 的错误策略：哪些工具错误会回到模型，以什么形式。

课文：     course/days/day11-tool-node.zh.md
Notebook： notebooks/day11_tool_node.zh.ipynb
检查：     miniagent check day11        卡住了？miniagent hint day11

两个部分，分别评分：

(1) 调用失败时 ``ToolNode`` 要问的两个函数（都在 ``langgraph/prebuilt/tool_node.py`` 里）：
    ``_infer_handled_types``，一个处理函数覆盖哪些异常；``_handle_tool_error``，错误 ToolMessage
    的文本。评分器把你的函数放进真实的 ``ToolNode`` 和 agent，替换掉 miniagent 的那两个。
(2) 预测：``predictions`` 针对十六组 ``handle_tool_errors`` 与失败调用的组合，说出 ``ToolNode``
    会写出什么。评分器会逐组运行。
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from types import UnionType
from typing import Any, Union, get_args, get_origin, get_type_hints

from miniagent.prebuilt.tool_node import TOOL_CALL_ERROR_TEMPLATE
from miniagent_course.todo import NotStarted


def _handle_tool_error(e: Exception, *, flag: Any) -> str:
    """节点决定处理某个异常之后，错误 ToolMessage 的内容。

    输入：``e``，工具抛出的异常；``flag``，``ToolNode`` 的 ``handle_tool_errors``。这个函数运行时，
    节点已经判定 ``e`` 在覆盖范围之内（见课文的*处理哪些异常*）。

    输出，一个 str，取决于 ``flag`` 是哪一类：

    * bool、元组（由异常类型组成）或异常类（``Exception`` 的子类）：用 ``error=repr(e)`` 填好的
      ``TOOL_CALL_ERROR_TEMPLATE``。异常类是可调用的，但在这里从不调用它；
    * str（空字符串也算）：``flag`` 本身；
    * 其他任何可调用对象（函数、lambda、带 ``__call__`` 的对象）：用 ``e`` 调用它得到的返回值；
      它抛出的异常原样传出（默认策略就是这样重新抛出异常的）。

    错误：任何其他 ``flag``（``None``、``42``、列表……）都抛出 ``ValueError``，文本恰好是::

        Got unexpected type of `handle_tool_error`. Expected bool, str or callable. Received: {flag}

    >>> _handle_tool_error(ValueError("boom"), flag="Try again.")
    'Try again.'

    上游：``langgraph/prebuilt/tool_node.py:416``（langgraph-prebuilt 1.1.3）。
    """
    # TODO(day11): 返回这个 flag 对应的文本。
    raise NotStarted("day11")


def _infer_handled_types(handler: Callable[..., str]) -> tuple[type[Exception], ...]:
    """一个处理函数覆盖哪些异常类型，从它的错误参数的注解里读出。

    输入：``handler``，一个接收错误的函数（错误是它的第一个参数；处理函数恰好有两个参数时，名为
    ``self`` 或 ``cls`` 的第一个参数不算，就像方法背后的函数 ``def handle(self, e)``）。

    输出，一个由异常类型组成的元组：

    * 没有参数，或者错误参数没有注解：``(Exception,)``；
    * ``e: ValueError``：``(ValueError,)``；``Exception`` 的任何子类同理；
    * ``e: Union[ValueError, TypeError]`` 或 ``e: ValueError | TypeError``，写成真正的对象时：
      按顺序给出它的成员 ``(ValueError, TypeError)``。
      写成字符串的注解（``"ValueError | TypeError"``，或者模块里有
      ``from __future__ import annotations`` 时的任何注解）不会被看作 union：这时上游会在解析出来的
      union 上以 ``AttributeError``（``__mro__``）失败。照样重现这一点，不要修好它。

    错误，文本恰好如下：

    * union 里有一个成员不是异常类，``ValueError``::

        All types in the error handler error annotation must be Exception types. For example, `def custom_handler(e: Union[ValueError, TypeError])`. Got '{annotation}' instead.

    * 单个注解不是 ``Exception`` 的子类（``str``、``BaseException``），``ValueError``::

        Arbitrary types are not supported in the error handler signature. Please annotate the error with either a specific Exception type or a union of Exception types. For example, `def custom_handler(e: ValueError)` or `def custom_handler(e: Union[ValueError, TypeError])`. Got '{type}' instead.

      其中 ``{annotation}`` 是照原样写的注解，``{type}`` 是解析后的类型；
    * 读取签名或解析注解时抛出的异常原样传出（带 ``__call__`` 的对象：``TypeError``；
      无法解析的名字：``NameError``）。

    >>> def handler(e: ValueError) -> str:
    ...     return "bad value"
    >>> _infer_handled_types(handler)
    (<class 'ValueError'>,)

    上游：``langgraph/prebuilt/tool_node.py:466``（langgraph-prebuilt 1.1.3）。
    """
    # TODO(day11): 返回这个处理函数覆盖的异常类型组成的元组。
    raise NotStarted("day11")


# --- 第 2 部分：预测 --------------------------------------------------------------------------


def predictions() -> dict[str, str]:
    """你对 ``ToolNode`` 在十六个失败调用下各会写出什么的预测。

    每种情形都是对一条只带一个工具调用的 AIMessage 执行
    ``ToolNode(tools, handle_tool_errors=...).invoke(...)``。节点有四个工具：``boom(x: int)`` 抛出
    ``ValueError("kaboom")``；``fragile(x: int)`` 抛出 ``ToolException("backend down")``；
    ``check_weather(location: str)`` 正常工作；``careful(x: int)`` 抛出 ``ToolException``，
    而且构建时用了 ``handle_tool_error=True``（工具自己的开关）。各个调用：``value_error`` 调用
    ``boom``，``tool_exception`` 调用 ``fragile``，``bad_args`` 用 ``{"loc": 1}`` 调用
    ``check_weather``，``unknown_tool`` 调用 ``nope``（它不是工具），``self_handled`` 调用
    ``careful``。策略是每个键的前半部分：

    * ``default`` -- 没有给 ``handle_tool_errors``；``true``/``false`` -- ``True``/``False``；
      ``str`` -- ``"Try again."``；``class`` -- ``ValueError``；``tuple`` -- ``(TypeError,)``；
    * ``typed_handler`` -- ``def h(e: ValueError) -> str``；``untyped_handler`` -- ``def h(e)``；
      ``tool_exception_handler`` -- ``def h(e: ToolException) -> str``（每个都返回一段文本）。

    全部的键：``default_value_error``、``default_bad_args``、``default_unknown_tool``、
    ``default_tool_exception``、``true_value_error``、``true_bad_args``、``str_value_error``、
    ``str_bad_args``、``typed_handler_value_error``、``typed_handler_bad_args``、
    ``untyped_handler_bad_args``、``tool_exception_handler_bad_args``、``class_value_error``、
    ``tuple_value_error``、``false_unknown_tool``、``false_self_handled``。

    对每个键给出一个结果：

    * ``"raises"`` -- 没有 ToolMessage：异常离开了节点；
    * ``"repr"`` -- ``"Error: {repr(e)}\\n Please fix your mistakes."``；
    * ``"text"`` -- 作为 ``handle_tool_errors`` 给出的那个字符串；
    * ``"handler"`` -- 处理函数返回的内容；
    * ``"invocation"`` -- ``"Error invoking tool 'check_weather' with kwargs {'loc': 1} ..."``；
    * ``"unknown"`` -- ``"Error: nope is not a valid tool, try one of [...]."``；
    * ``"tool"`` -- 工具自己的错误文本。

    返回一个包含全部十六个键的字面量 dict。它的形状（这些值只是占位符，不是答案）：
    ``{"default_value_error": "text", "default_bad_args": "text", ...}``。根据课文来预测：
    评分器会运行每种情形并对比。

    密封：缺了某一项（或某一项不是这种形式）的表不予评分，只会告诉你填了多少项。
    你的第一份完整的表会在显示任何真实结果之前被记为你的首次作答：那次运行（``pytest``、
    ``miniagent check`` 或 notebook 里的表格单元）只告诉你哪些行错了，
    之后的运行才会显示真实运行给出的结果。
    """
    # TODO(day11): 把下面这一行换成 `return {"default_value_error": ..., ...}`。
    raise NotStarted("day11")


# translates: 5e7708550faa1968 (the version of stub.py this follows)
