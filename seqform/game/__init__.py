"""The game room: the tree model, its compiled flat form, built-in games, file formats."""
