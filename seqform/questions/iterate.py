"""An iterative run measured against the exact answer: the CFR family beside the LP.

:func:`iterate` runs one algorithm of :mod:`seqform.iterative`
(:data:`~seqform.questions.algorithms.ALGORITHMS`: the CFR family, fictitious play,
regression CFR, external-sampling MCCFR) and measures its average profile ``σ̄`` twice:

* by best responses on the tree: each player's value ``u_i(σ̄)``, best-response value and
  gain, and NashConv ``Σ_i (max_{σ'_i} u_i(σ'_i, σ̄_{-i}) − u_i(σ̄))``
  (:func:`seqform.certify.certify_profile`, any number of players; for a two-player
  zero-sum game also :func:`seqform.certify.certify`, the certificate of ``solve``);
* against the LP (:func:`reference`), for two-player zero-sum games, on the route
  ``solve`` takes (:mod:`seqform.routes.policy`: the structured route for a built-in game
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
  optimal set comes from :func:`seqform.questions.ranges.equilibrium_ranges` (dimension 0:
  unique), computed for games with at most :data:`RANGES_MAX_SEQUENCES` sequences per
  player (it solves about four LPs per action; Leduc would take minutes).  A player whose
  set is larger gets no strategy distance (the nearest equilibrium strategy is then not
  the LP's vertex).

Node locks (``locks``, :mod:`seqform.forms.locks`) are resolved against the game the run
steps on (:func:`seqform.routes.locked.resolve_for`, as ``solve --lock``), kept by every
iterate of the CFR family (on the tree and by vector CFR; fictitious play, regression CFR
and MCCFR do not take them: :class:`~seqform.routes.policy.OptionsError`), and measured in
the locked game: the best responses keep the locked behaviour (NashConv is 0 exactly at an
equilibrium of the locked game, the certificate ``solve``'s locked route reports).  The LP
reference is then the locked LP (``solve``'s locked route) on the layout the run stepped
on; uniqueness is not decided for it.

On the structured route (:mod:`seqform.questions.iterate_structured`) vector CFR runs on
the public tree × hands, on canonical boards where the game allows it.
"""

from __future__ import annotations

import math
import operator
import os
from collections.abc import Callable, Sequence
from numbers import Integral, Real
from typing import TYPE_CHECKING

import numpy as np

from seqform.certify import (
    Certificate,
    CertificateOverflowError,
    certify,
    certify_profile,
)
from seqform.forms.locks import Lock, ResolvedLocks
from seqform.game.model import Game
from seqform.game.requirements import is_two_player_zero_sum
from seqform.io.loader import check_max_nodes, load_game
from seqform.iterative.cfr import solve_with_rule
from seqform.iterative.mccfr import DEFAULT_SEED
from seqform.iterative.rules import LAST_ITERATE, RULES
from seqform.iterative.run import (
    DEFAULT_EVERY,
    IterativeResult,
    OnSample,
    Stopping,
    require_reachable_target,
)
from seqform.questions.algorithms import ALGORITHMS, solver_options
from seqform.questions.iterate_structured import iterate_structured, structured_route
from seqform.questions.iterative_run import (
    CUT_SHORT,
    NOT_MEASURED,
    IterativeRun,
    kept_measured,
    kept_reference,
    two_player_profile,
)
from seqform.questions.lp_reference import (
    LP_MAX_SEQUENCES,
    RANGES_MAX_SEQUENCES,
    REFERENCE_STRUCTURED_SEQUENCES,
    REFERENCE_TREE_NODES,
    LpReference,
    PlayerDistance,
    reference,
    tree_reference,
)
from seqform.routes.locked import as_locks, resolve_for
from seqform.routes.options import check_reductions
from seqform.routes.policy import (
    ITERATE_METHODS,
    OptionsError,
    Route,
    refuse_tree_beyond_memory,
    resolve_method,
)

if TYPE_CHECKING:
    pass

__all__ = [
    "DEFAULT_ITERATIONS",
    "DEFAULT_SEED",
    "LP_MAX_SEQUENCES",
    "RANGES_MAX_SEQUENCES",
    "REFERENCE_STRUCTURED_SEQUENCES",
    "REFERENCE_TREE_NODES",
    "IterativeRun",
    "LpReference",
    "PlayerDistance",
    "iterate",
    "reference",
    "stopping_rules",
]


DEFAULT_ITERATIONS = 1000
"""Iterations run when no stopping rule is given (``iterations``, ``target_exploitability`` and
``time_limit`` all None), from Python and the command line alike."""


def iterate(
    game: Game | str | os.PathLike[str],
    algorithm: str,
    *,
    iterations: int | None = None,
    target_exploitability: float | None = None,
    time_limit: float | None = None,
    every: int = DEFAULT_EVERY,
    seed: int | None = None,
    on_sample: OnSample | None = None,
    method: str = "auto",
    reference: bool = True,
    force: bool = False,
    max_nodes: int | None = None,
    progress: Callable[[str], None] | None = None,
    locks: Sequence[Lock | str] | Lock | str | None = None,
    suit_isomorphism: bool = True,
) -> IterativeRun:
    """Run ``algorithm`` (a key of :data:`~seqform.questions.algorithms.ALGORITHMS`) until a
    stopping rule fires, and measure it.

    ``seqform.iterate("leduc", "cfr+", iterations=200)``.

    The run is always returned once it has run: a certificate that cannot be measured (its
    sums leave the float range) is reported in ``certificate_failed``, and an LP reference
    that fails, or is interrupted by Ctrl-C inside
    :func:`~seqform.base.interrupt.stop_on_interrupt`, in ``reference``.  A Ctrl-C there
    while the finished run is measured returns it unmeasured, ``certificate_failed`` and
    ``reference`` saying so (:data:`~seqform.questions.iterative_run.CUT_SHORT`).

    Length: the docstring names every keyword; the body is short.

    Parameters
    ----------
    game
        A built game, or a spec or path: then its tree is refused before it is built when it
        would not fit in memory (unless ``force``), and the LP reference follows the route
        ``solve`` takes for that spec (module docstring).
    algorithm
        A key of :data:`~seqform.questions.algorithms.ALGORITHMS`.
    iterations, target_exploitability, time_limit
        The stopping rules, whichever fires first (the command line's ``--iterations``,
        ``--target-exploitability`` and ``--time-limit``): at most ``iterations``
        iterations; stop once a measured exploitability (NashConv / 2; in a game with more
        players or general-sum payoffs, NashConv ≤ 2 × the target) is at most
        ``target_exploitability``; stop once the solver has run ``time_limit`` seconds
        (measurements not counted).  With none of the three,
        :data:`DEFAULT_ITERATIONS`.
    every
        Measure NashConv every ``every`` iterations and after the last; with a target,
        also once where the last two measurements' trend meets it
        (:func:`seqform.iterative.run.trend_check`).
    seed
        For ``mccfr`` only (default :data:`DEFAULT_SEED`).
    on_sample
        Sees each NashConv sample (return True to stop).
    method
        The layout the CFR family runs on (:data:`~seqform.routes.policy.ITERATE_METHODS`;
        ``"auto"`` is the tree, or the structured route where ``solve``'s auto route is).
    reference
        False skips the LP reference; it is also
        skipped where ``solve`` refuses the LP (unless ``force``) or it would be slow.
    force
        Build a tree beyond the memory estimate, and solve the reference's LP where ``solve``
        would refuse it, as ``solve``'s ``force``.
    max_nodes
        For ``openspiel:`` games, the most histories to convert; refused with any other.
    progress
        Hears the reference's stages.
    locks
        Node locks (:class:`~seqform.forms.locks.Lock`\\ s or the compact notation,
        ``"P1@J: b=1"``; docs/locking.md): the run keeps them and is measured in the locked
        game, beside the locked LP (module docstring).  The CFR family only.
    suit_isomorphism
        On the structured route, run on canonical boards and hand classes where the game
        is invariant under suit permutations, certified on the game (module docstring);
        False runs on the game itself (the command line's ``--no-suit-isomorphism``);
        refused on the tree (:func:`~seqform.routes.options.check_reductions`).  Ignored with
        locks.

    Raises
    ------
    TypeError
        For a stopping rule that is not a number (``iterations`` and ``every`` must be
        integers).
    ValueError
        For a stopping rule out of range (not positive, not finite), an unknown algorithm,
        or a seed given to a deterministic one (an :class:`OptionsError`, also a
        ``ValueError``, for a scheduled one without ``iterations``).
    OptionsError
        For a method the CFR family does not run on, or locks given to an algorithm that
        does not take them (xfp, rcfr, mccfr) or to a game that is not two-player zero-sum.
    LockError
        For a lock that does not fit the game (naming it), before anything runs.
    GameParameterError
        For ``max_nodes`` given with a game that is not ``openspiel:``
        (:func:`~seqform.io.loader.check_max_nodes`).
    MemoryRefusedError
        For a tree that would not fit in memory (unless ``force``).
    """
    stopping = stopping_rules(iterations, target_exploitability, time_limit, every)
    chosen = resolve_method(method, ITERATE_METHODS)
    options = solver_options(algorithm, stopping, seed, on_sample)
    wanted = _wanted_locks(locks, algorithm)
    check_max_nodes(game, max_nodes)
    spec = game if isinstance(game, str) else None
    route = structured_route(game, chosen, algorithm, force, suit_isomorphism and wanted is None)
    if route is not None:
        return iterate_structured(
            route, algorithm, stopping, on_sample, reference, progress, force, wanted,
            suit_isomorphism,
        )  # fmt: skip
    check_reductions(Route("tree", None), suit_isomorphism)  # the tree has no reduction
    tree = _load(game, force, max_nodes)
    require_reachable_target(stopping, _widest_range(tree), tree.name)
    two_player = is_two_player_zero_sum(tree)
    resolved = None
    if wanted is not None:
        if not two_player:
            raise OptionsError(f"{tree.name}: node locks need a two-player zero-sum game")
        resolved = resolve_for(tree, None, wanted)
        result = solve_with_rule(
            tree,
            RULES[algorithm],
            algorithm,
            stopping,
            on_sample,
            last_iterate=algorithm in LAST_ITERATE,
            locks=resolved.fixed,
        )
    else:
        result = ALGORITHMS[algorithm](tree, stopping.iterations, **options)

    def measured() -> IterativeRun:
        strategies = result.strategies
        certificate: Certificate | None
        try:
            _require_numbers(result)
            if resolved is not None:
                certificate = certify(tree, strategies[0], strategies[1], resolved.bounds())
                profile = two_player_profile(certificate)
            else:
                profile = certify_profile(tree, strategies)
                certificate = certify(tree, strategies[0], strategies[1]) if two_player else None
        except CertificateOverflowError as exc:
            failed = LpReference(_NO_ESTIMATE)
            return IterativeRun(
                tree, result, stopping, None, None, failed, str(exc), locks=resolved
            )
        lp = kept_reference(
            lambda: _reference_unless(tree, result, spec, progress, reference, force, resolved)
        )
        return IterativeRun(tree, result, stopping, profile, certificate, lp, locks=resolved)

    interrupted = LpReference(NOT_MEASURED, status="interrupted")
    cut = IterativeRun(tree, result, stopping, None, None, interrupted, CUT_SHORT, locks=resolved)
    return kept_measured(measured, cut)


def _widest_range(tree: Game) -> float:
    """The largest of the players' payoff ranges (each its largest terminal payoff less its
    smallest): the scale of a NashConv, for any number of players."""
    payoffs = tree.flat.terminal_payoffs  # (players, terminals)
    return float(np.ptp(payoffs, axis=1).max()) if payoffs.size else 0.0


def _wanted_locks(locks: object, algorithm: str) -> list[Lock] | None:
    """``locks`` as :class:`Lock`\\ s (None for none), refused for an algorithm that does not
    keep them."""
    if locks is None:
        return None
    found = as_locks(locks)
    if not found:
        return None
    if algorithm not in RULES:
        raise OptionsError(
            f"node locks run with the CFR family ({', '.join(RULES)}); {algorithm} does not "
            "keep them"
        )
    return found


_NO_ESTIMATE = "the run's value estimate could not be measured (certificate failed)"


def _require_numbers(result: IterativeResult) -> None:
    """Raise :class:`CertificateOverflowError` when the average strategies hold ``nan``:
    the solver's own sums (regrets, payoffs times reach) left the float range."""
    if not all(np.isfinite(s.probabilities.astype(float)).all() for s in result.strategies):
        raise CertificateOverflowError(
            f"the average strategies hold nan: {result.algorithm}'s sums overflowed the float "
            "range (±1.8e308); scale the game's payoffs down"
        )


def stopping_rules(
    iterations: object = None,
    target_exploitability: object = None,
    time_limit: object = None,
    every: object = DEFAULT_EVERY,
) -> Stopping:
    """The :class:`~seqform.iterative.run.Stopping` of :func:`iterate`'s keywords, each
    checked under its own name; :data:`DEFAULT_ITERATIONS` when no rule is given.

    Raises
    ------
    TypeError
        For a rule of the wrong type (a string, a bool; a float for ``iterations``).
    ValueError
        For a rule that is not positive or not finite.
    """
    for name, number, whole in (
        ("iterations", iterations, True),
        ("target_exploitability", target_exploitability, False),
        ("time_limit", time_limit, False),
        ("every", every, True),
    ):
        if number is None and name != "every":
            continue
        kind = Integral if whole else Real
        if isinstance(number, bool) or not isinstance(number, kind):
            wanted = "an integer" if whole else "a number"
            raise TypeError(f"{name} must be {wanted}, not {type(number).__name__} {number!r}")
        if isinstance(number, Integral):
            positive = operator.index(number) > 0 if whole else 0 < _float(number) < math.inf
        else:
            positive = 0 < _float(number) < math.inf
        if not positive:
            wanted = "a positive integer" if whole else "a positive finite number"
            raise ValueError(f"{name} must be {wanted}, not {number!r}")
    if iterations is None and target_exploitability is None and time_limit is None:
        iterations = DEFAULT_ITERATIONS
    return Stopping(
        iterations=None if iterations is None else int(iterations),  # type: ignore[call-overload]
        target=None if target_exploitability is None else float(target_exploitability),  # type: ignore[arg-type]
        time_limit=None if time_limit is None else float(time_limit),  # type: ignore[arg-type]
        every=int(every),  # type: ignore[call-overload]
    )


def _float(number: Real) -> float:
    """``number`` as a float; ``inf`` for an integer beyond the floats, ``nan`` kept."""
    try:
        return float(number)
    except OverflowError:
        return math.inf


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
    force: bool,
    locks: ResolvedLocks | None = None,
) -> LpReference:
    """:func:`reference`, unless not ``asked`` or the run was interrupted (Ctrl-C asked to
    stop: the result so far is reported without the LP, which may take minutes)."""
    if not asked:
        return LpReference("not asked (--no-reference)")
    if result.stopped == "interrupted":
        return LpReference("interrupted before the LP reference")
    return tree_reference(game, result.strategies, spec, progress, force, locks)
