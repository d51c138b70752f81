"""The documents of hold'em spots: a solved spot's ``"spot"`` object (``spot``), its static
HTML page (``html``) and a folder of spots with their per-board aggregates (``many``)."""
