"""3-player Kuhn poker's logit QRE limit against Gambit's, the check the suite leaves out
for its time.

Run ``python -m benchmarks.qre_kuhn3_limit``.  The suite compares the traced limit with
pygambit's ``logit_solve`` on the two-player games (``tests/test_qre.py``,
``test_traced_limit_matches_gambits_logit_solve``); on 3-player Kuhn, Gambit's branch alone
takes about a minute to trace, so the same check runs here: Gambit's limit (its
``logit_solve_branch`` at maxregret 1e-7, whose last point is what ``logit_solve``
returns) is a point of seqform's branch — seqform's QRE at the λ where Gambit's trace
stopped is Gambit's profile to 1e-4 — and seqform's own limit (NashConv and agent regret
both at most 1e-7 of the payoff range) lies at least as far along the branch and within
1e-3 of it (Gambit's trace ends near λ ≈ 1.1e4, seqform's near 5.8e5).
"""

from __future__ import annotations

import numpy as np

LIMIT_TOLERANCE = 1e-7
"""Both stop rules, as the suite's two-player comparison uses them."""


def main() -> int:
    """Run the check (module docstring); 0 when it holds."""
    import pygambit

    from seqform.game.builtin.kuhn3 import multiplayer_kuhn
    from seqform.game.formats.to_gambit import game_to_gambit, sequence_probabilities
    from seqform.qre.equilibria import logit_qre, trace_logit

    game = multiplayer_kuhn(3)
    gambit_game = game_to_gambit(game)
    end = pygambit.qre.logit_solve_branch(gambit_game, maxregret=LIMIT_TOLERANCE)[-1]
    expected = sequence_probabilities(game, gambit_game, end)
    there = logit_qre(game, [end.lam]).points[0]
    ours = np.concatenate([s.probabilities[1:] for s in there.strategies])
    at_gambits = float(np.max(np.abs(ours - expected)))
    branch = trace_logit(game, tolerance=LIMIT_TOLERANCE)
    limit = np.concatenate([s.probabilities[1:] for s in branch.limit.strategies])
    at_limits = float(np.max(np.abs(limit - expected)))
    ends = branch.lambdas[-1]
    print(f"Gambit's limit at λ = {end.lam:.4g}; seqform's branch ends at λ = {ends:.4g}")
    print(f"  seqform at Gambit's λ: {at_gambits:.2e} from Gambit's profile (at most 1e-4)")
    print(f"  seqform's limit: {at_limits:.2e} from Gambit's (at most 1e-3)")
    held = (
        at_gambits <= 1e-4
        and at_limits <= 1e-3
        and branch.converged
        and branch.lambdas[-1] >= end.lam * (1 - 1e-6)
        and branch.agent_regret <= LIMIT_TOLERANCE * branch.payoff_range
    )
    print("qre_kuhn3_limit: OK" if held else "qre_kuhn3_limit: FAILED")
    return 0 if held else 1


if __name__ == "__main__":
    raise SystemExit(main())
