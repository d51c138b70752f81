"""Work in a child process (:mod:`seqform.base.child`) and Clarabel run there: the answer and
the messages come back, errors and deaths are reported, the child ignores Ctrl-C and dies
with its parent, and Ctrl-C stops a solve whose child is busy in a call that never returns
(as Clarabel's set-up is, holding the GIL for seconds on a large LP)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

import numpy as np
import pytest

from seqform.base.child import ChildProcessFailed, run_in_child
from seqform.base.progress import Step, listening
from seqform.game.builtin.kuhn import kuhn_structured
from seqform.lp import clarabel
from seqform.structured.lp_model import build_structured_lp
from seqform.structured.lp_solve import structured_problem
from tests.processes import alive, gone

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="fork is not a start method")


def _counted(send) -> str:
    for number in range(3):
        send(number)
    return "answered"


def test_the_answer_and_the_messages_come_back_in_order() -> None:
    seen: list[int] = []
    assert run_in_child(_counted, seen.append) == "answered"
    assert seen == [0, 1, 2]


def _fails(send) -> None:
    raise ValueError("the child's own error")


def _killed(send) -> None:
    os.kill(os.getpid(), signal.SIGKILL)


def test_an_error_is_raised_here_and_a_death_is_named() -> None:
    with pytest.raises(ValueError, match="the child's own error"):
        run_in_child(_fails, print)
    with pytest.raises(ChildProcessFailed, match="killed by signal 9"):
        run_in_child(_killed, print)


def test_clarabel_in_a_child_solves_as_in_this_process(monkeypatch: pytest.MonkeyPatch) -> None:
    problem = structured_problem(build_structured_lp(kuhn_structured(13)))
    here = clarabel.run_clarabel(problem)
    monkeypatch.setattr(clarabel, "CHILD_NONZEROS", 0)
    steps: list[Step] = []
    with listening(steps.append):
        there = clarabel.run_clarabel(problem)
    # the same binary on the same LP: the same floats
    assert there.value == here.value and np.array_equal(there.primal, here.primal)
    assert np.array_equal(there.duals, here.duals)
    assert there.stats.iterations == here.stats.iterations
    counted = [step.done for step in steps if step.phase == "Clarabel" and not step.finished]
    assert counted == list(range(len(counted))) and len(counted) >= here.stats.iterations


_ORPHAN = """
import os, time
from seqform.base.child import run_in_child

def work(send):
    send(os.getpid())
    time.sleep(600)

run_in_child(work, lambda pid: print(pid, flush=True))
"""


@pytest.mark.skipif(sys.platform != "linux", reason="PR_SET_PDEATHSIG is Linux's")
def test_the_child_ignores_ctrl_c_and_dies_with_its_parent() -> None:
    parent = subprocess.Popen([sys.executable, "-c", _ORPHAN], stdout=subprocess.PIPE, text=True)
    assert parent.stdout is not None
    child = int(parent.stdout.readline())
    os.kill(child, signal.SIGINT)  # as a terminal's Ctrl-C reaches every process
    time.sleep(0.2)
    assert alive(child)  # the parent alone decides
    parent.kill()  # as `kill -9` or an out-of-memory kill: no clean-up runs
    parent.wait()
    assert gone(child)


# Clarabel's set-up stands for a call that never returns and never lets a signal in
_STUCK = """
import os, sys
from seqform.cli.main import main
from seqform.lp import clarabel

def stuck(*args):
    print(os.getpid(), file=sys.stderr, flush=True)
    while True:
        pass

clarabel.CHILD_NONZEROS = 0
clarabel._solver = stuck
sys.exit(main(["solve", "kuhn(cards=4)", "--method", "structured", "--solver", "clarabel"]))
"""


@pytest.mark.parametrize("stop", [signal.SIGINT, signal.SIGTERM])
def test_a_signal_stops_a_solve_whose_child_never_returns(stop: signal.Signals) -> None:
    process = subprocess.Popen(
        [sys.executable, "-c", _STUCK], stderr=subprocess.PIPE, stdout=subprocess.PIPE, text=True
    )
    assert process.stderr is not None
    child = None
    for line in process.stderr:
        if line.strip().isdigit():
            child = int(line)
            break
    assert child is not None and child != process.pid
    process.send_signal(stop)
    _, rest = process.communicate(timeout=60)  # a bound on waiting, not a timing claim
    assert process.returncode in (130, 143) and "interrupted" in rest and "Traceback" not in rest
    assert gone(child)


def _daemonic_answer(answers) -> None:
    from seqform.base.child import child_processes

    answers.put(child_processes())


def test_a_daemonic_process_runs_the_work_itself() -> None:
    import multiprocessing

    context = multiprocessing.get_context("fork")
    answers = context.Queue()
    worker = context.Process(target=_daemonic_answer, args=(answers,), daemon=True)
    worker.start()
    assert answers.get(timeout=60) is False  # multiprocessing lets no daemon have children
    worker.join()


def test_where_the_fork_is_refused_the_work_runs_here(monkeypatch: pytest.MonkeyPatch) -> None:
    import multiprocessing.process

    def refused(self) -> None:
        raise OSError(12, "Cannot allocate memory")

    monkeypatch.setattr(multiprocessing.process.BaseProcess, "start", refused)
    seen: list[int] = []
    assert run_in_child(_counted, seen.append) == "answered" and seen == [0, 1, 2]
