"""Learner-facing strings of the site tooling, read from ``text/site.<lang>.toml``.

English is the default; ``MINIAGENT_LANG=zh`` picks ``site.zh.toml`` once it exists (missing keys
fall back to English).
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

TEXT_DIR = Path(__file__).parent / "text"


@functools.cache
def load(lang: str | None = None) -> dict[str, Any]:
    """The whole string table for ``lang`` (English keys fill any gap)."""
    lang = lang or os.environ.get("MINIAGENT_LANG", "en")
    table = tomllib.loads((TEXT_DIR / "site.en.toml").read_text(encoding="utf-8"))
    other = TEXT_DIR / f"site.{lang}.toml"
    if lang != "en" and other.exists():
        translated = tomllib.loads(other.read_text(encoding="utf-8"))
        for key, value in translated.items():
            if isinstance(value, dict):
                table.setdefault(key, {}).update(value)
            else:
                table[key] = value
    return table


def t(section: str, key: str, lang: str | None = None, **fields: Any) -> str:
    """One string, formatted: ``t("open", "serving", url=...)``."""
    return load(lang)[section][key].format(**fields)
