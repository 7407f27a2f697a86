"""A finished build records what it was built from (``site/.miniagent-build.json``), so the tests
that read built pages reuse the site CI has just built instead of building it again -- and only
while the checkout is exactly what was built (``hooks.built_from``)."""

from __future__ import annotations

import json
from pathlib import Path

from miniagent_course.site.hooks import BUILD_STAMP, built_from, sources_digest


def _project(root: Path) -> Path:
    for name, text in {
        "course/index.md": "# Home\n",
        "notebooks/day00.ipynb": "{}",
        "src/pkg/mod.py": "x = 1\n",
        "mkdocs.yml": "site_name: t\n",
    }.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text, encoding="utf-8")
    site = root / "site"
    site.mkdir()
    stamp = {"sources": sources_digest(root), "editions": ["en", "zh"]}
    (site / BUILD_STAMP).write_text(json.dumps(stamp), encoding="utf-8")
    return site


def test_a_site_built_from_this_checkout_is_recognised(tmp_path):
    site = _project(tmp_path)
    assert built_from(site, tmp_path) == ["en", "zh"]
    (tmp_path / "src/pkg/__pycache__").mkdir()  # bytecode is not a source
    (tmp_path / "src/pkg/__pycache__/mod.pyc").write_bytes(b"\0")
    assert built_from(site, tmp_path) == ["en", "zh"]


def test_any_changed_added_or_missing_source_makes_it_stale(tmp_path):
    site = _project(tmp_path)
    (tmp_path / "course/index.md").write_text("# Home, edited\n", encoding="utf-8")
    assert built_from(site, tmp_path) == []
    site = _project(tmp_path / "again")
    (tmp_path / "again/course/new.md").write_text("# New\n", encoding="utf-8")
    assert built_from(site, tmp_path / "again") == []
    (site / BUILD_STAMP).unlink()
    assert built_from(site, tmp_path / "again") == []
