"""Games from other tools' formats: Gambit ``.efg`` read (``efg_tokens`` → ``efg_scan`` →
``efg``, and ``from_gambit`` through pygambit) and written (``to_gambit``), and OpenSpiel
games (``openspiel``)."""
