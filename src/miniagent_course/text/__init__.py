"""Learner-facing strings of the course tooling, kept out of the code: the one loader.

Each catalogue is a TOML file beside this module, named ``<catalogue>.<lang>.toml``:
``cli`` (grading and the ``miniagent`` command) and ``site`` (the course site's labels and the
``miniagent open`` messages). ``MINIAGENT_LANG=zh`` picks ``cli.zh.toml`` and ``site.zh.toml`` for
the Simplified Chinese edition; any key a translation lacks falls back to English, at any depth.
"""

from __future__ import annotations

import functools
import os
import sys
import unicodedata
from pathlib import Path
from typing import Any

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10
    import tomli as tomllib

TEXT_DIR = Path(__file__).parent


# Locales that mean Simplified Chinese; zh_TW, zh_HK (Traditional) keep English for now.
_SIMPLIFIED = ("zh_CN", "zh_SG", "zh_Hans", "zh")


def language() -> str:
    """The learner's language: ``MINIAGENT_LANG`` (``en``, ``zh``) when set, else the locale's
    (``LC_ALL``, ``LC_MESSAGES``, ``LANG``: ``zh_CN.UTF-8`` gives ``zh``), else ``en``. A
    language without a catalogue speaks English (``catalog`` falls back key by key)."""
    chosen = os.environ.get("MINIAGENT_LANG", "").strip().lower()
    if chosen:
        return chosen
    for var in ("LC_ALL", "LC_MESSAGES", "LANG"):
        value = os.environ.get(var, "")
        if value:  # the first one set decides, as for gettext
            locale = value.split(".")[0].split("@")[0]
            return "zh" if locale in _SIMPLIFIED else "en"
    return "en"


def columns(text: str) -> int:
    """How many terminal columns ``text`` takes: two for a wide character (汉字, full-width
    punctuation: East Asian Width W or F), none for a combining mark, one otherwise."""
    return sum(
        0 if unicodedata.combining(c) else 2 if unicodedata.east_asian_width(c) in "WF" else 1
        for c in text
    )


def fit(text: str, width: int) -> str:
    """``text`` in at most ``width`` columns, an ellipsis marking a cut."""
    if columns(text) <= width:
        return text
    out, used = "", 1  # the ellipsis
    for c in text:
        if used + columns(c) > width:
            break
        out, used = out + c, used + columns(c)
    return out + "…"


def pad(text: str, width: int) -> str:
    """``text`` followed by spaces up to ``width`` columns (``f"{text:<{width}}"`` by columns)."""
    return text + " " * max(width - columns(text), 0)


def _merge(base: dict[str, Any], extra: dict[str, Any]) -> dict[str, Any]:
    for key, value in extra.items():
        if isinstance(value, dict) and isinstance(base.get(key), dict):
            _merge(base[key], value)
        else:
            base[key] = value
    return base


@functools.cache
def _catalog(name: str, lang: str) -> dict[str, Any]:
    table = tomllib.loads((TEXT_DIR / f"{name}.en.toml").read_text(encoding="utf-8"))
    translated = TEXT_DIR / f"{name}.{lang}.toml"
    if lang != "en" and translated.exists():
        _merge(table, tomllib.loads(translated.read_text(encoding="utf-8")))
    return table


def catalog(name: str, lang: str | None = None) -> dict[str, Any]:
    """The string table ``<name>.<lang>.toml``, English filling any gap."""
    return _catalog(name, lang or language())


def _lookup(table: dict[str, Any], key: str) -> Any:
    node: Any = table
    for part in key.split("."):
        node = node[part]
    return node


def say(key: str, /, **fields: Any) -> str:
    """One string of the ``cli`` catalogue, formatted: ``say("check.done", day="day00")``.

    Every string goes through ``str.format``, so a literal brace is written ``{{`` in the TOML.
    """
    return _lookup(catalog("cli"), key).format(**fields)


def site_say(key: str, /, lang: str | None = None, **fields: Any) -> str:
    """One string of the ``site`` catalogue, formatted: ``site_say("open.serving", url=...)``."""
    return _lookup(catalog("site", lang), key).format(**fields)
