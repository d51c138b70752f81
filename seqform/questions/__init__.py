"""Questions asked of a solved game: the whole set of equilibria (``ranges``), what a fixed
opponent gives away (``exploit``), the normal form beside the sequence form (``compare``), and
an iterative run measured against the LP (``iterate``, with its reference ``lp_reference``).
"""
