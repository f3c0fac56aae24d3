"""The book machinery: jupytext -> papermill runner, content-hash cache, appendix pages,
jupyter-book render and atomic swap. Nothing in the domain modules imports this package."""
