"""The planner's one cache key: what it reads from ``data/`` can change between two calls (a
scenario's data folder, a test editing a copy), so every memoised step is keyed on the data folder
and the size and modification time of each table it reads, not on the folder alone."""

from __future__ import annotations

from analysis.chapters.registry import PLANNER_TABLES
from analysis.data.load import data_dir, table_path

# Every table a plan reads (with the tables their validation reads): one list, the sections' own.
TABLES = PLANNER_TABLES


def data_key() -> tuple:
    """(data folder, (size, mtime) of each table the planner reads): equal keys, equal data."""

    stamps = []
    for name in TABLES:
        try:
            stat = table_path(name).stat()
            stamps.append((stat.st_size, stat.st_mtime_ns))
        except FileNotFoundError:
            stamps.append(None)
    return (str(data_dir()), tuple(stamps))
