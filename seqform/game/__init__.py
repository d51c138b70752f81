"""The game room: what a game is, and every way to get one.

``nodes`` (the tree's three kinds of node) and ``model`` (:class:`Game`, a validated tree)
hold the model; ``compiled`` the flat arrays one walk makes of it; ``errors`` the errors the
room raises; ``builtin/`` the games seqform ships (Kuhn, Leduc, Liar's Dice, the one-card
showdown family) and their names; ``efg`` and ``openspiel`` read Gambit files and OpenSpiel
games; ``loader`` turns a name on the command line into a game.  Nothing here imports from
the rooms above (forms, lp, certify, ...).
"""
