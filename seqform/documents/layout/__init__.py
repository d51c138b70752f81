"""How the reports lay things out: the blocks every text report shares (``blocks``: header,
value, certificate), aligned tables (``tables``), strategy tables and their summaries
(``strategies``), the pieces of a report read from a document (``parts``), how much of a
strategy a report shows (``summary``), and a strategy's information sets laid out as JSON
text straight from its arrays (``infosets_json``)."""
