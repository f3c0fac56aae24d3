"""The book machinery: papermill workers ordered by the chapters' needs, verified cache entries,
``jupyter-book build`` and the atomic swap; ``run`` in process. No domain module imports it."""
