"""Agent logit quantal response equilibria: the equations (``equations``), their principal
branch traced by predictor and corrector (``trace``), points and the traced limit
(``equilibria``), λ fitted to observed play (``fit``), and the trace's work limit (``work``).
"""
