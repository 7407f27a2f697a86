"""Day 05：把用户可能传入的任何 ``prompt`` 都变成同一种 Runnable：状态 -> 模型输入。

课文：      course/days/day05-prompt.zh.md
notebook：  notebooks/day05_prompt.zh.ipynb
检查：      miniagent check day05        卡住了？ miniagent hint day05

两项任务，分别评分：

(a) ``_get_prompt_runnable``：``create_react_agent`` 对它的 ``prompt`` 调用的那个函数。
(b) ``predictions``：在运行 notebook 里的那张表之前，预测十三个 prompt 各自让模型收到什么，
    或者运行时抛出哪个错误。评分器会运行真实的 agent。
"""

from __future__ import annotations

import inspect  # noqa: F401  （你会用到它）
from typing import Any

from miniagent.messages import SystemMessage  # noqa: F401
from miniagent.prebuilt.chat_agent_executor import (  # noqa: F401
    PROMPT_RUNNABLE_NAME,
    _get_state_value,
)
from miniagent.runnables import Runnable, RunnableCallable  # noqa: F401
from miniagent_course.todo import NotStarted


def _get_prompt_runnable(prompt: Any) -> Runnable:
    """返回一个 Runnable，它把 agent 的状态映射成模型必须看到的内容。

    输入：``prompt``，用户传给 ``create_react_agent(..., prompt=...)`` 的东西。agent 在构建时
    调用这个函数一次，并把结果用管道接到模型前面（``_get_prompt_runnable(prompt) | model``）。

    输出：一个 Runnable，它的输入是 agent 的状态（一个 dict 或一个 pydantic 对象），它的输出
    按 ``prompt`` 的种类分别是：

    * ``None``：状态里的消息，原样不变；
    * 一个 ``str``：以它为内容的一条 ``SystemMessage``，放在状态里的消息前面；这条消息在这个
      函数运行时只构造一次（每次调用放在前面的都是同一个对象）；
    * 一个 ``SystemMessage``：就是这个对象本身，放在状态里的消息前面；
    * 一个 ``async def`` 函数：它对整个状态返回的东西；这个 Runnable 只能异步调用
      （``ainvoke``），没有同步函数；
    * 其他任何可调用对象：它对整个状态返回的东西，原样不变；名为 ``config``、``runtime`` 或
      ``store`` 的参数会得到 ``RunnableCallable`` 注入的值；
    * 一个不可调用的 ``Runnable``：用户自己的那个对象，原样不变。

    你自己构建的每个 Runnable 都是一个名为 ``PROMPT_RUNNABLE_NAME``（``"Prompt"``）的
    ``RunnableCallable``。状态和它的消息列表从不被改动。

    错误：其他任何 ``prompt`` 都会立即抛错，也就是在构建 agent 时抛出
    ``ValueError(f"Got unexpected type for `prompt`: {type(prompt)}")``；对 123，文本是
    ``Got unexpected type for `prompt`: <class 'int'>``。

    >>> _get_prompt_runnable("Be brief.").invoke({"messages": []})
    [SystemMessage(content='Be brief.', ...)]

    上游：``langgraph/prebuilt/chat_agent_executor.py:137``（langgraph-prebuilt 1.1.3）。
    """
    # TODO(day05): 把下面这行换成你的代码。
    raise NotStarted("day05")


def predictions() -> dict[str, list[tuple[str, str]] | str]:
    """对下面每个 prompt，预测这次运行让模型收到什么：

        model = ScriptedChatModel([AIMessage("ok")])        # 记录它收到的东西
        agent = create_react_agent(model, [], prompt=PROMPT)
        agent.invoke({"messages": [("user", "hi")]},
                     {"configurable": {"lang": "fr"}},      # 这次运行的配置
                     context={"user": "Ada"})               # 这次运行的 context

    每个用例给出二者之一：模型第一次调用收到的消息，写成由 ``(type, content)`` 对组成的列表
    （``[("system", "Be brief."), ("human", "hi")]``）；或者，如果构建 agent 或运行它时抛错，
    给出异常类的名字（``"KeyError"``）。

    这些 prompt，按用例名列出（``SystemMessage`` 和 ``RunnableLambda`` 与本文件中的相同）::

        "none":           None
        "empty_str":      ""
        "str":            "Be brief."
        "system_message": SystemMessage("Be terse.")
        "function":       def state_keys(state):
                              return [SystemMessage(", ".join(sorted(state)))] + state["messages"]
        "returns_str":    def just_answer(state):
                              return "Just answer."
        "config":         def with_config(state, config):
                              lang = config["configurable"]["lang"]
                              return [SystemMessage(lang)] + state["messages"]
        "runtime":        def with_runtime(state, runtime):
                              return [SystemMessage(runtime.context["user"])] + state["messages"]
        "other_param":    def with_lang(state, lang):
                              return [SystemMessage(lang)] + state["messages"]
        "async_function": async def in_french(state):
                              return [SystemMessage("Answer in French.")] + state["messages"]
        "runnable":       RunnableLambda(lambda state: [("system", "Piped.")] + state["messages"])
        "int":            123
        "message_list":   [SystemMessage("Be brief.")]

    返回一张字面量写出的表，每个用例一项。它的形状如下（这些值只是占位，不是答案）：
    ``{"none": [("human", "?")], "empty_str": "KeyError", ..., "message_list": [...]}``。
    请根据课文推出答案：评分器会运行这个 agent。

    密封：缺了某一项（或某一项不符合这个形式）的表不予评分，只会告诉你填了多少项。你第一次
    填完整的表会在显示任何真实结果之前记为首次作答：那一次运行（``pytest``、
    ``miniagent check`` 或 notebook 里表格所在的单元格）只说出哪几行错了，之后的运行才会显示
    真实运行的结果。
    """
    # TODO(day05): 把下面这行换成 `return {"none": [...], ..., "message_list": ...}`。
    raise NotStarted("day05")


# translates: 28b67bb7466a76c7 (the version of stub.py this follows)
