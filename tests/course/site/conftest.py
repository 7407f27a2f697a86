"""One built site for the tests that read the built pages (the word budget, the term check...).

``built_site`` builds the real course once per session, strictly, without executing the notebooks
(``MINIAGENT_SITE_NOTEBOOKS=later``: the pages are the same; test_site_build.py checks the
notebooks' outputs in its own build) -- or reuses ``site/`` when a build of this checkout as it is
now left it there (``hooks.built_from``: CI builds the site before the tests).
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]


@pytest.fixture(scope="session")
def built_site(tmp_path_factory) -> Path:
    pytest.importorskip("mkdocs")
    pytest.importorskip("material")
    pytest.importorskip("mkdocs_jupyter")
    from miniagent_course.site.hooks import built_from

    if {"en", "zh"} <= set(built_from(ROOT / "site", ROOT)):  # CI built this checkout already
        return ROOT / "site"
    site = tmp_path_factory.mktemp("built-site") / "site"
    done = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(site)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        env={**os.environ, "NO_MKDOCS_2_WARNING": "1", "MINIAGENT_SITE_NOTEBOOKS": "later"},
        timeout=300,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    return site
