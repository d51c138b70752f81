"""A hold'em spot's LP on the route policy: sized before it is built, a
turn refused with the estimate and the way out (vector CFR, or --force), a river solved on
the dense LP's default (HiGHS's interior point without crossover) and certified."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

import seqform
from seqform.certify import is_certified
from seqform.cli.main import main
from seqform.holdem import lp_work
from seqform.holdem.game import spot_game
from seqform.holdem.lp_work import LPWorkRefusedError, refuse_slow_lp
from seqform.holdem.spot import spot_from_mapping
from seqform.routes import structured
from seqform.routes.policy import choose_route
from seqform.structured.lp_model import build_structured_lp
from seqform.structured.lp_size import estimate_lp_size, estimate_reduced_lp_size
from seqform.structured.reductions.suit_reduction import reduce_by_suits

TURN = """\
board = "Ks7h2d9c"
pot = 6
effective_stack = 6
oop_range = "AA,AhKh,Qc9d"
ip_range = "AsKs,KhQh:0.5,9h8h"
bet_sizes = [1]
"""

RIVER = """\
board = "Ks7h2d9c4s"
pot = 10
effective_stack = 100
oop_range = "22+,A2s+,K9s+,QTs+,JTs,ATo+,KJo+"
ip_range = "22+,A2s+,K9s+,QTs+,JTs,T9s,98s,ATo+,KJo+,QJo"
bet_sizes = [0.5, 1.0]
raise_sizes = [1.0]
"""

EVERY_COMBO = (
    "22+,A2s+,K2s+,Q2s+,J2s+,T2s+,92s+,82s+,72s+,62s+,52s+,42s+,32s,"
    "A2o+,K2o+,Q2o+,J2o+,T2o+,92o+,82o+,72o+,62o+,52o+,42o+,32o"
)


class BuiltError(AssertionError):
    """The LP builder was reached."""


def _no_build(*args: object, **kwargs: object) -> None:
    raise BuiltError("the LP was built")


@pytest.fixture
def turn_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The small turn spot (2,816 LP variables) under a limit of 1,000 variables, and an LP
    builder that fails if reached."""
    path = tmp_path / "turn.toml"
    path.write_text(TURN)
    monkeypatch.setattr(lp_work, "SPOT_LP_VARIABLES", 1_000)
    monkeypatch.setattr(structured, "build_structured_lp", _no_build)
    return path


def test_a_turn_spot_is_refused_before_its_lp_is_built(turn_file: Path) -> None:
    with pytest.raises(LPWorkRefusedError) as refused:
        seqform.solve(str(turn_file))
    message = str(refused.value)
    assert "2,816 variables" in message
    assert f"seqform iterate {turn_file} --method structured --algorithm dcfr" in message
    assert "--force (force=True)" in message


def test_the_command_line_refuses_in_one_line_with_exit_code_1(
    turn_file: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # exit code 1, as the memory refusal (tests/test_memory.py) and ranges' work limit
    assert main(["solve", str(turn_file)]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "the spot's LP would have 2,816 variables" in err


def test_force_builds_the_lp_anyway(turn_file: Path) -> None:
    with pytest.raises(BuiltError):
        seqform.solve(str(turn_file), force=True)
    with pytest.raises(BuiltError):
        main(["solve", str(turn_file), "--force"])


def test_vector_cfr_on_a_refused_spot_still_runs(turn_file: Path) -> None:
    run = seqform.iterate(
        str(turn_file), "cfr+", iterations=5, method="structured", reference=False
    )
    assert run.result.iterations == 5


def test_a_turn_with_wide_ranges_is_refused_at_the_real_limit(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(structured, "build_structured_lp", _no_build)
    path = tmp_path / "turn.toml"
    path.write_text(
        TURN.replace('"AA,AhKh,Qc9d"', '"22+,A2s+"')
        .replace('"AsKs,KhQh:0.5,9h8h"', '"22+,A2s+"')
        .replace("effective_stack = 6", "effective_stack = 50")
    )
    with pytest.raises(LPWorkRefusedError, match="more than the 200,000 variables"):
        seqform.solve(str(path))


def test_the_full_range_river_is_under_the_limit_and_its_size_is_exact() -> None:
    # 66,562 variables: the built LP of docs/spots.md's full-range river (every combo, pot
    # 10, stacks 100, bets of half and one pot, raises of one pot)
    spot = {
        "board": "Ks7h2d9c4s",
        "pot": 10,
        "effective_stack": 100,
        "oop_range": EVERY_COMBO,
        "ip_range": EVERY_COMBO,
        "bet_sizes": [0.5, 1.0],
        "raise_sizes": [1.0],
    }
    size = refuse_slow_lp(spot_game(spot_from_mapping(spot, "full river")))
    assert size is not None and size.variables == 66_562


MONOTONE_TURN = """\
board = "Ks7s2s9s"
pot = 6
effective_stack = 6
oop_range = "AA,QQ"
ip_range = "JJ,TT"
bet_sizes = [1]
"""
"""A turn whose board and ranges are symmetric under the 6 permutations of h, d, c."""


def test_a_symmetric_spot_is_sized_by_the_lp_its_reduced_solve_builds(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # refuse_slow_lp sized the unreduced LP (4,389 variables), so a limit between it and the
    # suit-reduced LP the solve builds (1,261: reduce_by_suits(game).lp's columns) refused a
    # spot that solves at once
    game = spot_game(spot_from_mapping(_mapping(MONOTONE_TURN), "monotone turn"))
    reduced = estimate_reduced_lp_size(game)
    assert reduced is not None and reduced.variables == reduce_by_suits(game).lp.shape[1]
    assert estimate_lp_size(game).variables > 2_000 > reduced.variables
    monkeypatch.setattr(lp_work, "SPOT_LP_VARIABLES", 2_000)
    path = tmp_path / "monotone.toml"
    path.write_text(MONOTONE_TURN)
    assert choose_route(str(path), "structured").structured is not None
    with pytest.raises(LPWorkRefusedError, match="4,389 variables"):
        choose_route(str(path), "structured", suit_isomorphism=False)
    assert refuse_slow_lp(game, reduced=True) == reduced


@pytest.mark.parametrize("spot", [TURN, RIVER], ids=["turn", "river"])
def test_the_size_estimate_counts_the_built_lps_columns_and_bounds_its_nonzeros(
    spot: str,
) -> None:
    game = spot_game(spot_from_mapping(_mapping(spot), "spot"))
    size, lp = estimate_lp_size(game), build_structured_lp(game)
    assert size.variables == lp.shape[1]
    assert lp.matrix.nnz <= size.nonzeros <= 2 * lp.matrix.nnz


@pytest.mark.slow
def test_a_river_spot_solves_on_the_dense_default_and_is_certified(tmp_path: Path) -> None:
    # 192 x 210 combos: 7.2 non-zeros a column, above DENSE_COLUMNS, so HiGHS's interior
    # point without crossover; the certificate is the best responses', not the LP's
    path = tmp_path / "river.toml"
    path.write_text(RIVER)
    solution = seqform.solve(str(path))
    assert solution.stats.solver == "ipm without crossover"
    assert is_certified(solution.certificate)


def _mapping(text: str) -> dict[str, object]:
    return tomllib.loads(text)
