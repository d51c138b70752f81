"""The logit trace's work limit: estimated from the game's size, refused before any step."""

from __future__ import annotations

import pytest

from seqform.cli import main as cli
from seqform.cli.commands import qre as qre_command
from seqform.io.loader import load_game
from seqform.qre import equilibria as qre_module
from seqform.qre import work as qre_work
from seqform.qre.equilibria import logit_qre, trace_logit
from seqform.qre.fit import fit_logit
from seqform.qre.work import (
    STEP_SECONDS,
    TRACE_STEPS,
    refuse_large_trace,
    trace_estimate,
    trace_unknowns,
)
from seqform.questions.ranges_work import DEFAULT_MAX_SECONDS, WorkRefusedError
from seqform.routes.sizing import memory as memory_module
from seqform.routes.sizing.memory import MemoryAvailable, MemoryRefusedError


class Stepped(Exception):
    """Raised by a stepping function that a refused trace must never reach."""


@pytest.fixture
def no_steps(monkeypatch):
    """Any trace step or any tree built fails the test with :class:`Stepped`."""

    def fail(*args, **kwargs):
        raise Stepped

    monkeypatch.setattr(qre_module, "follow_branch", fail)
    monkeypatch.setattr(qre_work, "load_game", fail)
    monkeypatch.setattr(qre_command, "load_reporting", fail)


@pytest.fixture
def tiny_limit(monkeypatch):
    """A step so dear that even Kuhn's trace is beyond the limit."""
    monkeypatch.setattr(qre_work, "STEP_SECONDS", 1e9)


def test_sizes_come_from_the_spec_before_the_tree_is_built(no_steps):
    # leduc(ranks=13): 45,866 sequences of both players (route.planned_size), less the two
    # empty ones; Leduc: 2,184 action probabilities (docs/qre.md)
    assert trace_unknowns("leduc(ranks=13)") == 45_864
    assert trace_unknowns("leduc") == 2_184
    assert trace_unknowns("some/file.efg") is None


def test_estimate_is_steps_times_the_step_cost():
    # the model of seqform/qre/work.py at its reference, Leduc: 400 steps of 0.55 s
    leduc = trace_estimate(2_184)
    assert leduc.steps == TRACE_STEPS and leduc.seconds_per_step == pytest.approx(STEP_SECONDS)
    assert leduc.seconds == pytest.approx(TRACE_STEPS * STEP_SECONDS)
    # twice the action probabilities, four times the step cost (the exponent 2)
    assert trace_estimate(4_368).seconds_per_step == pytest.approx(4 * STEP_SECONDS)


def test_leduc_stays_within_the_limit():
    # Leduc, the game a trace must reach, is never refused by default (its trace took 80 to
    # 203 s: benchmarks/results/measurements.md)
    estimate = refuse_large_trace("leduc")
    assert estimate is not None and estimate.seconds < DEFAULT_MAX_SECONDS


def test_large_leduc_is_refused_before_its_tree_or_any_step(no_steps):
    with pytest.raises(WorkRefusedError) as refused:
        trace_logit("leduc(ranks=13)")
    message = str(refused.value)
    assert message.startswith("leduc(ranks=13): the logit trace would take about ")
    assert "45,864 action probabilities" in message and "--force (force=True)" in message
    with pytest.raises(WorkRefusedError):
        logit_qre("leduc(ranks=13)", [1.0])


def test_cli_refuses_large_leduc_in_one_line_naming_the_estimate(no_steps, capsys):
    assert cli.main(["qre", "leduc(ranks=13)"]) == 1  # as `ranges` beyond its work limit
    err = capsys.readouterr().err
    assert err.startswith("seqform: error: leduc(ranks=13): the logit trace would take about ")
    assert "steps of about" in err and "--force" in err and err.count("\n") == 1


def test_force_goes_on_to_build_the_game(no_steps):
    # the stepping and loading functions are stubbed: no huge trace is run
    with pytest.raises(Stepped):
        cli.main(["qre", "leduc(ranks=13)", "--force"])
    with pytest.raises(Stepped):
        trace_logit("leduc(ranks=13)", force=True)


def test_memory_beyond_what_the_process_may_have_is_refused(no_steps, monkeypatch):
    monkeypatch.setattr(
        memory_module, "available_memory", lambda: MemoryAvailable(2**30, "a test's limit")
    )
    # Leduc with 13 ranks: the LU counted dense, 8 × 45,864² bytes, about 16 GB
    with pytest.raises(MemoryRefusedError, match=r"GB .* a test's limit.*--force"):
        refuse_large_trace("leduc(ranks=13)", max_seconds=None)


def test_a_built_game_is_refused_too_and_force_lifts_it(tiny_limit):
    kuhn = load_game("kuhn")
    with pytest.raises(WorkRefusedError, match="24 action probabilities"):
        trace_logit(kuhn)
    with pytest.raises(WorkRefusedError):
        fit_logit(kuhn, [1.0] * 24)
    points = logit_qre(kuhn, [1.0], force=True).points
    assert [point.lam for point in points] == [1.0]


def test_cli_force_lifts_the_limit_on_a_small_game(tiny_limit, capsys):
    assert cli.main(["qre", "kuhn", "--lambda", "1"]) == 1
    assert "--force" in capsys.readouterr().err
    assert cli.main(["qre", "kuhn", "--lambda", "1", "--force"]) == 0
    assert "Logit QRE at λ = 1" in capsys.readouterr().out


def test_a_small_game_still_runs_from_its_spec():
    points = logit_qre("kuhn", [0.0]).points
    # λ = 0 is uniform play (McKelvey and Palfrey 1995)
    assert list(points[0].strategies[0].at("J").values()) == [0.5, 0.5]


# --- hold'em spots (docs/spots.md): the trace runs on the spot's tree, or is refused -------

SPOT = """\
board = "Ks7h2d9c4s"
pot = 10
effective_stack = 30
oop_range = "{oop}"
ip_range = "{ip}"
bet_sizes = [0.5]
raise_sizes = [1]
max_raises = 1
"""


@pytest.mark.slow
def test_qre_traces_a_small_river_spot(tmp_path, capsys):
    spot = tmp_path / "river.toml"
    spot.write_text(SPOT.format(oop="AA,KQs", ip="QQ,JTs"), encoding="utf-8")
    assert cli.main(["qre", str(spot), "--quiet", "--no-compare"]) == 0
    out = capsys.readouterr().out
    assert "river spot on Ks7h2d9c4s" in out and "NashConv" in out and "not converged" not in out


@pytest.mark.slow
def test_qre_refuses_a_wider_river_spot_before_any_step(tmp_path, capsys, monkeypatch):
    def fail(*args, **kwargs):
        raise Stepped

    monkeypatch.setattr(qre_module, "follow_branch", fail)
    spot = tmp_path / "wide.toml"
    spot.write_text(SPOT.format(oop="22+,A2s+", ip="22+,A2s+"), encoding="utf-8")
    # a spot says its size only once its tree is built: 2,756 action probabilities here
    assert cli.main(["qre", str(spot)]) == 1
    err = capsys.readouterr().err
    assert "the logit trace would take about" in err and "2,756 action probabilities" in err
