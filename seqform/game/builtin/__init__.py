"""The games seqform ships, each a function of its parameters that returns a :class:`Game`.

``kuhn`` (Kuhn 1950, any deck size), ``leduc`` (Leduc hold'em), ``liars_dice``; Kuhn is
written once, as a one-card showdown game (``showdown_poker``: the public betting tree,
its numbering and the explicit tree it generates); ``registry`` names them all.
"""
