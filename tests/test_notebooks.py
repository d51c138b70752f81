"""Every notebook in notebooks/ runs top to bottom without error, and is stored without outputs.

Each notebook asserts its own key numbers in a cell (e.g. the analytic Kuhn solution equals
seqform's within 1e-9), so executing it is the test.  The kernel is the ``python3`` kernel of
the running interpreter (jupyter_client starts it with ``sys.executable``), with the
notebooks directory as its working directory.  What the run prints is checked as well: a
reader who runs a notebook should see no warning or other stderr text, no ``nan`` and no
solver banner (:func:`noise`).
"""

import re
from pathlib import Path

import pytest

nbformat = pytest.importorskip("nbformat")
nbclient = pytest.importorskip("nbclient")

NOTEBOOKS = Path(__file__).resolve().parent.parent / "notebooks"
CELL_TIMEOUT = 120  # seconds; each notebook takes well under a minute in all
PATHS = sorted(NOTEBOOKS.glob("*.ipynb"))
BANNERS = ("Running HiGHS",)  # highspy 1.16 prints it at a process's first Highs()


def noise(notebook) -> list[str]:
    """What an executed notebook shows that a reader should not see: stderr text (warnings),
    a ``nan`` in printed output, a solver's banner; one line per finding, naming the cell."""
    found = []
    for index, cell in enumerate(notebook.cells):
        for output in cell.get("outputs", []):
            if output.get("output_type") != "stream":
                continue
            text = output["text"]
            where = f"cell {index} ({cell.source.splitlines()[0][:50]!r})"
            if output["name"] == "stderr":
                found.append(f"{where} writes to stderr: {text.strip()[:200]!r}")
            if re.search(r"\bnan\b", text):
                found.append(f"{where} prints nan: {text.strip()[:200]!r}")
            found += [f"{where} prints a banner: {b!r}" for b in BANNERS if b in text]
    return found


def test_the_numbered_walkthroughs_are_there():
    assert [path.name for path in PATHS] == [
        "01_kuhn_poker_by_hand.ipynb",
        "02_normal_vs_sequence_form.ipynb",
        "03_behavioural_strategies.ipynb",
        "04_scaling_up.ipynb",
        "05_cfr_against_the_lp.ipynb",
        "06_the_ranking_table.ipynb",
        "07_logit_qre.ipynb",
        "08_lp_vs_cfr.ipynb",
        "09_holdem_river_spot.ipynb",
        "10_kuhn_to_rhode_island.ipynb",
        "11_road_to_holdem.ipynb",
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
    assert not noise(notebook), "\n".join(noise(notebook))


def test_noise_is_found():
    notebook = nbformat.v4.new_notebook()
    cell = nbformat.v4.new_code_cell("x = 0 / 0  # by hand")
    cell.outputs = [
        nbformat.v4.new_output("stream", name="stderr", text="RuntimeWarning: invalid value"),
        nbformat.v4.new_output("stream", name="stdout", text="Kpb  nan\nRunning HiGHS 1.16.0"),
    ]
    notebook.cells.append(cell)
    assert [line.split(": ")[0].split(") ")[1] for line in noise(notebook)] == [
        "writes to stderr",
        "prints nan",
        "prints a banner",
    ]
