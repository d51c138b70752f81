"""The text reports of the road to Hold'em's documents: ``abstraction``, ``resolve``,
``off_tree``, each read from its document alone."""
