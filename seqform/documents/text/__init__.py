"""Text reports, rendered from the documents: one module per document kind (``solve`` for
``seqform.solve/2``, ``structured``, ``exact``, ``refine``, ``restrict``, ``spot``, ``compare``,
``compare_sizes``, ``exploit``, ``games``, ``iterate``, ``many``, ``qre``, ``ranges``), each
reading the dict the JSON is made of, so the text and the JSON cannot disagree; ``render``
gives a result's text (:func:`~seqform.documents.text.render.render_text`)."""
