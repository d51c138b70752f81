"""The game room: what a game is, and every way to get one.

``nodes`` (the tree's three kinds of node) and ``model`` (:class:`Game`, a validated tree)
hold the model; ``compiled`` the flat arrays one walk makes of it; ``errors`` the errors the
room raises; ``builtin/`` the games seqform ships (Kuhn, Leduc, Liar's Dice, the one-card
showdown family) and their names; ``public/`` games given as public tree × private hands;
``formats/`` Gambit files and OpenSpiel games.  Nothing here imports from the rooms above
(forms, lp, certify, ...); names on the command line become games in ``seqform.io.loader``.
"""
