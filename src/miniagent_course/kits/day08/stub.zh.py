"""Day 08：编写 ``call_model``，也就是 agent 的 ``agent`` 节点背后的那个函数。

课文：     course/days/day08-call-model.zh.md
Notebook： notebooks/day08_call_model.zh.ipynb
检查：     miniagent check day08        卡住了？miniagent hint day08

两个部分，分别评分：

(1) ``make_call_model``：写出这个节点函数。
(2) ``predictions``：针对十种情形，预测 agent 节点会做什么。评分器会在真实的 agent 上运行每种情形，
    再与你的预测对比。
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from miniagent.messages import AIMessage, BaseMessage
from miniagent.runnables import Runnable, RunnableConfig
from miniagent.runtime import Runtime
from miniagent_course.todo import NotStarted


def make_call_model(
    *,
    is_async_dynamic_model: bool,
    is_dynamic_model: bool,
    static_model: Runnable | None,
    name: str | None,
    get_model_input_state: Callable[[Any], Any],
    resolve_model: Callable[[Any, Runtime], Runnable],
    are_more_steps_needed: Callable[[Any, BaseMessage], bool],
) -> Callable[[Any, Runtime, RunnableConfig], dict[str, Any]]:
    """构建并返回 ``call_model(state, runtime, config)``，即同步的 ``agent`` 节点。

    ``create_react_agent`` 在自身内部定义 ``call_model``，并在闭包里捕获这些值；
    这里它们作为参数传进来（评分器从一个真实的 agent 里取出它们）。

    输入：

    * ``is_async_dynamic_model`` -- ``model`` 是一个 ``async def`` 可调用对象；
    * ``is_dynamic_model`` -- ``model`` 是一个可调用对象 ``(state, runtime) -> chat model``；
    * ``static_model`` -- ``prompt | model`` 这个 Runnable（模型为动态时是 ``None``）；
    * ``name`` -- agent 的 ``name=`` 参数（可能是 ``None``）；
    * ``get_model_input_state`` -- 接收状态；给出模型应当看到的状态，历史损坏时抛出
      ``ValueError``（Day 07）；
    * ``resolve_model`` -- 接收状态和运行时；对动态模型，给出这一步的 ``prompt | model``（Day 10）；
    * ``are_more_steps_needed`` -- 接收状态和模型的响应；剩下的步数太少、不够处理这个响应时为
      ``True``（Day 09）。

    输出：节点，一个参数恰好是 ``(state, runtime, config)`` 的函数（agent 按这些名字注入运行时和
    配置）。对一个 ``state``（dict 或 pydantic 对象），它返回更新 ``{"messages": [message]}``：
    一个只含一个元素的列表，里面只有这条新消息，绝不是历史，也不是模型的输入。这条消息是

    * 这一步的模型（``static_model``，或 ``resolve_model`` 给出的那个）对 ``get_model_input_state``
      准备好的状态给出的回复，调用时传入节点的 ``config``：就是模型返回的那个对象本身，它的 ``name``
      现在是 agent 的 ``name``（所以 ``name=None`` 会抹掉模型设置的名字）；
    * 或者，当 ``are_more_steps_needed`` 对这条已盖上名字的回复给出肯定回答时，一条新的
      ``AIMessage``：带着回复的 ``id``，内容为
      ``"Sorry, need more steps to process this request."``，此外什么都没有（没有工具调用，
      没有名字）。

    每个部件在每一步里最多运行一次；对 ``get_model_input_state`` 拒绝的状态，
    不解析也不调用任何模型。

    错误：

    * 在这条同步路径上遇到异步动态模型：``RuntimeError``，文本恰好是 ``"Async model
      callable provided but agent invoked synchronously. Use agent.ainvoke() or agent.astream(),
      or provide a sync model callable."``（一行，每个句号后一个空格），在任何部件运行之前抛出；
    * ``get_model_input_state`` 抛出的异常，原样传出。

    >>> from miniagent.runnables import RunnableLambda
    >>> model = RunnableLambda(lambda state: AIMessage("hi", id="r1", name="bot"))
    >>> node = make_call_model(
    ...     is_async_dynamic_model=False, is_dynamic_model=False, static_model=model,
    ...     name="helper", get_model_input_state=lambda state: state,
    ...     resolve_model=None, are_more_steps_needed=lambda state, reply: False)
    >>> [(m.content, m.name, m.id) for m in node({"messages": []}, None, {})["messages"]]
    [('hi', 'helper', 'r1')]

    每道关卡怎么做、为什么这样做：见课文的“读源码”和“逐行看”。
    上游：``langgraph/prebuilt/chat_agent_executor.py:661``（langgraph-prebuilt 1.1.3）。
    """
    # TODO(day08): 在这里定义 call_model(state, runtime, config)，然后返回它。
    raise NotStarted("day08")


# --- 第 2 部分：预测 agent 节点会做什么 -------------------------------------------------------


def predictions() -> dict[str, tuple[int, str, str | None]]:
    """你对 ``agent`` 节点在十种情形下各会做什么的预测。

    每种情形都是 ``create_react_agent(model, [add], ...)`` 的一次运行，其中 agent 节点运行一次。
    除非下面对应的那一行另有说明，模型是静态的聊天模型，agent 没有 ``name``，也没有
    ``pre_model_hook``，递归上限取默认值，运行方式是 ``agent.invoke(...)``，历史是一个问题，模型回复
    ``AIMessage("2 + 3 = 5", name="bot")``。可调用的 ``model`` 返回的也是这同一个聊天模型，
    已绑定工具。

    * ``async_model_ainvoke`` -- ``model`` 是一个 ``async def`` 可调用对象；运行方式是
      ``agent.ainvoke(...)``；
    * ``async_model_unanswered_call`` -- ``model`` 是一个 ``async def`` 可调用对象；
      历史以一个没有得到回答的 AI 工具调用结尾；
    * ``async_model_unanswered_call_ainvoke`` -- 同上，且运行方式是 ``agent.ainvoke(...)``；
    * ``unanswered_call`` -- 历史以一个没有得到回答的 AI 工具调用结尾；
    * ``dynamic_model_unanswered_call`` -- 同上，且 ``model`` 是一个同步可调用对象；
    * ``hook_hides_unanswered_call`` -- 历史依次是一个问题、一个没有得到回答的工具调用和第二个问题；
      ``pre_model_hook`` 返回 ``{"llm_input_messages": [last message]}``；
    * ``unnamed_agent`` -- 没有其他改动（基准情形）；
    * ``named_agent`` -- ``name="helper"``；
    * ``tool_call_one_step_left`` -- ``name="helper"``，``recursion_limit=2``（于是节点看到
      ``remaining_steps == 1``），模型回复 ``AIMessage("let me add", name="bot",
      tool_calls=[a call of add])``；
    * ``answer_one_step_left`` -- ``name="helper"``，``recursion_limit=2``。

    对每个键给出 ``(gate, text, name)``。``gate`` 是节点停下的那道关卡，编号与课文一致：1 异步守卫，
    2 输入状态，3 模型，4 名字，5 步数检查（Sorry 回复），6 正常的更新。然后：

    * 如果这次运行抛出异常：``(gate, "ErrorTypeName", None)``，例如 ``(3, "KeyError", None)``；
    * 如果节点返回了它的更新：更新里那一条消息的 ``(gate, content, name)``。

    返回一个包含全部十个键的字面量 dict。它的形状（这些值只是占位符，不是答案）：
    ``{"async_model_ainvoke": (4, "hi", "bot"), ...}``。根据课文来预测：评分器会运行每种情形并对比。

    密封：缺了某一项（或某一项不是这种形式）的表不予评分，只会告诉你填了多少项。
    你的第一份完整的表会在显示任何真实结果之前被记为你的首次作答：那次运行（``pytest``、
    ``miniagent check`` 或 notebook 里的表格单元）只告诉你哪些行错了，之后的运行才会显示真实运行
    给出的结果。
    """
    # TODO(day08): 把下面这一行换成 `return {"async_model_ainvoke": (...), ...}`。
    raise NotStarted("day08")


# translates: adea6a94cc506d59 (the version of stub.py this follows)
