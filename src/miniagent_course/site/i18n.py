"""Translated twins of the course's pages and notebooks, and what keeps them in step (issue #23).

A twin sits beside its English source with the language before the suffix:
``course/days/day00-welcome.zh.md``, ``notebooks/day00_welcome.zh.ipynb``. It records which
version of the English it translates, the first 16 hex digits of the English file's SHA-256: a
page in its front matter (``translates: 0123456789abcdef``), a notebook in its metadata
(``"miniagent": {"translates": "..."}``), a stub (``kits/dayNN/stub.zh.py``) in a last comment
line (``# translates: ...``). ``problems(english, twin)`` says how a twin is out of
step: the English changed since (the digest), or the two differ in what a translation must keep
as it is -- code blocks, cited upstream lines, the numbers inside code, tables' shape, headings'
structure, admonitions, link targets; for a notebook, its code cells; for a stub, its code
(docstrings aside), doctest lines and TODO markers.

``python -m miniagent_course.site.i18n stamp <twin>...`` records the current English digest once
a translator has brought a twin up to date; ``python -m miniagent_course.site.i18n check`` lists
every problem of every twin (what ``tests/course/site/test_translations.py`` asserts is empty).
"""

from __future__ import annotations

import ast
import hashlib
import json
import re
import sys
from collections import Counter
from pathlib import Path

from miniagent_course.site.citations import line_citations, split_page

LANGS = ("zh",)  # the translated editions
_FRONT = re.compile(r"\A---\n(.*?)\n---\n", re.S)
_TRANSLATES = re.compile(r"^translates:\s*['\"]?([0-9a-f]{16})['\"]?\s*$", re.M)
_FENCE = re.compile(r"^(\s*)(`{3,}|~{3,})(.*)$")
_HEADING = re.compile(r"^(#{1,6})\s")
# Python-Markdown makes a heading of a line that starts with "#", space or not, a list item's too
# ("- #8204 was..." is an <h1> inside the list): such lines must match the English one for one.
_HASH_LINE = re.compile(r"^\s*(?:[-*+]\s+|\d+\.\s+)?#{1,6}[^#\s]")
_ADMONITION = re.compile(r"^\s*(!!!|\?\?\?\+?)\s+([\w-]+)")
_TABS = re.compile(r"^\s*===\s")
_CODE_SPAN = re.compile(r"(`+)(.+?)\1", re.S)
_NUMBER = re.compile(r"(?<![\w.])\d+(?:\.\d+)*")
_LINK = re.compile(r"\]\(([^)\s]+)\)")
_TABLE_ROW = re.compile(r"^\s*\|.*\|\s*$")
_PY_TRANSLATES = re.compile(r"^# translates: ([0-9a-f]{16})\b.*$", re.M)
KITS = Path("src/miniagent_course/kits")  # each kit's stub.py may have a stub.<lang>.py twin


def digest(path: Path) -> str:
    """The version of an English source a twin records: its SHA-256, first 16 hex digits."""
    return hashlib.sha256(path.read_bytes()).hexdigest()[:16]


def twin(english: Path, lang: str) -> Path:
    return english.with_name(f"{english.stem}.{lang}{english.suffix}")


def source_of(path: Path) -> Path:
    """``x.zh.md`` -> ``x.md``."""
    stem, _, _lang = path.stem.rpartition(".")
    return path.with_name(f"{stem}{path.suffix}")


def twins(project: Path) -> list[tuple[Path, Path]]:
    """Every (English source, translated twin) pair of the course's pages and notebooks."""
    pairs = []
    for lang in LANGS:
        for found in sorted((project / "course").rglob(f"*.{lang}.md")):
            pairs.append((source_of(found), found))
        for found in sorted((project / "notebooks").glob(f"*.{lang}.ipynb")):
            pairs.append((source_of(found), found))
        for found in sorted((project / "exercises").glob(f"*.{lang}.md")):
            pairs.append((source_of(found), found))
        for found in sorted((project / KITS).glob(f"*/stub.{lang}.py")):
            pairs.append((source_of(found), found))
    return pairs


def recorded(path: Path) -> str | None:
    """The digest a twin records (front matter ``translates:``, notebook metadata, a stub's
    ``# translates:`` comment)."""
    if path.suffix == ".py":
        found = _PY_TRANSLATES.search(path.read_text(encoding="utf-8"))
        return found.group(1) if found else None
    if path.suffix == ".ipynb":
        meta = json.loads(path.read_text(encoding="utf-8")).get("metadata", {})
        return meta.get("miniagent", {}).get("translates")
    front = _FRONT.match(path.read_text(encoding="utf-8"))
    found = _TRANSLATES.search(front.group(1)) if front else None
    return found.group(1) if found else None


def stamp(path: Path) -> None:
    """Record the current digest of ``path``'s English source in ``path``."""
    value = digest(source_of(path))
    text = path.read_text(encoding="utf-8")
    if path.suffix == ".py":  # a stub: one comment line at its end
        line = f"# translates: {value} (the version of {source_of(path).name} this follows)"
        if _PY_TRANSLATES.search(text):
            text = _PY_TRANSLATES.sub(line, text)
        else:
            text = text.rstrip("\n") + f"\n\n\n{line}\n"
        path.write_text(text, encoding="utf-8")
        return
    if path.suffix == ".ipynb":
        node = json.loads(text)
        node.setdefault("metadata", {}).setdefault("miniagent", {})["translates"] = value
        path.write_text(json.dumps(node, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
        return
    front = _FRONT.match(text)
    if front is None:
        text = f"---\ntranslates: {value}\n---\n\n{text}"
    elif _TRANSLATES.search(front.group(1)):
        body = _TRANSLATES.sub(f"translates: {value}", front.group(1))
        text = f"---\n{body}\n---\n" + text[front.end() :]
    else:
        text = f"---\n{front.group(1)}\ntranslates: {value}\n---\n" + text[front.end() :]
    path.write_text(text, encoding="utf-8")


# --- what a translation keeps -------------------------------------------------------------------


def _body(text: str) -> str:
    front = _FRONT.match(text)
    return text[front.end() :] if front else text


def fences(text: str) -> list[str]:
    """Every fenced block, its info string and its lines, dedented: these stay as they are."""
    blocks, current, indent, mark = [], None, "", ""
    for line in _body(text).splitlines():
        m = _FENCE.match(line)
        if current is None and m:
            indent, mark, current = m.group(1), m.group(2), [m.group(3).strip()]
        elif current is not None and line.strip() == mark:
            blocks.append("\n".join(current))
            current = None
        elif current is not None:
            current.append(line[len(indent) :] if line.startswith(indent) else line.strip())
    return blocks


def _prose(text: str) -> list[str]:
    """The lines outside fenced blocks."""
    return [line for _, line in split_page(_body(text))[0]]


def structure(text: str) -> dict[str, object]:
    """What a page's translation must keep, as comparable values."""
    prose = _prose(text)
    joined = "\n".join(prose)
    spans = [re.sub(r"\s+", " ", m.group(2).strip()) for m in _CODE_SPAN.finditer(joined)]
    cites = [m.group(0).replace(" ", "") for line in prose for m, _ in line_citations(line)]
    tables, rows = [], []  # each table: its rows' numbers of cells
    for line in [*prose, ""]:
        if _TABLE_ROW.match(line):
            rows.append(len(re.split(r"(?<!\\)\|", line.strip().strip("|"))))
        elif rows:
            tables.append(tuple(rows))
            rows = []
    return {
        "code blocks": fences(text),
        "headings (levels)": [len(m.group(1)) for line in prose if (m := _HEADING.match(line))],
        "lines starting with # (headings to Markdown)": sum(
            map(bool, map(_HASH_LINE.match, prose))
        ),
        "admonitions": [m.group(1, 2) for line in prose if (m := _ADMONITION.match(line))],
        "tabs": sum(1 for line in prose if _TABS.match(line)),
        "citations": Counter(cites),
        "numbers in code": Counter(n for span in spans for n in _NUMBER.findall(span)),
        "tables (cells per row)": tables,
        "link targets": Counter(_LINK.findall(joined)),
    }


def _notebook_structure(path: Path) -> dict[str, object]:
    cells = json.loads(path.read_text(encoding="utf-8")).get("cells", [])
    kinds = [c["cell_type"] for c in cells]
    code = ["".join(c.get("source", "")) for c in cells if c["cell_type"] == "code"]
    headings = [
        [len(m.group(1)) for line in "".join(c.get("source", "")).splitlines()
         if (m := _HEADING.match(line))]
        for c in cells if c["cell_type"] == "markdown"
    ]  # fmt: skip
    return {"cells (kinds)": kinds, "code cells": code, "headings (levels)": headings}


def _stub_structure(path: Path) -> dict[str, object]:
    """A stub's code without its docstrings (the contract, translated), its doctest lines and
    the ``TODO(...)`` markers the learner edits at: all identical in every language."""
    text = path.read_text(encoding="utf-8")
    tree = ast.parse(text)
    doctests = []
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        if isinstance(body, list) and body and isinstance(body[0], ast.Expr):
            value = body[0].value
            if isinstance(value, ast.Constant) and isinstance(value.value, str):
                doctests += [
                    line.strip()
                    for line in value.value.splitlines()
                    if line.strip().startswith((">>>", "... "))
                ]
                body[0] = ast.Expr(ast.Constant("(docstring)"))
    return {
        "code (docstrings aside)": ast.dump(tree),
        "doctest lines": doctests,
        "TODO markers": re.findall(r"TODO\(\w+\)", text),
    }


def problems(english: Path, translated: Path) -> list[str]:
    """How ``translated`` is out of step with ``english``; empty when it is in step."""
    name = translated.name
    found = []
    if not english.is_file():
        return [f"{name}: its English source {english.name} does not exist"]
    mark, now = recorded(translated), digest(english)
    if mark is None:
        found.append(f"{name}: records no English version (run: {_STAMP} {translated})")
    elif mark != now:
        found.append(
            f"{name}: translates {english.name} at {mark}, which is now {now}: bring the "
            f"translation up to date, then run {_STAMP} {translated}"
        )
    if english.suffix == ".ipynb":
        ours, theirs = _notebook_structure(english), _notebook_structure(translated)
    elif english.suffix == ".py":
        ours, theirs = _stub_structure(english), _stub_structure(translated)
    else:
        ours = structure(english.read_text(encoding="utf-8"))
        theirs = structure(translated.read_text(encoding="utf-8"))
    for key, value in ours.items():
        if theirs[key] != value:
            found.append(
                f"{name}: its {key} differ from {english.name}'s: {_diff(value, theirs[key])}"
            )
    return found


def _diff(ours: object, theirs: object) -> str:
    if isinstance(ours, Counter) and isinstance(theirs, Counter):
        gone, added = dict(ours - theirs), dict(theirs - ours)
        return f"missing {gone or 'nothing'}, extra {added or 'nothing'}"
    if isinstance(ours, list) and isinstance(theirs, list):
        for n, (a, b) in enumerate(zip(ours, theirs, strict=False), 1):
            if a != b:
                return f"#{n}: {a!r:.120} vs {b!r:.120}"
        return f"{len(ours)} vs {len(theirs)}"
    return f"{ours!r:.120} vs {theirs!r:.120}"


_STAMP = "python -m miniagent_course.site.i18n stamp"


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if args[:1] == ["stamp"] and args[1:]:
        for name in args[1:]:
            stamp(Path(name))
        return 0
    if args[:1] == ["check"]:
        project = Path(args[1]) if args[1:] else Path.cwd()
        found = [p for en, zh in twins(project) for p in problems(en, zh)]
        print("\n".join(found) or "every translation is in step")
        return 1 if found else 0
    print(f"usage: {_STAMP} <twin>... | python -m miniagent_course.site.i18n check [project]")
    return 2


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
