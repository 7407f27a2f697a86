"""Day 14：上下文装配的最后一步：一条消息到了供应商那里是什么样子。

课文：      course/days/day14-context-assembly.zh.md
Notebook：  notebooks/day14_context_assembly.zh.ipynb
检查：      miniagent check day14        卡住了？miniagent hint day14

两个部分，分别评分：

(1) ``_convert_message_to_dict``：把一条消息变成 Chat Completions API 收到的 dict
    （``miniagent/openai/chat_models/base.py``；
    上游 ``langchain_openai/chat_models/base.py:476``）。
    评分时与 langchain-openai 自己的转换结果（已录成数据）比较；然后把它放进
    ``ChatOpenAI`` 的请求体构造函数，于是追踪器会显示你的函数为一整次 agent 运行生成的请求体。
(2) ``predictions``，独立阅读：已安装的 langchain 里的
    ``SummarizationMiddleware._find_safe_cutoff_point``，没有哪一页讲解它；
    对小段历史上的十一个切点，写出它返回的下标。
"""

from __future__ import annotations

from miniagent.messages import AIMessage, BaseMessage, HumanMessage, SystemMessage, ToolMessage
from miniagent.openai.chat_models.base import (
    _format_message_content,
    _lc_invalid_tool_call_to_openai_tool_call,
    _lc_tool_call_to_openai_tool_call,
    _sanitize_chat_completions_content,
)
from miniagent_course.todo import NotStarted


def _convert_message_to_dict(message: BaseMessage) -> dict:
    """Chat Completions 收到的、代表 ``message`` 的 dict，键按上游的顺序排列。

    输入：``message``，一个 ``HumanMessage``、``AIMessage``、``SystemMessage`` 或
    ``ToolMessage``。

    输出：一个 dict，键依次是 ``content``、``name``、``role``，然后是该角色特有的键：

    * ``content`` -- API 所接受形式的内容：字符串保持为字符串，内容块列表要经过过滤和转换
      （上面导入的 ``_format_message_content`` 负责这件事）；
    * ``name`` -- ``message.name``，没有就取 ``message.additional_kwargs["name"]``；
      只有找到的那个不是 ``None`` 时，这个键才会出现；
    * ``role`` -- ``"user"``、``"assistant"``、``"tool"``；``SystemMessage`` 则是
      ``"system"``，除非它的 ``additional_kwargs["__openai_role__"]`` 指定了别的角色
      （``"developer"``）；
    * 带有 ``tool_calls`` 或 ``invalid_tool_calls`` 的 ``AIMessage``：``"tool_calls"``，
      先是有效的调用，再是无效的，采用 API 的形式（上面导入的两个
      ``_lc_..._to_openai_tool_call`` 辅助函数，每个转换一个调用）。两者都没有时：取
      ``additional_kwargs["tool_calls"]`` 里的原始调用，每个只保留 ``id``、``type`` 和
      ``function``；再没有，就把 ``additional_kwargs["function_call"]`` 作为
      ``"function_call"`` 发送。发送了工具调用或函数调用时，空内容（``""``、``[]``）变成
      ``None``。（音频回复：不评分，不用处理。）
    * ``ToolMessage``：只有 ``content``（文本块只保留 ``type`` 和 ``text``：
      ``_sanitize_chat_completions_content``）、``role`` 和 ``"tool_call_id"``。

    其他一概不发送：不发 ``id``，也不发其余的 ``additional_kwargs``。

    错误：任何其他消息类都抛出 ``TypeError(f"Got unknown type {message}")``。

    >>> _convert_message_to_dict(HumanMessage("hi", name="ada", id="h1"))
    {'content': 'hi', 'name': 'ada', 'role': 'user'}

    上游：``_convert_message_to_dict``（langchain_openai/chat_models/base.py:476）。
    """
    # TODO(day14): 把下面这一行换成你的代码。
    raise NotStarted("day14")


# --- 第 2 部分，独立阅读：摘要可以在哪里切开 ----------------------------------------------------


def predictions() -> dict[str, int]:
    """``SummarizationMiddleware._find_safe_cutoff_point(messages, cutoff_index)``
    对十一段历史和切点各返回什么，根据你在已安装的包里读到的源码来回答::

        python -c "import inspect; from langchain.agents.middleware.summarization import SummarizationMiddleware as S; print(inspect.getsource(S._find_safe_cutoff_point))"

    一段历史每条消息写成一个记号，从 0 开始编号：``H`` 是一条 ``HumanMessage``，
    ``A`` 是一条不带工具调用的 ``AIMessage``，``A[a,b]`` 是一条 ``tool_calls`` 的 id 为 ``"a"`` 和
    ``"b"`` 的 ``AIMessage``，``T(a)`` 是一条 ``tool_call_id="a"`` 的 ``ToolMessage``。
    切点就是给定的 ``cutoff_index``::

        键                     历史                             切点
        at_a_question          H A[a] T(a) A H A                  4
        at_the_end             H A[a] T(a) H A                    5
        at_the_call            H A H A[a] T(a) A                  3
        at_a_result            H A[a] T(a) H                      2
        at_the_second_result   H A H A[a,b] T(a) T(b) A           5
        past_a_plain_reply     H A[a] A T(a) H                    3
        past_another_call      H A H A[a] A[b] T(b) T(a) A        6
        orphans                H T(x) T(y) H A                    1
        orphan_first           T(x) H A                           0
        orphan_after_a_pair    H A[a] T(a) T(z) H                 3
        mixed_run              H A[a] T(a) A[b] T(z) T(b) H       4

    返回一个包含全部十一个键的字面量 dict，每个值是函数返回的 ``int``。它的形状（占位值，
    不是答案）：``{"at_a_question": 42, ...}``。靠阅读来预测：评分器拿它与上游自己的结果
    （已录下）比较。

    密封：缺了条目（或有条目不是这种形式）的表不评分，只告诉你填了多少项。
    你第一份完整的表会在显示任何真实结果之前记为你的首次作答：那一次运行（``pytest``、
    ``miniagent check`` 或 notebook 的表格单元）只说出哪些行错了，
    之后的运行才显示函数返回的值。
    """
    # TODO(day14): 把下面这一行换成 `return {"at_a_question": ..., ...}`。
    raise NotStarted("day14")


# translates: a372cdc751d0d99b (the version of stub.py this follows)
