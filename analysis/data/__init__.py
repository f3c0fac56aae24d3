"""Data: loading and validating ``data/*.csv`` (:mod:`.load`, :mod:`.schemas`), the validated-table
cache (:mod:`.cache`), what a computation read (:mod:`.provenance`) and the MLPerf log rebuild
(:mod:`.mlperf_logs`). Imports nothing above it."""
