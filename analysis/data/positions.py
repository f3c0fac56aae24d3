"""Where a cell of a CSV file is: the line each record starts on and the character column of a
cell, for messages (``FILE:LINE:COLUMN``). pandas reports rows, and skips blank lines and joins
quoted newlines when it counts them; these count as an editor does."""

from __future__ import annotations

import csv
import functools
import os
from pathlib import Path


def record_lines(path: Path) -> list[int]:
    """The line on which each non-blank CSV record starts (the header first)."""
    starts, previous = [], 0
    with open(path, newline="", encoding="utf-8", errors="replace") as f:
        reader = csv.reader(f)
        for record in reader:
            if any(cell.strip() for cell in record) or len(record) > 1:
                starts.append(previous + 1)
            previous = reader.line_num
    return starts


def line_of(lines: list[int] | None, row: int) -> int:
    """The file line where data row ``row`` starts (row 0 follows the header), counting blank
    lines and newlines inside quoted cells, which pandas skips or joins."""
    return lines[row + 1] if lines and row + 1 < len(lines) else row + 2


def cell_position(path: Path, line: int, index: int) -> tuple[int, int] | None:
    """Line and character column (both from 1) where cell ``index`` of the CSV record that starts
    on line ``line`` of ``path`` begins, following quoted cells across commas and newlines."""
    try:
        found = os.stat(path)
        text = _text(str(path), found.st_size, found.st_mtime_ns)
    except OSError:
        return None
    at = 0
    for _ in range(line - 1):
        at = text.find("\n", at) + 1
        if at == 0:
            return None
    row, start = line, at
    for _ in range(index):
        quoted = False
        while at < len(text) and (quoted or text[at] not in ",\n"):
            if text[at] == '"':
                quoted = not quoted
            elif text[at] == "\n":
                row, start = row + 1, at + 1
            at += 1
        if at >= len(text) or text[at] == "\n":
            return None
        at += 1
    return row, at - start + 1


@functools.lru_cache(maxsize=2)
def _text(path: str, size: int, mtime_ns: int) -> str:
    """A file's text, read once for all the cells a message names (its size and time: the same file)."""
    return Path(path).read_text(encoding="utf-8", errors="replace")
