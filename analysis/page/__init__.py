"""What a notebook page calls: ``start``, ``glue`` and tables (:mod:`.notebook`, :mod:`.tables`),
plots, number formats, reader names, the generated appendices and the what-if panels."""
