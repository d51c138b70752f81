"""Nothing of HiGHS's reaches stdout: highspy 1.16 prints a banner from C++ on file
descriptor 1 when a process makes its first ``Highs`` (seqform/lp/highs.py, ``new_highs``).

The banner comes once per process, so each check runs in a fresh one; with an older highspy
the checks hold trivially, with 1.16 they fail without ``new_highs``.
"""

from __future__ import annotations

import json
import subprocess
import sys

import pytest


def fresh_process(code: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=False
    )


@pytest.mark.parametrize("backend", ["highs", "cvxpy"])
def test_solve_json_on_stdout_is_only_the_json(backend):
    finished = fresh_process(
        "import sys; from seqform.cli.main import main; "
        f"sys.exit(main(['solve', 'kuhn', '--format', 'json', '--backend', '{backend}']))"
    )

    assert finished.returncode == 0, finished.stderr
    assert finished.stdout.startswith("{")
    assert json.loads(finished.stdout)["value_fraction"] == "-1/18"  # Kuhn (1950)


def test_making_a_highs_prints_nothing_and_keeps_stdout_working():
    finished = fresh_process(
        "from seqform.lp.highs import new_highs; new_highs(); new_highs(); print('after')"
    )

    assert finished.returncode == 0, finished.stderr
    assert finished.stdout == "after\n"
