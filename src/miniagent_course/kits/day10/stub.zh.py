"""Day 10：在每一步解析动态模型，并在便宜模型与强模型之间分流。

课文：     course/days/day10-dynamic-model.zh.md
Notebook： notebooks/day10_dynamic_model.zh.ipynb
检查：     miniagent check day10        卡住了？miniagent hint day10

两个部分，分别评分：

(1) ``make_resolve_model``：agent 节点向它要这一步的模型的那个函数。
(2) 扩展：``choose_model``，你自己的一个路由策略，由动态 agent 作为它的模型函数来运行。
    上游没有这样的东西；它的约定写在它的 docstring 里。
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from miniagent.messages import ToolMessage
from miniagent.prebuilt.chat_agent_executor import _get_prompt_runnable, _get_state_value
from miniagent.runnables import Runnable
from miniagent.runtime import Runtime
from miniagent_course.todo import NotStarted


def make_resolve_model(
    *,
    model: Any,
    prompt: Any,
    is_dynamic_model: bool,
    static_model: Runnable | None,
    tools: Sequence[Any] = (),
) -> Callable[[Any, Runtime], Runnable]:
    """构建并返回 ``_resolve_model(state, runtime)``，做法与 ``create_react_agent`` 相同。

    ``create_react_agent`` 在自身内部定义 ``_resolve_model``，并在闭包里捕获它构建 agent
    时算出的一些值。这里它们作为参数传进来（评分器从一个真实的 agent 里取出它们，
    再把你返回的函数放进那个 agent，替换掉原来的那个）。

    输入：

    * ``model`` -- 用户作为 ``model`` 传入的东西：动态模型是一个可调用对象
      ``(state, runtime) -> chat model``；静态模型就是那个聊天模型本身；
    * ``prompt`` -- 用户作为 ``prompt`` 传入的东西（``None``、一个 str、一个 SystemMessage、
      一个可调用对象或一个 Runnable）；
    * ``is_dynamic_model`` -- ``model`` 是这样一个可调用对象时为 True；
    * ``static_model`` -- 只构建一次的流水线 ``prompt | model``（动态时为 ``None``）；
    * ``tools`` -- agent 的工具，和在 ``create_react_agent`` 里一样处在作用域内。

    输出：``_resolve_model``，agent 在每个模型步骤都会按位置参数调用它，再用整个状态去 invoke
    它返回的结果。它返回：

    * 静态模型：``static_model``，每次都是同一个对象；从不调用 ``model``；
    * 动态模型：一个两步的 ``RunnableSequence``：先是 ``prompt`` 对应的 prompt runnable（Day 05），
      再是可调用对象为*这一次*调用返回的聊天模型。每次调用时，可调用对象恰好运行一次，
      以两个位置参数收到这次调用的状态和运行时（它的参数可以随意命名）。它返回的模型原样使用：
      不给它绑定工具（可调用对象自己绑定它想要的），也不做任何缓存（下一步可能想要另一个模型）。

    错误：自己不抛出任何错误；可调用对象抛出的异常原样传出。

    >>> from miniagent.testing import FakeToolCallingModel
    >>> chat = FakeToolCallingModel()
    >>> resolve = make_resolve_model(
    ...     model=lambda state, runtime: chat, prompt="Be brief.",
    ...     is_dynamic_model=True, static_model=None)
    >>> [step.get_name() for step in resolve({"messages": []}, None).steps]
    ['Prompt', 'FakeToolCallingModel']

    为什么这样做，以及可调用对象返回字符串或协程时会怎样：见课文的*读源码*和*边界情况与意外*。
    上游：``langgraph/prebuilt/chat_agent_executor.py:599``（langgraph-prebuilt 1.1.3）。
    """
    # TODO(day10): 在这里定义 _resolve_model(state, runtime)，然后返回它。
    raise NotStarted("day10")


# --- 第 2 部分：扩展 --------------------------------------------------------------------------


def choose_model(state: Any, runtime: Runtime, *, cheap: Any, strong: Any) -> Any:
    """你的路由策略：为动态 agent 的一个步骤挑选模型，便宜的还是强的。

    agent 这样调用它：``model=lambda state, runtime: choose_model(state, runtime,
    cheap=..., strong=...)``，传入调用方已经绑定好工具的两个模型。

    * 输入：``state`` 是一个 dict（``AgentState``）或一个 pydantic ``AgentStatePydantic``；
      “历史”就是它的 ``messages``（读取方式要让两种形态都能用）。``runtime`` 是 agent
      调用它时所用签名的一部分；这个策略用不到它。
    * 输出：``cheap`` 或 ``strong`` 本身，原封不动（不 ``bind_tools``，不复制）。
    * 历史的最后一条消息是 ``status`` 为 ``"error"`` 的 ``ToolMessage`` 时，返回
      ``strong``（有工具失败了；模型得收拾局面）。只有 ``status`` 能说明这一点：失败的工具，
      文本可能写成任何样子（比如一个 ``handle_tool_errors="Try later."`` 的 ToolNode），
      而成功运行的工具也可能返回以 "Error" 开头的文本。只有*最后一条*消息算数：更早的一次失败，
      后面又跟了一个结果，就不算了。
    * 历史里的消息多于 4 条（5 条或更多）时，返回 ``strong``。
    * 其他情况返回 ``cheap``，空历史也算在内（没有任何东西检查 agent 是否收到了消息）。
      绝不抛出异常。

    课文的*轮到你了*展示了这个策略在真实 agent 里的样子。
    """
    # TODO(day10): 第 2 部分，返回 cheap 或 strong。
    raise NotStarted("day10")


# translates: 52712dbe33246270 (the version of stub.py this follows)
