"""seqform's CFR variants beside Xu et al.'s public code, run on the same machine.

Xu, Li, Liu, Fu, Fu, Xing and Cheng publish the code of their IJCAI 2024 paper (PCFR+,
DCFR+, PDCFR+, and the CFR, CFR+, DCFR and Linear CFR they compare with) at
github.com/rpSebastian/PDCFRPlus; its CFR, CFR+ and DCFR runs are where DDCFR's published
1,000-iteration numbers come from.  It is not a dependency of seqform: give the path of a
checkout (the directory holding ``pdcfrplus/``) with ``--code``.  Its logger imports torch
and wandb for logging only; a silent stand-in is put in its place before the import.

Run ``python -m benchmarks.xu_reference --code PATH [--game leduc] [--iterations 1000]
[--every 1000] [--algorithms pcfr+,dcfr+]``.  Per algorithm it prints both exploitabilities
(NashConv / 2; theirs by OpenSpiel, clamped below at 1e-12) at every ``--every``
iterations and their difference.  Theirs is pure python: about 1.5 minutes per 1,000
Leduc iterations of one algorithm.
"""

from __future__ import annotations

import argparse
import sys
import types

__all__ = ["THEIRS", "compare", "main"]

THEIRS = {
    "cfr": ("CFR", {}),
    "cfr+": ("CFRPlus", {}),
    "dcfr": ("DCFR", {}),
    "lcfr": ("LinearCFR", {}),
    "pcfr+": ("PCFRPlus", {"gamma": 2}),
    "dcfr+": ("DCFRPlus", {"gamma": 4, "alpha": 1.5}),
    "pdcfr+": ("PDCFRPlus", {"gamma": 5, "alpha": 2.3}),
}
"""seqform's name: their class and the parameters their README's scripts pass."""

GAMES = {"kuhn": "KuhnPoker", "leduc": "LeducPoker"}


class _SilentLogger:
    def __init__(self, *args: object, **kwargs: object) -> None:
        pass

    def record(self, *args: object, **kwargs: object) -> None:
        pass

    def dump(self, *args: object, **kwargs: object) -> None:
        pass


def _their_modules(code: str) -> tuple[types.ModuleType, types.ModuleType]:
    """Their ``pdcfrplus.cfr`` and ``pdcfrplus.game`` from the checkout at ``code``."""
    logger = types.ModuleType("pdcfrplus.utils.logger")
    logger.Logger = _SilentLogger  # type: ignore[attr-defined]
    sys.modules["pdcfrplus.utils.logger"] = logger
    sys.path.insert(0, code)
    import pdcfrplus.cfr as cfr
    import pdcfrplus.game.game_config as game_config

    return cfr, game_config


def compare(
    code: str, game_name: str, algorithm: str, iterations: int, every: int
) -> list[tuple[int, float, float]]:
    """``(iteration, theirs, seqform's)`` exploitability every ``every`` iterations."""
    from seqform.io.loader import load_game
    from seqform.questions.algorithms import ALGORITHMS

    cfr, game_config = _their_modules(code)
    class_name, parameters = THEIRS[algorithm]
    config = getattr(game_config, GAMES[game_name])(iterations=iterations)
    theirs = getattr(cfr, class_name)(config, **parameters)
    theirs.learn(eval_interval=every)
    ours = ALGORITHMS[algorithm](load_game(game_name), iterations, every=every)
    return [(s.iteration, theirs.exps[s.iteration], s.nash_conv / 2) for s in ours.history]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--code", required=True, help="a checkout of rpSebastian/PDCFRPlus")
    parser.add_argument("--game", choices=sorted(GAMES), default="kuhn")
    parser.add_argument("--iterations", type=int, default=1000)
    parser.add_argument("--every", type=int, default=1000)
    parser.add_argument("--algorithms", default=",".join(THEIRS))
    args = parser.parse_args()
    for algorithm in args.algorithms.split(","):
        for iteration, theirs, ours in compare(
            args.code, args.game, algorithm, args.iterations, args.every
        ):
            print(
                f"{args.game} {algorithm:7} {iteration:>6}  Xu et al. {theirs:.12e}  "
                f"seqform {ours:.12e}  difference {abs(theirs - ours):.1e}",
                flush=True,
            )


if __name__ == "__main__":
    main()
