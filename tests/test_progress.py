"""Progress on stderr: drawn on a terminal, absent when piped or with ``--quiet``.  The
terminal is a pseudo-terminal (``os.openpty``) given to the CLI as stderr."""

from __future__ import annotations

import os
import select
import subprocess
import sys
from pathlib import Path

import pytest

from seqform.base.progress import Step, listening, report
from seqform.lp.highs import log_status

ROOT = Path(__file__).resolve().parents[1]
BAR = "━"  # rich's bar character
ESCAPE = "\x1b["  # any terminal control sequence


def _run(args: list[str], *, terminal: bool, tmp_path: Path) -> tuple[int, str, str]:
    """``python -m seqform ARGS`` with stderr on a pseudo-terminal (or a pipe); the exit
    code, stdout and stderr."""
    env = {**os.environ, "PYTHONPATH": str(ROOT), "COLUMNS": "120", "TERM": "xterm"}
    command = [sys.executable, "-m", "seqform", *args]
    out_path = tmp_path / "stdout.txt"
    with open(out_path, "wb") as out:
        if not terminal:
            done = subprocess.run(command, env=env, stdout=out, stderr=subprocess.PIPE, check=False)
            return done.returncode, out_path.read_text(), done.stderr.decode()
        controller, child = os.openpty()
        process = subprocess.Popen(command, env=env, stdout=out, stderr=child)
        os.close(child)
        chunks = []
        while True:
            ready, _, _ = select.select([controller], [], [], 0.2)
            if ready:
                try:
                    data = os.read(controller, 65536)
                except OSError:  # the child closed the terminal
                    break
                if not data:
                    break
                chunks.append(data)
            elif process.poll() is not None:
                break
        os.close(controller)
        code = process.wait(timeout=60)
    return code, out_path.read_text(), b"".join(chunks).decode(errors="replace")


def test_terminal_shows_bars_and_the_solver_status(tmp_path: Path) -> None:
    # ranges kuhn: a bar over the plan entries' LPs; each LP's HiGHS status line
    code, out, err = _run(["ranges", "kuhn"], terminal=True, tmp_path=tmp_path)
    assert code == 0
    assert "Kb" in out  # the result still goes to stdout, not into the display
    assert "ranges: plan entries" in err
    assert BAR in err
    assert "HiGHS simplex" in err


def test_solver_status_shows_the_gap_on_a_terminal(tmp_path: Path) -> None:
    code, out, err = _run(
        ["solve", "leduc(ranks=6)", "--solver", "ipm"], terminal=True, tmp_path=tmp_path
    )
    assert code == 0
    assert "Value to Player 1" in out
    assert "HiGHS ipm" in err
    assert "gap " in err


@pytest.mark.parametrize(
    ("args", "terminal"),
    [
        pytest.param(["ranges", "kuhn"], False, id="piped"),
        pytest.param(["ranges", "kuhn", "--verbose"], False, id="piped-verbose"),
        pytest.param(["solve", "leduc", "--quiet"], True, id="terminal-quiet"),
    ],
)
def test_no_progress_when_piped_or_quiet(args: list[str], terminal: bool, tmp_path: Path) -> None:
    code, out, err = _run(args, terminal=terminal, tmp_path=tmp_path)
    assert code == 0
    assert out
    assert BAR not in err
    assert ESCAPE not in err
    if "--quiet" in args:
        assert err == ""


def test_report_reaches_only_the_installed_listener() -> None:
    heard: list[Step] = []
    report(Step("nobody listens"))
    with listening(heard.append):
        report(Step("counted", 1, 3))
    report(Step("after"))
    assert heard == [Step("counted", 1, 3)]


@pytest.mark.parametrize(
    ("line", "status"),
    [
        # lines as HiGHS 1.15 logs them (simplex, IPX, cuPDLP-C)
        (
            "14751     1.0231270551e-01 Pr: 26(0.0185105); Du: 0(1.30322e-05) 5.3s",
            (14751, "objective 0.102313"),
        ),
        (
            "  12    7.65382706e-01  -3.48516648e-01   5.60e-06   4.42e-04  9.22e-01       1.1",
            (12, "gap 9.22e-01"),
        ),
        (
            "4000  -1.17750713e-01  -1.17860451e-01  +8.88e-05  7.76e-04  1.45e-03  1.00s [A]",
            (4000, "gap 8.88e-05"),
        ),
        ("Presolving model", None),
        ("Iter       primal obj         dual obj       pinf       dinf       gap      time", None),
    ],
)
def test_log_status_reads_highs_iteration_lines(line: str, status: tuple[int, str] | None) -> None:
    assert log_status(line) == status


def test_building_a_built_in_tree_reports_its_deals():
    # Tree building shows a bar where the total is known.  kuhn(cards=10)
    # has 10 * 9 = 90 ordered deals (Kuhn 1950's deal, N cards); each deal's subtree is counted.
    from seqform.base.progress import listening
    from seqform.game.builtin.kuhn import kuhn_poker

    steps = []
    with listening(steps.append):
        kuhn_poker(10)
    building = [step for step in steps if step.phase.startswith("building the tree")]
    assert building and building[-1].done == building[-1].total == 90
    assert building[-1].finished and len(building) <= 101
    assert [step.done for step in building] == sorted(step.done for step in building)


def test_a_large_built_in_game_is_announced_before_it_is_built(monkeypatch, capsys):
    # Piped, Leduc 13x4's 9,984,833-node tree (seqform.game.builtin.registry's count) was
    # built for minutes in silence: the game was known to be large only once built.
    import argparse

    import seqform.cli.progress as progress_module

    def stop(*args, **kwargs):
        raise RuntimeError("stopped before the build")

    monkeypatch.setattr(progress_module, "load_game", stop)
    progress = progress_module.Progress(argparse.Namespace(verbose=False, quiet=False))
    with pytest.raises(RuntimeError, match="before the build"):
        progress_module.load_reporting("leduc(ranks=13, suits=4)", progress, force=True)
    assert "building game leduc(ranks=13, suits=4) (9,984,833 nodes)" in capsys.readouterr().err
