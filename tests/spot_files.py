"""Spot files several test modules write: the river spot of docs/spots.md's examples."""

RIVER = """\
board = "Ks7h2d9c4s"
pot = 10
effective_stack = 30
oop_range = "AA,AKs,QQ:0.5,JhTh,99"
ip_range = "KK:0.25,AQo,QJs,77"
bet_sizes = [0.5]
raise_sizes = [1]
max_raises = 1
"""

SMALL = """\
board = "Ks7h2d9c4s"
pot = 10
effective_stack = 30
oop_range = "AA,JhTh,99"
ip_range = "KK:0.25,QJs,77"
bet_sizes = [0.5]
max_raises = 0
"""
"""A river spot of 30 OOP information sets: CFR and the LP solve it in a moment."""
