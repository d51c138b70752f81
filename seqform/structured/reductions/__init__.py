"""Lossless reductions of a structured game's LP and CFR run: suit isomorphism (canonical
boards and hand classes), the ordered game isomorphism beyond it, merges by signal labels
(to be certified), and a run's certificate on the hand classes."""
