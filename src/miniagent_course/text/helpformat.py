"""argparse's help wrapped by terminal columns (issue #23): a 汉字 takes two columns, so argparse's
count of characters made Chinese help lines twice too long. Used by ``miniagent`` and by
``miniagent open``; text without wide characters wraps exactly as argparse wraps it."""

from __future__ import annotations

import argparse
import re
import textwrap
from typing import Any

from miniagent.demo import wrap
from miniagent_course.text import columns


def _wide(text: str) -> bool:
    """Does ``text`` hold a character two columns wide (a 汉字, full-width punctuation)?"""
    return columns(text) != len(text)


def wrap_columns(text: str, width: int) -> list[str]:
    """``textwrap.wrap`` by terminal columns (a 汉字 takes two): lines of at most ``width``
    columns; text without wide characters wraps exactly as ``textwrap.wrap``. (The demo's
    ``wrap``: the runtime's demo, which may not import the course, wraps its text the same way.)"""
    return wrap(text, max(width, 2)) if _wide(text) else textwrap.wrap(text, width)


def fill_columns(text: str, width: int) -> str:
    """``textwrap.fill`` by terminal columns (see ``wrap_columns``)."""
    return "\n".join(wrap_columns(text, width))


class ColumnsHelpFormatter(argparse.HelpFormatter):
    """argparse's help, wrapped by terminal columns (``MINIAGENT_LANG=zh``: a 汉字 takes two, so
    argparse's count of characters made lines twice too long); English wraps as before."""

    def _split_lines(self, text: str, width: int) -> list[str]:
        if not _wide(text):
            return super()._split_lines(text, width)
        return wrap_columns(self._whitespace_matcher.sub(" ", text).strip(), width)

    def _fill_text(self, text: str, width: int, indent: str) -> str:
        if not _wide(text):
            return super()._fill_text(text, width, indent)
        text = self._whitespace_matcher.sub(" ", text).strip()
        return "\n".join(indent + line for line in wrap_columns(text, width - len(indent)))


class RawDescriptionColumnsHelpFormatter(ColumnsHelpFormatter):
    """argparse's ``RawDescriptionHelpFormatter`` (the description and epilog keep their lines),
    except that a line with wide characters too long for the terminal wraps, under its second
    column (``NAME=<value>   what it is``) or its own indent."""

    def _fill_text(self, text: str, width: int, indent: str) -> str:
        limit = self._width + 1  # argparse keeps two columns spare; a kept line may use one more
        out = []
        for line in text.splitlines(keepends=True):
            body = line.rstrip("\n")
            if not _wide(body) or columns(indent + body) <= limit:
                out.append(indent + line)
                continue
            match = re.match(r"(\s*\S.*?\s{2,})(\S.*)", body) or re.match(r"(\s*)(.*)", body)
            head, rest = match.group(1), match.group(2)
            hang = " " * columns(indent + head)
            wrapped = wrap_columns(rest, limit - len(hang)) or [""]
            out.append(indent + head + wrapped[0] + "\n")
            out.extend(hang + more + "\n" for more in wrapped[1:])
            if not line.endswith("\n"):
                out[-1] = out[-1][:-1]
        return "".join(out)


class HelpParser(argparse.ArgumentParser):
    """An ``ArgumentParser`` whose help wraps by terminal columns; its subcommands' parsers are
    ``HelpParser`` too (argparse makes them of the parent's class)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("formatter_class", ColumnsHelpFormatter)
        super().__init__(*args, **kwargs)
