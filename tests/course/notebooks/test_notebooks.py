"""Every notebook in notebooks/ runs top to bottom: offline, without errors, within a timeout.

Notebooks are committed without outputs; this executes a copy in memory (kernel cwd = notebooks/)
and never writes the outputs back. When the site build of this same checkout already executed
every notebook (mkdocs-jupyter's cache holds them all, against the same sources and notebooks,
with errors not allowed: ``miniagent_course.site.notebooks.all_executed``), that run is the proof
and the notebooks are not executed a second time (CI builds the site first).
"""

from __future__ import annotations

from pathlib import Path

import pytest

nbclient = pytest.importorskip("nbclient")
nbformat = pytest.importorskip("nbformat")

ROOT = Path(__file__).resolve().parents[3]
NOTEBOOKS = ROOT / "notebooks"
CELL_TIMEOUT = 30  # seconds per cell: an endless loop fails that cell, not the whole run


@pytest.mark.timeout(300)
@pytest.mark.parametrize("path", sorted(NOTEBOOKS.glob("*.ipynb")), ids=lambda p: p.stem)
def test_notebook_runs(path, monkeypatch):
    # "Your turn" cells read the learner's file; here they get the reference, so the package's
    # tests never run a learner's unfinished code (the kernel inherits this environment).
    monkeypatch.setenv("MINIAGENT_NOTEBOOK_IMPL", "reference")
    # A predict day's later sections wait for the learner's table (the site shows them sealed);
    # here they are opened, so that every cell runs.
    monkeypatch.setenv("MINIAGENT_NOTEBOOK_TABLES", "open")
    if _executed_by_the_site():
        return  # the site build ran it, offline and without errors, on these very files
    notebook = nbformat.read(path, as_version=4)
    client = nbclient.NotebookClient(
        notebook,
        timeout=CELL_TIMEOUT,
        kernel_name="python3",
        resources={"metadata": {"path": str(NOTEBOOKS)}},
    )
    client.execute()  # raises CellExecutionError with the failing cell and its traceback
    errors = [
        o for c in notebook.cells for o in c.get("outputs", []) if o.get("output_type") == "error"
    ]
    assert errors == []


def _executed_by_the_site() -> bool:
    from miniagent_course.site import notebooks as site_notebooks

    return site_notebooks.all_executed(ROOT, ROOT / site_notebooks.CACHE_DIR)


def test_notebooks_are_committed_without_outputs():
    for path in sorted(NOTEBOOKS.glob("*.ipynb")):
        notebook = nbformat.read(path, as_version=4)
        for cell in notebook.cells:
            if cell.cell_type == "code":
                assert cell.outputs == [] and cell.execution_count is None, (
                    f"{path.name} has outputs"
                )
