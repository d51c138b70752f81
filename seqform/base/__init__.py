"""The room below every other: what every stage needs, each written once.

``progress`` (how long phases report how far they are, without printing), ``numbers`` (how
a count or a huge exact number is written: exact when short, ``≈ 10^k`` when not) and
``node_counts`` (how many nodes a dealt game tree has, without building it).  Nothing here
imports another room of seqform.
"""
