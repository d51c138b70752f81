"""Routes: the ways a game is solved, and the policy that chooses one.

``solve`` is the one entry point; ``policy`` decides the route, the memory refusal and which
options go together (``options``, ``memory``); ``tree``, ``normal``, ``structured`` and
``restrict`` are the float routes, sharing the LP → strategies → certificate stages of
``result``; ``exact``, ``structured_exact`` and ``refine`` (with ``perturbation``) go beyond
one float equilibrium; ``many`` solves a folder of spots in parallel.
"""
