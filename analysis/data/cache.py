"""Cache entries that say what they were made from, and are believed only when it still holds.

An entry is a folder of plain data files (JSON, CSV, notebooks, Markdown, JavaScript; nothing
is ever unpickled or executed on load) and a manifest, ``entry.json``::

    {"key": <sha256 of the inputs>, "inputs": {...}, "files": {name: <sha256 of its bytes>}}

``inputs`` is everything the files were computed from (parameters, the hashes of the data files,
of the code, of the lock file, of the results read), as the writer states it. :func:`read` takes
the inputs the caller would compute from now and returns the files only when the manifest's key
and inputs equal them and every file matches its checksum, with no file missing or added. An
entry moved under another key, edited, truncated or made for other inputs is reported in one line
and recomputed by the caller. Entries are written into a temporary folder and renamed into place,
so a reader never sees half an entry; a killed writer leaves a ``.tmp-*`` folder that the next
build removes.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import shutil
import sys
from collections.abc import Callable
from pathlib import Path

MANIFEST = "entry.json"


def sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def key_of(inputs: dict) -> str:
    """The key of ``inputs``: a hash of their canonical JSON (sorted keys)."""
    return sha256(json.dumps(inputs, sort_keys=True).encode())[:24]


def file_hashes(paths, root: Path) -> dict[str, str]:
    """``{path relative to root: sha256}`` of each path (``"absent"`` for a missing file)."""
    return {str(Path(p).relative_to(root)): sha256(Path(p).read_bytes()) if Path(p).is_file() else "absent"
            for p in sorted(paths)}


def folder_hashes(folder: Path) -> dict[str, str]:
    """:func:`file_hashes` of every file under ``folder``."""
    return file_hashes([p for p in Path(folder).rglob("*") if p.is_file()], folder)


def package_hashes(root: Path) -> dict[str, str]:
    """The ``analysis`` package's code and the lock file under ``root``, hashed (an entry made by
    other code, or with other libraries, is another entry)."""
    code = [p for p in (Path(root) / "analysis").rglob("*.py") if "__pycache__" not in p.parts]
    return {"package": sha256(json.dumps(file_hashes(code, root)).encode()),
            "lock": file_hashes([Path(root) / "requirements.txt"], root)["requirements.txt"]}


def say(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


def entry_folder(parent: Path, name: str, inputs: dict) -> Path:
    """Where the entry ``name`` made from ``inputs`` lives: ``parent/<name>-<key>``."""
    return Path(parent) / f"{name}-{key_of(inputs)}"


def write(parent: Path, name: str, inputs: dict, files: dict[str, bytes], keep: int = 1) -> Path:
    """Store ``files`` as the entry ``name`` made from ``inputs``; keep the ``keep`` most recently
    used entries of ``name`` (the others no current key reaches, or the least recently used)."""
    folder = entry_folder(parent, name, inputs)
    tmp = folder.parent / f".tmp-{folder.name}-{os.getpid()}"
    shutil.rmtree(tmp, ignore_errors=True)
    tmp.mkdir(parents=True)
    for file, data in files.items():
        (tmp / file).write_bytes(data)
    manifest = {"key": key_of(inputs), "inputs": inputs, "files": {n: sha256(d) for n, d in sorted(files.items())}}
    (tmp / MANIFEST).write_text(json.dumps(manifest, sort_keys=True, indent=1) + "\n", encoding="utf-8")
    shutil.rmtree(folder, ignore_errors=True)
    try:
        tmp.rename(folder)
    except OSError:  # another process wrote the same entry meanwhile (same key: the same files)
        shutil.rmtree(tmp, ignore_errors=True)
        if not folder.is_dir():
            raise
    with contextlib.suppress(OSError):  # an entry another process removes meanwhile
        entries = sorted(_entries(parent, name), key=lambda p: (p.stat().st_mtime, p == folder), reverse=True)
        for old in entries[keep:]:
            shutil.rmtree(old, ignore_errors=True)
    return folder


def _entries(parent: Path, name: str) -> list[Path]:
    return [p for p in Path(parent).glob(f"{name}-*") if p.is_dir() and len(p.name) == len(name) + 25]


def read(parent: Path, name: str, inputs: dict, what: str,
         report: Callable[[str], None] | None = say) -> dict[str, bytes] | None:
    """The files of the entry ``name`` made from exactly ``inputs``, if it is there and intact
    (then marked most recently used); else None, after one line to ``report`` when an entry was
    there under this key but fails a check. ``what`` names the entry in that line."""
    folder = entry_folder(parent, name, inputs)
    if not folder.is_dir():
        return None
    problem, files = _check(folder, inputs)
    if problem is None:
        with contextlib.suppress(OSError):  # a read-only cache is still read
            os.utime(folder)
        return files
    if report is not None:
        report(f"{what}: the cache entry {folder} {problem}; recomputing")
    return None


def _check(folder: Path, inputs: dict) -> tuple[str | None, dict[str, bytes]]:
    try:
        manifest = json.loads((folder / MANIFEST).read_text(encoding="utf-8"))
        recorded = dict(manifest["files"])
    except (OSError, ValueError, KeyError, TypeError):
        return "has no readable manifest", {}
    if manifest.get("key") != key_of(inputs):
        return f"was made for another key ({str(manifest.get('key'))[:24]!r}, not {key_of(inputs)!r})", {}
    if manifest.get("inputs") != inputs:
        return "records other inputs than its key's", {}
    try:  # a build pruning the cache may remove an entry while another command reads it
        present = sorted(p.name for p in folder.iterdir() if p.name != MANIFEST)
        files = {name: (folder / name).read_bytes() for name in present}
    except OSError:
        return "went away while it was read", {}
    if present != sorted(recorded):
        return f"holds other files than its manifest lists ({', '.join(sorted(set(present) ^ set(recorded)))})", {}
    changed = [name for name in present if sha256(files[name]) != recorded[name]]
    return (f"has {changed[0]} changed since it was written", {}) if changed else (None, files)


def prune(cache_root: Path, names: dict[str, set[str]]) -> None:
    """Remove what no current key can reach: under ``cache_root/<kind>`` (``names``' keys) the
    entries of names no longer in ``names[kind]``, and anything else (an older layout, stray files)."""
    for child in sorted(Path(cache_root).iterdir()):
        stale = [child] if child.name not in names else [
            p for p in child.iterdir() if not p.is_dir() or p.name.rsplit("-", 1)[0] not in names[child.name]]
        for path in stale:
            shutil.rmtree(path) if path.is_dir() else path.unlink()
