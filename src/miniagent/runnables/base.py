"""Runnables: one interface for everything that runs. Mirrors ``langchain_core/runnables/base.py``.

A ``Runnable`` turns an input into an output with ``invoke`` (and ``ainvoke``, ``stream``,
``batch`` ...). Models, tools, prompts, graph nodes and whole graphs are all Runnables, so they
compose: ``a | b`` is a ``RunnableSequence``, ``model.bind(stop=["x"])`` is a ``RunnableBinding``.

Unlike upstream there are no callback managers or tracing runs here; the config (with its handler
list) is passed down instead, and the current config is set while a function runs.
"""

from __future__ import annotations

import inspect
from abc import ABC, abstractmethod
from typing import (
    Any,
    AsyncIterator,
    Awaitable,
    Callable,
    Generic,
    Iterator,
    Mapping,
    TypeVar,
)

from typing_extensions import override

from miniagent.runnables.config import (
    RunnableConfig,
    _child_config,
    ensure_config,
    get_config_list,
    merge_configs,
    patch_config,
    set_config_context,
)

__all__ = [
    "Runnable",
    "RunnableSequence",
    "RunnableParallel",
    "RunnableLambda",
    "RunnableBinding",
    "coerce_to_runnable",
    "is_async_callable",
    "is_async_generator",
]

Input = TypeVar("Input")
_RUNNABLE_SEQUENCE_MIN_STEPS = 2  # base.py:3091
Output = TypeVar("Output")


class Runnable(ABC, Generic[Input, Output]):
    """A unit of work that can be invoked, streamed, batched and composed.

    Mirrors ``Runnable`` in langchain_core/runnables/base.py:197.
    """

    name: str | None = None

    def get_name(self, suffix: str | None = None, *, name: str | None = None) -> str:
        """``name``, else ``self.name``, else the class name; plus ``suffix`` (base.py:334)."""
        name_ = name or self.name or type(self).__name__
        if suffix:
            if name_[0].isupper():
                return name_ + suffix.title()  # "RunnableLambda" -> "RunnableLambdaInput"
            return name_ + "_" + suffix.lower()  # "add_one" -> "add_one_input"
        return name_

    @abstractmethod
    def invoke(self, input: Input, config: RunnableConfig | None = None, **kwargs: Any) -> Output:
        """Transform one input into an output (base.py:950)."""

    async def ainvoke(
        self, input: Input, config: RunnableConfig | None = None, **kwargs: Any
    ) -> Output:
        """Async ``invoke`` (base.py:972).

        Upstream runs ``invoke`` in a thread pool; this default calls ``invoke`` directly, so a
        slow synchronous Runnable blocks the event loop while it runs.
        """
        return self.invoke(input, config, **kwargs)

    def stream(
        self, input: Input, config: RunnableConfig | None = None, **kwargs: Any
    ) -> Iterator[Output]:
        """Default: one chunk, the whole output of ``invoke`` (base.py:1258)."""
        yield self.invoke(input, config, **kwargs)

    async def astream(
        self, input: Input, config: RunnableConfig | None = None, **kwargs: Any
    ) -> AsyncIterator[Output]:
        """Default: one chunk, the whole output of ``ainvoke`` (base.py:1279)."""
        yield await self.ainvoke(input, config, **kwargs)

    def batch(
        self,
        inputs: list[Input],
        config: RunnableConfig | list[RunnableConfig] | None = None,
        *,
        return_exceptions: bool = False,
        **kwargs: Any,
    ) -> list[Output]:
        """``invoke`` on each input (base.py:995). Upstream uses a thread pool; we go in order."""
        if not inputs:
            return []
        outputs: list[Any] = []
        for input_, config_ in zip(inputs, get_config_list(config, len(inputs)), strict=True):
            try:
                outputs.append(self.invoke(input_, config_, **kwargs))
            except Exception as e:
                if not return_exceptions:
                    raise
                outputs.append(e)
        return outputs

    async def abatch(
        self,
        inputs: list[Input],
        config: RunnableConfig | list[RunnableConfig] | None = None,
        *,
        return_exceptions: bool = False,
        **kwargs: Any,
    ) -> list[Output]:
        """``ainvoke`` on all inputs concurrently with ``asyncio.gather`` (base.py:1130).

        Upstream also honours ``max_concurrency``; we do not limit concurrency.
        """
        import asyncio

        if not inputs:
            return []

        async def ainvoke(input_: Input, config_: RunnableConfig) -> Any:
            try:
                return await self.ainvoke(input_, config_, **kwargs)
            except Exception as e:
                if not return_exceptions:
                    raise
                return e

        configs = get_config_list(config, len(inputs))
        return list(await asyncio.gather(*map(ainvoke, inputs, configs)))

    # --8<-- [start:runnable_or]
    def __or__(self, other: Any) -> RunnableSequence:
        """``self | other``: a sequence; ``other`` may be a callable or a dict (base.py:712)."""
        return RunnableSequence(self, coerce_to_runnable(other))

    def __ror__(self, other: Any) -> RunnableSequence:
        """``other | self`` when ``other`` is a plain callable or dict (base.py:761)."""
        return RunnableSequence(coerce_to_runnable(other), self)

    # --8<-- [end:runnable_or]

    def pipe(self, *others: Any, name: str | None = None) -> RunnableSequence:
        """``RunnableSequence(self, *others, name=name)`` (base.py:788)."""
        return RunnableSequence(self, *others, name=name)

    def bind(self, **kwargs: Any) -> RunnableBinding:
        """A Runnable that calls ``self`` with these extra keyword arguments (base.py:1903)."""
        return RunnableBinding(bound=self, kwargs=kwargs, config={})

    def with_config(self, config: RunnableConfig | None = None, **kwargs: Any) -> RunnableBinding:
        """A Runnable that calls ``self`` with this config merged in (base.py:1937)."""
        config = {**(config or {}), **kwargs}  # type: ignore[typeddict-item]
        return RunnableBinding(bound=self, config=config, kwargs={})


class RunnableSequence(Runnable[Input, Output]):
    """Steps run one after another; each output is the next input.

    Mirrors langchain_core/runnables/base.py:3094.
    """

    # --8<-- [start:runnable_sequence_init]
    def __init__(
        self,
        *steps: Any,
        name: str | None = None,
        first: Runnable | None = None,
        middle: list[Runnable] | None = None,
        last: Runnable | None = None,
    ) -> None:
        """Flatten nested sequences and coerce callables/dicts into steps (base.py:3188).

        Upstream passes first, middle, last and name to its pydantic base class; the miniature
        has none, so they are set as attributes.
        """
        steps_flat: list[Runnable] = []
        if not steps and first is not None and last is not None:
            steps_flat = [first] + (middle or []) + [last]
        for step in steps:
            if isinstance(step, RunnableSequence):
                steps_flat.extend(step.steps)  # a | (b | c) has three steps, not two
            else:
                steps_flat.append(coerce_to_runnable(step))
        if len(steps_flat) < _RUNNABLE_SEQUENCE_MIN_STEPS:
            msg = (
                f"RunnableSequence must have at least {_RUNNABLE_SEQUENCE_MIN_STEPS} "
                f"steps, got {len(steps_flat)}"
            )
            raise ValueError(msg)
        self.first = steps_flat[0]
        self.middle = list(steps_flat[1:-1])
        self.last = steps_flat[-1]
        self.name = name

    # --8<-- [end:runnable_sequence_init]

    @property
    def steps(self) -> list[Runnable]:
        """All steps in order (base.py:3240)."""
        return [self.first, *self.middle, self.last]

    def __repr__(self) -> str:
        return "\n| ".join(repr(s).replace("\n", "\n  ") for s in self.steps)

    def __or__(self, other: Any) -> RunnableSequence:
        """Append to a copy of this sequence; keeps its name (base.py:3373)."""
        if isinstance(other, RunnableSequence):
            return RunnableSequence(*self.steps, *other.steps, name=self.name or other.name)
        return RunnableSequence(*self.steps, coerce_to_runnable(other), name=self.name)

    def __ror__(self, other: Any) -> RunnableSequence:
        """Prepend to a copy of this sequence; keeps its name (base.py:3422)."""
        if isinstance(other, RunnableSequence):
            return RunnableSequence(*other.steps, *self.steps, name=other.name or self.name)
        return RunnableSequence(coerce_to_runnable(other), *self.steps, name=self.name)

    # --8<-- [start:runnable_sequence_invoke]
    def invoke(self, input: Input, config: RunnableConfig | None = None, **kwargs: Any) -> Output:
        """Thread the value through the steps (base.py:3449).

        Each step runs with its child config as the current config. Extra ``kwargs`` go to
        the first step only, as upstream.
        """
        config = ensure_config(config)
        for i, step in enumerate(self.steps):
            # mark each step as a child run: upstream's
            # patch_config(config, callbacks=run_manager.get_child(f"seq:step:{i + 1}"))
            config = _child_config(config)
            with set_config_context(config):
                if i == 0:
                    input = step.invoke(input, config, **kwargs)
                else:
                    input = step.invoke(input, config)
        return input  # type: ignore[return-value]

    # --8<-- [end:runnable_sequence_invoke]

    async def ainvoke(
        self, input: Input, config: RunnableConfig | None = None, **kwargs: Any
    ) -> Output:
        """Async ``invoke``: ``await step.ainvoke(...)`` for each step (base.py:3485)."""
        config = ensure_config(config)
        for i, step in enumerate(self.steps):
            config = _child_config(config)  # mark each step as a child run, as in ``invoke``
            with set_config_context(config):
                if i == 0:
                    input = await step.ainvoke(input, config, **kwargs)
                else:
                    input = await step.ainvoke(input, config)
        return input  # type: ignore[return-value]

    def stream(
        self, input: Input, config: RunnableConfig | None = None, **kwargs: Any
    ) -> Iterator[Output]:
        """Invoke all steps but the last, then stream the last one (base.py:3846).

        Upstream pipes every step's ``transform`` into the next; steps that cannot transform a
        stream (like ``RunnableLambda``) buffer their input, so only the tail really streams.
        """
        for i, step in enumerate([self.first, *self.middle]):
            config = _child_config(config)
            with set_config_context(config):
                if i == 0:
                    input = step.invoke(input, config, **kwargs)
                else:
                    input = step.invoke(input, config)
        yield from self.last.stream(input, _child_config(config))

    async def astream(
        self, input: Input, config: RunnableConfig | None = None, **kwargs: Any
    ) -> AsyncIterator[Output]:
        """Async ``stream`` (base.py:3870)."""
        for i, step in enumerate([self.first, *self.middle]):
            config = _child_config(config)
            with set_config_context(config):
                if i == 0:
                    input = await step.ainvoke(input, config, **kwargs)
                else:
                    input = await step.ainvoke(input, config)
        async for chunk in self.last.astream(input, _child_config(config)):
            yield chunk


class RunnableParallel(Runnable[Input, dict]):
    """Run several steps on the same input; return a dict of their outputs.

    Mirrors langchain_core/runnables/base.py:3883.

    ``runnable | {"a": f, "b": g}`` builds one. Upstream runs the steps in a thread pool; we run
    them in order (``ainvoke`` gathers them).
    """

    def __init__(self, steps__: Mapping[str, Any] | None = None, **kwargs: Any) -> None:
        merged = {**steps__} if steps__ is not None else {}
        merged.update(kwargs)
        self.steps__ = {key: coerce_to_runnable(r) for key, r in merged.items()}

    def get_name(self, suffix: str | None = None, *, name: str | None = None) -> str:
        """``RunnableParallel<a,b>`` unless named (base.py:4016)."""
        name = name or self.name or f"RunnableParallel<{','.join(self.steps__)}>"
        return super().get_name(suffix, name=name)

    def invoke(self, input: Input, config: RunnableConfig | None = None, **kwargs: Any) -> dict:
        """Each step gets ``input`` and the child config (base.py:4158)."""
        config = _child_config(config)
        output = {}
        for key, step in self.steps__.items():
            with set_config_context(config):
                output[key] = step.invoke(input, config)
        return output

    async def ainvoke(
        self, input: Input, config: RunnableConfig | None = None, **kwargs: Any
    ) -> dict:
        """Async ``invoke``: the steps run concurrently (base.py:4218)."""
        import asyncio

        config = _child_config(config)
        with set_config_context(config):
            results = await asyncio.gather(
                *(step.ainvoke(input, config) for step in self.steps__.values())
            )
        return dict(zip(self.steps__, results, strict=True))


class RunnableLambda(Runnable[Input, Output]):
    """Turn a plain (sync and/or async) function into a Runnable.

    Mirrors langchain_core/runnables/base.py:4722.

    A function that declares a ``config`` parameter receives the config. A function that returns
    a Runnable has that Runnable invoked with the same input. A generator function's chunks are
    added up with ``+`` (a chunk that cannot be added replaces the value), as upstream's
    ``invoke`` does; ``stream`` yields the sum, not chunk by chunk.

    Upstream also passes a ``run_manager`` (a ``CallbackManagerForChainRun``) to a function that
    declares one; the miniature has no callback managers, so such a function gets none.
    """

    def __init__(
        self,
        func: Callable[..., Any],
        afunc: Callable[..., Awaitable[Any]] | None = None,
        name: str | None = None,
    ) -> None:
        """Sort ``func`` into sync/async, pick a name, and inspect the signatures (base.py:4902)."""
        self.func: Callable[..., Any] | None = None
        self.afunc: Callable[..., Awaitable[Any]] | None = None
        if afunc is not None:
            self.afunc = afunc
            func_for_name: Any = afunc
        if is_async_callable(func) or is_async_generator(func):
            if afunc is not None:
                raise TypeError(
                    "Func was provided as a coroutine function, but afunc was "
                    "also provided. If providing both, func should be a regular "
                    "function to avoid ambiguity."
                )
            self.afunc = func
            func_for_name = func
        elif callable(func):
            self.func = func
            func_for_name = func
        else:
            raise TypeError(
                f"Expected a callable type for `func`.Instead got an unsupported type: {type(func)}"
            )
        if name is not None:
            self.name = name
        elif getattr(func_for_name, "__name__", "<lambda>") != "<lambda>":
            self.name = func_for_name.__name__  # lambdas and partials stay unnamed
        # Upstream inspects the signature on every call (utils.py:101); we do it once, here.
        self._func_accepts_config = self.func is not None and accepts_config(self.func)
        self._afunc_accepts_config = self.afunc is not None and accepts_config(self.afunc)
        self._repr: str | None = None

    def __repr__(self) -> str:
        """``RunnableLambda(add_one)`` or the lambda's source text (base.py:5160)."""
        if self._repr is None:
            if self.func is not None:
                self._repr = f"RunnableLambda({get_lambda_source(self.func) or '...'})"
            else:
                self._repr = f"RunnableLambda(afunc={get_lambda_source(self.afunc) or '...'})"
        return self._repr

    def _invoke(self, input: Input, config: RunnableConfig, kwargs: dict[str, Any]) -> Any:
        """Call ``func`` with the config as the current config (base.py:5175)."""
        if self._func_accepts_config:
            kwargs["config"] = config
        with set_config_context(config):
            if inspect.isgeneratorfunction(self.func):
                return _add_up(self.func(input, **kwargs))
            return self.func(input, **kwargs)  # type: ignore[misc]

    async def _ainvoke(self, input: Input, config: RunnableConfig, kwargs: dict[str, Any]) -> Any:
        """Await ``afunc``; without one, call ``func`` (base.py:5215).

        Upstream runs ``func`` in a thread pool; we call it on the event loop's thread.
        """
        if self.afunc is None:
            return self._invoke(input, config, kwargs)
        if self._afunc_accepts_config:
            kwargs["config"] = config
        with set_config_context(config):
            if is_async_generator(self.afunc):
                return _add_up([chunk async for chunk in self.afunc(input, **kwargs)])
            return await self.afunc(input, **kwargs)

    def _config_for_returned_runnable(self, input: Input, config: RunnableConfig) -> RunnableConfig:
        """One level deeper: ``recursion_limit - 1``, or upstream's error at 0 (base.py:5199)."""
        recursion_limit = config["recursion_limit"]
        if recursion_limit <= 0:
            raise RecursionError(
                f"Recursion limit reached when invoking {self} with input {input}."
            )
        return patch_config(config, recursion_limit=recursion_limit - 1)

    def invoke(self, input: Input, config: RunnableConfig | None = None, **kwargs: Any) -> Output:
        """Call the function; if it returns a Runnable, invoke that too (base.py:5305)."""
        if self.func is None:
            raise TypeError(
                "Cannot invoke a coroutine function synchronously.Use `ainvoke` instead."
            )
        config = _child_config(config)
        output = self._invoke(input, config, kwargs)
        if isinstance(output, Runnable):
            output = output.invoke(input, self._config_for_returned_runnable(input, config))
        return output

    async def ainvoke(
        self, input: Input, config: RunnableConfig | None = None, **kwargs: Any
    ) -> Output:
        """Async ``invoke`` (base.py:5336)."""
        config = _child_config(config)
        output = await self._ainvoke(input, config, kwargs)
        if isinstance(output, Runnable):
            output = await output.ainvoke(input, self._config_for_returned_runnable(input, config))
        return output

    def stream(
        self, input: Input, config: RunnableConfig | None = None, **kwargs: Any
    ) -> Iterator[Output]:
        """One chunk, or the chunks of a returned Runnable's ``stream`` (base.py:5436)."""
        if self.func is None:
            raise TypeError(
                "Cannot stream a coroutine function synchronously.Use `astream` instead."
            )
        config = _child_config(config)
        output = self._invoke(input, config, kwargs)
        if isinstance(output, Runnable):
            yield from output.stream(input, self._config_for_returned_runnable(input, config))
        else:
            yield output

    async def astream(
        self, input: Input, config: RunnableConfig | None = None, **kwargs: Any
    ) -> AsyncIterator[Output]:
        """Async ``stream`` (base.py:5551)."""
        config = _child_config(config)
        output = await self._ainvoke(input, config, kwargs)
        if isinstance(output, Runnable):
            async for chunk in output.astream(
                input, self._config_for_returned_runnable(input, config)
            ):
                yield chunk
        else:
            yield output


class RunnableBinding(Runnable[Input, Output]):
    """``bound`` plus fixed call ``kwargs`` and ``config``.

    Mirrors langchain_core/runnables/base.py:5838 (``RunnableBindingBase``) and :6365.

    ``model.bind_tools(tools)`` returns one: ``kwargs["tools"]`` reaches the model's call.
    """

    def __init__(
        self,
        *,
        bound: Runnable[Input, Output],
        kwargs: Mapping[str, Any] | None = None,
        config: RunnableConfig | None = None,
    ) -> None:
        """Keyword-only as upstream: ``RunnableBinding(bound=m, kwargs={...})`` (base.py:5885)."""
        self.bound = bound
        self.kwargs = dict(kwargs or {})
        self.config: RunnableConfig = config or {}

    def __repr__(self) -> str:
        return (
            f"{type(self).__name__}(bound={self.bound!r}, kwargs={self.kwargs!r}, "
            f"config={self.config!r})"
        )

    def get_name(self, suffix: str | None = None, *, name: str | None = None) -> str:
        """The bound Runnable's name (base.py:5932)."""
        return self.bound.get_name(suffix, name=name)

    def _merge_configs(self, *configs: RunnableConfig | None) -> RunnableConfig:
        """The bound config under the call's config (base.py:5990).

        Upstream then merges in its ``config_factories``; the miniature has none.
        """
        return merge_configs(self.config, *configs)

    # --8<-- [start:runnable_binding_invoke]
    def invoke(self, input: Input, config: RunnableConfig | None = None, **kwargs: Any) -> Output:
        """Call ``bound`` with the merged config and kwargs; call-time kwargs win (base.py:5995)."""
        return self.bound.invoke(input, self._merge_configs(config), **{**self.kwargs, **kwargs})

    # --8<-- [end:runnable_binding_invoke]

    async def ainvoke(
        self, input: Input, config: RunnableConfig | None = None, **kwargs: Any
    ) -> Output:
        """Async ``invoke`` (base.py:6008)."""
        return await self.bound.ainvoke(
            input, self._merge_configs(config), **{**self.kwargs, **kwargs}
        )

    def stream(
        self, input: Input, config: RunnableConfig | None = None, **kwargs: Any
    ) -> Iterator[Output]:
        """``bound.stream`` with the merged config and kwargs (base.py:6172)."""
        yield from self.bound.stream(
            input, self._merge_configs(config), **{**self.kwargs, **kwargs}
        )

    async def astream(
        self, input: Input, config: RunnableConfig | None = None, **kwargs: Any
    ) -> AsyncIterator[Output]:
        """``bound.astream`` with the merged config and kwargs (base.py:6185)."""
        async for chunk in self.bound.astream(
            input, self._merge_configs(config), **{**self.kwargs, **kwargs}
        ):
            yield chunk

    # --8<-- [start:runnable_binding_bind]
    @override
    def bind(self, **kwargs: Any) -> RunnableBinding:
        """A new binding over the SAME ``bound`` with merged kwargs (base.py:6418).

        Upstream also carries ``config_factories`` and the custom input/output types over; the
        miniature has neither.
        """
        return self.__class__(
            bound=self.bound,
            config=self.config,
            kwargs={**self.kwargs, **kwargs},
        )

    # --8<-- [end:runnable_binding_bind]

    def with_config(self, config: RunnableConfig | None = None, **kwargs: Any) -> RunnableBinding:
        """A new binding over the same ``bound`` with merged config (base.py:6439)."""
        return self.__class__(
            bound=self.bound,
            kwargs=self.kwargs,
            config={**self.config, **(config or {}), **kwargs},  # type: ignore[typeddict-item]
        )

    def __getattr__(self, name: str) -> Any:
        """Anything else is looked up on ``bound``, e.g. ``binding.model_name`` (base.py:6536).

        Upstream also wraps bound methods that take a ``config`` so they get the bound config;
        we return the attribute as is. Dunder names are not delegated (copy/pickle probe them).
        """
        if name == "bound" or name.startswith("__"):
            raise AttributeError(name)
        return getattr(self.bound, name)


# --8<-- [start:coerce_to_runnable]
def coerce_to_runnable(thing: Any) -> Runnable:
    """A Runnable as is, a callable as ``RunnableLambda``, a dict as ``RunnableParallel``.

    Mirrors langchain_core/runnables/base.py:6627. Upstream first turns a generator function into
    a ``RunnableGenerator``; the miniature has none.
    """
    if isinstance(thing, Runnable):
        return thing
    if callable(thing):
        return RunnableLambda(thing)
    if isinstance(thing, dict):
        return RunnableParallel(thing)
    msg = f"Expected a Runnable, callable or dict.Instead got an unsupported type: {type(thing)}"
    raise TypeError(msg)


# --8<-- [end:coerce_to_runnable]


def is_async_callable(func: Any) -> bool:
    """An ``async def`` function, or an object whose ``__call__`` is one (utils.py:785)."""
    return inspect.iscoroutinefunction(func) or (
        callable(func) and inspect.iscoroutinefunction(func.__call__)
    )


def is_async_generator(func: Any) -> bool:
    """An ``async def`` generator function, or an object whose ``__call__`` is one (utils.py:768)."""
    return inspect.isasyncgenfunction(func) or (
        hasattr(func, "__call__")  # noqa: B004
        and inspect.isasyncgenfunction(func.__call__)
    )


def _add_up(chunks: Any) -> Any:
    """A generator function's output: its chunks added with ``+``, left to right; a chunk that
    cannot be added replaces the sum (upstream's ``_ChunkAccumulator(stop_after_unaddable=False)``,
    base.py:135, without its batching of message chunks)."""
    value: Any = None
    for chunk in chunks:
        if value is None:
            value = chunk
            continue
        try:
            value = value + chunk
        except TypeError:
            value = chunk
    return value


def accepts_config(func: Callable[..., Any]) -> bool:
    """Does ``func`` have a parameter named ``config``? (utils.py:101)."""
    try:
        return inspect.signature(func).parameters.get("config") is not None
    except ValueError:
        return False


def get_lambda_source(func: Callable[..., Any]) -> str | None:
    """The source of a lambda, else the function's name (utils.py:388).

    Upstream's quirk, kept: if the function's source text holds exactly one (outermost) lambda,
    that lambda's text is returned even for a ``def``.
    """
    import ast
    import textwrap

    name = getattr(func, "__name__", None)
    if name == "<lambda>":
        name = None
    try:
        tree = ast.parse(textwrap.dedent(inspect.getsource(func)))
    except (SyntaxError, TypeError, OSError, SystemError):
        return name

    def outer_lambdas(node: ast.AST) -> list[ast.Lambda]:
        if isinstance(node, ast.Lambda):
            return [node]  # lambdas nested inside it are not counted
        return [lam for child in ast.iter_child_nodes(node) for lam in outer_lambdas(child)]

    lambdas = outer_lambdas(tree)
    return ast.unparse(lambdas[0]) if len(lambdas) == 1 else name
