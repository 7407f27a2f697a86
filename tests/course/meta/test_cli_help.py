"""``miniagent --help`` and every subcommand's help wrap by terminal columns (issue #23): under
``MINIAGENT_LANG=zh`` a 汉字 takes two columns, and no line passes the terminal's width; the
English help is exactly argparse's own."""

from __future__ import annotations

import argparse
import textwrap

import pytest

from miniagent_course import cli
from miniagent_course.text import columns, helpformat


def _parsers(parser: argparse.ArgumentParser) -> list[argparse.ArgumentParser]:
    """``parser`` and every subcommand's parser under it (``classroom gradescope`` too)."""
    found = [parser]
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for sub in dict.fromkeys(action.choices.values()):  # an alias repeats a parser
                found += _parsers(sub)
    return found


def _every_parser() -> list[argparse.ArgumentParser]:
    parsers = _parsers(cli._parser())
    try:
        from miniagent_course.site import serve
    except ImportError:  # without the [course] extra there is no `miniagent open`
        return parsers
    return [*parsers, serve._parser()]


@pytest.mark.parametrize("width", [80, 60])
def test_no_chinese_help_line_passes_the_terminal(monkeypatch, width):
    monkeypatch.setenv("MINIAGENT_LANG", "zh")
    monkeypatch.setenv("COLUMNS", str(width))
    chinese = 0
    for parser in _every_parser():
        text = parser.format_help()
        chinese += columns(text) != len(text)
        for line in text.splitlines():
            assert columns(line) <= width, f"{parser.prog}: {columns(line)} columns: {line}"
            assert line.strip()[:1] not in ("，", "。", "；", "：", "、", "）"), line
    assert chinese > 10  # the help is Chinese: the check above measured wide lines


def test_the_english_help_is_argparse_own(monkeypatch):
    monkeypatch.setenv("MINIAGENT_LANG", "en")
    monkeypatch.setenv("COLUMNS", "80")
    stock = {
        helpformat.ColumnsHelpFormatter: argparse.HelpFormatter,
        helpformat.RawDescriptionColumnsHelpFormatter: argparse.RawDescriptionHelpFormatter,
    }
    for parser in _every_parser():
        ours = parser.format_help()
        parser.formatter_class = stock[parser.formatter_class]
        assert ours == parser.format_help(), parser.prog


def test_wrapping_by_columns():
    text = "评分方案（日子、分值、可见性、时间限制）；默认：课程目录里的 classroom.toml，没有就用默认值"
    lines = helpformat.wrap_columns(text, 20)
    assert all(columns(line) <= 20 for line in lines)
    assert "".join(lines).replace(" ", "") == text.replace(" ", "")  # nothing lost
    assert not any(line[0] in "，。；：、）" or line[-1] == "（" for line in lines)
    english = "re-grade each time you save an exercise file (Ctrl+C stops)"
    assert helpformat.wrap_columns(english, 20) == textwrap.wrap(english, 20)
    assert (
        helpformat.wrap_columns("超长的" * 4, 7) == ["超长的"] * 4
    )  # 6 columns a line: 7 holds no 4th
    assert helpformat.wrap_columns("见 " + "x" * 12, 5) == ["见", "xxxxx", "xxxxx", "xx"]
