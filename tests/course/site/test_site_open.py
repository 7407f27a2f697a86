"""`miniagent open` (miniagent_course.site.serve): find the project, build, report, serve on 127.0.0.1."""

from __future__ import annotations

import shutil
import socket
import sys
import threading
import urllib.request
from pathlib import Path

import pytest

from miniagent_course.site import notebooks as site_notebooks
from miniagent_course.site import serve as site
from miniagent_course.text import catalog, site_say

ROOT = Path(__file__).resolve().parents[3]


def test_find_project_from_a_subfolder():
    assert site.find_project(ROOT / "src" / "miniagent") == ROOT


def test_failure_summary_keeps_the_reason_and_drops_colour_codes():
    log = "\n".join(
        [
            "INFO    -  Cleaning site directory",
            "WARNING -  days/day05.md: upstream block: no symbol 'nope'",
            "Traceback (most recent call last):",
            '  File "x.py", line 1, in <module>',
            "\x1b[31mNameError\x1b[39m: name 'helper' is not defined",
        ]
    )
    summary = site.build_failure_summary(log)
    assert "no symbol 'nope'" in summary
    assert "NameError: name 'helper' is not defined" in summary
    assert "\x1b[" not in summary and "Cleaning site directory" not in summary


def test_failure_summary_of_a_notebook_names_it_and_shows_the_cell():
    log = "\n".join(
        [
            "INFO    -  Converting notebook (execute=True): /repo/notebooks/day05_prompt.ipynb",
            "Traceback (most recent call last):",
            '  File "nbclient/client.py", line 918, in _check_raise_for_error',
            "nbclient.exceptions.CellExecutionError: An error occurred while executing the following cell:",
            "helper(x)",
            "NameError: name 'helper' is not defined",
        ]
    )
    summary = site.build_failure_summary(log)
    assert summary.splitlines()[0] == "/repo/notebooks/day05_prompt.ipynb"
    assert "helper(x)" in summary and "NameError" in summary
    assert "nbclient/client.py" not in summary


def test_ci_builds_and_does_not_serve(monkeypatch, capsys):
    built = []
    monkeypatch.setenv("CI", "true")
    monkeypatch.chdir(ROOT)
    monkeypatch.setattr(site, "ensure_assets", lambda project: None)
    monkeypatch.setattr(
        site, "build", lambda project, site_dir, env=None: built.append(env) or True
    )
    monkeypatch.setattr(site, "make_server", lambda *a, **k: pytest.fail("must not serve in CI"))
    assert site.open_course([]) == 0
    out = capsys.readouterr().out
    assert built == [None]  # one whole build, notebooks executed (no `later` environment)
    assert (ROOT / "site" / "index.html").as_uri() in out
    assert site_say("open.ci_no_serve") in out


def test_a_failed_build_exits_non_zero(monkeypatch):
    monkeypatch.chdir(ROOT)
    monkeypatch.setattr(site, "ensure_assets", lambda project: None)
    monkeypatch.setattr(site, "build", lambda project, site_dir, env=None: False)
    assert site.open_course(["--no-serve"]) == 1


def test_server_is_local_and_moves_past_a_busy_port(tmp_path, capsys):
    (tmp_path / "index.html").write_text("<h1>course</h1>", encoding="utf-8")
    busy = socket.socket()
    busy.bind(("127.0.0.1", 0))
    busy.listen()
    port = busy.getsockname()[1]
    server = site.make_server(tmp_path, port)
    try:
        host, new_port = server.server_address[:2]
        assert host == "127.0.0.1" and new_port != port
        assert site_say("open.port_busy", port=port, new_port=new_port) in capsys.readouterr().out
        threading.Thread(target=server.serve_forever, daemon=True).start()
        with urllib.request.urlopen(f"http://127.0.0.1:{new_port}/index.html", timeout=5) as r:
            assert r.status == 200 and b"course" in r.read()
    finally:
        server.shutdown()
        server.server_close()
        busy.close()


def test_every_open_message_formats():
    fields = dict(
        seconds=1.0, site_dir="site", file_url="file:///x", url="http://127.0.0.1:8000",
        port=8000, new_port=8001, first=8000, last=8019, total=16, line="notebook 1 of 16",
        edition=site_say("editions.zh"), folder="zh/",
    )  # fmt: skip
    for key in catalog("site")["open"]:
        assert site_say(f"open.{key}", **fields)


def test_a_build_relays_notebook_lines_and_says_it_is_alive_when_silent(monkeypatch, capsys):
    monkeypatch.setattr(site, "HEARTBEAT", 0.3)
    script = (
        "import sys, time\n"
        "print('INFO    -  Cache hit: x', flush=True)\n"
        f"print('INFO    -  {site_notebooks.PROGRESS} 1 of 2 executed: day00.ipynb (3 s)', flush=True)\n"
        "time.sleep(1.6)\n"
        "sys.exit(3)\n"
    )
    code, log = site._run_build([sys.executable, "-c", script], ROOT, {})
    out = capsys.readouterr().out.splitlines()
    assert code == 3 and "Cache hit: x" in log
    assert out[0] == site_say("open.progress", line="notebook 1 of 2 executed: day00.ipynb (3 s)")
    assert len(out) >= 3 and all("still building" in line for line in out[1:])  # every 0.3 s


def test_a_first_open_serves_the_pages_then_swaps_in_the_executed_site(
    tmp_path, monkeypatch, capsys
):
    project = tmp_path / "course"
    (project / "notebooks").mkdir(parents=True)
    (project / "mkdocs.yml").write_text("site_name: x\n", encoding="utf-8")
    (project / "notebooks/day00.ipynb").write_text("{}", encoding="utf-8")
    monkeypatch.chdir(project)
    monkeypatch.delenv("CI", raising=False)
    monkeypatch.setattr(site, "ensure_assets", lambda project: None)
    monkeypatch.setattr(site, "find_project", lambda: project)
    builds = []

    def fake_build(project, site_dir, env=None):  # the quick build: pages only
        builds.append((env or {}).get(site_notebooks.LATER_ENV))
        site_dir.mkdir(parents=True, exist_ok=True)
        (site_dir / "index.html").write_text("pages only", encoding="utf-8")
        return True

    def fake_run(command, project, env):  # the whole build, into the folder it is given
        fresh = Path(command[-1])
        fresh.mkdir(parents=True)
        (fresh / "index.html").write_text("with outputs", encoding="utf-8")
        return 0, ""

    served = {}

    def fake_serve(project, folder, args, then=None):
        served["first"] = (folder.path / "index.html").read_text(encoding="utf-8")
        then.run()  # what the thread does while the server runs
        served["after"] = (folder.path / "index.html").read_text(encoding="utf-8")
        served["path"] = folder.path
        return 0

    monkeypatch.setattr(site, "build", fake_build)
    monkeypatch.setattr(site, "_run_build", fake_run)
    monkeypatch.setattr(site, "_serve", fake_serve)
    assert site.open_course(["--no-browser"]) == 0
    assert builds == ["later"]
    assert served == {"first": "pages only", "after": "with outputs", "path": project / "site"}
    out = capsys.readouterr().out
    assert site_say("open.notebooks_missing", total=1) in out
    assert site_say("open.building_pages") in out
    assert "Notebook outputs are in" in out


def _course_with_editions(tmp_path, monkeypatch, ready: bool) -> tuple[Path, list]:
    """A project with an English and a Chinese configuration, whose builds are recorded (in
    ``events``) and faked: each writes an ``index.html`` naming its edition and its stage."""
    project = tmp_path / "course"
    (project / "notebooks").mkdir(parents=True)
    (project / "mkdocs.yml").write_text("site_name: x\n", encoding="utf-8")
    (project / "mkdocs.zh.yml").write_text("INHERIT: mkdocs.yml\n", encoding="utf-8")
    (project / "notebooks/day00.ipynb").write_text("{}", encoding="utf-8")
    monkeypatch.chdir(project)
    for var in ("CI", site.EDITIONS_ENV, site_notebooks.LATER_ENV):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setattr(site, "ensure_assets", lambda project: None)
    monkeypatch.setattr(site, "find_project", lambda: project)
    monkeypatch.setattr(site_notebooks, "all_executed", lambda *a: ready)
    events: list = []

    def stage(env):
        return "pages" if env.get(site_notebooks.LATER_ENV) == "later" else "outputs"

    def fake_build(project, site_dir, env=None):  # the English edition, into site/
        env = env or {}
        events.append(("en", stage(env), env.get(site.EDITIONS_ENV)))
        shutil.rmtree(site_dir, ignore_errors=True)  # as mkdocs empties its site_dir
        site_dir.mkdir(parents=True)
        (site_dir / "index.html").write_text(f"en {stage(env)}", encoding="utf-8")
        return True

    def fake_run(command, project, env):  # a build behind the server, into a fresh folder
        lang = "zh" if "mkdocs.zh.yml" in command else "en"
        events.append((lang, stage(env), env.get(site.EDITIONS_ENV)))
        fresh = Path(command[-1])
        fresh.mkdir(parents=True)
        (fresh / "index.html").write_text(f"{lang} {stage(env)}", encoding="utf-8")
        return 0, ""

    monkeypatch.setattr(site, "build", fake_build)
    monkeypatch.setattr(site, "_run_build", fake_run)
    return project, events


def _read(path: Path) -> str | None:
    return path.read_text(encoding="utf-8") if path.is_file() else None


def test_open_serves_the_english_edition_then_builds_the_chinese_one(tmp_path, monkeypatch, capsys):
    project, events = _course_with_editions(tmp_path, monkeypatch, ready=True)
    old = project / "site" / "zh"  # an earlier `miniagent open`'s Chinese edition
    old.mkdir(parents=True)
    (old / "index.html").write_text("zh earlier", encoding="utf-8")
    seen = {}

    def fake_serve(project, folder, args, then=None):
        events.append("serving")
        seen["en"] = _read(folder.path / "index.html")
        seen["zh while building"] = _read(folder.path / "zh" / "index.html")
        then.run()  # what the thread does while the server runs
        seen["zh"] = _read(folder.path / "zh" / "index.html")
        return 0

    monkeypatch.setattr(site, "_serve", fake_serve)
    assert site.open_course(["--no-browser"]) == 0
    # English alone (MINIAGENT_SITE_EDITIONS=en), served, and only then the Chinese edition
    assert events == [("en", "outputs", "en"), "serving", ("zh", "outputs", None)]
    assert seen == {"en": "en outputs", "zh while building": "zh earlier", "zh": "zh outputs"}
    out = capsys.readouterr().out
    chinese = site_say("editions.zh")
    lines = [
        site_say("open.building_english"),
        site_say("open.edition_building", edition=chinese, folder="zh/"),
        site_say("open.edition_ready", edition=chinese, seconds=0).split("(")[0],
    ]
    at = [out.index(line) for line in lines]
    assert at == sorted(at), out


def test_a_first_open_serves_english_pages_then_chinese_pages_then_the_outputs(
    tmp_path, monkeypatch, capsys
):
    project, events = _course_with_editions(tmp_path, monkeypatch, ready=False)
    seen = []

    def fake_serve(project, folder, args, then=None):
        seen.append((_read(folder.path / "index.html"), _read(folder.path / "zh/index.html")))
        then.run()
        seen.append((_read(folder.path / "index.html"), _read(folder.path / "zh/index.html")))
        return 0

    monkeypatch.setattr(site, "_serve", fake_serve)
    assert site.open_course(["--no-browser"]) == 0
    assert events == [
        ("en", "pages", "en"),  # served at once
        ("zh", "pages", None),  # behind it: the Chinese pages
        ("en", "outputs", "en"),  # the notebooks run, English swapped in (zh/ kept)
        ("zh", "outputs", None),  # the Chinese edition with the same outputs
    ]
    assert seen == [("en pages", None), ("en outputs", "zh outputs")]
    out = capsys.readouterr().out
    chinese = site_say("editions.zh")
    lines = [
        site_say("open.building_pages"),
        site_say("open.edition_building", edition=chinese, folder="zh/"),
        site_say("open.outputs_building"),
        site_say("open.edition_outputs_building", edition=chinese, folder="zh/"),
    ]
    at = [out.index(line) for line in lines]
    assert at == sorted(at), out


def test_open_knows_the_editions_the_hooks_build():
    from miniagent_course.site import hooks

    assert site.TRANSLATED == hooks.EDITIONS and site.EDITIONS_ENV == hooks.EDITIONS_ENV
    assert site.build_command(Path("x"), "zh")[-4:] == [
        "--config-file", "mkdocs.zh.yml", "--site-dir", "x"
    ]  # fmt: skip


def test_english_only_skips_the_chinese_edition(tmp_path, monkeypatch):
    project, events = _course_with_editions(tmp_path, monkeypatch, ready=True)
    monkeypatch.setenv(site.EDITIONS_ENV, "en")
    monkeypatch.setattr(site, "_serve", lambda project, folder, args, then=None: then)
    assert site.open_course(["--no-browser"]) is None  # nothing follows the English build
    assert events == [("en", "outputs", "en")]
    assert site.editions(project) == []


def test_the_cache_marker_says_every_notebook_ran_until_a_notebook_changes(tmp_path, monkeypatch):
    project = tmp_path
    (project / "notebooks").mkdir()
    (project / "mkdocs.yml").write_text("site_name: x\n", encoding="utf-8")
    book = project / "notebooks/day00.ipynb"
    book.write_text("{}", encoding="utf-8")
    cache = project / site_notebooks.CACHE_DIR
    config = {"execute": True, "cache": True}
    config["cache_dir"] = str(cache / site_notebooks.source_hash(project))
    assert not site_notebooks.all_executed(project, cache)
    monkeypatch.setenv(site_notebooks.LATER_ENV, "later")
    site_notebooks.mark_executed(project, config)  # a pages-only build marks nothing
    assert not site_notebooks.all_executed(project, cache)
    monkeypatch.delenv(site_notebooks.LATER_ENV)
    site_notebooks.mark_executed(project, config)
    assert site_notebooks.all_executed(project, cache)
    book.write_text('{"cells": []}', encoding="utf-8")
    assert not site_notebooks.all_executed(project, cache)


def test_a_pages_only_build_tells_the_reader_that_outputs_follow(monkeypatch):
    from miniagent_course.site import hooks

    class Page:
        class file:
            src_uri = "notebooks/day00_welcome.ipynb"

        toc = title = None

    class Config:
        plugins: dict = {}

    monkeypatch.setenv(site_notebooks.LATER_ENV, "later")
    assert site_say("open.outputs_later") in hooks.on_page_content("<p>x</p>", Page, Config, None)
    monkeypatch.delenv(site_notebooks.LATER_ENV)
    assert "Outputs on their way" not in hooks.on_page_content("<p>x</p>", Page, Config, None)
