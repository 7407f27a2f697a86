"""argparse's help wrapped by terminal columns (issue #23): a 汉字 takes two columns, so argparse's
count of characters made Chinese help lines twice too long. Used by ``miniagent`` and by
``miniagent open``; text without wide characters wraps exactly as argparse wraps it."""

from __future__ import annotations

import argparse
import re
import textwrap
from typing import Any

from miniagent_course.text import columns

# A line never starts with a closing mark nor ends with an opening one (Chinese line breaking).
_NO_LINE_START = frozenset("，。；：、！？）」』】》〉”’,.;:!?)]}")
_NO_LINE_END = frozenset("（「『【《〈“‘([{")


def _wide(text: str) -> bool:
    """Does ``text`` hold a character two columns wide (a 汉字, full-width punctuation)?"""
    return columns(text) != len(text)


def _pieces(text: str) -> list[tuple[str, bool]]:
    """``text`` cut where a line may break: ``(piece, space before it)``. A line breaks at a
    space, and between two 汉字 or a 汉字 and a word, but not before a closing mark (``，`` ``）``)
    nor after an opening one (``（``)."""
    pieces: list[tuple[str, bool]] = []
    current, space = "", False
    for char in text:
        if char.isspace():
            if current:
                pieces.append((current, space))
                current = ""
            space = True
            continue
        breaks = (
            current
            and (_wide(char) or _wide(current[-1]))
            and char not in _NO_LINE_START
            and current[-1] not in _NO_LINE_END
        )
        if breaks:
            pieces.append((current, space))
            current, space = "", False
        current += char
    if current:
        pieces.append((current, space))
    return pieces


def wrap_columns(text: str, width: int) -> list[str]:
    """``textwrap.wrap`` by terminal columns (a 汉字 takes two): lines of at most ``width``
    columns; text without wide characters wraps exactly as ``textwrap.wrap``."""
    if not _wide(text):
        return textwrap.wrap(text, width)
    width = max(width, 2)
    lines: list[str] = []
    line = ""
    for piece, space in _pieces(text):
        joined = f"{line} {piece}" if line and space else line + piece
        if columns(joined) <= width:
            line = joined
            continue
        if line:
            lines.append(line)
        while columns(piece) > width:  # a word longer than a line: cut it, as textwrap does
            cut = piece[0]
            while columns(piece[: len(cut) + 1]) <= width:
                cut = piece[: len(cut) + 1]
            lines.append(cut)
            piece = piece[len(cut) :]
        line = piece
    if line:
        lines.append(line)
    return lines


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
