"""What every LP solve in seqform shares: the solver names, the errors and the statistics.

The names are the one list the command line offers (``--backend``, ``--solver``) and the
solve functions check against; nothing else spells them out.

* :data:`BACKENDS` — how the min-max LP reaches HiGHS: ``"highs"`` (highspy directly) or
  ``"cvxpy"`` (the model written in cvxpy, solved by HiGHS).
* :data:`HIGHS_SOLVERS` — HiGHS's solvers: ``"simplex"``, ``"ipm"`` (interior point with
  crossover), ``"pdlp"`` (first order).
* :data:`BASIS_SOLVERS` — those that end at a simplex basis, which the exact re-solve
  (``--exact``, ``--refine``, ``--fix``) needs.
* :data:`STRUCTURED_SOLVERS` — the solvers of the structured LP: Clarabel (its
  default) or HiGHS's simplex and interior point.
* :data:`SOLVERS` — every ``--solver`` choice: the HiGHS solvers, then Clarabel.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

if TYPE_CHECKING:  # annotations only: the command line reads these names without numpy
    import numpy as np

__all__ = [
    "BACKENDS",
    "BASIS_SOLVERS",
    "HIGHS_SOLVERS",
    "SOLVERS",
    "STRUCTURED_SOLVERS",
    "Backend",
    "HighsSolver",
    "InfeasibleError",
    "SolverError",
    "SolverLimitError",
    "SolverStats",
    "StructuredSolver",
    "optimal_stats",
]

Backend = Literal["highs", "cvxpy"]
HighsSolver = Literal["simplex", "ipm", "pdlp"]
StructuredSolver = Literal["clarabel", "simplex", "ipm"]
BACKENDS: tuple[str, ...] = ("highs", "cvxpy")
HIGHS_SOLVERS: tuple[str, ...] = ("simplex", "ipm", "pdlp")
BASIS_SOLVERS: tuple[str, ...] = ("simplex", "ipm")
STRUCTURED_SOLVERS: tuple[str, ...] = ("clarabel", "simplex", "ipm")
SOLVERS: tuple[str, ...] = (*HIGHS_SOLVERS, "clarabel")


class SolverError(RuntimeError):
    """The LP solver did not return a proven optimal solution."""


class SolverLimitError(SolverError):
    """The solver stopped at a time or iteration limit.

    ``plans`` holds the primal point it had, ``(x, y)``, when the solver offered one, so
    that the caller can measure how good it is (by best response); otherwise ``None``.
    """

    def __init__(self, message: str, plans: tuple[np.ndarray, np.ndarray] | None) -> None:
        super().__init__(message)
        self.plans = plans


class InfeasibleError(SolverError):
    """The linear program has no feasible point."""


@dataclass(frozen=True)
class SolverStats:
    """What the solver did: backend, solver (its ``--solver`` name), final status, time and
    iterations."""

    backend: str
    solver: str
    status: str
    seconds: float  # wall time of building and solving the LP
    solver_seconds: float  # time reported by the solver itself
    iterations: int
    variables: int
    constraints: int
    nonzeros: int


def optimal_stats(
    backend: str,
    solver: str,
    *,
    seconds: float,
    iterations: int,
    shape: tuple[int, int],
    nonzeros: int,
    solver_seconds: float | None = None,
) -> SolverStats:
    """:class:`SolverStats` of a proven optimum of an LP with ``shape`` (rows, columns).

    ``solver_seconds`` defaults to ``seconds`` where the two are not told apart.
    """
    rows, columns = shape
    return SolverStats(
        backend=backend,
        solver=solver,
        status="optimal",
        seconds=seconds,
        solver_seconds=seconds if solver_seconds is None else solver_seconds,
        iterations=int(iterations),
        variables=int(columns),
        constraints=int(rows),
        nonzeros=int(nonzeros),
    )
