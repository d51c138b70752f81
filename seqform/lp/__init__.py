"""The linear-programming room: the min-max LP of a sequence form and the solvers it meets.

Float side, here: :mod:`~seqform.lp.merged` writes the min-max LP (KMvS 1996, eq. 11)
once, for floats and for exact numbers; :mod:`~seqform.lp.minmax` solves it in floats with
HiGHS (directly or through cvxpy); :mod:`~seqform.lp.highs` is the one wrapper of HiGHS
(model, options, status → errors) and :mod:`~seqform.lp.clarabel` that of Clarabel;
:mod:`~seqform.lp.solvers` holds the solver names, :class:`SolverStats` and the errors.
Exact side, in :mod:`seqform.lp.exact`: the same LP with Fraction data, its optimal basis
re-solved and verified in rationals, and LPs perturbed by an infinitesimal ε.
"""
