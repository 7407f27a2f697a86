"""Every term is defined on or before its first use: the check, on the built day pages.

``terms.toml`` lists the terms: for each, where it is defined (``at``: one or more ``page#anchor``
of the course, e.g. ``glossary.md#reducer`` or ``days/day01-messages.md#where-the-reducer-runs``)
and how a use of it is found (``prose``: case-insensitive regular expressions on the prose of the
page; ``code``: case-sensitive ones on the text of an inline ``code`` element). Code blocks
(``pre``) are not searched: a term's use is in what the page says.

A term's first use is its first match in the day pages in course order (Day 00 first; on a page,
in reading order, collapsed blocks included). It is defined on or before it when

- one of its definitions is on an earlier day page, or
- the use is inside a link to one of its definitions, or
- one of its definitions is on the same page, at an anchor that comes before the use.

Command line (after a build): ``python tests/course/site/terms.py site/`` prints every term whose
first use comes before its definition, with where it is used.
"""

from __future__ import annotations

import posixpath
import re
import sys
from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path

from page_budget import article, day_pages

try:
    import tomllib
except ImportError:  # Python 3.10
    import tomli as tomllib

HERE = Path(__file__).resolve().parent
TERMS = HERE / "terms.toml"


@dataclass
class Term:
    name: str
    at: list[str]  # page#anchor, page relative to course/ (a .md name)
    prose: list[re.Pattern] = field(default_factory=list)
    code: list[re.Pattern] = field(default_factory=list)


def load_terms(path: Path = TERMS) -> list[Term]:
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    terms = []
    for entry in data["term"]:
        at = entry["at"] if isinstance(entry["at"], list) else [entry["at"]]
        terms.append(
            Term(
                name=entry["name"],
                at=at,
                prose=[re.compile(p, re.I) for p in entry.get("prose", [])],
                code=[re.compile(p) for p in entry.get("code", [])],
            )
        )
    return terms


@dataclass
class Segment:
    text: str
    code: bool
    link: str | None  # the enclosing link's target, resolved to "page.html#anchor"
    pos: int
    after_break: bool = False  # a block (paragraph, heading, cell...) began or ended before it


_BLOCKS = {"p", "li", "dt", "dd", "td", "th", "tr", "div", "summary", "details", "table", "br"}
_BLOCKS |= {f"h{n}" for n in range(1, 7)}


class _Walker(HTMLParser):
    """The article as segments of prose and inline code in reading order, and its anchors."""

    def __init__(self, page: str) -> None:
        super().__init__(convert_charrefs=True)
        self.page = page
        self.segments: list[Segment] = []
        self.anchors: dict[str, int] = {}
        self.stack: list[tuple[str, str | None]] = []  # (tag, resolved link or role)
        self.pos = 0
        self.broken = False

    def _resolve(self, href: str) -> str | None:
        if re.match(r"[a-z]+:", href):
            return None  # another site
        if href.startswith("#"):
            return self.page + href
        path, _, anchor = href.partition("#")
        target = posixpath.normpath(posixpath.join(posixpath.dirname(self.page), path))
        return f"{target}#{anchor}" if anchor else target

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        self.broken = self.broken or tag in _BLOCKS
        if a.get("id") and a["id"] not in self.anchors:
            self.anchors[a["id"]] = self.pos
        if tag in ("a", "code", "pre", "script", "style", "svg"):
            classes = (a.get("class") or "").split()
            value: str | None = None
            if tag == "a":
                value = "hidden" if "headerlink" in classes else self._resolve(a.get("href") or "")
            self.stack.append((tag, value))

    def handle_endtag(self, tag):
        self.broken = self.broken or tag in _BLOCKS
        if tag in ("a", "code", "pre", "script", "style", "svg"):
            while self.stack:
                if self.stack.pop()[0] == tag:
                    break

    def handle_data(self, data):
        tags = [t for t, _ in self.stack]
        if any(t in ("pre", "script", "style", "svg") for t in tags):
            return
        if any(t == "a" and v == "hidden" for t, v in self.stack):
            return
        link = next((v for t, v in reversed(self.stack) if t == "a"), None)
        code = "code" in tags
        last = self.segments[-1] if self.segments else None
        if code and last and last.code and last.pos == self.pos:
            last.text += data  # one code element, split by <wbr>
            return
        self.pos += 1
        self.segments.append(Segment(data, code, link, self.pos, self.broken))
        self.broken = False

    def handle_startendtag(self, tag, attrs):
        self.handle_starttag(tag, attrs)
        if tag in ("a", "code"):
            self.handle_endtag(tag)


def walk(page: str, html: str) -> _Walker:
    walker = _Walker(page)
    walker.feed(article(html))
    walker.close()
    return walker


@dataclass
class Use:
    term: Term
    page: str
    pos: int
    text: str
    link: str | None
    context: str


def _html_name(at: str) -> str:
    page, _, anchor = at.partition("#")
    page = re.sub(r"\.md$", ".html", page)
    return f"{page}#{anchor}" if anchor else page


def first_use(term: Term, pages: dict[str, _Walker]) -> Use | None:
    for page, walker in pages.items():
        best: Use | None = None
        prose = [s for s in walker.segments if not s.code]
        # prose: joined, so a phrase split by <em> or a link is still found
        joined, starts = "", []
        for s in prose:
            joined += "\n" if s.after_break else ""
            starts.append(len(joined))
            joined += s.text
        for pattern in term.prose:
            for m in pattern.finditer(joined):
                i = max(k for k, start in enumerate(starts) if start <= m.start())
                seg = prose[i]
                if best is None or seg.pos < best.pos:
                    ctx = joined[max(0, m.start() - 60) : m.end() + 60].replace("\n", " ")
                    best = Use(term, page, seg.pos, m.group(0), seg.link, ctx)
                break
        for seg in walker.segments:
            if not seg.code or (best is not None and seg.pos >= best.pos):
                continue
            if any(p.search(seg.text) for p in term.code):
                best = Use(term, page, seg.pos, seg.text, seg.link, seg.text)
                break
        if best is not None:
            return best
    return None


def defined_before(use: Use, pages: dict[str, _Walker]) -> bool:
    order = list(pages)
    for at in map(_html_name, use.term.at):
        page, _, anchor = at.partition("#")
        if page in pages and order.index(page) < order.index(use.page):
            return True
        if use.link is not None and use.link == at:
            return True
        if page == use.page:
            where = pages[page].anchors.get(anchor, 0) if anchor else 0
            if where < use.pos:  # the anchor comes before the use's segment
                return True
    return False


def missing_definitions(terms: list[Term], site: Path) -> list[str]:
    """Every ``at`` of every term names a built page and an anchor on it."""
    wrong = []
    cache: dict[str, _Walker] = {}
    for term in terms:
        for at in term.at:
            page, _, anchor = _html_name(at).partition("#")
            file = site / page
            if not file.is_file():
                wrong.append(f"{term.name}: {at}: no such page")
                continue
            if page not in cache:
                cache[page] = walk(page, file.read_text(encoding="utf-8"))
            if anchor and anchor not in cache[page].anchors:
                wrong.append(f"{term.name}: {at}: no anchor #{anchor} on that page")
    return wrong


def problems(site: Path, terms: list[Term] | None = None) -> list[str]:
    """Every term whose first use in the day pages comes before its definition."""
    terms = load_terms() if terms is None else terms
    pages = {name: walk(name, html) for name, html in day_pages(site).items()}
    wrong = []
    for term in terms:
        use = first_use(term, pages)
        if use is not None and not defined_before(use, pages):
            wrong.append(
                f"{term.name!r} first used on {use.page} ({use.text!r}: ...{use.context}...),"
                f" defined at {', '.join(term.at)}: define it there first or link the use to it"
            )
    return wrong


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: python tests/course/site/terms.py SITE_DIR")
    site = Path(sys.argv[1])
    found = missing_definitions(load_terms(), site) + problems(site)
    print("\n".join(found) if found else "every term is defined on or before its first use")
