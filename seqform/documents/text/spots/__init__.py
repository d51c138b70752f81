"""The text reports of hold'em spots: a solved spot's block (``spot``) and a folder of
spots (``many``), each read from its document alone."""
