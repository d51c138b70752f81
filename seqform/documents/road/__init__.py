"""The documents of the road to Hold'em: a card abstraction measured in the full game
(``abstraction``), subgames re-solved from a blueprint (``resolve``) and off-tree actions
(``off_tree``)."""
