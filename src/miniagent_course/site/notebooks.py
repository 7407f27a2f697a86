"""Notebook pages of the site: executed side by side, with a progress line each.

mkdocs-jupyter executes the notebooks one after another while it renders pages, and says nothing
until the build ends (16 notebooks: about three minutes on two cores). Before the pages render,
``execute_missing`` fills mkdocs-jupyter's own cache with the notebooks it does not hold yet, a
few at a time in worker processes (each runs its own kernel), logging one line per notebook. The
plugin then finds every notebook in its cache and renders nothing twice. The cache entry is the
plugin's own (same key, same ``nb2html`` call, same fields), so a build without this module gives
the same pages.

``MINIAGENT_SITE_NOTEBOOKS=later`` builds the pages without executing any notebook (what
``miniagent open`` serves first); ``MINIAGENT_SITE_JOBS`` sets how many run at once.

A translated twin (``notebooks/day00_welcome.zh.ipynb``) has the same code cells as its English
notebook and different prose, so it is never executed: each English notebook is executed once,
its executed copy kept beside the cache (``executed/``), and ``render_twins`` gives each twin the
English outputs, cell by cell, then converts it without a kernel into the twin build's cache.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import re
import shutil
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor, as_completed
from pathlib import Path

LATER_ENV = "MINIAGENT_SITE_NOTEBOOKS"  # "later": pages first, notebooks unexecuted
JOBS_ENV = "MINIAGENT_SITE_JOBS"
PROGRESS = "miniagent: notebook"  # how `miniagent open` recognises a progress line

log = logging.getLogger("mkdocs.plugins.miniagent")

# mkdocs-jupyter's options that ``nb2html`` takes (plugin.py, ``on_pre_page``)
_OPTIONS = (
    "kernel_name",
    "theme",
    "allow_errors",
    "show_input",
    "no_input",
    "no_prompt",
    "remove_tag_config",
    "highlight_extra_classes",
    "include_requirejs",
    "custom_mathjax_url",
)


CACHE_DIR = Path(".cache/mkdocs-jupyter")  # the plugin's default, which mkdocs.yml keeps
COMPLETE = ".complete"  # in a cache folder: every notebook of this checkout is in it
EXECUTED = "executed"  # in a cache folder: each English notebook as executed, for its twins
_TWIN = re.compile(r"\.([a-z]{2})\.ipynb$")  # day00_welcome.zh.ipynb: a translation


def notebooks(project: Path) -> list[Path]:
    """The English notebooks (the ones executed); their translations are :func:`twin`."""
    return sorted(p for p in (project / "notebooks").glob("*.ipynb") if not _TWIN.search(p.name))


def twin(nb: Path, lang: str) -> Path:
    """``day00_welcome.ipynb`` -> ``day00_welcome.<lang>.ipynb`` (which may not exist)."""
    return nb.with_name(f"{nb.stem}.{lang}.ipynb")


def code_cells(node: dict) -> list[str]:
    """The sources of a notebook's code cells, in order (what a twin must keep unchanged)."""
    return [
        "".join(c.get("source", "")) for c in node.get("cells", []) if c.get("cell_type") == "code"
    ]


def source_hash(project: Path) -> str:
    """Hash of the code notebooks run against: ``src/miniagent``, the notebooks' bench
    (``src/miniagent_course/lab``, the sides), the day kits' ``cases.py`` and ``notebooks/*.py``;
    the rest of the tooling does not count. The site's cache of executed notebooks is kept per
    hash, so a change there runs them again."""
    h = hashlib.sha256()
    files = sorted(project.glob("src/miniagent/**/*.py"))
    files += sorted(project.glob("src/miniagent_course/lab/*.py"))
    files += sorted(project.glob("src/miniagent_course/sides.py"))
    files += sorted(project.glob("tests/runtime/sides/*.py"))  # the sides, which sides.py borrows
    files += sorted(project.glob("src/miniagent_course/kits/*/cases.py"))  # the days' cases
    files += sorted(project.glob("notebooks/*.py"))
    for path in files:
        h.update(str(path.relative_to(project)).encode())
        h.update(path.read_bytes())
    return h.hexdigest()[:16]


def _books_hash(project: Path) -> str:
    """The notebooks and the site's configuration: what else decides a cache entry."""
    h = hashlib.sha256((project / "mkdocs.yml").read_bytes())
    for nb in sorted((project / "notebooks").glob("*.ipynb")):  # the twins too
        h.update(nb.name.encode())
        h.update(nb.read_bytes())
    return h.hexdigest()[:16]


def all_executed(project: Path, cache_dir: Path) -> bool:
    """Did a finished build leave every notebook of this checkout executed in ``cache_dir`` (the
    folder ``.cache/mkdocs-jupyter``)? Cheap: reads a marker, imports nothing."""
    marker = cache_dir / source_hash(project) / COMPLETE
    return marker.is_file() and marker.read_text(encoding="utf-8") == _books_hash(project)


def mark_executed(project: Path, config) -> None:
    """After a build that executed every notebook: write the marker ``all_executed`` reads."""
    if config["execute"] and config["cache"] and not executes_later():
        marker = Path(config["cache_dir"]) / COMPLETE
        marker.parent.mkdir(parents=True, exist_ok=True)
        marker.write_text(_books_hash(project), encoding="utf-8")


def executes_later() -> bool:
    """Is this the quick build whose notebooks show without outputs?"""
    return os.environ.get(LATER_ENV, "") == "later"


def jobs(missing: int) -> int:
    """How many notebooks run at once: ``MINIAGENT_SITE_JOBS``, else one per core (at most 4)."""
    try:
        wanted = int(os.environ.get(JOBS_ENV, "0"))
    except ValueError:
        wanted = 0
    if wanted < 1:
        wanted = min(os.cpu_count() or 1, 4)
    return max(1, min(wanted, missing))


def _cache_path(nb: Path, config) -> Path:
    from mkdocs_jupyter.plugin import _compute_cache_key, _get_cache_path

    return _get_cache_path(config["cache_dir"], _compute_cache_key(str(nb), config, True))


def _executed_path(nb: Path, config) -> Path:
    """Where the executed copy of an English notebook is kept: beside the plugin's entries, keyed
    by the notebook's bytes (the folder is already keyed by the code it ran against)."""
    digest = hashlib.sha256(nb.read_bytes()).hexdigest()[:16]
    return Path(config["cache_dir"]) / EXECUTED / f"{nb.stem}-{digest}.ipynb"


def _execute(nb: str, options: dict, executed: str) -> None:
    """Run ``nb`` as mkdocs-jupyter's ``nb2html(execute=True)`` does (nbconvert's
    ExecutePreprocessor, in the notebook's folder) and write the executed notebook."""
    import nbformat
    from nbconvert.preprocessors import ExecutePreprocessor

    node = nbformat.read(nb, as_version=4)
    runner = ExecutePreprocessor(
        kernel_name=options["kernel_name"],
        allow_errors=options["allow_errors"],
        store_widget_state=True,
    )
    runner.preprocess(node, {"metadata": {"path": str(Path(nb).parent)}})
    Path(executed).parent.mkdir(parents=True, exist_ok=True)
    with tempfile.NamedTemporaryFile(
        "w", dir=Path(executed).parent, suffix=".tmp", delete=False, encoding="utf-8"
    ) as out:
        nbformat.write(node, out)
    os.replace(out.name, executed)


def _render(nb: str, options: dict, toc_depth: int, executed: str) -> dict:
    """One notebook executed and converted, as the plugin would cache it (runs in a worker); the
    executed notebook is kept at ``executed`` for the notebook's translations."""
    from mkdocs_jupyter import convert
    from mkdocs_jupyter.plugin import _get_nb_toc_tokens

    _execute(nb, options, executed)
    body = convert.nb2html(executed, execute=False, **options)
    toc_tokens, title = _get_nb_toc_tokens(nb, toc_depth)
    return {"content": body, "toc_tokens": toc_tokens, "title": title}


def execute_missing(notebooks: list[Path], config) -> None:
    """Execute, side by side, the notebooks mkdocs-jupyter's cache does not hold yet.

    ``config`` is the plugin's config. A notebook that fails is left out of the cache: the plugin
    then executes it again in its usual way and the build stops with its usual message.
    """
    if not config["execute"] or not config["cache"] or executes_later():
        return
    missing = [
        nb
        for nb in notebooks
        if not _cache_path(nb, config).exists() or not _executed_path(nb, config).exists()
    ]
    if not missing:
        return
    options = {key: config[key] for key in _OPTIONS}
    total, started = len(missing), time.monotonic()
    log.info("%ss: executing %d, %d at a time", PROGRESS, total, jobs(total))
    with ProcessPoolExecutor(max_workers=jobs(total)) as pool:
        futures = {
            pool.submit(
                _render, str(nb), options, config["toc_depth"], str(_executed_path(nb, config))
            ): nb
            for nb in missing
        }
        for done, future in enumerate(as_completed(futures), 1):
            nb = futures[future]
            try:
                entry = future.result()
            except Exception as exc:  # the plugin re-runs it and reports it its own way
                log.info("%s %s failed (%s): the build reports it", PROGRESS, nb.name, type(exc))
                continue
            path = _cache_path(nb, config)
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(json.dumps(entry), encoding="utf-8")
            seconds = time.monotonic() - started
            log.info("%s %d of %d executed: %s (%.0f s)", PROGRESS, done, total, nb.name, seconds)


def twin_problem(english: Path, translated: Path) -> str | None:
    """Why ``translated`` cannot take ``english``'s outputs (its code cells differ), else None."""
    ours = code_cells(json.loads(english.read_text(encoding="utf-8")))
    theirs = code_cells(json.loads(translated.read_text(encoding="utf-8")))
    if len(ours) != len(theirs):
        return f"{len(theirs)} code cells, {english.name} has {len(ours)}"
    for n, (a, b) in enumerate(zip(ours, theirs, strict=True), 1):
        if a != b:
            return f"code cell {n} differs from {english.name}'s"
    return None


def render_twins(pairs: list[tuple[Path, Path]], config, source_cache: Path) -> None:
    """Fill the twin build's cache (``config``: its mkdocs-jupyter config) with each translated
    notebook, rendered with the outputs of its English notebook's executed copy in
    ``source_cache`` (the English build's cache folder): no kernel runs. A notebook not
    translated (a pair of the same path) takes the English entry as it is. A twin without an
    executed English copy is left to the plugin, which then executes it itself."""
    if not config["execute"] or not config["cache"] or executes_later():
        return
    import nbformat
    from mkdocs_jupyter import convert
    from mkdocs_jupyter.plugin import _get_nb_toc_tokens

    options = {key: config[key] for key in _OPTIONS}
    for english, translated in pairs:
        target = _cache_path(translated, config)
        if target.exists():
            continue
        if english == translated and (source_cache / target.name).exists():
            target.parent.mkdir(parents=True, exist_ok=True)  # not translated: the same entry
            shutil.copyfile(source_cache / target.name, target)
            continue
        executed = _executed_path(english, {"cache_dir": source_cache})
        if not executed.exists():
            log.info("%s %s: no executed copy of %s", PROGRESS, translated.name, english.name)
            continue
        started = time.monotonic()
        ran = nbformat.read(str(executed), as_version=4)
        node = nbformat.read(str(translated), as_version=4)
        outputs = [c for c in ran.cells if c.cell_type == "code"]
        for cell, done in zip(
            [c for c in node.cells if c.cell_type == "code"], outputs, strict=True
        ):
            cell.outputs, cell.execution_count = done.outputs, done.execution_count
        target.parent.mkdir(parents=True, exist_ok=True)
        merged = target.with_suffix(".ipynb")
        nbformat.write(node, str(merged))
        try:
            body = convert.nb2html(str(merged), execute=False, **options)
        finally:
            merged.unlink()
        toc_tokens, title = _get_nb_toc_tokens(str(translated), config["toc_depth"])
        entry = {"content": body, "toc_tokens": toc_tokens, "title": title}
        target.write_text(json.dumps(entry), encoding="utf-8")
        seconds = time.monotonic() - started
        log.info("%s %s: outputs of %s (%.1f s)", PROGRESS, translated.name, english.name, seconds)
