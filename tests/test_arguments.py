"""Public functions check their numeric and enumerated arguments (seqform.base.arguments):
a TypeError or ValueError naming the argument and the value, never an IndexError from deep
inside nor a value silently ignored."""

from __future__ import annotations

import math

import numpy as np
import pytest

import seqform
from seqform.base.arguments import (
    require_count,
    require_player,
    require_seconds,
    require_time_limit,
)


@pytest.mark.parametrize(
    ("call", "error", "words"),
    [
        pytest.param(
            lambda g: seqform.solve(g, time_limit=-1),
            ValueError,
            r"time_limit .* got -1",
            id="solve-negative",
        ),
        pytest.param(
            lambda g: seqform.solve(g, time_limit=math.nan),
            ValueError,
            r"time_limit .* got nan",
            id="solve-nan",
        ),
        pytest.param(
            lambda g: seqform.solve(g, time_limit="5"),
            TypeError,
            r"time_limit .* not str '5'",
            id="solve-str",
        ),
        pytest.param(
            lambda g: seqform.solve(g, max_nodes=-1),
            ValueError,
            r"max_nodes .* got -1",
            id="solve-nodes",
        ),
        pytest.param(
            lambda g: seqform.solve(g, method="normal", max_entries="x"),
            TypeError,
            r"max_entries",
            id="solve-entries",
        ),
        pytest.param(
            lambda g: seqform.refine(g, max_pivots=-1),
            ValueError,
            r"max_pivots .* got -1",
            id="refine-pivots",
        ),
        pytest.param(
            lambda g: seqform.refine(g, max_seconds=None),
            TypeError,
            r"max_seconds",
            id="refine-seconds",
        ),
        pytest.param(
            lambda g: seqform.refine(g, solver="clarabel"),
            seqform.OptionsError,
            r"--refine needs a simplex basis: use --solver simplex or ipm, not clarabel",
            id="refine-clarabel",  # as solve(refine=True) and --refine say it
        ),
        pytest.param(
            lambda g: seqform.solve(g, fix=3),
            TypeError,
            r"fix takes restrictions on behaviour: .*; not int 3",
            id="solve-fix-int",
        ),
        pytest.param(
            lambda g: seqform.solve(g, fix=["K:b=1", None]),
            TypeError,
            r"fix takes .*; not NoneType None among them",
            id="solve-fix-none",
        ),
        pytest.param(
            lambda g: seqform.solve(g, locks=5),
            TypeError,
            r"locks takes node locks: .*; not int 5",
            id="solve-locks-int",
        ),
        pytest.param(
            lambda g: seqform.solve(g, locks=[None]),
            TypeError,
            r"locks takes .*; not NoneType None among them",
            id="solve-locks-none",
        ),
        pytest.param(
            lambda g: seqform.iterate(g, "cfr", locks=5),
            TypeError,
            r"locks takes node locks",
            id="iterate-locks-int",
        ),
        pytest.param(
            lambda g: seqform.trace_logit(None),
            TypeError,
            r"trace_logit\(\) takes a Game, a game name or a path .*, not NoneType None",
            id="trace-logit-none",
        ),
        pytest.param(
            lambda g: seqform.logit_qre(None, [1.0]),
            TypeError,
            r"logit_qre\(\) takes a Game, a game name or a path",
            id="logit-qre-none",
        ),
        pytest.param(
            lambda g: seqform.compare(None),
            TypeError,
            r"compare\(\) takes a Game, a game name or a path",
            id="compare-none",
        ),
        pytest.param(
            lambda g: seqform.resolve(None, ()),
            TypeError,
            r"resolve\(\) takes a Game, a game name or a path",
            id="resolve-none",
        ),
        pytest.param(
            lambda g: seqform.resolve(g, 5),
            TypeError,
            r"blueprint must be both players' strategies .* or the path of a strategy "
            r"document .*, not int 5",
            id="resolve-blueprint-int",
        ),
        pytest.param(
            lambda g: seqform.named_opponent(g, "uniform", 5),
            ValueError,
            r"player .* got 5",
            id="opponent-player",
        ),
        pytest.param(
            lambda g: seqform.best_response(g, 2, {}),
            ValueError,
            r"player .* got 2",
            id="best-response-player",
        ),
        pytest.param(
            lambda g: seqform.compare(g, max_entries=0),
            ValueError,
            r"max_entries .* got 0",
            id="compare-entries",
        ),
        pytest.param(
            lambda g: seqform.equilibrium_ranges(g, seed=-1),
            ValueError,
            r"seed .* got -1",
            id="ranges-seed",
        ),
    ],
)
def test_bad_arguments_are_refused_naming_them(kuhn, call, error, words):
    with pytest.raises(error, match=words):
        call(kuhn)


def test_a_zero_time_limit_is_a_limit():
    # 0 stops at the first check (tests/test_scaling.py relies on it); None is no limit.
    assert require_time_limit("time_limit", 0) == 0.0
    assert require_time_limit("time_limit", None) is None
    with pytest.raises(TypeError, match="max_seconds must be a number of seconds, not NoneType"):
        require_seconds("max_seconds", None)


def test_counts_and_players_take_numpy_integers_and_refuse_bools():
    assert require_count("n", np.int64(3)) == 3
    assert require_player("player", np.int32(1), 2) == 1
    with pytest.raises(TypeError, match="n must be an integer, not bool True"):
        require_count("n", True)
    with pytest.raises(TypeError, match="player must be a player index"):
        require_player("player", 1.0, 2)
