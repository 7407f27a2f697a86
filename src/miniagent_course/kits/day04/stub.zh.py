"""Day 04：管道和绑定，把 Runnable 组合起来的两种方式。

课文：      course/days/day04-runnables.zh.md
notebook：  notebooks/day04_runnables.zh.ipynb
检查：      miniagent check day04        卡住了？ miniagent hint day04

两部分，分别评分：

(1) 写出构成 ``a | b`` 和 ``.bind(...)`` 的三块：``coerce_to_runnable``、``sequence_init``
    （``RunnableSequence.__init__`` 的函数体）和 ``bind``（``RunnableBinding`` 的方法）。评分器
    把它们放到 miniagent 原本放自己版本的地方，所以 ``|`` 和 ``.bind`` 运行的是你的代码，在你的
    agent 里也一样：它的模型步骤就是 ``prompt | model``。
(2) ``inputs``：找 bug。本日 kit 的 ``variants.py`` 里有这三个函数的几个改动过的副本；为每个
    副本给出一个输入，让它在这个输入上做的事和上游不一样。评分器把两者都运行一遍。
"""

from __future__ import annotations

from typing import Any

from miniagent.runnables import (  # noqa: F401  （其中一些你会用到）
    Runnable,
    RunnableBinding,
    RunnableLambda,
    RunnableParallel,
    RunnableSequence,
)
from miniagent.testing import FakeToolCallingModel  # noqa: F401  （第 2 部分里用来绑定的模型）
from miniagent_course.todo import NotStarted


def coerce_to_runnable(thing: Any) -> Runnable:
    """把可能出现在 ``|`` 两边的东西变成一个 Runnable。

    ``Runnable.__or__`` 对右边调用它（``runnable | thing``），``Runnable.__ror__`` 对左边调用它
    （``thing | runnable``）。

    输入：``thing``，任何东西。

    输出：

    * 一个 ``Runnable``：就是这个对象本身（不管它另外还是什么）；
    * 其他任何可调用对象（函数、lambda、带 ``__call__`` 的对象、类）：包住它的
      ``RunnableLambda``；
    * 一个 ``dict``（真正的 ``dict``，不是任意映射）：包住它的 ``RunnableParallel``，它在同一个
      输入上运行每个值，返回由它们的输出组成的 dict。

    错误：其他任何东西都抛出 ``TypeError``，文本一字不差如下（上游把两句话粘在一起，句号后面
    没有空格）；对 5，结尾是 ``<class 'int'>``::

        Expected a Runnable, callable or dict.Instead got an unsupported type: <class 'int'>

    >>> coerce_to_runnable(len)
    RunnableLambda(len)

    上游还会把生成器函数变成 ``RunnableGenerator``；微缩版没有它，所以生成器函数不在范围内。

    课文：Day 04 页面上讲“管道”的几节。
    上游：``langchain_core/runnables/base.py:6627``（langchain-core 1.8.3）。
    """
    # TODO(day04): 把下面这行换成你的代码。
    raise NotStarted("day04")


def sequence_init(
    self: RunnableSequence,
    *steps: Any,
    name: str | None = None,
    first: Runnable | None = None,
    middle: list[Runnable] | None = None,
    last: Runnable | None = None,
) -> None:
    """``RunnableSequence.__init__``：用给定的步骤设置好一个新序列 ``self``。

    ``a | b`` 调用 ``RunnableSequence(a, b)``，而这个函数就作为它的 ``__init__`` 运行。

    输入：

    * ``self`` -- 新序列，还是空的；
    * ``steps`` -- 各个步骤，按顺序：Runnable，或者任何你的 ``coerce_to_runnable`` 接受的东西；
    * ``first``、``middle``、``last`` -- 以关键字参数给出的步骤，只在没有给出任何位置参数步骤时
      才用（而且只在 ``first`` 和 ``last`` 都给了的时候）；
    * ``name`` -- 序列的名字，或 ``None``。

    输出：``None``；``self`` 现在有 ``first``（第一步）、``middle``（一个列表，可能为空）、
    ``last`` 和 ``name``，于是 ``self.steps`` 就是 ``[first, *middle, last]``。本身是
    ``RunnableSequence`` 的步骤代表它自己的那些步骤：序列从不嵌套，``a | (b | c)`` 有三步。
    以关键字参数给出的步骤保持原样。

    错误：最终不足两步时抛出 ``ValueError``，文本一字不差如下（数字是找到的步骤数）::

        RunnableSequence must have at least 2 steps, got 1

    >>> [step.get_name() for step in RunnableSequence(RunnableLambda(len), str, name="calc").steps]
    ['len', 'str']

    课文：Day 04 页面上讲“管道”的几节和“边界情况与意外”。
    上游：``langchain_core/runnables/base.py:3188``（langchain-core 1.8.3）。
    """
    # TODO(day04): 把下面这行换成你的代码。
    raise NotStarted("day04")


def bind(self: RunnableBinding, **kwargs: Any) -> RunnableBinding:
    """``RunnableBinding.bind``：给一个绑定再绑上更多关键字参数。

    ``model.bind(stop=["x"])`` 构建一个 ``RunnableBinding``：``.bound`` 是模型，``.kwargs`` 是
    ``{"stop": ["x"]}``，每次调用这个绑定，都会把这些 kwargs 传给模型。这个函数就是在绑定
    ``self`` 上再次调用 ``.bind(...)`` 时所做的事。

    输入：``self``，一个 ``RunnableBinding``（或其子类）；``kwargs``，要添加的关键字参数。

    输出：一个**新**绑定，和 ``self`` 同一个类，包住的是**同一个** ``bound``（绑定从不嵌套），
    带着 ``self`` 的 ``config``，两次调用的 kwargs 合在一个 dict 里；两边有同一个键时，新值
    胜出。``self`` 保持原样，一点不变。（这个类接受关键字参数 ``bound=``、``kwargs=`` 和
    ``config=``。）

    错误：它自己不抛任何错误。

    >>> from miniagent.testing import ScriptedChatModel
    >>> again = ScriptedChatModel([]).bind(n=1, seed=7).bind(n=2)
    >>> type(again).__name__, again.bound.get_name(), again.kwargs
    ('RunnableBinding', 'ScriptedChatModel', {'n': 2, 'seed': 7})

    课文：Day 04 页面上讲“绑定”的几节。
    上游：``langchain_core/runnables/base.py:6418``（langchain-core 1.8.3）。
    """
    # TODO(day04): 把下面这行换成你的代码。
    raise NotStarted("day04")


def inputs() -> dict[str, Any]:
    """为 ``variants.py`` 里的每个变体给出一个输入，让它在这个输入上做的事和上游不一样。

    ``src/miniagent_course/kits/day04/variants.py``（Day 04 页面和 notebook 会把它打印出来）
    里有第 1 部分那几个函数的七个改动过的副本，每个都保持上游的写法，只改了一处：
    ``variant_a`` 和 ``variant_b`` 照抄 ``coerce_to_runnable``，``variant_c`` 和 ``variant_d``
    照抄 ``RunnableSequence.__init__``，``variant_e``、``variant_f`` 和 ``variant_g`` 照抄
    ``RunnableBinding.bind``。在有些输入上，变体做的事和上游一样；在另一些输入上则不然。

    输出：一个 dict，每个变体一项，从 ``"variant_a"`` 到 ``"variant_g"``。每个值都是一个输入，
    形式取决于该变体照抄的函数：

    * ``coerce_to_runnable``：``thing`` 本身；
    * ``RunnableSequence.__init__``：一个二元组 ``(steps, keywords)``，即位置参数步骤组成的
      tuple 和关键字参数（``name``、``first``、``middle``、``last``）组成的 dict，就像
      ``RunnableSequence(*steps, **keywords)`` 里那样；
    * ``RunnableBinding.bind``：一个二元组 ``(binding, kwargs)``，即一个 ``RunnableBinding`` 和
      关键字参数组成的 dict，就像 ``binding.bind(**kwargs)`` 里那样。

    用普通的值和 miniagent 的对象来构造它们（需要时也可以用你自己写的类）。评分器运行变体和
    它照抄的函数，各自用你的输入的一份拷贝，然后比较产出的东西：``coerce_to_runnable`` 返回
    的东西的类和 ``get_name()``，以及它是不是输入本身；新序列的步骤（按 ``get_name()``）和
    名字；新绑定是否有旧绑定的 ``bound``，它的 ``kwargs`` 和 ``config``；或者错误的类和文本。
    两者不同，这个变体就算被找出来了。

    形式如下（这些值分辨不出任何一个变体）::

        {"variant_a": len, ...,
         "variant_c": ((RunnableLambda(abs), len), {"name": "calc"}), ...,
         "variant_e": (FakeToolCallingModel().bind(stop=["a"]), {"temperature": 0}), ...}
    """
    # TODO(day04): 把下面这行换成 `return {"variant_a": ..., ..., "variant_g": ...}`。
    raise NotStarted("day04")


# translates: 774033ef2a01ff10 (the version of stub.py this follows)
