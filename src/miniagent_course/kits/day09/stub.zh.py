"""Day 09：``remaining_steps`` 与 ``recursion_limit``：软着陆，以及它什么时候落空。

课文：     course/days/day09-remaining-steps.zh.md
Notebook： notebooks/day09_remaining_steps.zh.ipynb
检查：     miniagent check day09        卡住了？miniagent hint day09

两个部分，分别评分：

(1) ``make_are_more_steps_needed``：agent 每次调用模型之后都要运行的那项检查。
(2) 修复：``answer``，旅行服务台，它上线时的样子有毛病（课文的*修复：旅行服务台*印出了它）。
    到源码里找出原因，然后在这里修复它。
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from miniagent.errors import GraphRecursionError
from miniagent.messages import AIMessage, BaseMessage
from miniagent.models import BaseChatModel
from miniagent.prebuilt import create_react_agent
from miniagent.prebuilt.chat_agent_executor import _get_state_value
from miniagent.runnables import RunnableConfig
from miniagent.tools import BaseTool
from miniagent_course.todo import NotStarted

MAX_TOOL_CALLS = 3  # 旅行服务台为每个问题付费的工具调用次数


def make_are_more_steps_needed(
    should_return_direct: set[str],
) -> Callable[[Any, BaseMessage], bool]:
    """构建并返回 ``_are_more_steps_needed(state, response) -> bool``：软着陆。

    ``create_react_agent`` 在自身内部定义这项检查，并在闭包里捕获下面这个集合；这里集合是参数，
    由你返回这项检查。评分器会把它放进真实的 agent，替换掉 agent 自己的那一个。

    输入：``should_return_direct``，agent 中用 ``return_direct=True`` 构建的那些工具的名字。

    输出：这项检查，一个接收 ``state``（agent 节点的输入：dict 或 pydantic 对象，可能根本没有
    ``remaining_steps``）和 ``response``（模型的回复）的函数。它返回一个真正的 ``bool``：``True``
    表示“剩下的步数不够这个响应所需：把它换成 'Sorry, need more steps to process this request.'”。
    对于 ``AIMessage`` 响应：

    ==================  ==============  ======================  ======================
    remaining_steps     最终回答        调用工具，其中并非      只调用直接返回的工具
                        （无工具调用）  全部直接返回
    ==================  ==============  ======================  ======================
    状态里没有          False           False                   False
    2 或更多            False           False                   False
    1                   False           True                    True
    0 或更少            True            True                    True
    ==================  ==============  ======================  ======================

    其他任何响应（``ToolMessage``、``HumanMessage``）：``False``。

    错误：对以上任何状态和响应，都不抛出。

    >>> check = make_are_more_steps_needed(set())
    >>> check({"messages": [], "remaining_steps": 0}, AIMessage("done"))
    True

    为什么是这些阈值（一轮要花多少个超步，``remaining_steps`` 数的是什么）：
    见课文的*逐行看*和*数字从哪里来*。
    上游：``langgraph/prebuilt/chat_agent_executor.py:620``（langgraph-prebuilt 1.1.3）。
    """
    # TODO(day09): 在这里定义 _are_more_steps_needed(state, response)，然后返回它。
    raise NotStarted("day09")


def answer(
    question: str, model: BaseChatModel, tools: list[BaseTool], config: RunnableConfig
) -> str:
    """旅行服务台：用一个 ReAct agent 回答一个客户问题；返回回复的文本。

    聊天平台每个问题调用一次 ``answer``。它传入服务台的模型、服务台的工具（``search``，通常还有
    ``book``，一个用 ``return_direct=True`` 构建的工具，它的确认信息就是回复），
    以及平台自己的运行配置 ``config``：``metadata`` 里的工单、它的 ``tags``，
    以及平台给自己发起的每次运行都盖上的 ``recursion_limit``（25）。服务台上线时的样子，
    就是课文页面和 notebook 里的 ``answer_as_shipped``：从它开始。

    无论模型做什么，服务台都必须这样表现：

    * 平台的配置传到这次运行里：每个工具都能在自己配置的 ``metadata`` 里看到工单；
    * 模型查两次资料，然后回答：它的回答就是回复；
    * 模型查两次资料，然后调用 ``book``：预订完成（这个工具运行一次），它的确认信息就是回复；
    * 模型永不停止调用工具：运行的工具调用不超过 ``MAX_TOOL_CALLS`` 次，并且 ``answer`` 抛出
      ``GraphRecursionError``（平台会捕获它，把工单转给人工）。回复 "Sorry, need more steps to
      process this request." 绝不会被当作回答返回。

    修复应用，而不是修改库：改动了 miniagent 的 agent、工具节点或循环中任何一个函数的代码，
    都会被判失败，不管它返回什么。

    形式（不是修复方法）：一个 str，即这次运行最后一条消息的文本，例如

    >>> answer("When does LH123 leave?", model, tools, {"metadata": {"ticket": "T-1"}})
    'LH123 leaves at 9:40 from gate B12.'

    它为什么出毛病：见课文的*修复：旅行服务台*，以及那里印出的源码。
    """
    # TODO(day09): 把 answer_as_shipped 的函数体复制到这里，然后修复它。
    raise NotStarted("day09")


# translates: 03926c4bc154a99c (the version of stub.py this follows)
