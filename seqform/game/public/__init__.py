"""Structured games: a public tree × private hands (``tree``), their hand-major sequence
tables without the tree (``numbering``), and the explicit tree written from them
(``explicit``)."""
