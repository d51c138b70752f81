"""Deep ``.efg`` files: read in time linear in the file, refused before the work when too deep,
with progress and a working Ctrl-C.

The chains are :mod:`efg_chains`' (each decision stops or goes on; its own information set).
Reference values: pygambit's own reading of the same file.
"""

from __future__ import annotations

import io
import os
import re
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pygambit
import pytest
from efg_chains import chain_lines, write_chain

import seqform.game.formats.efg as efg
from seqform.base.progress import Step, listening
from seqform.cli.main import main
from seqform.game.errors import GameFormatError
from seqform.game.formats.efg import read_efg
from seqform.game.formats.efg_depth import quick_depth
from seqform.game.formats.efg_scan import scan_efg
from seqform.game.formats.from_gambit import game_from_gambit

ROOT = Path(__file__).resolve().parents[1]
CATALOGUE_FILES = sorted(Path(pygambit.__file__).parent.glob("catalog_data/**/*.efg"))


def chain_text(depth: int) -> str:
    return "\n".join(chain_lines(depth)) + "\n"


# --- pygambit's quadratic step is avoided -----------------------------------------------------


def test_a_chains_outcomes_are_kept_aside_from_pygambit():
    # pygambit 16.7 checks each new outcome's label against every earlier one
    # (GameRep::CheckOutcomeLabel): time quadratic in the outcomes, 15 s for a 40,000-level
    # chain.  The bytes it is handed must define none.
    scanned = scan_efg("chain.efg", chain_text(50).encode())
    assert len(pygambit.read_efg(io.BytesIO(scanned.data)).outcomes) == 0
    assert scanned.outcomes is not None and len(scanned.payoffs) == 51


@pytest.mark.parametrize("path", CATALOGUE_FILES, ids=lambda path: path.stem)
def test_a_file_read_with_its_outcomes_kept_aside_is_pygambits_game(path):
    gambit_game = pygambit.read_efg(str(path))
    try:
        expected = game_from_gambit(gambit_game)
    except ValueError:
        pytest.skip("not a game seqform solves")
    game = read_efg(path)
    assert game.root == expected.root


SHARED_OUTCOME = """\
EFG 2 R "shared" { "A" "B" }
p "" 1 1 "a" { "l" "r" } 0
t "" 1 "win" { 3/2 -3/2 }
p "" 2 1 "b" { "x" "y" } 2 "toll" { -.5 0.5 }
t "" 1
t "" 3 "lose" { -1e1 10 }
"""


def test_an_outcome_given_by_number_only_has_its_payoffs(tmp_path):
    scanned = scan_efg("shared.efg", SHARED_OUTCOME.encode())
    assert scanned.outcomes == (0, 1, 2, 1, 3)
    expected = game_from_gambit(pygambit.read_efg(io.BytesIO(SHARED_OUTCOME.encode())))
    path = tmp_path / "shared.efg"
    path.write_text(SHARED_OUTCOME)
    assert read_efg(path).root == expected.root


@pytest.mark.parametrize(
    ("outcome", "message"),
    [
        ('0 "x" { 1 -1 }', "null outcome"),  # the null outcome given payoffs
        ('1 "x" { 1 -1 2 }', "'}'"),  # a payoff too many
    ],  # an undefined outcome, which pygambit reports a line late: test_efg_files.py
)
def test_an_outcome_pygambit_refuses_is_left_to_it(outcome, message, tmp_path):
    path = tmp_path / "bad.efg"
    path.write_text(
        f'EFG 2 R "" {{ "A" "B" }}\np "" 1 1 "" {{ "l" "r" }} 0\nt "" {outcome}\nt "" 0\n'
    )
    with pytest.raises(ValueError, match=message) as direct:
        pygambit.read_efg(str(path))
    with pytest.raises(GameFormatError, match=message) as refusal:
        read_efg(path)
    line = re.search(r"line ([0-9]+)", str(direct.value))
    assert line is not None and refusal.value.line == int(line[1])


# --- refused before the work ------------------------------------------------------------------


def test_a_tree_too_deep_is_refused_before_the_pre_pass(tmp_path, monkeypatch):
    monkeypatch.setattr(efg, "MAX_DEPTH", 100)

    def no_pre_pass(*args: object) -> None:
        raise AssertionError("the whole pre-pass ran before the refusal")

    monkeypatch.setattr(efg, "scan_efg", no_pre_pass)
    path = write_chain(tmp_path / "chain.efg", 150)
    with pytest.raises(GameFormatError, match=r"the game tree is 151 levels deep"):
        read_efg(path)


def test_the_quick_depth_is_the_pre_passs():
    texts = [chain_text(40), SHARED_OUTCOME] + [path.read_text() for path in CATALOGUE_FILES]
    for text in texts:
        assert quick_depth(text) == scan_efg("game.efg", text.encode()).depth


@pytest.mark.parametrize(
    "text",
    [
        chain_text(3) + 't "" 0\n',  # a node after the tree
        chain_text(3).replace('"s1" { "stop" "go" } ', ""),  # an information set not defined
        chain_text(3)[:-30],  # the tree cut short
        chain_text(3).replace("1 -1", "1, -1 }}"),  # a brace too many
    ],
)
def test_a_file_outside_the_grammar_has_no_quick_depth(text):
    assert quick_depth(text) is None


# --- progress and Ctrl-C ----------------------------------------------------------------------


def test_a_deep_file_reports_its_progress_from_the_reading_thread(tmp_path):
    path = write_chain(tmp_path / "chain.efg", 2_000)  # deeper than the calling thread reads
    steps: list[Step] = []
    with listening(steps.append):
        read_efg(path)
    phases = {step.phase for step in steps}
    assert f"reading {path}" in phases and f"parsing {path} with pygambit" in phases
    converted = [step for step in steps if step.phase == "converting the tree"]
    assert converted[-1].finished and converted[-1].done == converted[-1].total == 4_001


def test_a_deep_file_without_room_for_its_reader_is_a_memory_error(tmp_path, monkeypatch):
    path = write_chain(tmp_path / "chain.efg", 2_000)

    def refuse(self):
        raise RuntimeError("can't start new thread")

    monkeypatch.setattr(threading.Thread, "start", refuse)
    with pytest.raises(MemoryError, match=r"MiB stack to read a game tree 2,0\d\d levels deep"):
        read_efg(path)


def test_the_command_line_names_the_reader_s_stack_that_did_not_fit(tmp_path, monkeypatch, capsys):
    path = write_chain(tmp_path / "chain.efg", 2_000)

    def refuse(self):
        raise RuntimeError("can't start new thread")

    monkeypatch.setattr(threading.Thread, "start", refuse)
    assert main(["solve", str(path), "--quiet"]) == 1
    err = capsys.readouterr().err
    assert re.search(r"seqform: error: out of memory: cannot start a thread with a \d+ MiB", err)


@pytest.mark.slow
def test_ctrl_c_stops_the_loading_of_a_deep_file(tmp_path):
    # A 40,000-level chain loads in 10 to 20 s on the 2-core test machine (loaded): the
    # signal comes while it loads.
    path = write_chain(tmp_path / "chain.efg", 40_000)
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    command = [sys.executable, "-m", "seqform", "solve", str(path), "--verbose"]
    process = subprocess.Popen(
        command, cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    assert process.stderr is not None
    lines = []
    for line in process.stderr:
        lines.append(line)
        if "building game" in line:
            break
    time.sleep(1.0)
    assert process.poll() is None, "the file was read before it could be interrupted"
    process.send_signal(signal.SIGINT)
    try:
        _, rest = process.communicate(timeout=30)
    except subprocess.TimeoutExpired:
        process.kill()
        process.communicate()
        pytest.fail("the load ignored SIGINT for 30 s")
    stderr = "".join(lines) + rest
    assert process.returncode == 130, stderr
    assert "Traceback" not in stderr
