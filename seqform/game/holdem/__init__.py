"""No-limit hold'em spots: cards, ranges in players' notation, spot files, a street's betting
tree and showdown strength from a maintained evaluator (eval7)."""
