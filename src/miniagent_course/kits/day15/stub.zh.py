"""Day 15，结业项目：一个有护栏的工单 agent，用你自己的零件组装而成。

课文：      course/days/day15-capstone.zh.md
Notebook：  notebooks/day15_capstone.zh.ipynb
检查：      miniagent check day15        卡住了？miniagent hint day15

两个部分，分别评分：

(1) ``order_prompt``、``guard_escalation`` 和 ``build_agent``：
    agent 的动态 prompt、它的护栏，以及 agent 本身。评分器在六段照脚本进行的对话上运行你的
    agent（其中有一次拒绝、一次预算耗尽和一个失败的工具），把一切能观察到的东西，
    与上游的 ``create_agent`` 用同样零件得到的结果（已录成数据）比较。
(2) 预测：``predictions`` 在你运行之前，说出每段对话怎样结束。

现成提供（在下面导入）：三个工具 ``TOOLS``（``lookup_customer`` 遇到未知的 id 时，
以一个模型能读到的 ``ToolException`` 失败；``create_work_order`` 把工单存进状态的
``current_order``；``escalate`` 呼叫人工处理），状态 schema ``WorkOrderState``（加上
``current_order`` 和 ``confirmed``），结果 schema ``WorkOrder``，以及各个常量。
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from miniagent.agents import create_agent
from miniagent.agents.middleware import (
    ModelCallLimitMiddleware,
    ModelRequest,
    ToolCallLimitMiddleware,
    dynamic_prompt,
    wrap_tool_call,
)
from miniagent.agents.structured_output import ToolStrategy
from miniagent.messages import ToolMessage
from miniagent_course.kits.day15.cases import (
    MODEL_CALLS,
    NEEDS_CONFIRMATION,
    RULES,
    TOOL_CALLS,
    WorkOrder,
    state_schema,
    work_order_tools,
)
from miniagent_course.sides import mini
from miniagent_course.todo import NotStarted

TOOLS = work_order_tools(mini())
WorkOrderState = state_schema(mini())

__all__ = [
    "MODEL_CALLS",
    "NEEDS_CONFIRMATION",
    "RULES",
    "TOOLS",
    "TOOL_CALLS",
    "ModelCallLimitMiddleware",
    "ToolCallLimitMiddleware",
    "ToolMessage",
    "ToolStrategy",
    "WorkOrder",
    "WorkOrderState",
    "create_agent",
    "dynamic_prompt",
    "wrap_tool_call",
]


def order_prompt(request: ModelRequest) -> str:
    """一次模型调用的系统消息，由当前工单生成（seed 002）。

    输入：这次调用的 ``ModelRequest``；工单是 ``request.state`` 的 ``"current_order"``
    （一个 dict），在 ``create_work_order`` 运行之前不存在或为空。

    输出，一个 str：

    * 没有工单：``RULES + "\\nNo current order yet."``；
    * 有工单：``RULES + "\\nCurrent order: "``，再加上工单的 JSON，键排好序，分隔符用默认值
      （``{"id": 7, "room": "101"}``）。

    错误：没有；它从不抛出异常。

    它通过 ``dynamic_prompt`` 变成中间件：给它加上 ``@dynamic_prompt`` 装饰器，或者在
    ``build_agent`` 里包一层；无论哪种，都按你写的这个函数评分。课文的*为什么这样设计*一节，
    讲了为什么工单放在状态里，而不放在历史里。

    >>> from types import SimpleNamespace
    >>> order_prompt(SimpleNamespace(state={})).endswith("No current order yet.")
    True
    """
    # TODO(day15): 先是规则，然后是当前工单（或者说明还没有工单）。
    raise NotStarted("day15")


def guard_escalation(request: Any, handler: Callable[[Any], Any]) -> Any:
    """护栏的 ``wrap_tool_call``：在用户确认之前，拒绝 ``escalate``。

    输入：一个 ``ToolCallRequest``（``request.tool_call`` 是调用的 dict，含 ``"name"``、
    ``"args"``、``"id"``；``request.state`` 是 agent 的状态），以及负责运行工具的
    ``handler``。

    输出：

    * 调用的工具名是 ``"escalate"``，且状态里没有为真的 ``"confirmed"``：工具不运行；返回
      ``ToolMessage(NEEDS_CONFIRMATION, tool_call_id=<the call's id>, name=<the call's
      name>, status="error")``，让模型读到原因；
    * 其他任何调用，或者已经确认的升级：原样返回 ``handler`` 对这个请求的返回值。

    错误：它自己不抛出错误。

    >>> from types import SimpleNamespace
    >>> call = {"name": "escalate", "args": {}, "id": "c1"}
    >>> refused = guard_escalation(SimpleNamespace(tool_call=call, state={}), print)
    >>> refused.content == NEEDS_CONFIRMATION, refused.tool_call_id, refused.status
    (True, 'c1', 'error')
    """
    # TODO(day15): 在状态表明已确认之前，拒绝 escalate。
    raise NotStarted("day15")


def build_agent(model: Any) -> Any:
    """结业项目：在 ``model`` 上调用 ``create_agent``，装上你的零件和现成的零件。

    输入：``model``，一个聊天模型（评分器的脚本化模型，或者你自己的）。

    输出：编译好的 agent（评分器会对它调用 ``invoke``），它具备：

    * 工具 ``TOOLS`` 和状态 schema ``WorkOrderState``（没有它，输入里的 ``confirmed``
      永远到不了状态）；
    * 你的 ``order_prompt`` 作为 ``@dynamic_prompt``，你的 ``guard_escalation`` 作为
      ``@wrap_tool_call`` 中间件，按这个顺序；
    * 预算：每次运行最多 ``MODEL_CALLS`` 次模型调用，用完时以上游的消息结束运行
      （``ModelCallLimitMiddleware``，``exit_behavior="end"``）；每次运行最多
      ``TOOL_CALLS`` 次工具调用，超出的每个调用都得到一条模型能读到的错误
      （``ToolCallLimitMiddleware``，用它的默认行为）；
    * 结构化结果：通过工具调用得到的 ``WorkOrder``（``ToolStrategy``）；
    * 没有 ``system_prompt``：动态 prompt 就是整条系统消息。

    错误：它自己不抛出错误。

    >>> from miniagent.testing import ScriptedChatModel
    >>> type(build_agent(ScriptedChatModel([]))).__name__
    'CompiledStateGraph'
    """
    # TODO(day15): 组装这个 agent。
    raise NotStarted("day15")


# --- 第 2 部分：预测 --------------------------------------------------------------------------


def predictions() -> dict[str, tuple[str, tuple[str, ...]]]:
    """每段照脚本进行的对话怎样结束，在你运行它之前预测。

    这些对话就是课文表格里的那六段（*轮到你了*，第 2 部分：用户的消息，
    以及模型照脚本给出的回复）。对每个键，给出 ``(ending, tools)``：

    * ``ending``：``"work_order"``（运行的 ``structured_response`` 是一个 ``WorkOrder``；
      其他结局都让它保持 ``None``）、``"model_limit"``（模型调用预算结束了运行）或
      ``"reply"``（一条纯文本回答结束了运行）；
    * ``tools``：``status == "success"`` 的工具消息的名字，按它们在历史里的顺序。被拒绝、
      失败或超出预算的调用不算；结构化结果自己的那条工具消息（名为 ``"WorkOrder"``）算。

    手写这张表（一个 dict 字面量）。在这里运行 agent，就不是预测了。

    密封：缺了条目（或有条目不是这种形式）的表不评分，只告诉你填了多少项。
    你第一份完整的表会在显示任何真实结果之前记为你的首次作答：那一次运行（``pytest``、
    ``miniagent check`` 或 notebook 的表格单元）只说出哪些行错了，
    之后的运行才显示真实运行给出的结果。
    """
    # TODO(day15): 第 2 部分，你对六段对话的预测表。
    raise NotStarted("day15")


# translates: 56a069f1f6603773 (the version of stub.py this follows)
