"""Every notebook in notebooks/ runs top to bottom without error, and is stored without outputs.

Each notebook asserts its own key numbers in a cell (e.g. the analytic Kuhn solution equals
seqform's within 1e-9), so executing it is the test.  The kernel is the ``python3`` kernel of
the running interpreter (jupyter_client starts it with ``sys.executable``), with the
notebooks directory as its working directory.
"""

from pathlib import Path

import pytest

nbformat = pytest.importorskip("nbformat")
nbclient = pytest.importorskip("nbclient")

NOTEBOOKS = Path(__file__).resolve().parent.parent / "notebooks"
CELL_TIMEOUT = 120  # seconds; each notebook takes well under a minute in all
PATHS = sorted(NOTEBOOKS.glob("*.ipynb"))


def test_the_numbered_walkthroughs_are_there():
    assert [path.name for path in PATHS] == [
        "01_kuhn_poker_by_hand.ipynb",
        "02_normal_vs_sequence_form.ipynb",
        "03_behavioural_strategies.ipynb",
        "04_scaling_up.ipynb",
        "05_cfr_against_the_lp.ipynb",
        "07_logit_qre.ipynb",
    ]


@pytest.mark.parametrize("path", PATHS, ids=[path.stem for path in PATHS])
def test_notebook_is_stored_without_outputs(path):
    notebook = nbformat.read(path, as_version=4)
    for cell in notebook.cells:
        if cell.cell_type == "code":
            assert cell.outputs == [] and cell.execution_count is None, cell.source[:60]


@pytest.mark.slow
@pytest.mark.parametrize("path", PATHS, ids=[path.stem for path in PATHS])
def test_notebook_runs_and_its_checks_pass(path):
    notebook = nbformat.read(path, as_version=4)
    assert any(cell.cell_type == "code" and "assert " in cell.source for cell in notebook.cells), (
        "each notebook checks its key numbers in a cell"
    )
    client = nbclient.NotebookClient(
        notebook,
        timeout=CELL_TIMEOUT,
        kernel_name="python3",
        resources={"metadata": {"path": str(NOTEBOOKS)}},
    )
    client.execute()  # raises CellExecutionError, naming the cell, if any cell fails
