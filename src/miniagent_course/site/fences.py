"""The course's build-time directives: fenced blocks that pull code and diagrams from real code.

Registered as ``pymdownx.superfences`` custom fences in ``mkdocs.yml``:

* ````upstream```` -- ``langgraph/prebuilt/chat_agent_executor.py:_get_prompt_runnable`` (or a
  ``Class.method``, a nested ``outer.inner``, or a line range ``path:568-590``): the text of the
  installed pinned package, with its real line numbers and the caption
  ``langgraph-prebuilt 1.1.3 · langgraph/prebuilt/chat_agent_executor.py:137``.
* ````mini```` -- ``src/miniagent/prebuilt/chat_agent_executor.py:get_state_value``: a snippet
  section of our own code (between ``# --8<-- [start:name]`` and ``[end:name]``), with its real
  line numbers.
* ````graph-of```` -- ``miniagent_course.site.diagrams:react_agent``: calls the function, takes
  ``get_graph().draw_mermaid()`` of the graph it returns and renders the diagram.
* ````exercise```` -- ``day00``: the exercise box (file, functions, commands, folded hints), read
  from the day's ``kit.toml``, the one place hints are written.
* ````mermaid```` -- a hand-written diagram (the bundled renderer, or text if it is missing).
* ````drawing```` -- a text drawing (boxes, arrows, columns): shown as written, line for line; a
  drawing wider than the page scrolls instead of wrapping (a ````text```` block wraps). A ``text``
  block with box-drawing characters (``─ │ ┌ ├``) is treated as a drawing too (site/hooks.py).

Options on the fence line (``upstream`` and ``mini``): ``lines="661-700"`` (show part of the
symbol), ``hl="665 670-672"`` (highlight, in real line numbers), ``annotate="665 690"`` (numbered
code annotations, explained by the list right after the block), ``expect="if not is_dynamic"``
(the first shown line must start with this text: pins a bare line range to its content).

A block that cannot be built logs a warning (so ``mkdocs build --strict`` fails) and shows the
reason in the page. A missing ``upstream`` extra is not an error: the page says how to install it.
"""

from __future__ import annotations

import html
import importlib
import logging
import re
import textwrap
from dataclasses import dataclass
from pathlib import Path

from miniagent_course.site.upstream import (
    CitationError,
    UpstreamMissing,
    parse_range,
    resolve,
)
from miniagent_course.text import site_say

log = logging.getLogger("mkdocs.plugins.miniagent")

# Top-level packages of the `upstream` extra: a ModuleNotFoundError for one of them means
# "extra not installed", not "broken lesson".
UPSTREAM_TOP = {"langgraph", "langchain", "langchain_core"}
OPTIONS = ("lines", "hl", "annotate", "expect")
_SECTION = re.compile(
    r"-{1,}8<-{1,}[ \t]+\[[ \t]*(start|end)[ \t]*:[ \t]*([a-z][-_0-9a-z]*)[ \t]*\]", re.I
)


@dataclass
class BuildState:
    """Set by the MkDocs hook (``site/hooks.py``) before pages are rendered."""

    project_dir: Path = Path(__file__).resolve().parents[3]
    mermaid_available: bool = True
    page: str = "?"  # the page being rendered, for messages
    lang: str | None = None  # its language: "zh" for page.zh.md, else the default (English)


STATE = BuildState()


# --- helpers ----------------------------------------------------------------------------------


def _t(section: str, key: str, **fields: object) -> str:
    """A learner-facing string in the language of the page being built."""
    return site_say(f"{section}.{key}", lang=STATE.lang, **fields)


def _inline_md(text: str) -> str:
    """Escape ``text``, turn `backticks` into <code> and **stars** (outside code) into <strong>."""
    pieces = re.split(r"(`[^`]+`)", html.escape(text, quote=False))
    return "".join(
        f"<code>{piece[1:-1]}</code>"
        if i % 2
        else re.sub(r"\*\*([^*]+)\*\*", r"<strong>\1</strong>", piece)
        for i, piece in enumerate(pieces)
    )


def _admonition(kind: str, title: str, body: str) -> str:
    return (
        f'<div class="admonition {kind}"><p class="admonition-title">{html.escape(title)}</p>'
        f"<p>{_inline_md(body)}</p></div>"
    )


def _problem(what: str, reason: str) -> str:
    """Log a warning (fails a strict build) and show the reason where the block would be."""
    log.warning("%s: %s block: %s", STATE.page, what, reason)
    return _admonition("failure", _t("fences", "error_title"), f"{what}: {reason}")


def fence_options(inputs: dict) -> dict:
    """Keep the known options of a fence line; list unknown ones under ``"unknown"``."""
    options: dict = {}
    for key, value in inputs.items():
        if key in OPTIONS:
            options[key] = value
        else:
            options.setdefault("unknown", []).append(key)
    return options


def source_validator(language, inputs, options, attrs, md) -> bool:
    """Superfences validator of ``upstream``/``mini`` fences: unknown options are reported later."""
    options.update(fence_options(inputs))
    return True


def _numbers(text: str) -> list[int]:
    """``"665 670-672"`` -> ``[665, 670, 671, 672]``."""
    out: list[int] = []
    for part in text.replace(",", " ").split():
        first, last = parse_range(part)
        out.extend(range(first, last + 1))
    return out


def select_lines(lines: list[str], first: int, options: dict) -> tuple[list[str], int, list[int]]:
    """Apply ``lines``/``expect``/``annotate``/``hl`` to real lines ``first..``.

    Returns the lines to show (annotation markers added), the real number of the first one, and
    the lines to highlight counted from 1 (what Pygments wants). Raises :class:`CitationError`.
    """
    if options.get("unknown"):
        raise CitationError(f"unknown option(s) {options['unknown']}; known: {', '.join(OPTIONS)}")
    last = first + len(lines) - 1
    if "lines" in options:
        a, b = parse_range(options["lines"])
        if not first <= a <= b <= last:
            raise CitationError(f'lines="{a}-{b}" is outside the block {first}-{last}')
        lines, first, last = lines[a - first : b - first + 1], a, b
    if "expect" in options and not lines[0].strip().startswith(options["expect"].strip()):
        raise CitationError(
            f"line {first} is {lines[0].strip()!r}, expected it to start with {options['expect']!r}"
        )
    lines = [line.rstrip("\n") for line in lines]
    for i, n in enumerate(_numbers(options.get("annotate", "")), start=1):
        if not first <= n <= last:
            raise CitationError(f"annotate line {n} is outside the block {first}-{last}")
        lines[n - first] += f"  # ({i})!"
    hl = []
    for n in _numbers(options.get("hl", "")):
        if not first <= n <= last:
            raise CitationError(f"hl line {n} is outside the block {first}-{last}")
        hl.append(n - first + 1)
    return lines, first, hl


def _render_code(md, lines: list[str], first: int, caption: str, options: dict, css: str) -> str:
    """Highlight real file lines ``first..`` with line numbers that match the file."""
    lines, first, hl = select_lines(lines, first, options)
    hl_options = {"linenums": str(first), "title": caption}
    if hl:
        hl_options["hl_lines"] = " ".join(map(str, hl))
    fences = md.preprocessors["fenced_code_block"]
    # superfences clamps hl_lines to the line count of the fence's own body (our one-line spec)
    saved, fences.line_count = getattr(fences, "line_count", 0), len(lines)
    try:
        return fences.highlight(
            src=textwrap.dedent("\n".join(lines)),
            language="python",
            options=hl_options,
            md=md,
            classes=["ma-source", css],
            id_value="",
            attrs={},
        )
    finally:
        fences.line_count = saved


# --- upstream -----------------------------------------------------------------------------------


def upstream_format(source, language, class_name, options, md, **kwargs) -> str:
    """```upstream  langgraph/prebuilt/chat_agent_executor.py:_get_prompt_runnable ```"""
    spec = source.strip()
    try:
        excerpt = resolve(spec)
        lines = excerpt.source.lines[excerpt.first_line - 1 : excerpt.end_line]
        first, last = excerpt.first_line, excerpt.end_line
        if "lines" in options:
            first, last = parse_range(options["lines"])
        caption = excerpt.caption_for(first, last)
        return _render_code(md, lines, excerpt.first_line, caption, options, "ma-upstream")
    except UpstreamMissing as exc:
        log.info("%s: upstream block shown as an install hint: %s", STATE.page, exc)
        return _admonition(
            "warning",
            _t("fences", "upstream_missing_title"),
            _t("fences", "upstream_missing_body", spec=spec),
        )
    except CitationError as exc:
        return _problem(f"upstream `{spec}`", str(exc))


# --- mini ---------------------------------------------------------------------------------------


def find_section(path: Path, name: str) -> tuple[int, list[str]]:
    """First line number and the lines of snippet section ``name`` in ``path``."""
    lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
    start = end = None
    for number, line in enumerate(lines, start=1):
        m = _SECTION.search(line)
        if not m:
            continue
        if m.group(2) == name and m.group(1).lower() == "start" and start is None:
            start = number
        elif m.group(2) == name and m.group(1).lower() == "end" and start is not None:
            end = number
            break
        elif start is not None:
            raise CitationError(f"section '{name}' contains another marker at line {number}")
    if start is None or end is None:
        raise CitationError(
            f"no section '{name}' (# --8<-- [start:{name}] ... [end:{name}]) in {path.name}"
        )
    return start + 1, lines[start : end - 1]


def mini_excerpt(spec: str, project_dir: Path) -> tuple[str, int, list[str]]:
    """``"src/miniagent/x.py:section"`` -> (path, first real line, lines) of the section."""
    rel, sep, name = spec.strip().partition(":")
    if not sep or not name.strip():
        raise CitationError("expected 'src/miniagent/module.py:section'")
    path = project_dir / rel
    if not path.is_file():
        raise CitationError(f"no file {rel}")
    first, lines = find_section(path, name.strip())
    while lines and not lines[0].strip():  # blank lines at the edges of a section
        lines, first = lines[1:], first + 1
    while lines and not lines[-1].strip():
        lines = lines[:-1]
    if not lines:
        raise CitationError(f"section '{name}' is empty")
    return rel, first, lines


def mini_format(source, language, class_name, options, md, **kwargs) -> str:
    """```mini  src/miniagent/prebuilt/chat_agent_executor.py:get_state_value ```"""
    spec = source.strip()
    try:
        rel, first, lines = mini_excerpt(spec, STATE.project_dir)
        caption = _t("fences", "caption_mini", path=rel, line=first)
        return _render_code(md, lines, first, caption, options, "ma-mini")
    except CitationError as exc:
        return _problem(f"mini `{spec}`", str(exc))


# --- diagrams -----------------------------------------------------------------------------------


def mermaid_html(text: str) -> str:
    """A mermaid block (rendered in the browser by the bundled mermaid.min.js), or plain text."""
    code = html.escape(text.strip("\n"), quote=False)
    if STATE.mermaid_available:
        return f'<pre class="mermaid"><code>{code}</code></pre>'
    note = _admonition(
        "info", _t("fences", "diagram_text_title"), _t("fences", "diagram_text_only")
    )
    return f'{note}<pre class="ma-diagram-text"><code>{code}</code></pre>'


def mermaid_format(source, language, class_name, options, md, **kwargs) -> str:
    """A hand-written ```mermaid fence (course map, concept sketches)."""
    return mermaid_html(source)


def mermaid_of(target: str) -> str:
    """Import ``module:function``, call it, and return the mermaid text of the graph it returns."""
    module_name, sep, attr = target.partition(":")
    if not sep:
        raise CitationError("expected 'package.module:function'")
    obj = getattr(importlib.import_module(module_name), attr)()
    if hasattr(obj, "get_graph"):  # a compiled graph
        obj = obj.get_graph()
    if hasattr(obj, "draw_mermaid"):  # a drawable graph
        obj = obj.draw_mermaid()
    if not isinstance(obj, str):
        raise CitationError(f"{target}() returned {type(obj).__name__}, not a graph")
    return obj


def theme_neutral(text: str) -> str:
    """Drop the fill colours of ``draw_mermaid``'s ``classDef`` lines (light pastels that make
    dark-mode text unreadable), so nodes take the site's light/dark theme. Nothing else changes."""
    out = []
    for line in text.splitlines():
        m = re.match(r"^(\s*classDef\s+\S+\s+)(.*)$", line)
        if m:
            kept = [d for d in m.group(2).split(",") if not d.strip().startswith("fill:")]
            if not kept:
                continue
            line = m.group(1) + ",".join(kept)
        out.append(line)
    return "\n".join(out)


def graph_format(source, language, class_name, options, md, **kwargs) -> str:
    """```graph-of  miniagent_course.site.diagrams:react_agent ```"""
    target = source.strip()
    try:
        text = mermaid_of(target)
    except ModuleNotFoundError as exc:
        if (exc.name or "").split(".")[0] in UPSTREAM_TOP:
            log.info("%s: diagram %s needs the upstream extra: %s", STATE.page, target, exc)
            return _admonition(
                "warning",
                _t("fences", "upstream_missing_title"),
                _t("fences", "upstream_missing_body", spec=target),
            )
        return _problem(f"graph-of `{target}`", f"{type(exc).__name__}: {exc}")
    except Exception as exc:  # the lesson's code is broken: say how, fail the strict build
        return _problem(f"graph-of `{target}`", f"{type(exc).__name__}: {exc}")
    text = theme_neutral(text)
    caption = f'<p class="ma-diagram-caption">{_inline_md(_t("fences", "diagram_caption", target=target))}</p>'
    return f'<div class="ma-diagram">{mermaid_html(text)}{caption}</div>'


# --- drawings -----------------------------------------------------------------------------------


def drawing_format(source, language, class_name, options, md, **kwargs) -> str:
    """```drawing: a text block that keeps its lines (class ``ma-drawing``: no wrapping, it scrolls)."""
    fences = md.preprocessors["fenced_code_block"]
    return fences.highlight(
        src=source,
        language="text",
        options={},
        md=md,
        classes=["ma-drawing"],
        id_value="",
        attrs={},
    )


# --- exercise box -------------------------------------------------------------------------------


def exercise_format(source, language, class_name, options, md, **kwargs) -> str:
    """```exercise  day00 ```: the exercise box, from the day's kit.toml (the one source of hints)."""
    exercise_id = source.strip()
    try:
        from miniagent_course.grading.course import load_course

        ex = load_course(STATE.project_dir, lang=STATE.lang).exercise(exercise_id)
    except Exception as exc:  # no course, unknown id...
        return _problem(f"exercise `{exercise_id}`", f"{type(exc).__name__}: {exc}")
    part2 = ex.judgment  # the second part, which needs judgment (kit.toml)
    first = [f.name for f in ex.functions if part2 is None or f.name != part2.function]
    names = ", ".join(f"`{name}`" for name in first or [f.name for f in ex.functions])
    rows = [
        (_t("exercise", "file"), f"`{ex.file}`"),
        (_t("exercise", "write"), names),
        *(
            [(_t("exercise", "part2"), _t("exercise", f"kind_{part2.kind}", title=part2.title))]
            if part2
            else []
        ),
        (_t("exercise", "check"), f"`miniagent check {ex.id}`" + _t("exercise", "or_pytest")),
        (_t("exercise", "stuck"), f"`miniagent hint {ex.id}`" + _t("exercise", "hint_note")),
    ]
    body = "".join(f"<tr><th>{html.escape(k)}</th><td>{_inline_md(v)}</td></tr>" for k, v in rows)
    hints = "".join(
        f'<details class="tip"><summary>{html.escape(_t("exercise", "hint", n=i))}</summary>'
        f"<p>{_inline_md(h)}</p></details>"
        for i, h in enumerate(ex.hints, start=1)
    )
    title = _t("exercise", "title", id=ex.id, title=ex.title)
    return (
        f'<div class="admonition exercise"><p class="admonition-title">{_inline_md(title)}</p>'
        f'<table class="ma-exercise"><tbody>{body}</tbody></table>'
        f"<p>{_inline_md(site_say('exercise.intro_hints', lang=STATE.lang))}</p>{hints}</div>"
    )
