"""The linear-programming room: the min-max LP of a sequence form and the solvers it meets.

Float side, here: :mod:`~seqform.lp.merged` writes the min-max LP (KMvS 1996, eq. 11)
once, for floats and for exact numbers; :mod:`~seqform.lp.problem` holds the one float LP
(:class:`~seqform.lp.problem.LPProblem`) and its one solution
(:class:`~seqform.lp.problem.FloatSolution`, its duals under one sign rule);
:func:`seqform.lp.run.run_lp` is the one path from the first to the second, through
:mod:`~seqform.lp.highs` (the one wrapper of HiGHS), :mod:`~seqform.lp.clarabel` or
:mod:`~seqform.lp.cvxpy_lp`; :mod:`~seqform.lp.minmax` hands it the tree's min-max LP;
:mod:`~seqform.lp.solvers` holds the solver names, :class:`SolverStats` and the errors.
Exact side, in :mod:`seqform.lp.exact`: the same LP with Fraction data, its optimal basis
re-solved and verified in rationals, and LPs perturbed by an infinitesimal ε.
"""
