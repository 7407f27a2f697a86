"""``ensure_config``'s usual-case shortcut gives what upstream's steps give.

``ensure_config`` builds the usual config (no ``None`` value but ``callbacks``, no key to move
into ``configurable``) with ``dict.update`` and four copies; anything else takes upstream's steps,
``_ensure_config_by_key``. Here both run on the same random configs, as the current config and
as the argument, and must agree: equal dicts, keys in the same order, containers copied.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from miniagent.runnables import config as C

VALUES: dict[str, list[Any]] = {
    "tags": [None, [], ["a"], ["b", "a"]],
    "metadata": [None, {}, {"x": 1}, {"checkpoint_ns": "m"}],
    "callbacks": [None, None, [], ["h"]],
    "recursion_limit": [None, 25, 7],
    "configurable": [None, {}, {"model": "gpt"}, {"checkpoint_ns": "n", "k": 1}, {"model": 3}],
    "run_name": [None, "r", ""],
    "max_concurrency": [None, 0, 3],
    "run_id": [None, "id"],
    "thread_id": [None, "t1"],  # not a config key: moved into configurable
}


def random_config(rng: random.Random) -> dict[str, Any] | None:
    if rng.random() < 0.1:
        return None
    p = rng.choice([0.2, 0.5, 0.9])
    config = {k: rng.choice(v) for k, v in VALUES.items() if rng.random() < p}
    if rng.random() < 0.6:  # the usual case: no None but callbacks, no key to move
        config = {
            k: v
            for k, v in config.items()
            if k != "thread_id" and (v is not None or k == "callbacks")
        }
    return config


@pytest.mark.parametrize("seed", range(4))
def test_the_shortcut_gives_upstreams_config(seed):
    rng = random.Random(seed)
    for _ in range(3000):
        current, given = random_config(rng), random_config(rng)
        token = C.var_child_runnable_config.set(current)
        try:
            fast = C.ensure_config(given)
            steps = C._ensure_config_by_key(current, given)
        finally:
            C.var_child_runnable_config.reset(token)
        assert fast == steps and list(fast) == list(steps), (current, given)
        for key in C.COPIABLE_KEYS:
            for source in (current, given):
                if source and source.get(key) is not None and fast.get(key) is not None:
                    assert fast[key] is not source[key]  # copied, so the caller may change it
