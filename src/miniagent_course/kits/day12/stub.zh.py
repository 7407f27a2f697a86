"""Day 12：写出 ``stream_mode="messages"`` 背后的处理器：客户端会收到什么，不会收到什么。

课文：      course/days/day12-streaming.zh.md
Notebook：  notebooks/day12_streaming.zh.ipynb
检查：      miniagent check day12        卡住了？miniagent hint day12

两个部分，分别评分：

(1) ``StreamMessagesHandler`` 的四个方法（``miniagent/graph/pregel.py``；上游
    ``langgraph/pregel/_messages.py:75``），在这里写成函数，第一个参数是处理器本身，即
    ``self``。评分器把它们装进这个类，于是每个以 ``"messages"`` 模式流式输出的图，
    用的都是你的方法；然后把客户端收到的内容与上游的流比较，上游的流是对脚本化的运行录下来的。
(2) ``predictions``：对十四次简短的运行，预测流的客户端看到什么。

``self``（一个 ``StreamMessagesHandler``）现成提供给你的：

* ``self.emit(chunk)`` 把一个块交给客户端；``messages`` 模式的块是
  ``("messages", (message, metadata))``；
* ``self.seen``，一个 ``set``，装着视为已经发送过的消息 id；
* ``self._is_message(value)``，即 ``isinstance(value, BaseMessage)``；
* 下面这些方法，即你写出来的版本（``self._emit(...)`` 调用的就是你的）。

图会调用模型钩子（每个 token 块调用一次 ``on_chat_model_stream``，不去重；最终回复调用
``on_chat_model_end``，去重）；对它运行的每个节点，在节点之前调用 ``on_node_start(task)``，
之后调用 ``on_node_end(task, response)``。
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any
from uuid import uuid4

from miniagent.graph.pregel import PregelExecutableTask, StreamMessagesHandler, _state_values
from miniagent.messages import BaseMessage
from miniagent.types import Command
from miniagent_course.todo import NotStarted


def _emit(
    self: StreamMessagesHandler, meta: dict[str, Any], message: BaseMessage, *, dedupe: bool = False
) -> None:
    """把 ``message`` 连同 ``meta`` 发给客户端，除非必须跳过它。

    输入：``self``，处理器（``self.emit`` 发送给客户端；``self.seen`` 装着已经发送过的 id）；
    ``meta``，随消息一起发送的元数据；``message``；``dedupe``，已经发送过的消息是否必须跳过
    （token 块发送时用的是 ``False``）。

    输出：``None``。``dedupe=True`` 且消息的 id 在 ``self.seen`` 里时，什么也不发生。
    否则 ``self.emit`` 收到 ``("messages", (message, meta))``，其中是消息本身，不是副本，
    之后消息的 id 在 ``self.seen`` 里；id 原本为 ``None`` 的消息，现在有了一个新的 uuid4
    字符串作为 id，就设在这个对象本身上（状态持有的是同一个对象，所以客户端和状态一致）。

    错误：它自己不抛出错误。

    >>> from miniagent.messages import AIMessage
    >>> sent = []
    >>> handler = StreamMessagesHandler(sent.append)
    >>> _emit(handler, {"node": "agent"}, AIMessage("hi", id="a1"), dedupe=True)
    >>> _emit(handler, {"node": "agent"}, AIMessage("hi again", id="a1"), dedupe=True)
    >>> [(message.content, meta) for _, (message, meta) in sent]
    [('hi', {'node': 'agent'})]

    上游：``StreamMessagesHandler._emit``（langgraph/pregel/_messages.py:123）。
    """
    # TODO(day12): 把下面这一行换成你的代码。
    raise NotStarted("day12")


def _find_and_emit_messages(
    self: StreamMessagesHandler, meta: dict[str, Any], response: Any
) -> None:
    """按顺序发送节点的 ``response`` 里找到的每条消息，跳过已经发送过的。

    输入：``self``，处理器；``meta``，节点的元数据；``response``，节点的返回值。

    输出：``None``。找到的每条消息，都像你的 ``_emit`` 在 ``dedupe=True`` 时那样发送。
    只在下面这些地方找消息，不再往深处找：

    * ``response`` 本身，当它是一条消息时；
    * 一个序列（list、tuple）里：每个是消息的元素；
    * 类似状态的 ``response`` 里（dict 或 pydantic 模型；``_state_values`` 给出它的顶层值）：
      每个本身是消息的值，以及每个序列值里的每条消息（``{"messages": [...]}``）。

    其他任何东西（字符串、数字、list 里的 dict、``None``）都不发送任何内容。

    错误：它自己不抛出错误。

    >>> from miniagent.messages import AIMessage
    >>> sent = []
    >>> handler = StreamMessagesHandler(sent.append)
    >>> _find_and_emit_messages(handler, {}, {"messages": [AIMessage("a", id="1")], "n": 3})
    >>> [message.content for _, (message, meta) in sent]
    ['a']

    上游：``StreamMessagesHandler._find_and_emit_messages``（_messages.py:132）。
    """
    # TODO(day12): 把下面这一行换成你的代码。
    raise NotStarted("day12")


def on_node_start(self: StreamMessagesHandler, task: PregelExecutableTask) -> None:
    """节点运行之前：它输入里已有的消息不算新消息。

    输入：``self``，处理器；``task``，节点的这次运行（``task.input`` 是它的输入）。

    输出：``None``；不发送任何东西。之后，``self.seen`` 还装着 ``task.input`` 的顶层值
    （``_state_values``）中每条消息的 id：值本身是消息时取这条消息，值是序列（不是字符串）时，
    取其中的每条消息。id 为 ``None`` 的消息不添加任何东西。

    错误：它自己不抛出错误。

    >>> from miniagent.messages import HumanMessage
    >>> handler = StreamMessagesHandler(print)
    >>> task = PregelExecutableTask("agent", {"messages": [HumanMessage("hi", id="h1")]}, None, {}, (), ())
    >>> on_node_start(handler, task)
    >>> handler.seen
    {'h1'}

    上游：``StreamMessagesHandler.on_chain_start``（_messages.py:215）。
    """
    # TODO(day12): 把下面这一行换成你的代码。
    raise NotStarted("day12")


def on_node_end(self: StreamMessagesHandler, task: PregelExecutableTask, response: Any) -> None:
    """节点运行之后：发送它返回的、还没发送过的消息。

    输入：``self``，处理器；``task``，节点的这次运行（它的元数据是
    ``task.config["metadata"]``）；``response``，节点的返回值：一个更新、一个 ``Command``，
    或者由它们组成的序列（工具节点对每个工具调用返回一项；工具返回了 ``Command`` 时，
    对应的那一项就是 ``Command``）。

    输出：``None``。带着节点的元数据、像你的 ``_find_and_emit_messages`` 那样发送：对
    ``Command``，发送它的 ``update`` 里的消息；对至少含有一个 ``Command`` 的序列，发送每个
    ``Command`` 的 ``update`` 里的消息，以及其余每一项原样所含的消息；对其他任何返回值，
    发送 ``response`` 本身所含的消息。

    错误：它自己不抛出错误。

    >>> from miniagent.messages import AIMessage
    >>> sent = []
    >>> handler = StreamMessagesHandler(sent.append)
    >>> task = PregelExecutableTask("agent", {}, None, {"metadata": {"step": 1}}, (), ())
    >>> on_node_end(handler, task, Command(update={"messages": [AIMessage("hi", id="a1")]}))
    >>> [(message.content, meta) for _, (message, meta) in sent]
    [('hi', {'step': 1})]

    上游：``StreamMessagesHandler.on_chain_end``（_messages.py:245）。
    """
    # TODO(day12): 把下面这一行换成你的代码。
    raise NotStarted("day12")


# --- 第 2 部分：预测流的客户端看到什么 ----------------------------------------------------


def predictions() -> dict[str, list[tuple[str, str, str | None, str]]]:
    """你的预测：``agent.stream(...)`` 的客户端在十四次运行中看到什么。

    除非某一行另有说明，每次运行都是 ``create_react_agent(model, tools)``，带工具 ``add``
    （这里返回 ``5``），历史为 ``[HumanMessage("2 + 3?", id="h1")]``。“流式模型”指
    ``ScriptedChatModel``：它把回复的内容按空白切开，逐块流式输出（``"It is 5"`` 给出
    ``"It"``、``" "``、``"is"``、``" "``、``"5"``），然后每个工具调用一个块，内容为 ``""``；
    既没有文本也没有调用的回复是一个 ``""`` 块。``FakeToolCallingModel`` 没有 ``_stream``：
    它一次性回复，内容是它收到的各条消息的内容用 ``"-"`` 连起来，id 为 ``"0"``（之后是
    ``"1"``……）。

    * ``answer`` -- 一个流式模型回答 ``"It is 5"``（id ``r1``）；
    * ``tool_round`` -- 一个流式模型调用 ``add``（id ``r1``，没有文本），然后回答
      ``"Five."``（id ``r2``）；
    * ``whole_reply`` -- ``FakeToolCallingModel`` 不带工具调用地回答；
    * ``nostream_no_tools`` -- ``answer`` 的那个模型加上 ``.with_config(tags=["nostream"])``，
      放在一个没有工具的 agent 里；
    * ``nostream_with_tools`` -- 同一个带标签的模型，放在一个带工具 ``add`` 的 agent 里；
    * ``sorry`` -- 一个流式模型调用 ``add``（id ``r1``，没有文本）；``recursion_limit=2``；
    * ``reused_id_streamed`` -- 历史是 ``HumanMessage("hi", id="h0")``、
      ``AIMessage("hello", id="a0")``，然后是那个问题；一个流式模型以 id ``a0`` 回答
      ``"Five."``；
    * ``reused_id_whole`` -- 同样的历史，只是那条 AIMessage 的 id 为 ``"0"``；
      ``FakeToolCallingModel`` 回答；
    * ``reused_id_whole_pydantic`` -- 同上，加上 ``state_schema=AgentStatePydantic``；
    * ``command_tool`` -- 一个流式模型调用 ``note``（id ``r1``，没有文本），这个工具返回
      ``Command(update={"messages": [ToolMessage("noted", id="t1", ...)]})``；然后模型回答
      ``"Five."``（id ``r2``）；
    * ``hook_rewrites`` -- 一个 ``pre_model_hook`` 返回 ``{"messages": [RemoveMessage(id=
      REMOVE_ALL_MESSAGES), HumanMessage("(summary)", id="s1"), <the last message>]}``；
      一个流式模型回答 ``"Five."``（id ``r1``）；
    * ``tool_round_updates``、``sorry_updates``、``hook_rewrites_updates`` -- ``tool_round``、
      ``sorry`` 和 ``hook_rewrites`` 这三次运行，改用 ``stream_mode="updates"`` 流式输出。

    其余的运行用 ``stream_mode="messages"`` 流式输出。对每个键，
    给出一个列表，按顺序列出客户端看到的内容，每条消息一个元组：
    ``(node, type, id, content)``。``node`` 是产生它的节点（``messages`` 模式下是
    ``metadata["langgraph_node"]``，``updates`` 模式下是块的键，更新里的每条消息一个元组），
    ``type`` 是类名（``"AIMessageChunk"``、``"AIMessage"``、``"ToolMessage"``……），
    ``id`` 是消息的 id，是随机的 uuid4 时写作 ``"uuid"``，``content`` 是它的内容。
    客户端什么也没看到的运行写作 ``[]``。

    返回一个包含全部十四个键的字面量 dict。它的形状（占位值，不是答案）：
    ``{"answer": [("agent", "AIMessage", "r1", "hi")], ...}``。根据课文来预测：
    评分器拿它与上游的流比较。

    密封：缺了条目（或有条目不是这种形式）的表不评分，只告诉你填了多少项。
    你第一份完整的表会在显示任何真实结果之前记为你的首次作答：那一次运行（``pytest``、
    ``miniagent check`` 或 notebook 的表格单元）只说出哪些行错了，
    之后的运行才显示真实运行给出的结果。
    """
    # TODO(day12): 把下面这一行换成 `return {"answer": [...], ...}`。
    raise NotStarted("day12")


# translates: e27923864e65aed9 (the version of stub.py this follows)
