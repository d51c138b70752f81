"""A finished iterative run is never thrown away: ``iterate`` takes its stopping rules as
keywords; its LP reference is refused where ``solve`` refuses the LP, and a reference that
fails or is interrupted, or a certificate that overflows, is reported beside the run, which
is written all the same; SIGTERM and SIGHUP stop the command as Ctrl-C does."""

from __future__ import annotations

import json
import math
import os
import signal
import subprocess
import sys
import time
import warnings
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import pytest
from scaled_games import scaled_kuhn
from spot_files import RIVER

import seqform
from seqform.base.interrupt import stop_on_interrupt
from seqform.certify import CertificateOverflowError, certify
from seqform.cli.main import main
from seqform.cli.signals import interrupted_code, terminate_as_interrupt
from seqform.documents.iterate import iterate_document
from seqform.documents.text.iterate import iterate_text
from seqform.forms.strategies import uniform_behaviour
from seqform.holdem import lp_work
from seqform.io.documents import validate_document
from seqform.io.loader import load_game
from seqform.iterative.run import Sample
from seqform.questions import lp_reference
from seqform.routes import structured

ROOT = Path(__file__).resolve().parents[1]

# The small turn spot of tests/test_spot_lp_route.py: 2,816 LP variables (counted there).
TURN = """\
board = "Ks7h2d9c"
pot = 6
effective_stack = 6
oop_range = "AA,AhKh,Qc9d"
ip_range = "AsKs,KhQh:0.5,9h8h"
bet_sizes = [1]
"""


class BuiltError(AssertionError):
    """The LP builder was reached."""


def _no_build(*args: object, **kwargs: object) -> None:
    raise BuiltError("the LP was built")


def _json_run(game: str, iterations: int, output: Path, *options: str) -> list[str]:
    """The command line of a quiet ``iterate`` of cfr+ writing its JSON to ``output``."""
    run = ["iterate", game, "--algorithm", "cfr+", "--iterations", str(iterations), "--quiet"]
    return [*run, *options, "--format", "json", "--output", str(output)]


# --- the stopping rules as keywords ----------------------------------------------------------


def test_python_iterate_takes_the_stopping_rules_as_keywords() -> None:
    run = seqform.iterate("kuhn", "cfr+", iterations=20, every=10, reference=False)
    assert run.result.iterations == 20
    assert [s.iteration for s in run.result.history] == [10, 20]


def test_without_a_rule_python_runs_the_commands_default() -> None:
    from seqform.questions.iterate import DEFAULT_ITERATIONS, stopping_rules

    assert stopping_rules().iterations == DEFAULT_ITERATIONS == 1000


@pytest.mark.parametrize(
    ("keywords", "error", "named"),
    [
        ({"iterations": -1}, ValueError, "iterations"),
        ({"iterations": 2.5}, TypeError, "iterations"),
        ({"iterations": True}, TypeError, "iterations"),
        ({"time_limit": math.nan}, ValueError, "time_limit"),
        ({"time_limit": "5"}, TypeError, "time_limit"),
        ({"target_exploitability": 0}, ValueError, "target_exploitability"),
        ({"target_exploitability": math.inf}, ValueError, "target_exploitability"),
        ({"every": 0}, ValueError, "every"),
    ],
)
def test_a_bad_stopping_rule_is_refused_by_its_name(
    keywords: dict[str, object], error: type[Exception], named: str
) -> None:
    with pytest.raises(error, match=rf"^{named} must be"):
        seqform.iterate("kuhn", "cfr+", **keywords)  # type: ignore[arg-type]


# --- the LP reference: solve's refusal, failures, interrupts ---------------------------------


@pytest.fixture
def turn_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The small turn spot under a limit of 1,000 LP variables, so that ``solve`` refuses
    it, and an LP builder that fails if reached."""
    path = tmp_path / "turn.toml"
    path.write_text(TURN)
    monkeypatch.setattr(lp_work, "SPOT_LP_VARIABLES", 1_000)
    monkeypatch.setattr(structured, "build_structured_lp", _no_build)
    return path


def test_the_reference_is_skipped_where_solve_refuses_the_lp(turn_file: Path) -> None:
    with pytest.raises(lp_work.LPWorkRefusedError):
        seqform.solve(str(turn_file))
    run = seqform.iterate(str(turn_file), "cfr+", iterations=5)
    assert run.result.iterations == 5
    assert run.reference.status == "skipped"
    assert run.reference.skipped is not None
    assert "solve refuses this LP" in run.reference.skipped
    assert "2,816 variables" in run.reference.skipped


def test_the_command_says_why_the_reference_was_skipped(
    turn_file: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["iterate", str(turn_file), "--algorithm", "cfr+", "--iterations", "5"]) == 0
    out = capsys.readouterr().out
    assert "LP reference skipped: solve refuses this LP:" in out


def test_force_solves_the_refused_reference_as_solve_force_does(turn_file: Path) -> None:
    with pytest.raises(BuiltError):
        seqform.iterate(str(turn_file), "cfr+", iterations=5, force=True)


def _interrupt(*args: object, **kwargs: object) -> None:
    raise KeyboardInterrupt


def test_ctrl_c_in_the_reference_keeps_the_finished_run(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(lp_reference, "solve_on_route", _interrupt)
    output = tmp_path / "run.json"
    code = main(_json_run("kuhn", 30, output))
    assert code == 130  # 128 + SIGINT
    document = json.loads(output.read_text())
    validate_document(document)
    assert document["iterations"] == 30
    assert document["reference"]["status"] == "interrupted"
    assert "interrupted during the LP reference" in capsys.readouterr().err


def test_ctrl_c_in_the_certificate_keeps_the_finished_run(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # a flop's certificate takes about a minute after its run: Ctrl-C there stops it
    # and writes the run, unmeasured, rather than losing it
    from seqform.questions import iterate as iterate_module

    monkeypatch.setattr(iterate_module, "certify_profile", _interrupt)
    output = tmp_path / "run.json"
    assert main(_json_run("kuhn", 30, output)) == 130
    document = json.loads(output.read_text())
    validate_document(document)
    assert document["iterations"] == 30 and document["certificate"] is None
    assert document["reference"]["status"] == "interrupted"
    assert "before its certificate" in capsys.readouterr().err
    with pytest.raises(KeyboardInterrupt):  # outside stop_on_interrupt, Ctrl-C raises
        seqform.iterate("kuhn", "cfr+", iterations=5)


def test_ctrl_c_in_a_spot_s_report_keeps_the_finished_run(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    import seqform.holdem

    spot = tmp_path / "river.toml"
    spot.write_text(RIVER)
    monkeypatch.setattr(seqform.holdem, "spot_report", _interrupt)
    output = tmp_path / "run.json"
    assert main(_json_run(str(spot), 20, output, "--method", "structured")) == 130
    document = json.loads(output.read_text())
    validate_document(document)
    assert document["iterations"] == 20 and "spot" not in document
    assert "before its certificate" in capsys.readouterr().err
    text_run = ["iterate", str(spot), "--algorithm", "cfr+", "--iterations", "20", "--quiet"]
    assert main(text_run) == 130  # as text
    assert "Player 1" in capsys.readouterr().out


def _ctrl_c_as_built(monkeypatch: pytest.MonkeyPatch, module: object, name: str) -> None:
    """``module.name``, a command's document builder, sends this process a Ctrl-C as it
    starts: the answer is finished and being written."""
    build = getattr(module, name)

    def interrupted_build(result: object) -> dict:
        os.kill(os.getpid(), signal.SIGINT)
        return build(result)

    monkeypatch.setattr(module, name, interrupted_build)


def test_ctrl_c_while_the_run_is_written_waits_for_the_file(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from seqform.cli.commands import iterate as command

    _ctrl_c_as_built(monkeypatch, command, "iterate_document")
    output = tmp_path / "run.json"
    assert main(_json_run("kuhn", 30, output)) == 130
    validate_document(json.loads(output.read_text()))
    assert "it is written whole" in capsys.readouterr().err


def test_ctrl_c_while_qre_s_answer_is_written_waits_for_the_file(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # qre's trace was finished, but a Ctrl-C while its document was built ended the command
    # with nothing written
    from seqform.cli.commands import qre as command

    _ctrl_c_as_built(monkeypatch, command, "qre_result_document")
    output = tmp_path / "qre.json"
    arguments = ["qre", "kuhn", "--lambda", "1", "--quiet", "--format", "json"]
    assert main([*arguments, "--output", str(output)]) == 130
    document = json.loads(output.read_text())
    validate_document(document)
    assert [point["lambda"] for point in document["points"]] == [1.0]
    assert "it is written whole" in capsys.readouterr().err


def test_a_second_ctrl_c_while_the_run_is_written_raises() -> None:
    from seqform.cli.signals import deferred_interrupt

    with pytest.raises(KeyboardInterrupt), deferred_interrupt() as interrupted:
        os.kill(os.getpid(), signal.SIGINT)
        assert interrupted()
        os.kill(os.getpid(), signal.SIGINT)
        time.sleep(1)  # the handler runs before this returns
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler


def test_after_a_ctrl_c_that_stopped_the_run_the_next_ends_the_writing() -> None:
    # A turn spot's run stopped by Ctrl-C took 40 s to write its 262 MB document, and the
    # user's second Ctrl-C was taken as the block's first: only a third ended it.
    from seqform.cli.signals import deferred_interrupt

    with pytest.raises(KeyboardInterrupt), deferred_interrupt(already=True):
        os.kill(os.getpid(), signal.SIGINT)
        time.sleep(1)  # the handler runs before this returns
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler


def test_ctrl_c_in_the_reference_still_raises_outside_stop_on_interrupt(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(lp_reference, "solve_on_route", _interrupt)
    with pytest.raises(KeyboardInterrupt):
        seqform.iterate("kuhn", "cfr+", iterations=5)
    with stop_on_interrupt():
        run = seqform.iterate("kuhn", "cfr+", iterations=5)
    assert run.reference.status == "interrupted"


def test_a_reference_that_refuses_the_payoffs_is_reported_beside_the_run(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # payoffs of 1e300: the float LP refuses entries of 1e15 or more (its message)
    game = scaled_kuhn(tmp_path, 10**300)
    output = tmp_path / "run.json"
    code = main(_json_run(str(game), 20, output))
    assert code == 0
    document = json.loads(output.read_text())
    validate_document(document)
    assert document["iterations"] == 20
    assert document["reference"]["status"] == "failed"
    assert "HiGHS refuses LP entries" in document["reference"]["skipped"]
    assert "LP reference failed" in capsys.readouterr().err


# --- a certificate beyond the float range -----------------------------------------------------


@pytest.mark.filterwarnings("error::RuntimeWarning")
def test_the_certificate_refuses_sums_beyond_the_float_range(tmp_path: Path) -> None:
    # payoffs of ±1.7e308 and ±3.4e308 (beyond the largest float, 1.797e308: read as inf);
    # refused by name, with no numpy RuntimeWarning (inf - inf) printed on the way
    game = load_game(str(scaled_kuhn(tmp_path, 17 * 10**307)))
    first, second = (uniform_behaviour(table) for table in game.flat.tables)
    with pytest.raises(CertificateOverflowError, match="overflows the float range"):
        certify(game, first, second)


def _one_good_move(folder: Path) -> Path:
    """Payoffs of ±1.7e308, each a float, whose certificate passes the float range: of player
    1's three moves only the first wins, so at the uniform start its value is -1.7e308 / 3
    and its gain by best response 4 / 3 × 1.7e308 = 2.3e308."""
    big = 17 * 10**307
    path = folder / "one_good_move.efg"
    path.write_text(
        f"""EFG 2 R "one good move" {{ "Player 1" "Player 2" }}
""

p "" 1 1 "a" {{ "good" "bad" "worse" }} 0
t "" 1 "" {{ {big}, {-big} }}
t "" 2 "" {{ {-big}, {big} }}
p "" 2 1 "b" {{ "h" "t" }} 0
t "" 3 "" {{ {-big}, {big} }}
t "" 4 "" {{ {-big}, {big} }}
"""
    )
    return path


def test_a_run_whose_certificate_overflows_is_written_with_the_reason(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Every payoff a float (payoffs beyond the float range are refused before the run,
    # below); the sums of the certificate are not.
    game = _one_good_move(tmp_path)
    output = tmp_path / "run.json"
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        code = main(_json_run(str(game), 20, output, "--no-reference"))
    assert code == 3  # written, not certified
    # the verdict is said in words; numpy's "invalid value encountered" lines were printed too
    assert [str(w.message) for w in seen if issubclass(w.category, RuntimeWarning)] == []
    document = json.loads(output.read_text())
    validate_document(document)
    assert document["iterations"] == 20
    assert "float range" in document["certificate_failed"]
    assert document["players"] == [] and document["certificate"] is None
    assert "its certificate failed" in capsys.readouterr().err


@pytest.mark.parametrize("algorithm", ["cfr+", "xfp", "mccfr"])
def test_payoffs_beyond_the_float_range_are_refused_before_the_run(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], algorithm: str
) -> None:
    # ±1.7e308 × 2 is read exactly, and is inf as a float (the largest is 1.797e308): the
    # run iterated inf and nan and only its certificate failed (exit 3); now it is refused
    # before the first iteration, as `solve` refuses the float LP (exit 1).
    game = scaled_kuhn(tmp_path, 17 * 10**307)
    output = tmp_path / "run.json"
    code = main(["iterate", str(game), "--algorithm", algorithm, "--iterations", "5",
                 "--output", str(output)])  # fmt: skip
    assert code == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 + (algorithm == "mccfr")  # the default seed's line
    assert "error: terminal node 'JQ p b b' has payoffs (" in err
    assert "floating point cannot represent (the largest float is about 1.8e308)" in err
    assert f"{algorithm} computes in floats" in err and "solve GAME --exact" in err
    assert not output.exists()


def test_the_library_refuses_them_before_the_first_iteration(tmp_path: Path) -> None:
    from seqform.game.errors import InvalidGameError
    from seqform.iterative.cfr import cfr_plus
    from seqform.qre.equilibria import trace_logit

    game = load_game(str(scaled_kuhn(tmp_path, 17 * 10**307)))
    samples: list[Sample] = []
    with pytest.raises(InvalidGameError, match="cfr\\+ computes in floats"):
        cfr_plus(game, 5, every=1, on_sample=samples.append)
    assert samples == []
    steps: list[float] = []
    with pytest.raises(InvalidGameError, match="the logit QRE trace computes in floats"):
        trace_logit(game, progress=lambda lam, nash_conv: steps.append(lam))
    assert steps == []


# --- SIGTERM and SIGHUP ----------------------------------------------------------------------


@pytest.mark.parametrize("number", [signal.SIGTERM, signal.SIGHUP])
def test_sigterm_and_sighup_act_as_ctrl_c_inside_the_command(number: signal.Signals) -> None:
    before = signal.getsignal(number)
    if before is signal.SIG_IGN:  # pytest started under nohup: an ignored signal stays so
        with terminate_as_interrupt():
            assert signal.getsignal(number) is signal.SIG_IGN
        return
    with terminate_as_interrupt(), pytest.raises(KeyboardInterrupt):
        os.kill(os.getpid(), number)
        time.sleep(5)  # the handler runs at the next bytecode, well before this ends
    assert interrupted_code() == 128 + number
    assert signal.getsignal(number) is before


@pytest.mark.parametrize("number", [signal.SIGTERM, signal.SIGHUP], ids=lambda n: n.name)
def test_a_signalled_run_names_the_signal_it_received(number: signal.Signals) -> None:
    # the report said "stopped by an interrupt (Ctrl-C)" after SIGTERM (campaign)
    if signal.getsignal(number) is signal.SIG_IGN:
        pytest.skip(f"{number.name} is ignored here (pytest under nohup)")

    def signal_at(sample: Sample) -> None:
        if sample.iteration == 4:
            os.kill(os.getpid(), number)

    with terminate_as_interrupt(), stop_on_interrupt():
        run = seqform.iterate(
            "kuhn", "cfr", time_limit=60.0, every=2, on_sample=signal_at, reference=False
        )
    assert run.result.stopped == "interrupted" and run.result.interrupted_by == number.name
    document = iterate_document(run)
    validate_document(document)
    assert document["interrupted_by"] == number.name
    text = iterate_text(document)
    assert f"stopped by an interrupt ({number.name}), at an iteration boundary" in text
    assert "Ctrl-C" not in text


def _sleep(seconds: float) -> float:
    time.sleep(seconds)
    return seconds


@pytest.mark.slow
def test_a_forked_worker_told_to_end_ends() -> None:
    # a pool worker that turned SIGTERM into KeyboardInterrupt would send it back as the
    # task's exception and keep running, outliving the command
    with terminate_as_interrupt(), ProcessPoolExecutor(max_workers=1) as pool:
        future = pool.submit(_sleep, 30)
        while not future.running():
            time.sleep(0.05)
        (worker,) = list(pool._processes.values())
        time.sleep(0.2)
        worker.terminate()
        worker.join(timeout=20)
        # The pool's own thread reaps a worker that died too, and the two waits race: the
        # one that loses sees no child (ECHILD) and leaves the exit code to the other, which
        # sets it on the shared process object a moment later.
        deadline = time.monotonic() + 20  # a bound on waiting, not a timing claim
        while worker.exitcode is None and time.monotonic() < deadline:
            time.sleep(0.05)
        assert worker.exitcode == -signal.SIGTERM


@pytest.mark.slow
@pytest.mark.parametrize("number", [signal.SIGTERM, signal.SIGHUP])
def test_a_signalled_iterate_writes_the_run_so_far(number: signal.Signals, tmp_path: Path) -> None:
    output = tmp_path / "run.json"
    command = [sys.executable, "-m", "seqform", "iterate", "leduc", "--algorithm", "cfr"]
    command += ["--iterations", "100000000", "--every", "1", "--format", "json"]
    command += ["--output", str(output)]
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    # the signal at its default in the child, as at a terminal: under nohup SIGHUP comes
    # ignored, and the command rightly keeps an ignored signal ignored
    process = subprocess.Popen(
        command,
        cwd=ROOT,
        env=env,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=lambda: signal.signal(number, signal.SIG_DFL),
    )
    assert process.stderr is not None
    for line in process.stderr:
        if "NashConv" in line:  # iterating
            break
    process.send_signal(number)
    try:
        _, err = process.communicate(timeout=60)
    except subprocess.TimeoutExpired:
        process.kill()
        process.communicate()
        pytest.fail(f"iterate ignored {number.name} for 60 s")
    assert process.returncode == 128 + number, err
    document = json.loads(output.read_text())
    assert document["stopped"] == "interrupted"
    assert document["interrupted_by"] == number.name
    assert f"seqform: interrupted ({number.name}) after" in err
    assert "Traceback" not in err
