"""The course's model switch: an offline fake unless the learner names a real model.

Every lesson, notebook and the capstone run on a scripted fake by default: no network, no
key, the same answer every time. A real model is used only when the learner names one, as an
argument or in the course variable ``MINIAGENT_MODEL`` (``openai:<model>``, resolved by
``miniagent.chat_models.init_chat_model``). An exported ``OPENAI_API_KEY`` alone never turns
a real model on; it is only the key the named model then uses. For a local or third-party
OpenAI-compatible server (Ollama, vLLM, DeepSeek, Qwen, ...) also set ``OPENAI_BASE_URL``::

    MINIAGENT_MODEL=openai:qwen2.5 OPENAI_BASE_URL=http://localhost:11434/v1 \\
        OPENAI_API_KEY=ollama jupyter lab

The course's defaults for a real model are set here, where the course resolves it, never in
``ChatOpenAI`` (whose field defaults stay upstream's): each request may take
``MINIAGENT_TIMEOUT`` seconds (default 60; the SDK's own is 600) and is retried
``MINIAGENT_MAX_RETRIES`` times (default 1; the SDK's is 2). A resolved model is announced in
one line (its name and URL, "key hidden"); a failure is told in two lines by
:func:`describe_failure`, which the course's commands print instead of a traceback.

The mechanism is ``miniagent.demo``'s (the demo may not import the course tooling, so it lives
there); the words are the course's, ``[model]`` in ``text/cli.<lang>.toml``.
"""

from __future__ import annotations

import os
from typing import Any

from miniagent import demo
from miniagent.demo import ModelSetupError, real_model_settings  # noqa: F401 (re-exported)
from miniagent_course.text import say

COURSE_MODEL_VAR = demo.MODEL_VAR
TIMEOUT_VAR, RETRIES_VAR, TRACEBACK_VAR = demo.TIMEOUT_VAR, demo.RETRIES_VAR, demo.TRACEBACK_VAR
DEFAULT_TIMEOUT, DEFAULT_MAX_RETRIES = demo.DEFAULT_TIMEOUT, demo.DEFAULT_MAX_RETRIES


def model_text(key: str, /, **fields: Any) -> str:
    """The course's wording of the real-model messages: ``[model]`` in ``cli.<lang>.toml``."""
    return say(f"model.{key}", **fields)


def named_model() -> str | None:
    """The model the learner named in ``MINIAGENT_MODEL``, or ``None`` (blank counts as unset)."""
    return os.environ.get(COURSE_MODEL_VAR, "").strip() or None


def course_model(default: Any, model: Any = None, *, announce: bool = True, **kwargs: Any) -> Any:
    """``model`` if given, else the model named in ``MINIAGENT_MODEL``, else ``default``.

    ``model`` may be a chat model (returned as is) or a ``"provider:model"`` string; a string
    is built by ``init_chat_model(model, **kwargs)`` (e.g. ``temperature=0``, ``max_retries``),
    with the course's ``timeout`` and ``max_retries`` where ``kwargs`` sets none, and announced
    in one line on stdout (``announce=False``: silently). A bad name or setting, or a missing
    key, raises ``ModelSetupError`` with the fix in its message.
    """
    name = model if model is not None else named_model()
    if name is None:
        return default
    if not isinstance(name, str):
        return name
    built = demo.build_real_model(name, model_text, **kwargs)
    if announce:
        print(banner(built), flush=True)
    return built


def banner(model: Any) -> str:
    """The line that says which real model runs: name, URL, "key hidden", timeout, retries."""
    return demo.banner(model, model_text)


def describe_failure(error: BaseException, model: Any) -> list[str] | None:
    """A real model's failure in two lines, what went wrong (with the URL and the model) and the
    fix; ``None`` if ``error`` is not a model's."""
    return demo.describe_failure(error, model, model_text)


def report_failure(error: BaseException, model: Any, *, show_traceback: bool = False) -> bool:
    """Print a model failure to stderr as :func:`describe_failure`'s two lines (after the
    traceback, the key blanked out, with ``--traceback`` or ``MINIAGENT_TRACEBACK=1``); ``False``
    if ``error`` is not a model's (the caller re-raises it)."""
    lines = describe_failure(error, model)
    if lines is None:
        return False
    demo.report_failure(
        lines,
        error,
        model,
        show_traceback=demo.wants_traceback(show_traceback),
        more=model_text("more"),
    )
    return True


__all__ = [
    "COURSE_MODEL_VAR",
    "DEFAULT_MAX_RETRIES",
    "DEFAULT_TIMEOUT",
    "ModelSetupError",
    "banner",
    "course_model",
    "describe_failure",
    "named_model",
    "report_failure",
]
