"""Learner-facing strings of the course tooling, kept out of the code.

Each catalogue is a TOML file beside this module: ``cli.en.toml`` (grading and the ``miniagent``
command), ``cli.zh.toml`` for the Simplified Chinese edition, and so on. ``MINIAGENT_LANG=zh``
picks the translation; any key it lacks falls back to English.
"""

from __future__ import annotations

import functools
import os
import sys
from pathlib import Path
from typing import Any

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10
    import tomli as tomllib

TEXT_DIR = Path(__file__).parent


def language() -> str:
    """The learner's language: ``MINIAGENT_LANG`` (``en`` when unset)."""
    return os.environ.get("MINIAGENT_LANG", "en") or "en"


def _merge(base: dict[str, Any], extra: dict[str, Any]) -> dict[str, Any]:
    for key, value in extra.items():
        if isinstance(value, dict) and isinstance(base.get(key), dict):
            _merge(base[key], value)
        else:
            base[key] = value
    return base


@functools.cache
def catalog(name: str, lang: str) -> dict[str, Any]:
    """The string table ``<name>.<lang>.toml``, English filling any gap."""
    table = tomllib.loads((TEXT_DIR / f"{name}.en.toml").read_text(encoding="utf-8"))
    translated = TEXT_DIR / f"{name}.{lang}.toml"
    if lang != "en" and translated.exists():
        _merge(table, tomllib.loads(translated.read_text(encoding="utf-8")))
    return table


def say(key: str, /, **fields: Any) -> str:
    """One string of the ``cli`` catalogue, formatted: ``say("check.done", day="day00")``.

    Every string goes through ``str.format``, so a literal brace is written ``{{`` in the TOML.
    """
    node: Any = catalog("cli", language())
    for part in key.split("."):
        node = node[part]
    return node.format(**fields)
