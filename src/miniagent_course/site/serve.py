"""``miniagent open``: build the course site and serve it on 127.0.0.1.

``open_course(argv)`` is what the CLI calls. It

1. finds the repository (the folder with ``mkdocs.yml``),
2. installs the two browser assets once with ``npm ci`` if Node.js is there and they are missing
   (Mermaid for diagrams, the iframe-worker shim for search from ``file://``),
3. runs ``mkdocs build --strict`` of the English edition into ``site/`` (printing a line per
   notebook executed, and a "still building" line after 8 s of silence) and, if it fails, prints
   the reason,
4. serves ``site/`` on ``http://127.0.0.1:8000`` (``--port``), opens a browser and prints the
   ``file://`` address too, then builds each translated edition (``mkdocs.zh.yml``) behind it into
   ``.cache/site-next-zh``, which becomes ``site/zh/`` when it is complete: the English site is
   browsable while the Chinese one builds, and each says when it is in. With ``CI=true`` or
   ``--no-serve`` it stops after one build of every edition (the hooks build ``zh/`` at its end).
   ``MINIAGENT_SITE_EDITIONS=en`` builds the English edition only.

The first time (no executed notebooks in the cache yet) step 3 builds the pages without running
the notebooks, step 4 serves them at once and builds the translated pages, and a second build runs
the notebooks (side by side, a line each) into ``.cache/site-next``, which then replaces ``site/``
under the running server (the translated pages move along); each translated edition then gets
the outputs the same way.

Returns the process exit code (0 = built, and served until Ctrl+C).
"""

from __future__ import annotations

import argparse
import errno
import json
import os
import re
import shutil
import socket
import subprocess
import sys
import threading
import time
import webbrowser
from collections.abc import Sequence
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

from miniagent_course.site import notebooks as site_notebooks
from miniagent_course.text import site_say

HOST = "127.0.0.1"
MERMAID_JS = Path("node_modules/mermaid/dist/mermaid.min.js")
_ANSI = re.compile(r"\x1b\[[0-9;]*m")


def find_project(start: Path | None = None) -> Path | None:
    """The repository root: the nearest folder (from ``start``, else cwd, then this package's
    checkout) that has a ``mkdocs.yml``."""
    candidates = [start or Path.cwd(), Path(__file__).resolve().parents[3]]
    for base in candidates:
        for folder in [base.resolve(), *base.resolve().parents]:
            if (folder / "mkdocs.yml").is_file():
                return folder
    return None


def ensure_assets(project: Path) -> None:
    """Run ``npm ci`` once when the bundled browser assets are missing and npm exists."""
    if (project / MERMAID_JS).is_file():
        return
    npm = shutil.which("npm")
    if npm is None or not (project / "package-lock.json").is_file():
        print(site_say("open.no_node"))
        return
    print(site_say("open.assets_installing"), flush=True)
    run = subprocess.run(
        [npm, "ci", "--omit=dev", "--no-audit", "--no-fund"],
        cwd=project,
        capture_output=True,
        text=True,
    )
    if run.returncode != 0:
        print(site_say("open.assets_failed"))
        print("\n".join((run.stdout + run.stderr).splitlines()[-15:]))


HEARTBEAT = 8.0  # seconds of silence before a "still building" line


def build_command(site_dir: Path, lang: str | None = None) -> list[str]:
    """``mkdocs build --strict`` into ``site_dir``: of ``mkdocs.yml``, or of the translated
    edition ``mkdocs.<lang>.yml`` (the site directory stays the last argument)."""
    config = ["--config-file", f"mkdocs.{lang}.yml"] if lang else []
    return [
        sys.executable, "-m", "mkdocs", "build", "--strict", *config, "--site-dir", str(site_dir)
    ]  # fmt: skip


EDITIONS_ENV = "MINIAGENT_SITE_EDITIONS"  # hooks.EDITIONS_ENV ("en": the English edition only)
TRANSLATED = ("zh",)  # hooks.EDITIONS: the translated editions, built into site/<lang>/


def editions(project: Path) -> list[str]:
    """The translated editions ``miniagent open`` builds after the English one: those with a
    ``mkdocs.<lang>.yml`` that ``MINIAGENT_SITE_EDITIONS`` (when set) names."""
    wanted = os.environ.get(EDITIONS_ENV, ",".join(TRANSLATED)).split(",")
    return [
        lang for lang in TRANSLATED if lang in wanted and (project / f"mkdocs.{lang}.yml").is_file()
    ]


def _english_only(**extra: str) -> dict[str, str]:
    """The environment of a build of the English edition alone (the others follow it)."""
    return _build_env(**{EDITIONS_ENV: "en", **extra})


def _run_build(command: list[str], project: Path, env: dict[str, str]) -> tuple[int, str]:
    """Run a build command in a child process; relay each notebook's progress line as it comes
    and, after ``HEARTBEAT`` s without one, a "still building" line. Returns (code, log)."""
    started = time.monotonic()
    run = subprocess.Popen(
        command,
        cwd=project,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        env=env,
    )
    lines: list[str] = []
    last = [time.monotonic()]
    done = threading.Event()

    def heartbeat() -> None:
        while not done.wait(min(1.0, HEARTBEAT / 4)):
            if time.monotonic() - last[0] >= HEARTBEAT:
                seconds = time.monotonic() - started
                print(site_say("open.still_building", seconds=seconds), flush=True)
                last[0] = time.monotonic()

    ticker = threading.Thread(target=heartbeat, daemon=True)
    ticker.start()
    assert run.stdout is not None
    for line in run.stdout:
        lines.append(line)
        if site_notebooks.PROGRESS in line:
            text = _ANSI.sub("", line).split(site_notebooks.PROGRESS, 1)[1]
            print(site_say("open.progress", line="notebook" + text.rstrip()), flush=True)
            last[0] = time.monotonic()
    code = run.wait()
    done.set()
    return code, "".join(lines)


def _build_env(**extra: str) -> dict[str, str]:
    return dict(os.environ, NO_MKDOCS_2_WARNING="1", **extra)  # material's end-of-life banner


def build(project: Path, site_dir: Path, env: dict[str, str] | None = None) -> bool:
    """``mkdocs build --strict`` with progress lines; print why when it fails."""
    started = time.monotonic()
    code, log = _run_build(build_command(site_dir), project, env or _build_env())
    if code == 0:
        print(site_say("open.built", seconds=time.monotonic() - started, site_dir=site_dir))
        return True
    print(site_say("open.build_failed"), file=sys.stderr)
    print(build_failure_summary(log), file=sys.stderr)
    print(site_say("open.build_failed_hint"), file=sys.stderr)
    return False


def build_failure_summary(log: str, limit: int = 30) -> str:
    """The lines of a failed build log that say why: warnings, errors, the end of a traceback."""
    lines = [_ANSI.sub("", line) for line in log.splitlines()]
    reasons = [line for line in lines if line.startswith(("WARNING", "ERROR", "Aborted"))]
    cell = [i for i, line in enumerate(lines) if "CellExecutionError:" in line]
    if cell:  # a notebook raised: name it, show the cell and the error, not nbclient's stack
        notebooks = [ln for ln in lines[: cell[-1]] if "Converting notebook" in ln]
        where = [notebooks[-1].split("): ", 1)[-1]] if notebooks else []
        return "\n".join(reasons + where + lines[cell[-1] :][:limit])
    starts = [i for i, line in enumerate(lines) if line.startswith("Traceback (most recent")]
    if starts:  # a crash (e.g. a notebook cell that raised): its last lines name the error
        tail = [
            line for line in lines[starts[-1] :] if line.strip() and not line.startswith("INFO")
        ]
        reasons += tail[-limit:]
    elif not reasons:
        reasons = [line for line in lines if line.strip()][-limit:]
    return "\n".join(reasons[-limit:])


class _QuietHandler(SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: object) -> None:  # noqa: A002 (stdlib's name)
        pass


class _Folder:
    """The folder a server serves; ``miniagent open`` points it at the finished site later."""

    def __init__(self, path: Path) -> None:
        self.path = path


def make_server(site_dir: Path | _Folder, port: int, tries: int = 20) -> ThreadingHTTPServer:
    """A server for ``site_dir`` on 127.0.0.1, on ``port`` or the next free one."""
    folder = site_dir if isinstance(site_dir, _Folder) else _Folder(site_dir)

    def handler(*args, **kwargs):  # each request reads the folder served now
        return _QuietHandler(*args, directory=str(folder.path), **kwargs)

    for candidate in range(port, port + tries):
        try:
            server = ThreadingHTTPServer((HOST, candidate), handler)
        except OSError as exc:
            if exc.errno != errno.EADDRINUSE:
                raise
            continue
        if candidate != port:
            print(site_say("open.port_busy", port=port, new_port=candidate))
        return server
    raise OSError(site_say("open.no_port", first=port, last=port + tries - 1))


ADDRESS_FILE = Path(".miniagent") / "site.json"  # where `miniagent open` serves the site now


def remember_address(project: Path, address: str) -> None:
    """Note the address the site is served at, so lesson links follow a server on another port."""
    path = project / ADDRESS_FILE
    path.parent.mkdir(exist_ok=True)
    path.write_text(json.dumps({"address": address}) + "\n", encoding="utf-8")


def served_address(project: Path, default: str) -> str:
    """The address `miniagent open` serves the site at, if that server is up; else ``default``."""
    try:
        address = json.loads((project / ADDRESS_FILE).read_text(encoding="utf-8"))["address"]
        port = int(address.rsplit(":", 1)[1])
        with socket.create_connection((HOST, port), timeout=0.2):
            return address
    except (OSError, ValueError, KeyError, IndexError, TypeError):
        return default


def _parser() -> argparse.ArgumentParser:
    from miniagent_course.text.helpformat import HelpParser  # wrapped by columns, as `miniagent`'s

    parser = HelpParser(prog="miniagent open", description=site_say("open.usage"))
    parser.add_argument("--port", type=int, default=8000)
    parser.add_argument("--no-serve", action="store_true", help=site_say("open.help_no_serve"))
    parser.add_argument("--no-browser", action="store_true", help=site_say("open.help_no_browser"))
    return parser


def _parse(argv: list[str] | None) -> argparse.Namespace:
    return _parser().parse_args(argv)


def open_course(argv: list[str] | None = None) -> int:
    """Build the site and serve it (see the module docstring). Returns an exit code."""
    args = _parse(argv)
    project = find_project()
    if project is None:
        print(site_say("open.no_config"), file=sys.stderr)
        return 2
    try:
        import mkdocs  # noqa: F401
    except ImportError:
        print(site_say("open.no_mkdocs"), file=sys.stderr)
        return 2
    ensure_assets(project)
    site_dir = project / "site"
    serve = not (args.no_serve or os.environ.get("CI", "").lower() in ("1", "true", "yes"))
    ready = site_notebooks.all_executed(project, project / site_notebooks.CACHE_DIR)
    if not ready:
        total = len(site_notebooks.notebooks(project))
        print(site_say("open.notebooks_missing", total=total), flush=True)
    if not serve:  # one build of every edition, notebooks included: nothing to browse meanwhile
        print(site_say("open.building"), flush=True)
        if not build(project, site_dir):
            return 1
        print(site_say("open.file_url", file_url=(site_dir / "index.html").as_uri()))
        print(site_say("open.ci_no_serve"))
        return 0
    translated = editions(project)
    folder = _Folder(site_dir)
    if ready:  # the English edition, served at once; the translated ones build behind it
        print(site_say("open.building_english" if translated else "open.building"), flush=True)
        if not _build_english(project, site_dir, translated):
            return 1
        print(site_say("open.file_url", file_url=(site_dir / "index.html").as_uri()))
        follow = threading.Thread(
            target=build_editions, args=(project, folder, translated), daemon=True
        )
        return _serve(project, folder, args, then=follow if translated else None)
    # the English pages first, served at once; the translated pages and the notebooks run behind
    print(site_say("open.building_pages"), flush=True)
    if not _build_english(project, site_dir, translated, **{site_notebooks.LATER_ENV: "later"}):
        return 1
    finisher = threading.Thread(target=_finish, args=(project, folder, translated), daemon=True)
    return _serve(project, folder, args, then=finisher)


def _build_english(project: Path, site_dir: Path, translated: list[str], **extra: str) -> bool:
    """Build the English edition alone into ``site_dir``. mkdocs empties the folder first: the
    translated editions an earlier ``miniagent open`` left in it are set aside and put back, so
    they stay served until their new build replaces them."""
    kept = []
    for lang in translated:
        if (site_dir / lang).is_dir():
            aside = project / ".cache" / f"site-kept-{lang}"
            shutil.rmtree(aside, ignore_errors=True)
            aside.parent.mkdir(parents=True, exist_ok=True)
            shutil.move(str(site_dir / lang), str(aside))
            kept.append((site_dir / lang, aside))
    built = build(project, site_dir, _english_only(**extra))
    for place, aside in kept:
        if site_dir.is_dir() and not place.exists():
            shutil.move(str(aside), str(place))
        shutil.rmtree(aside, ignore_errors=True)
    return built


def _replace(target: Path, fresh: Path) -> None:
    """Put the finished build ``fresh`` in the place of ``target`` (two renames: the server finds
    one or the other, never a half-written folder)."""
    old = fresh.with_name(fresh.name + "-old")
    shutil.rmtree(old, ignore_errors=True)
    if target.exists():
        target.rename(old)
    shutil.move(str(fresh), str(target))
    shutil.rmtree(old, ignore_errors=True)


def build_editions(
    project: Path, folder: _Folder, langs: Sequence[str], outputs: bool = True, again: bool = False
) -> bool:
    """Build each translated edition beside the served site, then serve it as ``<site>/<lang>/``
    (``outputs=False``: its pages, notebooks without outputs; ``again``: the build that adds the
    outputs to pages served already). A line as each starts and ends; False if one failed."""
    extra = {} if outputs else {site_notebooks.LATER_ENV: "later"}
    stage = "edition_outputs" if again else "edition"
    built = True
    for lang in langs:
        edition = site_say(f"editions.{lang}")
        print(site_say(f"open.{stage}_building", edition=edition, folder=f"{lang}/"), flush=True)
        started = time.monotonic()
        fresh = project / ".cache" / f"site-next-{lang}"
        shutil.rmtree(fresh, ignore_errors=True)
        code, log = _run_build(build_command(fresh, lang), project, _build_env(**extra))
        if code != 0:
            print(site_say("open.edition_failed", edition=edition), file=sys.stderr)
            print(build_failure_summary(log), file=sys.stderr)
            built = False
            continue
        _replace(folder.path / lang, fresh)
        seconds = time.monotonic() - started
        print(site_say(f"open.{stage}_ready", edition=edition, seconds=seconds), flush=True)
    return built


def _finish(project: Path, folder: _Folder, translated: Sequence[str] = ()) -> None:
    """Behind the English pages being served: the translated pages, then the English site with
    the notebooks' outputs (built beside it, then served from ``site/``), then the translated
    editions with their outputs."""
    translated = [lang for lang in translated if build_editions(project, folder, [lang], False)]
    print(site_say("open.outputs_building"), flush=True)
    started = time.monotonic()
    site_dir = folder.path
    fresh = project / ".cache" / "site-next"
    shutil.rmtree(fresh, ignore_errors=True)
    code, log = _run_build(build_command(fresh), project, _english_only())
    if code != 0:
        print(site_say("open.outputs_failed"), file=sys.stderr)
        print(build_failure_summary(log), file=sys.stderr)
        return
    for lang in translated:  # the translated pages stay served until their outputs come
        if (site_dir / lang).is_dir() and not (fresh / lang).exists():
            shutil.move(str(site_dir / lang), str(fresh / lang))
    folder.path = fresh  # serve the new site while site/ is replaced
    shutil.rmtree(site_dir, ignore_errors=True)
    shutil.move(str(fresh), str(site_dir))
    folder.path = site_dir
    print(site_say("open.outputs_ready", seconds=time.monotonic() - started), flush=True)
    build_editions(project, folder, translated, again=True)


def _serve(
    project: Path, folder: _Folder, args: argparse.Namespace, then: threading.Thread | None = None
) -> int:
    try:
        server = make_server(folder, args.port)
    except OSError as exc:
        print(exc, file=sys.stderr)
        return 1
    url = f"http://{HOST}:{server.server_address[1]}/index.html"
    remember_address(project, f"http://{HOST}:{server.server_address[1]}")
    print(site_say("open.serving", url=url), flush=True)
    if not args.no_browser:
        threading.Timer(0.5, _open_browser, args=(url,)).start()
    if then is not None:
        then.start()
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        print()
        print(site_say("open.stopped"))
    finally:
        server.server_close()
    return 0


def _open_browser(url: str) -> None:
    """Open a graphical browser; on a Linux box without a display, leave the terminal alone."""
    headless = sys.platform.startswith("linux") and not (
        os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")
    )
    if headless:
        return
    try:
        if webbrowser.open(url):
            print(site_say("open.browser_opened"), flush=True)
    except webbrowser.Error:
        pass
