"""A day fits an evening: the words of a built day page's core path, and the time the page states.

The method, written once here (course/index.md, "How long a day takes", says it to learners):

- **core words**: the words of prose in the page's article, outside ``pre`` and ``code`` elements
  and outside collapsed blocks (a ``<details>`` that is not ``open``: the "Going deeper" notes, the
  questions' answers, the hints; their ``<summary>`` line is visible, so it counts);
- **code lines**: the lines of the code blocks on the core path (not collapsed), in the first tab
  of a tabbed set only (the other tabs show the same function in miniagent); diagrams not counted;
- **reading** = ``core words / 200`` (words per minute) ``+ code lines / 10`` (lines per minute),
  rounded up to a multiple of 5 minutes;
- **the day** = reading + the page's own estimate of its notebook and its exercise (both parts).

A day page states both numbers in its "where" line::

    about 70 minutes: reading 25, notebook and exercise 45

and ``test_page_budget.py`` proves that ``reading`` is the method's and that the total is the sum.
A page's core path is at most ``CORE_WORDS_MAX`` words; a translated Chinese page's (``zh/``) at
most ``CORE_HAN_MAX`` 汉字, on the same path.

Command line (after a build): ``python tests/course/site/page_budget.py site/`` prints each day
page's core words, code lines and minutes.
"""

from __future__ import annotations

import math
import re
import sys
from html.parser import HTMLParser
from pathlib import Path

CORE_WORDS_MAX = 1800
CORE_HAN_MAX = 3000  # a translated (zh/) day page's core path, counted in 汉字 (issue #23)
WORDS_PER_MINUTE = 200
CODE_LINES_PER_MINUTE = 10
ROUND_TO = 5  # minutes

STATED = re.compile(
    r"about (?P<total>\d+) minutes: reading (?P<reading>\d+), notebook and exercise (?P<work>\d+)"
)
ARTICLE = re.compile(r'<article class="md-content__inner[^"]*">(.*)</article>', re.S)
DAY_PAGE = re.compile(r"days/day\d\d-[\w-]+\.html$")

_WORD = re.compile(r"\w")
_HAN = re.compile(r"[\u4e00-\u9fff\u3400-\u4dbf\uf900-\ufaff]")
# elements whose start tag always has an end tag in mkdocs output, tracked on a stack
_TRACKED = {"pre", "code", "details", "summary", "script", "style", "svg", "a", "div", "table"}


def article(html: str) -> str:
    """The page's article (the lesson itself, without the navigation, header and footer)."""
    found = ARTICLE.search(html)
    return found.group(1) if found else html


class _Reader(HTMLParser):
    """Walks an article once: prose words and code lines on the core path."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.stack: list[tuple[str, str]] = []  # (tag, role): role "" or a reason to skip
        self.words: list[str] = []
        self.code_lines = 0
        self.tab_index: list[int] = []  # per open tabbed-content: blocks seen so far

    def _skipping(self, *roles: str) -> bool:
        return any(role in roles for _, role in self.stack)

    def handle_starttag(self, tag, attrs):
        if tag not in _TRACKED:
            return
        a = dict(attrs)
        classes = (a.get("class") or "").split()
        role = ""
        if tag == "details" and "open" not in a:
            role = "collapsed"
        elif tag == "summary" and self.stack and self.stack[-1] == ("details", "collapsed"):
            role = "summary"  # visible: the one line of a collapsed block that is read
        elif tag in ("pre", "code", "script", "style", "svg"):
            role = "code" if tag in ("pre", "code") else "hidden"
            if tag == "pre" and ("mermaid" in classes or self._skipping("linenos", "diagram")):
                role = "linenos" if self._skipping("linenos") else "diagram"
        elif tag == "a" and "headerlink" in classes:
            role = "hidden"
        elif tag == "div" and "ma-diagram" in classes:
            role = "diagram"  # a diagram, or its text fallback and notice when Node was missing
        elif tag == "div" and "linenodiv" in classes:
            role = "linenos"
        elif tag == "div" and "tabbed-content" in classes:
            self.tab_index.append(0)
            role = "tabs"
        elif tag == "div" and "tabbed-block" in classes and self.tab_index:
            self.tab_index[-1] += 1
            role = "tab" if self.tab_index[-1] == 1 else "other-tab"
        self.stack.append((tag, role))

    def handle_endtag(self, tag):
        if tag not in _TRACKED:
            return
        while self.stack:
            open_tag, role = self.stack.pop()
            if role == "tabs":
                self.tab_index.pop()
            if open_tag == tag:
                break

    def _collapsed(self) -> bool:
        """Inside a collapsed block, and not in its summary line."""
        depth_summary = [i for i, (_, r) in enumerate(self.stack) if r == "summary"]
        collapsed = [i for i, (_, r) in enumerate(self.stack) if r == "collapsed"]
        if not collapsed:
            return False
        # the innermost collapsed block decides; its summary is visible if every outer one is open
        return not (len(collapsed) == 1 and depth_summary and depth_summary[-1] > collapsed[0])

    def handle_data(self, data):
        if self._collapsed() or self._skipping("hidden", "linenos"):
            return
        if self._skipping("code", "diagram"):
            in_pre = any(t == "pre" and r == "code" for t, r in self.stack)
            if in_pre and not self._skipping("other-tab"):
                self.code_lines += data.count("\n")
            return
        self.words.extend(w for w in data.split() if _WORD.search(w))


def _read(html: str) -> _Reader:
    reader = _Reader()
    reader.feed(article(html))
    reader.close()
    return reader


def core_words(html: str) -> int:
    """Words of prose on the page's core path (see the module's docstring)."""
    return len(_read(html).words)


def core_han(html: str) -> int:
    """汉字 on the page's core path (the same path as :func:`core_words`): a Chinese page's size."""
    return sum(len(_HAN.findall(word)) for word in _read(html).words)


def code_lines(html: str) -> int:
    """Lines of code on the page's core path, first tab of a tabbed set only."""
    return _read(html).code_lines


def reading_minutes(words: int, lines: int) -> int:
    """Reading time of a core path: prose at 200 words and code at 10 lines a minute, rounded up
    to a multiple of 5 minutes."""
    raw = words / WORDS_PER_MINUTE + lines / CODE_LINES_PER_MINUTE
    return ROUND_TO * max(1, math.ceil(raw / ROUND_TO))


def page_minutes(html: str, exercise_minutes: int) -> int:
    """The time a day page should state: its reading time plus its notebook-and-exercise estimate."""
    reader = _read(html)
    return reading_minutes(len(reader.words), reader.code_lines) + exercise_minutes


def stated_minutes(html: str) -> tuple[int, int, int] | None:
    """(total, reading, notebook and exercise) as the page states them, or None."""
    text = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", article(html)))
    found = STATED.search(text)
    if found is None:
        return None
    return int(found["total"]), int(found["reading"]), int(found["work"])


def day_pages(site: Path) -> dict[str, str]:
    """Every built day page of a site folder, by its path in the site, in course order."""
    return {
        p.relative_to(site).as_posix(): p.read_text(encoding="utf-8")
        for p in sorted((site / "days").glob("day*.html"))
        if DAY_PAGE.search(p.relative_to(site).as_posix())
    }


def report(site: Path) -> list[str]:
    lines = [f"{'page':36} {'core':>5} {'code':>5} {'read':>5}  stated (total: reading + work)"]
    for name, html in day_pages(site).items():
        reader = _read(html)
        words, code = len(reader.words), reader.code_lines
        reading = reading_minutes(words, code)
        stated = stated_minutes(html)
        if stated is None:
            said = "states no 'about N minutes: reading R, notebook and exercise W'"
        else:
            total, read, work = stated
            ok = read == reading and total == read + work
            said = f"{total}: {read} + {work}" + ("" if ok else f"   << should be {reading + work}")
        over = "  << over budget" if words > CORE_WORDS_MAX else ""
        lines.append(f"{name:36} {words:>5} {code:>5} {reading:>5}  {said}{over}")
    return lines


def report_han(site: Path) -> list[str]:
    """The translated edition's day pages (``zh/days``): 汉字 on each core path."""
    lines = [f"{'page':36} {'汉字':>4}"]
    for name, html in day_pages(site / "zh").items():
        han = core_han(html)
        over = "  << over budget" if han > CORE_HAN_MAX else ""
        lines.append(f"zh/{name:33} {han:>6}{over}")
    return lines


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: python tests/course/site/page_budget.py SITE_DIR")
    site = Path(sys.argv[1])
    print("\n".join(report(site) + ([""] + report_han(site) if (site / "zh").is_dir() else [])))
