"""Learner-facing strings of the course tooling, kept out of the code: the one loader.

Each catalogue is a TOML file beside this module, named ``<catalogue>.<lang>.toml``:
``cli`` (grading and the ``miniagent`` command) and ``site`` (the course site's labels and the
``miniagent open`` messages). ``MINIAGENT_LANG=zh`` picks ``cli.zh.toml`` and ``site.zh.toml`` for
the Simplified Chinese edition; any key a translation lacks falls back to English, at any depth.
"""

from __future__ import annotations

import functools
import sys
from pathlib import Path
from typing import Any

# The learner's language (``MINIAGENT_LANG``, else the locale's, else ``en``) and a text's width in
# terminal columns (two for a 汉字): one implementation, the runtime demo's, which may not import the
# course and speaks and wraps as the course does.
from miniagent.demo import columns, language

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10
    import tomli as tomllib

TEXT_DIR = Path(__file__).parent


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
