"""Games from other tools' formats: Gambit ``.efg`` read (``efg_tokens`` → ``efg_scan`` →
``efg``, and ``from_gambit`` through pygambit) and written (``to_gambit``; ``efg_labels``
both ways), and OpenSpiel games (``openspiel``)."""
