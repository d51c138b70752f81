"""A solver stopped at ``--time-limit`` is reported as a limit: one line that says so, exit
1 (a solver that proved nothing), no warnings, no "nan" (``--solver pdlp
--time-limit 1e-9`` printed RuntimeWarnings and "exploitability nan"; ``--refine`` said
"HiGHS failed on every perturbed LP" without naming the limit)."""

from __future__ import annotations

import numpy as np
import pytest

from seqform.cli.errors import EXIT_ERROR
from seqform.cli.main import main
from seqform.forms.sequence_form import build_sequence_form
from seqform.forms.strategies import behaviour_from_plan
from seqform.io.loader import load_game


@pytest.mark.filterwarnings("error")
@pytest.mark.parametrize(
    "args",
    [
        pytest.param(["leduc", "--solver", "pdlp"], id="pdlp"),
        pytest.param(["leduc"], id="simplex"),
        pytest.param(["leduc", "--solver", "ipm"], id="ipm"),
        pytest.param(["leduc", "--backend", "cvxpy"], id="cvxpy"),
        pytest.param(["leduc", "--refine"], id="refine"),
        pytest.param(["leduc", "--exact"], id="exact"),
        pytest.param(["kuhn", "--fix", "Kb:b=0"], id="fix"),
        pytest.param(["kuhn(cards=1000)", "--method", "structured"], id="clarabel"),
    ],
)
def test_time_limit_is_reported_as_a_limit(args: list[str], capsys) -> None:
    code = main(["solve", *args, "--time-limit", "1e-9", "--quiet"])
    captured = capsys.readouterr()
    assert code == EXIT_ERROR
    assert captured.out == ""
    lines = captured.err.strip().splitlines()
    assert len(lines) == 1, captured.err
    assert lines[0].startswith("seqform: error: ")
    assert "limit" in lines[0].lower() or "MaxTime" in lines[0]
    assert "nan" not in lines[0]
    assert "failed on every" not in lines[0]


def test_plan_that_leaves_a_reached_infoset_no_mass_gives_uniform() -> None:
    # A point at a limit may break E x = e: here the empty sequence has mass 1 and every
    # sequence below it 0, so every first information set is reached and empty.  The
    # behaviour there is uniform (as for an unreached set), not 0/0 = nan.
    form = build_sequence_form(load_game("kuhn"))
    table = form.players[0]
    plan = np.zeros(form.E.shape[1])
    plan[0] = 1.0
    strategy = behaviour_from_plan(table, plan)
    assert np.all(np.isfinite(strategy.probabilities))
    assert strategy.probabilities[1:] == pytest.approx(0.5)  # two actions everywhere in Kuhn
