"""The course's model switch: an offline fake unless the learner names a real model.

Every lesson, notebook and the capstone run on a scripted fake by default: no network, no
key, the same answer every time. A real model is used only when the learner names one, as an
argument or in the course variable ``MINIAGENT_MODEL`` (``openai:<model>``, resolved by
``miniagent.chat_models.init_chat_model``). An exported ``OPENAI_API_KEY`` alone never turns
a real model on; it is only the key the named model then uses. For a local or third-party
OpenAI-compatible server (Ollama, vLLM, DeepSeek, Qwen, ...) also set ``OPENAI_BASE_URL``::

    MINIAGENT_MODEL=openai:qwen2.5 OPENAI_BASE_URL=http://localhost:11434/v1 \\
        OPENAI_API_KEY=ollama jupyter lab
"""

from __future__ import annotations

import os
from typing import Any

COURSE_MODEL_VAR = "MINIAGENT_MODEL"


def named_model() -> str | None:
    """The model the learner named in ``MINIAGENT_MODEL``, or ``None`` (blank counts as unset)."""
    return os.environ.get(COURSE_MODEL_VAR, "").strip() or None


def course_model(default: Any, model: Any = None, **kwargs: Any) -> Any:
    """``model`` if given, else the model named in ``MINIAGENT_MODEL``, else ``default``.

    ``model`` may be a chat model (returned as is) or a ``"provider:model"`` string; a string
    is built by ``init_chat_model(model, **kwargs)`` (e.g. ``temperature=0``, ``max_retries``).
    """
    name = model if model is not None else named_model()
    if name is None:
        return default
    if not isinstance(name, str):
        return name
    from miniagent.chat_models import init_chat_model

    return init_chat_model(name, **kwargs)
