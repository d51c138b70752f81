"""Fuzzing the one strategy-file reader: whatever JSON a file holds, reading it
returns a checked strategy or raises StrategyFileError, and nothing else."""

import json
from fractions import Fraction

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from seqform.game.builtin.kuhn import kuhn_poker
from seqform.io.strategy_files import (
    StrategyFileError,
    read_restriction_file,
    read_strategy_file,
)

KUHN = kuhn_poker()
NAMES = ["J", "Q", "K", "Jp", "Jb", "Jpb", "Qpb", "Kb", "p", "b", "check", "bet", "fold"]
KEYS = [
    "strategies",
    "infosets",
    "player",
    "name",
    "actions",
    "action",
    "probability",
    "schema",
    *NAMES,
]
NUMBERS = st.one_of(
    st.integers(min_value=-(10**30), max_value=10**30),
    st.floats(allow_nan=False, allow_infinity=False),
    st.sampled_from([0, 1, 2, -1, 0.5, 1e-300, 1e300, 5e-324]),
    st.sampled_from(["1/3", "2/3", "1e100000", "1e-100000", "0e99999999", "1/0", "x", ""]),
    st.builds(lambda e: f"1e{e}", st.integers(-(10**12), 10**12)),
)
SCALARS = st.one_of(st.none(), st.booleans(), NUMBERS, st.sampled_from(NAMES), st.text(max_size=5))
SHAPES = st.recursive(
    SCALARS,
    lambda inner: st.one_of(
        st.lists(inner, max_size=4),
        st.dictionaries(st.one_of(st.sampled_from(KEYS), st.text(max_size=3)), inner, max_size=5),
    ),
    max_leaves=25,
)
SETTINGS = settings(
    max_examples=200, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)


def _valid(read, player):
    table = KUHN.flat.tables[read.player]
    assert player is None or read.player == player
    assert list(read.probabilities) == list(table.infosets)
    for odds in read.probabilities.values():
        assert sum(odds.values()) == 1
        assert all(isinstance(p, Fraction) and 0 <= p <= 1 for p in odds.values())


@SETTINGS
@given(document=SHAPES, player=st.sampled_from([None, 0, 1]))
def test_any_json_is_a_strategy_or_a_strategy_file_error(tmp_path, document, player):
    path = tmp_path / "fuzz.json"
    path.write_text(json.dumps(document))
    try:
        read = read_strategy_file(path, KUHN, player)
    except StrategyFileError as exc:
        assert str(path) in str(exc)
    else:
        _valid(read, player)


@SETTINGS
@given(document=SHAPES)
def test_any_json_is_a_restriction_or_a_strategy_file_error(tmp_path, document):
    path = tmp_path / "fuzz.json"
    path.write_text(json.dumps(document))
    try:
        ranges = read_restriction_file(path)
    except StrategyFileError as exc:
        assert str(path) in str(exc)
    else:
        for actions in ranges.values():
            assert all(0 <= r.lower <= r.upper <= 1 for r in actions.values())


@SETTINGS
@given(text=st.text(alphabet='[]{}":,0123456789.eE-+ntrufalsx\\ ', max_size=60))
def test_any_text_is_read_or_refused(tmp_path, text):
    path = tmp_path / "fuzz.json"
    path.write_text(text)
    try:
        read_restriction_file(path)
    except StrategyFileError as exc:
        assert str(path) in str(exc)


@settings(SETTINGS, max_examples=80)
@given(
    strategy=st.fixed_dictionaries(
        {
            name: st.fixed_dictionaries({"p": st.fractions(0, 1)})
            for name in KUHN.flat.tables[0].infosets
        }
    )
)
def test_a_valid_strategy_is_read(tmp_path, strategy):
    document = {
        name: {"p": str(odds["p"]), "b": str(1 - odds["p"])} for name, odds in strategy.items()
    }
    path = tmp_path / "valid.json"
    path.write_text(json.dumps(document))
    read = read_strategy_file(path, KUHN)
    _valid(read, 0)
    assert all(read.probabilities[n]["p"] == strategy[n]["p"] for n in strategy)
