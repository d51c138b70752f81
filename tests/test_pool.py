"""The worker pools of :mod:`seqform.base.pool`: answers in order, errors passed on, workers
that read the parent's memory, ignore Ctrl-C and die with their parent."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

import pytest

from seqform.base.pool import forked_map
from tests.processes import alive, gone

pytestmark = pytest.mark.skipif(sys.platform != "linux", reason="fork and PR_SET_PDEATHSIG")


def test_answers_come_in_order_from_other_processes() -> None:
    shared = list(range(100))  # read in the workers as it was at the fork: not pickled

    def work(index: int) -> tuple[int, int]:
        time.sleep(0.01 * (index % 3))  # finished out of order
        return shared[index] ** 2, os.getpid()

    answers = list(forked_map(work, 12, workers=2))
    assert [square for square, _ in answers] == [i * i for i in range(12)]
    pids = {pid for _, pid in answers}
    assert os.getpid() not in pids and len(pids) == 2


def test_one_worker_runs_here() -> None:
    answers = list(forked_map(lambda index: (index, os.getpid()), 3, workers=1))
    assert answers == [(0, os.getpid()), (1, os.getpid()), (2, os.getpid())]


def test_a_workers_error_reaches_the_caller() -> None:
    def work(index: int) -> int:
        if index == 3:
            raise ValueError(f"subgame {index} has no answer")
        return index

    answers = forked_map(work, 6, workers=2)
    assert [next(answers) for _ in range(3)] == [0, 1, 2]
    with pytest.raises(ValueError, match="subgame 3 has no answer"):
        next(answers)


_ORPHANS = """
import os, sys, time
from seqform.base.pool import forked_map

def work(index):
    os.write(1, f"{os.getpid()}\\n".encode())  # one write: the two workers' lines do not mix
    time.sleep(600)

for _ in forked_map(work, 2, workers=2):
    pass
"""


def test_workers_die_with_their_parent_and_ignore_ctrl_c() -> None:
    parent = subprocess.Popen([sys.executable, "-c", _ORPHANS], stdout=subprocess.PIPE, text=True)
    assert parent.stdout is not None
    workers = [int(parent.stdout.readline()) for _ in range(2)]
    assert len(set(workers)) == 2 and parent.pid not in workers
    for pid in workers:
        os.kill(pid, signal.SIGINT)  # as a terminal's Ctrl-C reaches every process
    time.sleep(0.2)
    assert all(alive(pid) for pid in workers)  # the parent alone decides
    parent.kill()  # as `kill -9` or an out-of-memory kill: no clean-up runs
    parent.wait()
    assert all(gone(pid) for pid in workers)


def test_ctrl_c_in_the_parent_stops_the_workers_at_once() -> None:
    parent = subprocess.Popen([sys.executable, "-c", _ORPHANS], stdout=subprocess.PIPE, text=True)
    assert parent.stdout is not None
    workers = [int(parent.stdout.readline()) for _ in range(2)]
    start = time.monotonic()
    parent.send_signal(signal.SIGINT)
    parent.wait(timeout=10)
    assert time.monotonic() - start < 2.0
    assert parent.returncode != 0
    assert all(gone(pid) for pid in workers)
