"""Day 02：把函数的 docstring 和类型注解读成模型看到的关于它的说明。

课文：      course/days/day02-tools.zh.md
Notebook：  notebooks/day02_tools.zh.ipynb
检查：      miniagent check day02        卡住了？  miniagent hint day02

分两部分，分别评分：

(1) 写出给工具的 JSON schema 提供文字的两个函数：``_parse_google_docstring``（docstring 的摘要和
    ``Args:`` 里的各项描述）和 ``_infer_arg_descriptions``（函数的描述，以及每个参数的描述，
    来自 docstring 或 ``Annotated``）。评分器把它们放进 miniagent 的 ``convert_to_openai_tool``
    和 ``@tool`` 里，在一组函数上把结果和上游的结果对照，上游结果是从 langchain-core 录下来的。
(2) ``predictions``：在运行 notebook 之前，预测模型对十二个函数各读到什么，每个函数用三种方式
    之一转换。评分器会运行真正的转换。
"""

from __future__ import annotations

import inspect  # noqa: F401  （你会用到它）
from collections.abc import Callable
from typing import Any, get_type_hints  # noqa: F401

from miniagent.tools.schema import _get_annotation_description  # noqa: F401
from miniagent_course.todo import NotStarted


def _parse_google_docstring(
    docstring: str | None, args: list[str], *, error_on_invalid_docstring: bool = False
) -> tuple[str, dict[str, str]]:
    """把 Google 风格的 docstring 拆成 ``(summary, {参数名: 描述})``。

    输入：

    * ``docstring`` -- 经 ``inspect.getdoc`` 清理过的 docstring（公共缩进已去掉），或者
      ``None``；
    * ``args`` -- 函数各个注解的名字（函数有返回值注解时，其中包括 ``"return"``）；
    * ``error_on_invalid_docstring`` -- 不是 Google 风格的 docstring 是否算错误。

    输出：``(summary, descriptions)``。

    * ``summary`` -- ``Args:`` 一节之前的各段，用一个空格连起来再去掉首尾空白；``Returns:`` 或
      ``Example:`` 段以及它后面的内容不算摘要。没有 docstring 时为 ``""``。
    * ``descriptions`` -- （第一个）``Args:`` 一节里每个参数一项：参数名（括号里的类型去掉：
      ``city (str)`` 就是 ``city``）和它的描述，续行用一个空格接上。没有 ``Args:`` 一节时为
      ``{}``。

    错误，仅当 ``error_on_invalid_docstring=True`` 时：没有 docstring，或者 ``args`` 里有值得写进
    文档的参数（除 ``run_manager``、``callbacks``、``runtime``、``return`` 之外的任何参数），而
    第一段之后没有任何一段以 ``Args:`` 开头，这时抛出 ``ValueError("Found invalid Google-Style
    docstring.")``。

    >>> _parse_google_docstring("Get a forecast.\\n\\nArgs:\\n    city (str): The city.", ["city"])
    ('Get a forecast.', {'city': 'The city.'})

    所有边界情况（``Args:`` 里的空行、描述里的 ``:``、续行的缩进）：见课文的“读源码”和
    “边界情况与意外”两节。
    上游：``langchain_core/utils/function_calling.py:735``（langchain-core 1.8.3）。
    """
    # TODO(day02): 把下面这行换成你的代码（大约 40 行）。
    raise NotStarted("day02")


def _infer_arg_descriptions(
    fn: Callable[..., Any],
    *,
    parse_docstring: bool = False,
    error_on_invalid_docstring: bool = False,
) -> tuple[str, dict[str, str]]:
    """``(fn 的描述, {参数: 描述})``：``fn`` 的工具 schema 里的文字。

    输入：

    * ``fn`` -- 一个函数；
    * ``parse_docstring`` -- 是否把它的 docstring 当作 Google 风格来读（对普通函数，
      ``convert_to_openai_tool`` 会这样做；``@tool`` 默认不会）；
    * ``error_on_invalid_docstring`` -- 原样传给你的 ``_parse_google_docstring``。

    输出：

    * ``parse_docstring=False``：描述是清理后的整个 docstring（没有 docstring 时为 ``""``）；
      docstring 不描述任何参数。
    * ``parse_docstring=True``：你的 ``_parse_google_docstring`` 根据 docstring 和 ``fn`` 各注解的
      名字（保留 ``Annotated``，其中包括 ``"return"``）给出的摘要和参数描述。
    * 无论哪种情况，docstring 没有描述的带注解参数，如果它的 ``Annotated[...]`` 元数据里有描述，
      就用那个描述（上面导入的 ``_get_annotation_description`` 会找到它：第一个 str，或者
      ``Field(description=...)``）。两者都描述了同一个参数时，以 docstring 为准。

    错误：

    * ``parse_docstring=True``，且 docstring 描述了一个不是 ``fn`` 注解的参数：
      ``ValueError(f"Arg {name} in docstring not found in function signature.")``，针对第一个
      这样的参数；
    * 你的 ``_parse_google_docstring`` 抛出的错误，原样不变。

    >>> from typing import Annotated
    >>> def add(a: Annotated[int, "the first"], b: int) -> int:
    ...     "Add two integers."
    >>> _infer_arg_descriptions(add)
    ('Add two integers.', {'a': 'the first'})

    课文：Day 02 页面上的“逐行看”一节。
    上游：``langchain_core/tools/base.py:171``（langchain-core 1.8.3）。
    """
    # TODO(day02): 把下面这行换成你的代码（大约 15 行）。
    raise NotStarted("day02")


# --- 第 2 部分：预测 -------------------------------------------------------------------------


def predictions() -> dict[str, tuple[str, dict[str, str | None], list[str]] | str]:
    """你对下面每个用例的预测：模型读到什么。

    这些函数在 ``miniagent_course.kits.day02.cases`` 里（到那里读它们的源码，或者在 notebook 里
    用 ``inspect.getsource``）。用例写作 ``"<function> / <how>"``，其中 *how* 是

    * ``convert``：``convert_to_openai_tool(function)``，普通函数；
    * ``tool``：``convert_to_openai_tool(tool(function))``；
    * ``parsed``：``convert_to_openai_tool(tool(parse_docstring=True)(function))``。

    每个用例给出结果的 ``function`` 里的 ``(description, {参数: 它的描述或 None}, required)``
    （``required`` 是 schema 里的那个列表，保持原顺序；没有时为 ``[]``），或者，如果转换抛出
    异常，就给出异常类的名字（``"TypeError"``）。描述按原样比较，空格和换行都算在内。

    用例如下::

        "check_weather / convert"         "weather / parsed"
        "get_forecast / convert"          "no_docstring / convert"
        "weather / tool"                  "no_docstring / tool"
        "find / convert"                  "fetch / convert"
        "search / parsed"                 "paint / parsed"
        "undocumented_extra / convert"    "add / parsed"

    返回一张字面量写成的表，每个用例一项。它的形状（值只是占位，不是答案）：
    ``{"check_weather / convert": ("...", {"location": "?"}, []), "add / parsed":
    "KeyError", ...}``。请根据课文推出答案：评分器会运行这些转换。

    密封：缺了某一项（或者某一项不是这种形式）的表不会被评分，只会告诉你填了几项。你第一张完整
    的表会在显示任何真实结果之前被记录为首次作答：那一次运行（``pytest``、``miniagent check``
    或 notebook 里的表格单元）只告诉你哪几行错了，之后的运行才显示真实运行的结果。
    """
    # TODO(day02): 把下面这行换成 `return {"check_weather / convert": ..., ...}`。
    raise NotStarted("day02")


# translates: ee297fe32464ba7f (the version of stub.py this follows)
