"""The iterative solvers by name, and the keyword arguments each takes from a run's
stopping rules: what ``iterate`` (:mod:`seqform.questions.iterate`), the command line and the
benchmarks look an algorithm up in."""

from __future__ import annotations

from collections.abc import Callable, Mapping

from seqform.iterative.cfr import cfr, cfr_plus, dcfr
from seqform.iterative.mccfr import external_sampling_mccfr
from seqform.iterative.rcfr import rcfr
from seqform.iterative.rules import SCHEDULED
from seqform.iterative.run import IterativeResult, OnSample, Stopping
from seqform.iterative.variants import (
    dcfr_plus,
    hs_dcfr15,
    hs_dcfr30,
    hs_pcfr_plus15,
    hs_pcfr_plus30,
    lcfr,
    pcfr_plus,
    pdcfr_plus,
)
from seqform.iterative.xfp import xfp
from seqform.routes.options import OptionsError

__all__ = ["ALGORITHMS", "SAMPLING", "solver_options"]

ALGORITHMS: Mapping[str, Callable[..., IterativeResult]] = {
    "cfr": cfr,
    "cfr+": cfr_plus,
    "dcfr": dcfr,
    "lcfr": lcfr,
    "pcfr+": pcfr_plus,
    "dcfr+": dcfr_plus,
    "pdcfr+": pdcfr_plus,
    "hs-dcfr30": hs_dcfr30,
    "hs-dcfr15": hs_dcfr15,
    "hs-pcfr+30": hs_pcfr_plus30,
    "hs-pcfr+15": hs_pcfr_plus15,
    "xfp": xfp,
    "rcfr": rcfr,
    "mccfr": external_sampling_mccfr,
}
"""The iterative solvers by name; only ``mccfr`` takes a seed.  ``pcfr+``, ``pdcfr+`` and
the scheduled ``hs-pcfr+30``, ``hs-pcfr+15`` also report their last iterate
(:attr:`IterativeResult.last_nash_conv`); the schedules (``hs-*``) need a number of
iterations."""

SAMPLING = frozenset({"mccfr"})


def solver_options(
    algorithm: str, stopping: Stopping, seed: int | None, on_sample: OnSample | None
) -> dict[str, object]:
    """The keyword arguments ``ALGORITHMS[algorithm]`` takes; a seed only for sampling ones."""
    if algorithm not in ALGORITHMS:
        raise ValueError(f"unknown algorithm {algorithm!r}; choose from {', '.join(ALGORITHMS)}")
    options: dict[str, object] = {
        "target": stopping.target,
        "time_limit": stopping.time_limit,
        "every": stopping.every,
        "on_sample": on_sample,
    }
    if algorithm in SCHEDULED and stopping.iterations is None:
        raise OptionsError(
            f"--algorithm {algorithm} schedules its parameters over the run's length: "
            "give --iterations (iterations=N)"
        )
    if algorithm in SAMPLING:
        options["seed"] = seed
    elif seed is not None:
        raise ValueError(f"{algorithm} is deterministic; a seed applies to mccfr only")
    return options
