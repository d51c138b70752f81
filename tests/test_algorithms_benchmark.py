"""benchmarks/algorithms.py on Kuhn with tiny budgets: its rows are what the runs measured."""

from __future__ import annotations

from benchmarks.algorithms import SEEDS_RANKING, RankingRow, _rank_key, ranking


def test_ranking_rows_read_the_runs_history():
    rows = ranking("kuhn", 0.05, ["cfr", "pdcfr+", "xfp"])
    assert sorted(row.algorithm for row in rows) == ["cfr", "pdcfr+", "xfp"]
    for row in rows:
        assert row.history and row.history[-1][2] == row.nash_conv
        for reached, target in zip(row.reached, (1e-3, 1e-6), strict=True):
            if reached is not None:
                first = next(s for s in row.history if s[2] <= target)
                assert reached == (first[0], first[1])
    # Which algorithm comes first depends on the machine's load: only the order is checked.
    assert rows == sorted(rows, key=_rank_key)
    assert set(SEEDS_RANKING) <= {"dcfr", "cfr+", "rcfr", "cfr", "xfp"}


def test_ranking_puts_the_first_to_reach_1e_3_first_then_the_lowest_nash_conv():
    def row(name: str, reached: tuple[int, float] | None, nash_conv: float) -> RankingRow:
        return RankingRow("kuhn", name, (reached, None), 10, 1.0, nash_conv, None, ())

    rows = [row("slow", (90, 0.9), 1e-7), row("never-b", None, 2e-3), row("fast", (5, 0.1), 1e-4)]
    rows.append(row("never-a", None, 1e-3))
    ordered = [r.algorithm for r in sorted(rows, key=_rank_key)]
    assert ordered == ["fast", "slow", "never-a", "never-b"]


def test_roundoff_spread_perturbs_only_when_asked():
    from benchmarks.roundoff import roundoff_spread
    from seqform.io.loader import load_game
    from seqform.iterative.cfr import solve_with_rule
    from seqform.iterative.rules import RULES, for_run
    from seqform.iterative.run import Stopping

    plain = solve_with_rule(
        load_game("kuhn"),
        for_run(RULES["hs-dcfr30"], 60),
        "hs-dcfr30",
        Stopping(60, None, None, 60),
    )
    unperturbed = roundoff_spread("kuhn", "hs-dcfr30", 2, iterations=60, scale=0.0)
    assert unperturbed.values == (plain.nash_conv / 2,) * 2
    perturbed = roundoff_spread("kuhn", "hs-dcfr30", 3, iterations=60, scale=1e-6)
    assert len(set(perturbed.values)) == 3  # one draw per seed
    assert perturbed.median == sorted(perturbed.values)[1]
    assert perturbed.share_below(max(perturbed.values)) == 2 / 3
