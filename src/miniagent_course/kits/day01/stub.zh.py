"""Day 01：把节点的新消息合并进对话，和 agent 的状态做法一样。

课文：      course/days/day01-messages.zh.md
Notebook：  notebooks/day01_messages.zh.ipynb
检查：      miniagent check day01        卡住了？  miniagent hint day01

分两部分，分别评分：

(1) ``add_messages``：写出 ``messages`` 键的 reducer。评分器先在几百段生成的历史上把它和
    miniagent 的版本对照，再让它当一个真实 agent 的 reducer。
(2) ``predictions``：在运行 notebook 里的表之前，预测 ``add_messages`` 对十六组 (left, right)
    各返回什么，或者抛出哪个错误。评分器会运行真正的 ``add_messages``。
"""

from __future__ import annotations

import uuid  # noqa: F401  （你会用到它）
from typing import Literal

from miniagent.graph.message import (  # noqa: F401
    Messages,
    _add_messages_wrapper,
    _format_messages,
)
from miniagent.messages import (  # noqa: F401
    REMOVE_ALL_MESSAGES,
    AIMessage,
    AIMessageChunk,
    BaseMessage,
    HumanMessage,
    RemoveMessage,
    ToolMessage,
    convert_to_messages,
    message_chunk_to_message,
)
from miniagent_course.todo import NotStarted


@_add_messages_wrapper  # 已给出：add_messages(format=...)，以及缺少一侧时的错误
def add_messages(
    left: Messages,
    right: Messages,
    *,
    format: Literal["langchain-openai"] | None = None,
) -> Messages:
    """把 ``right``（节点的更新）合并进 ``left``（历史），返回新的历史。

    输入：

    * ``left``、``right`` -- 各自是一个类消息值，或者由类消息值组成的 ``list``。只有 ``list``
      才算列表：元组是*一个*类消息值（``("user", "hi")`` 是一条消息）。类消息值是指一条消息、
      一个 ``str``、一个 ``(role, content)`` 二元组，或者一个 ``{"role": ..., "content": ...}``
      dict。
    * ``format`` -- ``None`` 或 ``"langchain-openai"``。

    输出：一个新的消息列表；``left`` 这个列表本身永远不会被改动。

    * 每个类消息值在结果里都是一条消息：本来就是消息的，还是同一个对象；消息块
      （``AIMessageChunk``）变成完整的 ``AIMessage``；其他的一律转换。
    * 两侧中 ``id`` 原本为 ``None`` 的每条消息，都会得到一个新的 uuid4 字符串作为 id，而且是
      设在调用方的那个消息对象本身上。
    * id 还不在历史里的消息追加到末尾。id 已经在历史里的消息替换掉那条消息，位置不变：只看 id，
      不看类型，也不看内容。（如果手工构造的 ``left`` 里同一个 id 出现两次，被替换的是其中最后
      一条。）
    * ``RemoveMessage(id=...)`` 删除具有该 id 的消息，但要等整个更新合并完才删：同一次更新里先加
      后删的消息就没了；先删后又再次发来的消息会保留，保留的是后来那条，放在原来的位置。
    * ``right`` 里出现 ``RemoveMessage(id=REMOVE_ALL_MESSAGES)`` 之后，结果是 ``right`` 中*最后*
      一个这种标记之后的全部内容，原样照搬；历史被丢弃。
    * ``format="langchain-openai"``：合并后的消息再交给 ``_format_messages``（已给出；
      miniagent 没有实现它，所以它会抛错）。

    错误，文本必须一字不差：

    * ``RemoveMessage`` 的 id 既不在历史里，也不在本次更新中它之前的消息里：
      ``ValueError(f"Attempting to delete a message with an ID that doesn't exist ('{id}')")``；
    * 其他任何 ``format``，在合并完成之后：
      ``ValueError(f"Unrecognized {format=}. Expected one of 'langchain-openai', None.")``；
    * 不是类消息的值：``convert_to_messages`` 对它抛出的错误，原样不变。

    >>> update = [("ai", "hello"), HumanMessage("hey", id="1")]
    >>> [(m.type, m.content) for m in add_messages([HumanMessage("hi", id="1")], update)]
    [('human', 'hey'), ('ai', 'hello')]

    上游：``langgraph/graph/message.py:65``（langgraph 1.2.24）。
    """
    # TODO(day01): 把下面这行换成你的代码。
    raise NotStarted("day01")


def predictions() -> dict[str, list[tuple[str, str]] | str]:
    """你对下面每组 (left, right) 的预测：``add_messages(left, right)`` 返回什么。写成由
    ``(type, content)`` 二元组组成的消息列表，例如 ``[("human", "2 + 3?")]``；如果它抛出异常，
    就写异常类的名字，例如 ``"ValueError"``。

    大多数用例都从 ``chat`` 这段历史开始（``[]`` 是空历史）::

        call = {"name": "add", "args": {"a": 2, "b": 3}, "id": "call_1"}
        chat = [HumanMessage("2 + 3?", id="1"), AIMessage("let me add", id="2", tool_calls=[call])]

    各组输入按用例名列出，写作 ``left`` ⟵ ``right``::

        "append_one":                chat ⟵ ToolMessage("5", id="3", tool_call_id="call_1")
        "same_id_replaces":          chat ⟵ [AIMessage("2 + 3 = 5", id="2")]
        "no_id_appends":             chat ⟵ [AIMessage("let me add", tool_calls=[call])]
        "same_id_other_type":        chat ⟵ [ToolMessage("5", id="2", tool_call_id="call_1")]
        "remove_one":                chat ⟵ [RemoveMessage(id="2")]
        "remove_unknown":            chat ⟵ [RemoveMessage(id="9")]
        "add_then_remove":           chat ⟵ [AIMessage("draft", id="7"), RemoveMessage(id="7")]
        "remove_then_add":           chat ⟵ [RemoveMessage(id="2"), AIMessage("again", id="2")]
        "remove_all":                chat ⟵ [RemoveMessage(id=REMOVE_ALL_MESSAGES),
                                             HumanMessage("fresh")]
        "remove_all_tail":           chat ⟵ [RemoveMessage(id=REMOVE_ALL_MESSAGES),
                                             HumanMessage("a", id="x"), RemoveMessage(id="x")]
        "dicts_tuples_strs":         [] ⟵ [{"role": "user", "content": "hi"},
                                           ("assistant", "hello"), "bye"]
        "one_tuple":                 [] ⟵ ("user", "hi")
        "tuple_of_messages":         [] ⟵ (HumanMessage("a"), HumanMessage("b"), HumanMessage("c"))
        "tool_dict_without_call_id": [] ⟵ [{"role": "tool", "content": "5"}]
        "unanswered_call_is_fine":   [] ⟵ [AIMessage("", tool_calls=[call]), HumanMessage("hello?")]
        "chunk":                     chat ⟵ AIMessageChunk("2 + 3", id="4")

    返回一张字面量写成的表，每个用例一项。它的形状（值只是占位，不是答案）：
    ``{"append_one": [("human", "?")], "same_id_replaces": "KeyError", ...}``。
    请根据课文推出答案：评分器会在每组输入上运行真正的 ``add_messages``。

    密封：缺了某一项（或者某一项不是这种形式）的表不会被评分，只会告诉你填了几项。你第一张完整
    的表会在显示任何真实结果之前被记录为首次作答：那一次运行（``pytest``、``miniagent check``
    或 notebook 里的表格单元）只告诉你哪几行错了，之后的运行才显示真实运行的结果。
    """
    # TODO(day01): 把下面这行换成 `return {"append_one": [...], ..., "chunk": ...}`。
    raise NotStarted("day01")


# translates: 1faa097a5e7d8f9a (the version of stub.py this follows)
