"""Hold'em, in one home: cards and ranges in players' notation, spot files and the structured
game a spot is (``spot``, ``spot_game``, ``betting``, ``strength`` from a maintained evaluator,
eval7), the toy games of *The Mathematics of Poker* (``toy_games``), and what a player reads
off a solved spot (``report``, ``hands``, ``equity``), with the spot LP's work estimate
(``lp_work``).  The rest of the package imports hold'em through the modules listed in
``DOOR`` of tests/test_architecture.py only.
"""
