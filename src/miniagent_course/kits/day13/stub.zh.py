"""Day 13：``create_agent`` 与中间件：组合模型调用的洋葱，并给一次预订加上护栏。

课文：      course/days/day13-create-agent.zh.md
Notebook：  notebooks/day13_create_agent.zh.ipynb
检查：      miniagent check day13        卡住了？miniagent hint day13

两个部分，分别评分：

(1) ``_chain_model_call_handlers``：把若干中间件的 ``wrap_model_call`` 钩子，变成 ``model``
    节点调用的那一个函数。
(2) 扩展：``guard_request`` 和 ``guard_tool_call``，
    即 ``ConfirmBeforeBooking`` 护栏的两个钩子。上游没有这样的护栏；约定写在文档字符串里。
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from miniagent.agents.factory import _ComposedExtendedModelResponse, _normalize_to_model_response
from miniagent.agents.middleware import ExtendedModelResponse, ModelRequest, ModelResponse
from miniagent.messages import AIMessage, HumanMessage, ToolMessage
from miniagent.types import Command
from miniagent_course.todo import NotStarted


def _chain_model_call_handlers(
    handlers: Sequence[Callable[..., Any]],
) -> Callable[..., _ComposedExtendedModelResponse] | None:
    """把若干 ``wrap_model_call`` 处理器组合成一个，第一个处理器在最外层。

    输入：``handlers``，agent 各个中间件的 ``wrap_model_call`` 钩子，按注册顺序排列
    （``create_agent`` 调用它一次，传入 ``[m.wrap_model_call for m in middleware]``）。
    每个都是 ``handler(request, call_next)``：它可以调用 ``call_next`` 零次（自己作答）、
    一次或多次（重试），传入它收到的请求或者改过的请求（``request.override(...)``），
    并返回一个 ``ModelResponse``、一个单独的 ``AIMessage``，或者一个
    ``ExtendedModelResponse(model_response, command)``。

    输出：没有处理器时为 ``None``（这时 ``model`` 节点直接调用模型）；否则为
    ``composed(request, execute_model) -> _ComposedExtendedModelResponse``，节点调用它时，
    传入真正的模型调用 ``execute_model(request) -> ModelResponse``。在它内部：

    * 当 ``handlers == [a, b, c]`` 时，``a`` 拿到请求和一个运行 ``b`` 的 ``call_next``，
      ``b`` 的 ``call_next`` 运行 ``c``，而 ``c`` 的就是 ``execute_model``；
    * 一层的 ``call_next`` 交回的，总是一个普通的 ``ModelResponse``；
    * 结果的 ``model_response`` 是最外层的回答，形式为 ``ModelResponse``；
      它的 ``commands`` 是各层返回的每个 ``ExtendedModelResponse`` 的 ``command``
      （跳过 ``None``），最内层的在前，最外层的在后；一层多次调用 ``call_next`` 时，
      只有它最后一次调用带回的命令才算数；
    * 只有一个处理器时，结果仍然是 ``_ComposedExtendedModelResponse``。

    错误：它自己不抛出错误；某一层或模型抛出的错误，会传到它外面的那一层。

    >>> def outer(request, call_next):
    ...     return call_next(request)
    >>> def inner(request, call_next):
    ...     return AIMessage("inner answers itself")
    >>> composed = _chain_model_call_handlers([outer, inner])
    >>> composed(None, lambda request: AIMessage("the model")).model_response.result[0].content
    'inner answers itself'

    为什么第一个在最外层，以及一层的重试会对内层的命令产生什么影响：见课文的*读源码*和
    *边界情况与意外*。
    上游：``langchain/agents/factory.py:284``（langchain 1.5.2）。
    """
    # TODO(day13): 返回 None，或者组合好的处理器。
    raise NotStarted("day13")


# --- 第 2 部分：扩展 ------------------------------------------------------------------------

GUARDED_TOOL = "book_hotel"
BLOCKED_PHRASES = ("directly", "without asking")
REFUSAL = "I can't make a risky booking for you directly."
NEEDS_CONFIRMATION = "book_hotel needs the user's confirmation first."


def guard_request(state: dict[str, Any]) -> dict[str, Any] | None:
    """``ConfirmBeforeBooking.before_model``：在任何模型调用之前，拦下被禁止的请求。

    这个中间件声明了 ``can_jump_to=["end"]``，并在每次模型调用之前运行这个函数。

    * 输入：agent 的状态，一个 dict，其中 ``"messages"`` 是历史（可能为空）。
    * 被拦下：历史的*最后一条*消息是 ``HumanMessage``，且它的文本包含 ``BLOCKED_PHRASES``
      之一，不区分大小写。更早的一条被拦消息不算（用户之后又说了话），
      最后一条是工具结果也不算（循环的第二轮）。
    * 被拦下 -> 返回 ``{"messages": [AIMessage(REFUSAL)], "jump_to": "end"}``：
      拒绝就是回复，模型永远不会被调用。Seed 003 的护栏忘了这个跳转。
    * 否则 -> ``None``（没有更新）。绝不抛出异常。
    """
    # TODO(day13): 第 2 部分，拒绝被拦下的请求，并结束运行。
    raise NotStarted("day13")


def guard_tool_call(request: Any, handler: Callable[[Any], Any]) -> Any:
    """``ConfirmBeforeBooking.wrap_tool_call``：在确认之前，拒绝受保护的工具。

    * 输入：一个 ``ToolCallRequest``（``request.tool_call`` 是调用的 dict，含 ``"name"``、
      ``"args"``、``"id"``；``request.state`` 是 agent 的状态 dict），以及负责运行工具的
      ``handler``。
    * 调用的工具名是 ``GUARDED_TOOL``，且 ``request.state`` 里没有为真的 ``"user_confirmed"``
      -> 不运行工具；返回 ``ToolMessage(NEEDS_CONFIRMATION, tool_call_id=<the
      call's id>, name=<the call's name>, status="error")``，让模型读到原因。
    * 其他任何调用，或者用户已经确认 -> 原样返回 ``handler(request)``。
    """
    # TODO(day13): 第 2 部分，在状态表明已确认之前，拒绝 book_hotel。
    raise NotStarted("day13")


# translates: 77170ab5f84ae21a (the version of stub.py this follows)
