"""Card abstraction with perfect recall for structured games (public tree × private hands)."""
