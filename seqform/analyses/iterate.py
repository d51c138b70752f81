"""An iterative run measured against the exact answer: the CFR family beside the LP.

:func:`iterate` runs one solver of :mod:`seqform.iterative` (:data:`SOLVERS`: the CFR
family, fictitious play, regression CFR, external-sampling MCCFR) and measures its
average profile ``σ̄`` twice:

* by best responses on the tree: each player's value ``u_i(σ̄)``, best-response value and
  gain, and NashConv ``Σ_i (max_{σ'_i} u_i(σ'_i, σ̄_{-i}) − u_i(σ̄))``
  (:func:`seqform.certify.certify_profile`, any number of players; for a two-player
  zero-sum game also :func:`seqform.certify.certify`, the certificate of ``solve``);
* against the LP (:func:`reference`), for two-player zero-sum games, on the route
  ``solve`` takes (:mod:`seqform.analyses.route`: the structured route for a built-in game
  named by its spec whose tree is large, else the tree), skipped with a one-line note where
  it would be slow (over :data:`LP_MAX_SEQUENCES` sequences per player or
  :data:`REFERENCE_TREE_NODES` nodes on the tree, over :data:`REFERENCE_STRUCTURED_SEQUENCES`
  sequences on the structured route) or when not asked for (``reference=False``): the
  distance ``|u_0(σ̄) − v*|`` to the exact value ``v*`` and, for each player whose set of
  optimal realization plans is a single point, the distance to that equilibrium strategy,

      max over h reached by the equilibrium plan, a at h  of  |b̄(a | h) − b*(a | h)|,

  where ``b*`` is the LP's behavioural strategy (unique at every information set its own
  plan reaches, ``x*[parent(h)] > 0``; elsewhere any behaviour is optimal, so those sets
  are left out).  Uniqueness is decided, not assumed: the dimension of each player's
  optimal set comes from :func:`seqform.analyses.ranges.equilibrium_ranges` (dimension 0:
  unique), computed for games with at most :data:`RANGES_MAX_SEQUENCES` sequences per
  player (it solves about four LPs per action; Leduc would take minutes).  A player whose
  set is larger gets no strategy distance (the nearest equilibrium strategy is then not
  the LP's vertex).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass

from seqform.analyses.lp_reference import (
    LP_MAX_SEQUENCES,
    RANGES_MAX_SEQUENCES,
    REFERENCE_STRUCTURED_SEQUENCES,
    REFERENCE_TREE_NODES,
    LpReference,
    PlayerDistance,
    reference,
    structured_reference,
    tree_reference,
)
from seqform.analyses.route import (
    ITERATE_METHODS,
    OptionsError,
    choose_route,
    refuse_tree_beyond_memory,
    resolve_method,
)
from seqform.certify import Certificate, NPlayerCertificate, certify, certify_profile
from seqform.game.loader import load_game
from seqform.game.model import Game
from seqform.game.public_tree import StructuredGame
from seqform.game.requirements import is_two_player_zero_sum
from seqform.iterative.cfr import cfr, cfr_plus, dcfr
from seqform.iterative.mccfr import DEFAULT_SEED, external_sampling_mccfr
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
from seqform.structured.responses import certify as structured_certify
from seqform.structured.vector_cfr import VECTOR_ALGORITHMS, vector_cfr

__all__ = [
    "DEFAULT_SEED",
    "LP_MAX_SEQUENCES",
    "RANGES_MAX_SEQUENCES",
    "REFERENCE_STRUCTURED_SEQUENCES",
    "REFERENCE_TREE_NODES",
    "SOLVERS",
    "IterativeRun",
    "LpReference",
    "PlayerDistance",
    "iterate",
    "reference",
]

SOLVERS: Mapping[str, Callable[..., IterativeResult]] = {
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


@dataclass(frozen=True)
class IterativeRun:
    """An iterative run with its measurements.

    result : what the solver returned (average strategies, history, why it stopped)
    stopping : the rules it ran under
    profile : each player's value, best-response value and gain, and NashConv
    certificate : the two-player zero-sum certificate (None for other games)
    reference : the LP beside it
    """

    game: Game
    result: IterativeResult
    stopping: Stopping
    profile: NPlayerCertificate
    certificate: Certificate | None
    reference: LpReference

    @property
    def values(self) -> tuple[float, ...]:
        """Each player's expected payoff under the average profile (the value estimate)."""
        return self.profile.values


def iterate(
    game: Game | str | os.PathLike[str],
    algorithm: str,
    stopping: Stopping,
    *,
    seed: int | None = None,
    on_sample: OnSample | None = None,
    method: str = "auto",
    reference: bool = True,
    force: bool = False,
    max_nodes: int | None = None,
    progress: Callable[[str], None] | None = None,
    with_reference: bool | None = None,
) -> IterativeRun:
    """Run ``algorithm`` (a key of :data:`SOLVERS`) under ``stopping`` and measure it.

    ``game`` is a built game, or a spec or path: then its tree is refused before it is built
    when it would not fit in memory (unless ``force``), and the LP reference follows the
    route ``solve`` takes for that spec (module docstring).  ``method`` is the layout the
    CFR family runs on (:data:`~seqform.analyses.route.ITERATE_METHODS`; ``"auto"`` is the
    tree).  ``seed`` is for ``mccfr`` only (default :data:`DEFAULT_SEED`); ``on_sample`` sees
    each NashConv sample (return True to stop); ``reference=False`` skips the LP reference
    (``with_reference`` is its older name); ``progress`` hears the reference's stages.

    Raises
    ------
    OptionsError
        For a method the CFR family does not run on.
    ValueError
        For an unknown algorithm, or a seed given to a deterministic one (an
        :class:`OptionsError`, also a ``ValueError``, for a scheduled one without
        ``stopping.iterations``).
    MemoryRefusedError
        For a tree that would not fit in memory (unless ``force``).
    """
    chosen = resolve_method(method, ITERATE_METHODS)
    options = _solver_options(algorithm, stopping, seed, on_sample)
    spec = game if isinstance(game, str) else None
    wanted = reference if with_reference is None else with_reference
    structured = _structured_game(game, chosen, algorithm, force)
    if structured is not None:
        return _iterate_structured(structured, algorithm, stopping, on_sample, wanted, progress)
    tree = _load(game, force, max_nodes)
    result = SOLVERS[algorithm](tree, stopping.iterations, **options)
    strategies = result.strategies
    two_player = is_two_player_zero_sum(tree)
    return IterativeRun(
        game=tree,
        result=result,
        stopping=stopping,
        profile=certify_profile(tree, strategies),
        certificate=certify(tree, strategies[0], strategies[1]) if two_player else None,
        reference=_reference_unless(tree, result, spec, progress, wanted),
    )


def _structured_game(
    game: Game | str | os.PathLike[str], method: str, algorithm: str, force: bool
) -> StructuredGame | None:
    """The structured game vector CFR runs on, or None for the tree: ``method="structured"``,
    or ``"auto"`` where ``solve``'s policy takes the structured route and the algorithm is
    one vector CFR runs (:data:`~seqform.structured.vector_cfr.VECTOR_ALGORITHMS`)."""
    if isinstance(game, Game):
        if method == "structured":
            raise OptionsError(f"{game.name}: a built tree runs on --method tree")
        return None
    if method == "tree":
        return None
    if method == "auto":
        if algorithm not in VECTOR_ALGORITHMS:
            return None
        route = choose_route(game, "auto", force=True)
        if route.structured is None:
            return None
    elif algorithm not in VECTOR_ALGORITHMS:
        raise OptionsError(
            f"{algorithm} runs on the game tree only; --method structured runs "
            f"{', '.join(VECTOR_ALGORITHMS)}"
        )
    route = choose_route(game, "structured", force=force, lp=False)  # refuses what won't fit
    return route.structured


def _iterate_structured(
    game: StructuredGame,
    algorithm: str,
    stopping: Stopping,
    on_sample: OnSample | None,
    wanted: bool,
    progress: Callable[[str], None] | None,
) -> IterativeRun:
    """Vector CFR on the public tree × hands (:mod:`seqform.structured.vector_cfr`), measured
    and compared with the structured LP, all without the tree."""
    result = vector_cfr(game, algorithm, stopping, on_sample)
    first, second = result.strategies
    certificate = structured_certify(game, first, second)
    value = float(certificate.value)
    profile = NPlayerCertificate(
        values=(value, -value),
        best_response_values=tuple(float(v) for v in certificate.best_response_values),
        gains=tuple(float(g) for g in certificate.gains),
        nash_conv=float(certificate.nash_conv),
    )
    if not wanted:
        lp = LpReference("not asked (--no-reference)")
    elif result.stopped == "interrupted":
        lp = LpReference("interrupted before the LP reference")
    else:
        lp = structured_reference(game, result.strategies, value, progress)
    return IterativeRun(game, result, stopping, profile, certificate, lp)  # type: ignore[arg-type]


def _solver_options(
    algorithm: str, stopping: Stopping, seed: int | None, on_sample: OnSample | None
) -> dict[str, object]:
    """The keyword arguments ``SOLVERS[algorithm]`` takes; a seed only for sampling ones."""
    if algorithm not in SOLVERS:
        raise ValueError(f"unknown algorithm {algorithm!r}; choose from {', '.join(SOLVERS)}")
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


def _load(game: Game | str | os.PathLike[str], force: bool, max_nodes: int | None) -> Game:
    if isinstance(game, Game):
        return game
    if isinstance(game, str) and not force:
        refuse_tree_beyond_memory(game)
    return load_game(game, max_nodes=max_nodes)


def _reference_unless(
    game: Game,
    result: IterativeResult,
    spec: str | None,
    progress: Callable[[str], None] | None,
    asked: bool,
) -> LpReference:
    """:func:`reference`, unless not ``asked`` or the run was interrupted (Ctrl-C asked to
    stop: the result so far is reported without the LP, which may take minutes)."""
    if not asked:
        return LpReference("not asked (--no-reference)")
    if result.stopped == "interrupted":
        return LpReference("interrupted before the LP reference")
    return tree_reference(game, result.strategies, spec, progress)
