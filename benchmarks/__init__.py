"""seqform, OpenSpiel and Gambit side by side on the same games: ``python -m benchmarks.run``."""
