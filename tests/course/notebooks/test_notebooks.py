"""Every notebook in notebooks/ runs top to bottom: offline, without errors, within a timeout.

Notebooks are committed without outputs; this executes a copy in memory (kernel cwd = notebooks/)
and never writes the outputs back.
"""

from __future__ import annotations

from pathlib import Path

import pytest

nbclient = pytest.importorskip("nbclient")
nbformat = pytest.importorskip("nbformat")

NOTEBOOKS = Path(__file__).resolve().parents[3] / "notebooks"
CELL_TIMEOUT = 30  # seconds per cell: an endless loop fails that cell, not the whole run


@pytest.mark.timeout(300)
@pytest.mark.parametrize("path", sorted(NOTEBOOKS.glob("*.ipynb")), ids=lambda p: p.stem)
def test_notebook_runs(path, monkeypatch):
    # "Your turn" cells read the learner's file; here they get the reference, so the package's
    # tests never run a learner's unfinished code (the kernel inherits this environment).
    monkeypatch.setenv("MINIAGENT_NOTEBOOK_IMPL", "reference")
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


def test_notebooks_are_committed_without_outputs():
    for path in sorted(NOTEBOOKS.glob("*.ipynb")):
        notebook = nbformat.read(path, as_version=4)
        for cell in notebook.cells:
            if cell.cell_type == "code":
                assert cell.outputs == [] and cell.execution_count is None, (
                    f"{path.name} has outputs"
                )
