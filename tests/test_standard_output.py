"""The result on stdout when stdout fails: a full disk is an error naming stdout, exit 1;
a reader that stops reading (``| head -1``) is not an error (:mod:`seqform.cli.streams`)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from seqform.cli.errors import EXIT_PIPE_CLOSED

ROOT = Path(__file__).resolve().parent.parent
ENV = {**os.environ, "PYTHONPATH": str(ROOT)}


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="no /dev/full here (Linux has it)")
@pytest.mark.parametrize("form", ["text", "json"])
def test_a_full_disk_under_stdout_is_one_line_naming_stdout(form: str) -> None:
    # was "seqform: error: [Errno 28] No space left on device": which file?
    with open("/dev/full", "w") as full:
        done = subprocess.run(
            [sys.executable, "-m", "seqform", "solve", "kuhn", "--quiet", "--format", form],
            stdout=full,
            stderr=subprocess.PIPE,
            text=True,
            env=ENV,
            check=False,
        )
    assert done.returncode == 1
    assert done.stderr == (
        "seqform: error: cannot write to standard output: No space left on device\n"
    )


def test_a_reader_that_stops_reading_is_not_an_error() -> None:
    process = subprocess.Popen(
        [sys.executable, "-m", "seqform", "solve", "leduc", "--quiet", "--format", "json"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=ENV,
    )
    assert process.stdout is not None and process.stderr is not None
    # Closed before the solve ends, so that the first write meets it (a reader that leaves
    # later may find the report already written: a pipe may hold more than it takes here).
    process.stdout.close()
    assert process.wait(timeout=120) == EXIT_PIPE_CLOSED
    assert process.stderr.read() == b""


def test_a_reader_of_stderr_that_leaves_loses_no_result(tmp_path: Path) -> None:
    # `iterate ... --output it.json 2>&1 | head -1` ended with exit 141 at the second
    # progress line and never wrote it.json: the log's reader had left, not the result's
    output = tmp_path / "it.json"
    command = ["iterate", "leduc", "--algorithm", "cfr+", "--iterations", "300", "--every", "10"]
    process = subprocess.Popen(
        [sys.executable, "-m", "seqform", *command, "--output", str(output)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=ENV,
    )
    assert process.stdout is not None and process.stderr is not None
    process.stderr.close()  # before the first progress line
    assert process.wait(timeout=120) == 0
    assert process.stdout.read() == b""
    assert json.loads(output.read_text())["iterations"] == 300
