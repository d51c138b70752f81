"""Text reports, rendered from the documents: one module per document kind (``solve`` for
``seqform.solve/2``, ``structured``, ``exact``, ``refine``, ``restrict``, ``locked``,
``compare``, ``compare_sizes``, ``exploit``, ``games``, ``iterate``, ``qre``, ``ranges``; the
spots' in ``spots/``, the road to Hold'em's in ``road/``), each
reading the dict the JSON is made of, so the text and the JSON cannot disagree; ``render``
gives a result's text (:func:`~seqform.documents.text.render.render_text`)."""
