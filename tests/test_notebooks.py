"""Every notebook in notebooks/ executes from top to bottom, so none can go stale."""

from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient

NOTEBOOKS = sorted((Path(__file__).parent.parent / "notebooks").glob("*.ipynb"))


def test_there_are_notebooks():
    assert NOTEBOOKS


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_notebook_runs(path, tmp_path):
    notebook = nbformat.read(path, as_version=4)
    resources = {"metadata": {"path": str(tmp_path)}}
    client = NotebookClient(notebook, timeout=300, kernel_name="python3", resources=resources)
    client.execute()
    code_cells = [cell for cell in notebook.cells if cell.cell_type == "code"]
    errors = [o for cell in code_cells for o in cell.outputs if o.output_type == "error"]
    assert not errors
