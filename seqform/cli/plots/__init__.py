"""The command line's pictures (matplotlib, imported only when a picture is asked for):
``qre --plot``'s branch (:mod:`~seqform.cli.plots.qre`), ``solve-many --plot``'s bet
frequencies (:mod:`~seqform.cli.plots.many`), and the checked, atomic writing of either
(:mod:`~seqform.cli.plots.files`)."""
