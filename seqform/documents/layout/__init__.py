"""How the text reports lay things out: the blocks every report shares (``blocks``: header,
value, certificate), aligned tables (``tables``), strategy tables and their summaries
(``strategies``), the pieces of a report read from a document (``parts``), and how much of
a strategy a report shows (``summary``)."""
