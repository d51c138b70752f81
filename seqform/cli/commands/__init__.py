"""One module per command of ``python -m seqform``; each has ``run(args) -> exit code``."""
