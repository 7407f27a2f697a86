"""Check every citation of upstream code in the course pages against the pinned packages.

Two kinds of citation are checked (``tests/course/site/test_citations.py`` runs this on ``course/``):

* **directives**: each ``upstream`` block must resolve (file, symbol or range, and its
  ``lines``/``expect``/``annotate`` options); each ``mini`` block must name an existing section;
* **prose citations**: ``chat_agent_executor.py:137``, ``langchain_core/runnables/base.py:3449``,
  ``l.137`` or ``l.568–590``. The cited line (first and last of a range) must not be blank. If
  a backticked *name* stands right before the citation
  (`` `_get_prompt_runnable` (l.137) ``), the symbol must start on that line; if a backticked
  *code fragment* stands there, the fragment must appear on the cited line(s); otherwise the
  line must exist. A bare ``l.N`` refers to the page's ``upstream:`` front matter; on a page
  without one, to the last upstream file named above it.

Text inside fenced code blocks is not prose and is not checked (except the directives).

The same prose check runs on the docstrings and ``#`` comments of ``src/miniagent``
(:func:`check_sources`; ``tests/course/site/test_src_citations.py`` runs it). There every
``x.py:N`` is upstream, so it must resolve (an unknown file fails) and may also be the end of a
path (``pregel/main.py``). What differs from a page:

* the module's *twins*, the ``mirrors`` column of ``ARCHITECTURE.md``'s map, play the front
  matter's part: an ambiguous file name is narrowed to a twin, then to a file beside a twin, then
  to a file that defines the documented object (``base.py`` in ``miniagent/runnables/base.py`` is
  ``langchain_core/runnables/base.py``), before the course's subject (``langgraph/prebuilt/``);
  a bare ``l.N`` refers to the last upstream file named above it, at first the twin that has
  the module's file name;
* a citation in the first paragraph of a docstring, or in the comment on an assignment's first
  line, names the object documented: if the cited file defines that name, the citation must be
  its ``def``/``class``/assignment line (the summary "Async ``before_agent`` (l.444)." of
  ``abefore_agent`` cites ``abefore_agent``). Backticked words there describe the object and are
  not checked; elsewhere (module docstrings, later paragraphs, other comments) a backticked name
  or fragment right before a citation is checked as on a page;
* upstream files outside the pinned wheels (``UNSHIPPED``: langgraph-checkpoint, upstream's own
  tests) are recognised, a partial path also in a twin folder (``memory/__init__.py`` in
  ``miniagent/checkpoint.py``), and not checked.
"""

from __future__ import annotations

import ast
import io
import re
import tokenize
from dataclasses import dataclass, field
from pathlib import Path

from miniagent_course.site.fences import fence_options, mini_excerpt, select_lines
from miniagent_course.site.upstream import (
    CitationError,
    SourceFile,
    files_by_basename,
    find_file,
    find_symbol,
    resolve,
    symbols,
)

UPSTREAM_TOPS = ("langgraph/", "langchain/", "langchain_core/", "langchain_openai/")
FILE_CITE = re.compile(
    r"(?<![\w/.-])((?:[\w.-]+/)*[\w-]+\.py):(\d+)(?:\s*[-–]\s*(\d+))?(?!\w|\.\d)"
)
LINE_CITE = re.compile(r"(?<![\w.])ll?\.\s?(\d+)(?:\s*[-–]\s*(\d+))?(?!\w|\.\d)")
CODE_SPAN = re.compile(r"(`+)(.+?)\1")
NAME = re.compile(r"^[A-Za-z_][\w.]*(?:\(\))?$")
FENCE = re.compile(r"^(\s*)(`{3,}|~{3,})\s*([\w-]*)(.*)$")
OPTION = re.compile(r'(\w+)="([^"]*)"')
# What may stand between a backticked span and the citation that belongs to it:
# "`x` (l.1)", "`x` at l.1", "`x`, l.1", "`x` starts at l.1", "`x` is defined on line l.1".
GAP = re.compile(r"^[\s(\[,:–—-]*(?:(?:at|on|in|is|see|starts|defined|line)\s+)*[\s(\[]*$")
PREFERRED = "langgraph/prebuilt/"  # the course's subject wins when a file name is ambiguous
# Upstream files outside the pinned wheels: langgraph-checkpoint (not pinned) and the tests of
# upstream's repository (not shipped). Citations of them are recognised and not checked.
UNSHIPPED = ("langgraph/checkpoint/", "tests/")
MAP_ROW = re.compile(r"^\|\s*`miniagent/")  # a row of ARCHITECTURE.md's module map


@dataclass(frozen=True)
class Problem:
    """One citation that does not hold, with where it is."""

    where: str  # "course/days/day05.md:42"
    message: str

    def __str__(self) -> str:
        return f"{self.where}: {self.message}"


@dataclass
class Reading:
    """What a text's citations refer to while it is read top to bottom."""

    fixed: str | None = None  # a page's ``upstream:`` front matter: every bare l.N refers to it
    current: str | None = None  # else the last upstream file named above
    twins: tuple[str, ...] = ()  # src: the module's upstream files and folders
    strict: bool = False  # src: every x.py:N is upstream and must resolve
    owners: dict[int, str] = field(default_factory=dict)  # src: line -> the object it documents


@dataclass(frozen=True)
class Block:
    """A fenced directive block: ``upstream`` or ``mini``."""

    kind: str
    spec: str
    options: dict
    line: int  # line of the opening fence in the page


# --- reading a page ---------------------------------------------------------------------------


def front_matter_upstream(text: str) -> str | None:
    """The ``upstream:`` key of a page's YAML front matter, if any."""
    m = re.match(r"^---\n(.*?)\n---\n", text, re.S)
    if m:
        found = re.search(r"^upstream:\s*['\"]?([^'\"\n]+?)['\"]?\s*$", m.group(1), re.M)
        if found:
            return found.group(1).strip()
    return None


def split_page(text: str) -> tuple[list[tuple[int, str]], list[Block]]:
    """Prose lines ``(number, text)`` outside fenced blocks, and the directive blocks."""
    prose: list[tuple[int, str]] = []
    blocks: list[Block] = []
    fence: tuple[str, int, str, str, int] | None = None  # (marker, length, kind, info, line)
    body: list[str] = []
    for number, line in enumerate(text.splitlines(), start=1):
        m = FENCE.match(line)
        if fence is None:
            if m:
                marker, kind, info = m.group(2), m.group(3), m.group(4)
                fence = (marker[0], len(marker), kind, info, number)
                body = []
            else:
                prose.append((number, line))
            continue
        char, length, kind, info, start = fence
        stripped = line.strip()
        if stripped and set(stripped) == {char} and len(stripped) >= length:
            if kind in ("upstream", "mini"):
                spec = next((b.strip() for b in body if b.strip()), "")
                blocks.append(Block(kind, spec, dict(OPTION.findall(info)), start))
            fence = None
        else:
            body.append(line)
    return prose, blocks


# --- checking ---------------------------------------------------------------------------------


def _upstream_path(
    path: str, reading: Reading | None = None, owner: str | None = None
) -> str | None:
    """The site-packages path a cited file name stands for, or None if it is not upstream."""
    strict = reading is not None and reading.strict
    if path.startswith(UPSTREAM_TOPS) or (strict and path.startswith(UNSHIPPED)):
        return path
    if "/" in path and not strict:  # src/miniagent/..., tests/..., some other tree
        return None
    matches = [
        p
        for p in files_by_basename().get(path.rsplit("/", 1)[-1], [])
        if f"/{p}".endswith(f"/{path}")
    ]
    if not matches and strict:  # perhaps in a twin folder outside the wheels
        matches = [p for p in _in_twin_folders(path, reading.twins) if p.startswith(UNSHIPPED)]
    if not matches and strict:
        raise CitationError(f"{path}: no such file in the pinned packages")
    return _pick(path, matches, reading.twins if reading else (), owner) if matches else None


def _in_twin_folders(path: str, twins: tuple[str, ...]) -> list[str]:
    """The paths ``path`` (``memory/__init__.py``) may end in a twin folder (``.../memory/``)."""
    inside = [t + path.rsplit("/", 1)[-1] for t in twins if t.endswith("/")]
    return [p for p in inside if f"/{p}".endswith(f"/{path}")]


def _pick(path: str, matches: list[str], twins: tuple[str, ...], owner: str | None) -> str:
    """One of the files named ``path``: narrowed to the module's twins, then to those beside a
    twin, then to those defining ``owner`` (the function's twin), then to the course's subject."""
    folders = {t if t.endswith("/") else t.rpartition("/")[0] + "/" for t in twins}
    short = owner.rsplit(".", 1)[-1] if owner else None
    kept = matches
    for keep in (
        lambda p: p in twins,
        lambda p: p.rpartition("/")[0] + "/" in folders,
        lambda p: (
            short is not None
            and any(q.rsplit(".", 1)[-1] == short for q in symbols(find_file(p).abs_path))
        ),
        lambda p: p.startswith(PREFERRED),
    ):
        if len(kept) == 1:
            break
        kept = [p for p in kept if keep(p)] or kept
    if len(kept) > 1:
        raise CitationError(f"{path} is ambiguous, write the path: {', '.join(sorted(kept))}")
    return kept[0]


def _span_before(line: str, start: int) -> str | None:
    """The backticked text that belongs to the citation at ``start``, if any."""
    best = None
    for m in CODE_SPAN.finditer(line):
        if m.end() <= start:
            best = m
    if best is None or not GAP.match(line[best.end() : start]):
        return None
    text = best.group(2).strip()
    if FILE_CITE.search(text) or LINE_CITE.search(text):  # the span is itself a citation
        return None
    return text


def check_line_citation(source: SourceFile, first: int, last: int, named: str | None) -> None:
    """Raise CitationError unless lines ``first..last`` of ``source`` fit what the page says.

    The lines must exist, the first and the last must not be blank, and ``named`` (if any) must
    be there: a symbol must start at ``first``, a code fragment must be on the lines.
    """
    n = len(source.lines)
    if not 1 <= first <= last <= n:
        raise CitationError(f"{source.path}: line {first}-{last} is outside 1-{n}")
    for line in sorted({first, last}):
        if not source.lines[line - 1].strip():
            raise CitationError(
                f"{source.path}:{line} is a blank line in {source.dist} {source.version}"
            )
    if named is None:
        return
    if NAME.match(named):
        name = named.removesuffix("()")
        try:
            symbol = find_symbol(source, name)
        except CitationError:
            symbol = None  # not a symbol of this file: check it as a code fragment below
        if symbol is not None:
            if symbol.line != first:
                raise CitationError(
                    f"`{named}` starts at {source.path}:{symbol.line} in {source.dist} "
                    f"{source.version}, not at line {first}"
                )
            return
    wanted = " ".join(named.split())
    cited = " ".join(" ".join(source.lines[first - 1 : last]).split())
    if wanted not in cited:
        where = f"{first}" if first == last else f"{first}-{last}"
        raise CitationError(
            f"`{named}` is not on {source.path}:{where} in {source.dist} {source.version} "
            f"(that is: {cited[:120]!r})"
        )


def check_block(block: Block, project_dir: Path) -> None:
    """Raise CitationError if an ``upstream``/``mini`` block would not build."""
    if block.kind == "upstream":
        excerpt = resolve(block.spec)
        lines = excerpt.source.lines[excerpt.first_line - 1 : excerpt.end_line]
        select_lines(lines, excerpt.first_line, fence_options(block.options))
    else:
        _, first, lines = mini_excerpt(block.spec, project_dir)
        select_lines(lines, first, fence_options(block.options))


def line_citations(line: str) -> list[tuple[re.Match, str]]:
    """The citations on one line of prose, left to right: ``(match, "file" or "line")``."""
    cites = [(m, "file") for m in FILE_CITE.finditer(line)]
    cites += [(m, "line") for m in LINE_CITE.finditer(line)]
    return sorted(cites, key=lambda c: c[0].start())


def check_citation(
    line: str, m: re.Match, how: str, reading: Reading, owner: str | None = None
) -> None:
    """Raise CitationError unless the citation ``m`` on ``line`` holds; move ``reading`` on.

    ``owner``: the object whose docstring summary (or assignment comment) holds ``line``.
    """
    if how == "file":
        path = _upstream_path(m.group(1), reading, owner)
        if path is None:
            return
        reading.current = reading.fixed or path
        first, last = int(m.group(2)), int(m.group(3) or m.group(2))
    else:
        if reading.current is None:
            raise CitationError(
                "no file for this line number: add `upstream: path.py` to the front "
                "matter or name the file first"
            )
        path = reading.current
        first, last = int(m.group(1)), int(m.group(2) or m.group(1))
    if path.startswith(UNSHIPPED):
        return  # nothing pinned to check it against
    source = find_file(path)
    if owner is None:
        check_line_citation(source, first, last, _span_before(line, m.start()))
    else:
        check_line_citation(source, first, last, None)
        check_twin(source, first, owner)


def check_twin(source: SourceFile, line: int, owner: str) -> None:
    """Raise CitationError if ``source`` defines ``owner`` (``Class.method``) elsewhere.

    Upstream's twin is the symbol of the same qualified name, else any of the same last name; a
    file without one names nothing (the miniature's own helper, made of upstream's statements).
    """
    table = symbols(source.abs_path)
    short = owner.rsplit(".", 1)[-1]
    twins = [table[owner]] if owner in table else []
    twins = twins or [s for q, s in table.items() if q.rsplit(".", 1)[-1] == short]
    if twins and all(s.line != line for s in twins):
        starts = " or ".join(f"{source.path}:{s.line}" for s in twins)
        raise CitationError(
            f"documents `{owner}`, whose twin starts at {starts} in {source.dist} "
            f"{source.version}, not at line {line}"
        )


def check_prose(prose: list[tuple[int, str]], name: str, reading: Reading) -> list[Problem]:
    """Every problem with the citations in these ``(number, line)`` lines, in order."""
    problems: list[Problem] = []
    for number, line in prose:
        for m, how in line_citations(line):
            try:
                check_citation(line, m, how, reading, reading.owners.get(number))
            except CitationError as exc:
                problems.append(Problem(f"{name}:{number}", f"{m.group(0)!r}: {exc}"))
    return problems


def check_text(text: str, name: str, project_dir: Path) -> list[Problem]:
    """Every problem with the citations in one Markdown page."""
    problems: list[Problem] = []
    prose, blocks = split_page(text)
    page_file = front_matter_upstream(text)  # when set, every bare l.N refers to it
    reading = Reading(fixed=page_file, current=page_file)
    block_at = {b.line: b for b in blocks}
    events = sorted(
        [(n, "prose", line) for n, line in prose] + [(n, "block", "") for n in block_at]
    )
    for number, kind, line in events:
        if kind == "prose":
            problems += check_prose([(number, line)], name, reading)
            continue
        block = block_at[number]
        try:
            check_block(block, project_dir)
        except CitationError as exc:
            problems.append(
                Problem(f"{name}:{number}", f"{block.kind} block `{block.spec}`: {exc}")
            )
        if block.kind == "upstream" and page_file is None:
            reading.current = block.spec.partition(":")[0].strip()
    return problems


def check_pages(course_dir: Path, project_dir: Path) -> list[Problem]:
    """Problems in every ``*.md`` page under ``course_dir``."""
    problems: list[Problem] = []
    for page in sorted(course_dir.rglob("*.md")):
        rel = page.relative_to(project_dir).as_posix()
        problems += check_text(page.read_text(encoding="utf-8"), rel, project_dir)
    return problems


# --- the docstrings and comments of src/miniagent ---------------------------------------------


def source_prose(text: str) -> list[tuple[int, str]]:
    """The ``#`` comments and docstrings of Python source, as ``(number, line)``.

    A docstring is any string literal that is a statement of its own: a module, class or function
    docstring, or the one under an assignment. Strings inside code are code, not prose.
    """
    tokens = list(tokenize.generate_tokens(io.StringIO(text).readline))
    prose: list[tuple[int, str]] = []
    for i, tok in enumerate(tokens):
        if tok.type == tokenize.COMMENT:
            prose.append((tok.start[0], tok.string))
        elif tok.type == tokenize.STRING and _stands_alone(tokens, i):
            parts = tok.string.split("\n")
            prose += [(tok.start[0] + k, part) for k, part in enumerate(parts)]
    return prose


_LAYOUT = (tokenize.NL, tokenize.COMMENT)
_STATEMENT_START = (tokenize.NEWLINE, tokenize.INDENT, tokenize.DEDENT, tokenize.ENCODING)


def _stands_alone(tokens: list[tokenize.TokenInfo], i: int) -> bool:
    """Is ``tokens[i]`` (a string) a whole statement: a new statement starts before and after?"""
    before, after = _neighbour(tokens, i, -1), _neighbour(tokens, i, 1)
    return (before is None or before.type in _STATEMENT_START) and (
        after is None or after.type in (tokenize.NEWLINE, tokenize.ENDMARKER)
    )


def _neighbour(tokens: list[tokenize.TokenInfo], i: int, step: int) -> tokenize.TokenInfo | None:
    """The nearest token before (``step=-1``) or after (``1``) ``tokens[i]`` that is not layout."""
    j = i + step
    while 0 <= j < len(tokens) and tokens[j].type in _LAYOUT:
        j += step
    return tokens[j] if 0 <= j < len(tokens) else None


def upstream_twins(module: str, architecture: str) -> tuple[str, ...]:
    """The upstream files and folders ``ARCHITECTURE.md``'s map gives for ``module``.

    ``module`` is ``miniagent/graph/state.py``; the rows that name it count, else those that name
    its nearest package folder (``miniagent/tools/``). A folder is written ``x/`` (``x/*`` there).
    """
    rows = [line.split("|")[1:3] for line in architecture.splitlines() if MAP_ROW.match(line)]
    named = [(_map_paths(ours), _map_paths(theirs)) for ours, theirs in rows]
    exact = [theirs for ours, theirs in named if module in ours]
    folders = [o for ours, _ in named for o in ours if o.endswith("/") and module.startswith(o)]
    if not exact and folders:
        deepest = max(folders, key=len)
        exact = [theirs for ours, theirs in named if deepest in ours]
    return tuple(dict.fromkeys(p for theirs in exact for p in theirs))


def _map_paths(cell: str) -> list[str]:
    """The paths in a map cell; ``human.py`` after ``a/b/system.py`` is ``a/b/human.py``."""
    out: list[str] = []
    folder = ""
    for span in re.findall(r"`([^`]+)`", cell):
        if not re.fullmatch(r"[\w./*-]+", span) or not (".py" in span or "/" in span):
            continue  # a name such as `InvalidToolCall`
        path = span.removesuffix("*")
        if path.startswith((*UPSTREAM_TOPS, "miniagent/")):
            folder = path.rpartition("/")[0] + "/"
        else:
            path = folder + path
        out.append(path if path.endswith((".py", "/")) else path + "/")
    return out


def owners(text: str) -> dict[int, str]:
    """``{line: qualname}`` for the lines of Python source that name a documented object.

    Those are the first paragraph of a function's or class's docstring, and, for a module- or
    class-level assignment, its first line (its comment) and the first paragraph of the string
    under it.
    """
    found: dict[int, str] = {}

    def visit(body: list[ast.stmt], prefix: str, in_function: bool) -> None:
        for i, node in enumerate(body):
            after = body[i + 1] if i + 1 < len(body) else None
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                name = prefix + node.name
                found.update(dict.fromkeys(_summary_lines(node.body[0]), name))
                visit(node.body, name + ".", not isinstance(node, ast.ClassDef))
            elif not in_function and isinstance(node, (ast.Assign, ast.AnnAssign)):
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                if len(targets) == 1 and isinstance(targets[0], ast.Name):
                    name = prefix + targets[0].id
                    found[node.lineno] = name
                    found.update(dict.fromkeys(_summary_lines(after), name))

    visit(ast.parse(text).body, "", False)
    return found


def _summary_lines(node: ast.stmt | None) -> range:
    """The lines of the first paragraph of ``node``, if it is a string statement (a docstring)."""
    if not (isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant)):
        return range(0)
    if not isinstance(node.value.value, str):
        return range(0)
    lines = node.value.value.split("\n")
    first = next((i for i, line in enumerate(lines) if line.strip()), 0)
    end = next((i for i in range(first, len(lines)) if not lines[i].strip()), len(lines))
    return range(node.lineno + first, node.lineno + end)


def check_source(text: str, name: str, twins: tuple[str, ...]) -> list[Problem]:
    """Every problem with the upstream citations in one Python file of ``src/miniagent``.

    ``twins`` are the module's upstream files and folders (:func:`upstream_twins`).
    """
    basename = name.rsplit("/", 1)[-1]
    files = [t for t in twins if t.endswith(".py") and t.startswith(UPSTREAM_TOPS)]
    first = next((t for t in files if t.endswith(f"/{basename}")), files[0] if files else None)
    reading = Reading(current=first, twins=twins, strict=True, owners=owners(text))
    return check_prose(source_prose(text), name, reading)


def check_sources(src_dir: Path, project_dir: Path) -> list[Problem]:
    """Problems in every ``*.py`` file under ``src_dir`` (``src/miniagent``)."""
    architecture = (project_dir / "ARCHITECTURE.md").read_text(encoding="utf-8")
    problems: list[Problem] = []
    for path in sorted(src_dir.rglob("*.py")):
        module = path.relative_to(src_dir.parent).as_posix()
        twins = upstream_twins(module, architecture)
        rel = path.relative_to(project_dir).as_posix()
        problems += check_source(path.read_text(encoding="utf-8"), rel, twins)
    return problems
