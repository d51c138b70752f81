"""Fuzzing the ``.efg`` reader: random corruptions of valid files are either
refused cleanly or read correctly, never a traceback and never a wrong answer.

Each example takes a valid file and corrupts it once: truncated, a line deleted or
duplicated, a character replaced or inserted, two tokens swapped.  Then

* the library's :func:`read_efg` raises :class:`GameFormatError` or
  :class:`InvalidGameError` with a one-line message that names the file, or returns a game;
* a returned game is solved and certified, and when pygambit reads the same file its own
  exact strategic-form LP (``lp_solve(rational=True, use_strategic=True)``; Koller, Megiddo
  and von Stengel 1996 for the sequence form it is checked against) gives the same value;
* ``python -m seqform solve FILE`` (in process) exits 0, or 1 with one line on stderr.
"""

from __future__ import annotations

import io
import re
from fractions import Fraction
from pathlib import Path

import pygambit
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_efg import CHANCE_BELOW_ROOT, INNER_OUTCOMES

from seqform.cli.main import main
from seqform.game.builtin.kuhn import kuhn_poker
from seqform.game.errors import GameFormatError, InvalidGameError
from seqform.game.formats.efg import read_efg
from seqform.io.export import efg_text
from seqform.routes.solve import solve

TOLERANCE = 1e-9  # HiGHS's value against pygambit's exact rational LP

# test_efg's files, the second with decimal and comma-separated payoffs and node labels.
CHANCE_AND_DECIMALS = (
    CHANCE_BELOW_ROOT.replace("{ 2 -2 }", "{ 2.5 -2.5 }")
    .replace('t "" 2 "" { 1 -1 }', 't "" 2 "" { 1, -1 }')
    .replace('p "" 1 1 "start"', 'p "start" 1 1 "start"')
)

NON_ASCII = """\
EFG 2 R "Cache-cache à deux" { "Cacheur" "Chercheur" }
"Qui trouve gagne — un jeu à somme nulle"

p "début" 1 1 "cacher" { "gauche" "droite" } 0
p "" 2 1 "chercher" { "à gauche" "à droite" } 0
t "trouvé" 1 "trouvé" { -1 1 }
t "" 2 "manqué" { 2 -2 }
p "" 2 1 0
t "" 3 "manqué à droite" { 1 -1 }
t "" 4 "trouvé à droite" { -1 1 }
"""

VALID = {
    "inner-outcomes": INNER_OUTCOMES,
    "chance": CHANCE_AND_DECIMALS,
    "non-ascii": NON_ASCII,
    "kuhn": efg_text(kuhn_poker()),
}


def _tokens(text: str) -> list[re.Match[str]]:
    return list(re.finditer(r'"(?:[^"\\]|\\.)*"|[^\s"]+', text))


@st.composite
def corruptions(draw: st.DrawFn) -> tuple[str, str]:
    """A valid file's name and its text corrupted once."""
    name = draw(st.sampled_from(sorted(VALID)))
    text = VALID[name]
    lines = text.splitlines(keepends=True)
    kind = draw(st.sampled_from(["truncate", "delete", "duplicate", "replace", "insert", "swap"]))
    if kind == "truncate":
        return name, text[: draw(st.integers(0, len(text) - 1))]
    if kind in ("delete", "duplicate"):
        line = draw(st.integers(0, len(lines) - 1))
        lines[line : line + 1] = [] if kind == "delete" else [lines[line]] * 2
        return name, "".join(lines)
    if kind == "swap":
        tokens = _tokens(text)
        first, second = sorted(
            draw(st.lists(st.integers(0, len(tokens) - 1), min_size=2, max_size=2, unique=True))
        )
        a, b = tokens[first], tokens[second]
        return name, (text[: a.start()] + b[0] + text[a.end() : b.start()] + a[0] + text[b.end() :])
    position = draw(st.integers(0, len(text) - 1))
    char = draw(st.sampled_from([*'0123456789-+./eE{},"\\ \nptcxé\t', "\x00", "\ufeff"]))
    end = position + 1 if kind == "replace" else position
    return name, text[:position] + char + text[end:]


def _gambit_value(data: bytes) -> Fraction | None:
    """pygambit's value to the first player of the file, or None if it cannot give one."""
    try:
        game = pygambit.read_efg(io.BytesIO(data))
        if len(game.players) != 2:
            return None
        result = pygambit.nash.lp_solve(game, rational=True, use_strategic=True)
        return Fraction(result.equilibria[0].payoff(next(iter(game.players))))
    except Exception:  # pygambit refuses the file or the game (not two-player zero-sum)
        return None


def _check_library(path: Path, data: bytes) -> None:
    try:
        game = read_efg(path)
    except (GameFormatError, InvalidGameError) as exc:
        message = str(exc)
        assert message and "\n" not in message and str(path) in message
        assert "_M_range_check" not in message and "codec" not in message
        return
    try:
        solution = solve(game)
    except InvalidGameError as exc:  # read as a game, refused by the LP (general-sum, say)
        assert "zero-sum" in str(exc) or "two players" in str(exc)
        return
    assert solution.nash_conv <= 1e-9  # NashConv by best response
    reference = _gambit_value(data)
    if reference is not None:
        assert solution.value == pytest.approx(float(reference), abs=TOLERANCE)


SETTINGS = settings(
    max_examples=120,
    derandomize=True,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)


@pytest.mark.parametrize("name", sorted(VALID))
def test_every_valid_file_reads_and_agrees_with_gambit(tmp_path, name):
    path = tmp_path / f"{name}.efg"
    data = VALID[name].encode()
    path.write_bytes(data)
    assert read_efg(path)  # no error on the uncorrupted file
    if name != "non-ascii":  # pygambit 16.7 refuses non-ASCII labels
        assert _gambit_value(data) is not None  # so the fuzz test compares values
    _check_library(path, data)


@SETTINGS
@given(corrupted=corruptions())
def test_a_corrupted_file_is_refused_cleanly_or_read_correctly(tmp_path, capsys, corrupted):
    name, text = corrupted
    path = tmp_path / f"{name}.efg"
    data = text.encode()
    path.write_bytes(data)
    _check_library(path, data)
    capsys.readouterr()
    code = main(["solve", str(path)])
    err = capsys.readouterr().err
    if code == 0:
        assert err == ""
    else:
        assert code == 1
        assert err.startswith("seqform: error:") and err.count("\n") == 1
