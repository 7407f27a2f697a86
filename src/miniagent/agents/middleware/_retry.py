"""What ``ModelRetryMiddleware`` and ``ToolRetryMiddleware`` share. Mirrors
``langchain/agents/middleware/_retry.py``.

By default both retry an exception unless it is a ``ModelError`` that says it is not retryable
(``miniagent.exceptions``): a rate limit, a server error, a timeout or a lost connection is
retried; a rejected key (401), a forbidden (403) or unknown (404) model, an invalid request (400)
and a context overflow are not. Any other exception is retried.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Literal

from miniagent.exceptions import ModelError

RetryOn = tuple[type[Exception], ...] | Callable[[Exception], bool]
"""Exception types to retry on (``isinstance``), or a predicate (_retry.py:16)."""

OnFailure = Literal["error", "continue"] | Callable[[Exception], str]
"""When retries run out: re-raise (``"error"``), answer with an error message
(``"continue"``), or a function that writes that message (_retry.py:24)."""


def validate_retry_params(
    max_retries: int,
    initial_delay: float,
    max_delay: float,
    backoff_factor: float,
) -> None:
    """No negative count, delay or factor (_retry.py:39)."""
    if max_retries < 0:
        msg = "max_retries must be >= 0"
        raise ValueError(msg)
    if initial_delay < 0:
        msg = "initial_delay must be >= 0"
        raise ValueError(msg)
    if max_delay < 0:
        msg = "max_delay must be >= 0"
        raise ValueError(msg)
    if backoff_factor < 0:
        msg = "backoff_factor must be >= 0"
        raise ValueError(msg)


def default_retry_on(exc: BaseException) -> bool:
    """A ``ModelError`` if it ``is_retryable``, any other ``Exception`` (_retry.py:70)."""
    if not isinstance(exc, Exception):
        return False
    if isinstance(exc, ModelError):
        return exc.is_retryable
    return True


def should_retry_exception(
    exc: Exception,
    retry_on: RetryOn,
) -> bool:
    """``retry_on(exc)`` for a predicate, else ``isinstance(exc, retry_on)`` (_retry.py:79)."""
    if callable(retry_on):
        return retry_on(exc)
    return isinstance(exc, retry_on)


def calculate_delay(
    retry_number: int,
    *,
    backoff_factor: float,
    initial_delay: float,
    max_delay: float,
    jitter: bool,
) -> float:
    """``initial_delay * backoff_factor ** retry_number``, capped at ``max_delay``, then
    +-25 % jitter (_retry.py:98). ``backoff_factor=0`` keeps the delay constant."""
    if backoff_factor == 0.0:
        delay = initial_delay
    else:
        delay = initial_delay * (backoff_factor**retry_number)

    # Cap at max_delay
    delay = min(delay, max_delay)

    if jitter and delay > 0:
        jitter_amount = delay * 0.25  # ±25% jitter
        delay += random.uniform(-jitter_amount, jitter_amount)  # noqa: S311
        # Ensure delay is not negative after jitter
        delay = max(0, delay)

    return delay
