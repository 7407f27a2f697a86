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
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
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


def notebooks(project: Path) -> list[Path]:
    return sorted((project / "notebooks").glob("*.ipynb"))


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
    for nb in notebooks(project):
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


def _render(nb: str, options: dict, toc_depth: int) -> dict:
    """One notebook executed and converted, as the plugin would cache it (runs in a worker)."""
    from mkdocs_jupyter import convert
    from mkdocs_jupyter.plugin import _get_nb_toc_tokens

    body = convert.nb2html(nb, execute=True, **options)
    toc_tokens, title = _get_nb_toc_tokens(nb, toc_depth)
    return {"content": body, "toc_tokens": toc_tokens, "title": title}


def execute_missing(notebooks: list[Path], config) -> None:
    """Execute, side by side, the notebooks mkdocs-jupyter's cache does not hold yet.

    ``config`` is the plugin's config. A notebook that fails is left out of the cache: the plugin
    then executes it again in its usual way and the build stops with its usual message.
    """
    if not config["execute"] or not config["cache"] or executes_later():
        return
    missing = [nb for nb in notebooks if not _cache_path(nb, config).exists()]
    if not missing:
        return
    options = {key: config[key] for key in _OPTIONS}
    total, started = len(missing), time.monotonic()
    log.info("%ss: executing %d, %d at a time", PROGRESS, total, jobs(total))
    with ProcessPoolExecutor(max_workers=jobs(total)) as pool:
        futures = {
            pool.submit(_render, str(nb), options, config["toc_depth"]): nb for nb in missing
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
