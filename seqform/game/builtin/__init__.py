"""The games seqform ships, each a function of its parameters that returns a :class:`Game`.

``kuhn`` (Kuhn 1950, any deck size), ``leduc`` (Leduc hold'em), ``liars_dice``; Kuhn is
written once, as a one-card poker game (``one_card``: the public betting tree,
written as a structured game, whose explicit tree ``public_explicit`` generates); Leduc and
Liar's Dice are structured games too; ``registry`` names them all.
"""
