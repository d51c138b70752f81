"""Exact linear programming: every coefficient a ``Fraction``, floats only inside HiGHS.

:mod:`~seqform.lp.exact.program` holds an LP with exact data and solves it in floats with
HiGHS (keeping the optimal basis); :mod:`~seqform.lp.exact.basis` re-solves a basis in
rationals and proves it optimal, and :mod:`~seqform.lp.exact.pivots` takes exact simplex
pivots from a basis that is not to one that is; :mod:`~seqform.lp.exact.rational` holds
the exact sparse matrices and :mod:`~seqform.lp.exact.linear_solver` the exact solution of
square systems underneath; :mod:`~seqform.lp.exact.minmax` is the min-max LP
of :mod:`seqform.lp.merged` as such an exact program (restricted, perturbed or from player
1's side); :mod:`~seqform.lp.exact.parametric` finds a basis optimal for all small ``ε``.
"""
