"""Cache entries that say what they were made from, and are believed only when it still holds.

An entry is a folder of plain data files (JSON, CSV, notebooks, Markdown, JavaScript; nothing
is ever unpickled or executed on load) and a manifest, ``entry.json``::

    {"format": 2, "key": <hash of the inputs>, "inputs": {...},
     "files": {name: {"sha256": <hash of its bytes>, "bytes": <its size>}}, "seal": <HMAC>}

``inputs`` is everything the files were computed from (parameters, the hashes of the data files,
of the code, of the lock file, of the results read), as the writer states it. :func:`read` takes
the inputs the caller would compute from now and returns the files only when all of this holds:
the manifest has exactly that shape; its stored inputs hash to its key, which is the folder's;
they equal the caller's; its seal, an HMAC-SHA256 of the manifest under this cache folder's
secret (``.secret``, 32 random bytes made with the folder, readable by its owner only), matches;
and every file is a regular file of the recorded size and checksum, with none missing or added.
So an entry moved under another key, edited, truncated, made for other inputs, or rewritten
together with its checksums (without the secret) is reported in one line and recomputed by the
caller. Someone who reads the secret can still forge an entry, as they could edit the code.

Reads are bounded: only regular files are opened (``O_NOFOLLOW``: a symbolic link is refused,
``O_NONBLOCK``: a FIFO never blocks), each at most the size its manifest records (the manifest at
most :data:`MAX_MANIFEST_BYTES`). Nothing in an entry can hang a reader or raise past it. A cache
folder that cannot be read or written (no permission, a file where the folder should be) is
bypassed with one line per process. Entries are written into a temporary folder and renamed into
place, so a reader never sees half an entry; a killed writer leaves a ``.tmp-*`` folder that the
next build removes.
"""

from __future__ import annotations

import contextlib
import hashlib
import hmac
import json
import os
import re
import shutil
import stat
import sys
from collections.abc import Callable
from pathlib import Path

from analysis.errors import clip, echo

MANIFEST = "entry.json"
SECRET = ".secret"
FORMAT = 2
MAX_MANIFEST_BYTES = 1 << 20  # the largest manifest is a few kB
MAX_FILE_BYTES = 256 << 20  # the largest file of an entry, an executed notebook, is a few MB
_HEX64 = re.compile(r"[0-9a-f]{64}")
_WARNED: set[str] = set()  # the folders said to be unusable: one line each per process


def sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def key_of(inputs: dict) -> str:
    """The key of ``inputs``: a hash of their canonical JSON (sorted keys)."""
    return sha256(json.dumps(inputs, sort_keys=True).encode())[:24]


def _hash_file(path: Path) -> str:
    """The sha256 of a regular file's bytes (links followed); ``"absent"`` for anything else, and
    ``"unreadable"`` for one that cannot be read (whoever reads it then says why)."""
    try:
        if not Path(path).is_file():
            return "absent"
        return sha256(Path(path).read_bytes())
    except OSError:
        return "unreadable"


def file_hashes(paths, root: Path) -> dict[str, str]:
    """``{path relative to root: sha256}`` of each path (``"absent"`` for a missing file)."""
    return {str(Path(p).relative_to(root)): _hash_file(p) for p in sorted(paths)}


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


class _Refused(Exception):
    """A file of an entry that is not what it must be (the reason, a few words)."""


class _TooLarge(_Refused):
    """A file larger than it may be."""


def read_regular(path: Path, limit: int) -> bytes:
    """The bytes of ``path``, a regular file of at most ``limit`` bytes; :class:`_Refused` (a
    symbolic link, a FIFO, a device, a folder, a larger file) or OSError otherwise. Never blocks."""
    if not stat.S_ISREG(os.lstat(path).st_mode):
        raise _Refused(f"{Path(path).name} is not a regular file")
    fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC)
    try:
        size = os.fstat(fd)
        if not stat.S_ISREG(size.st_mode):  # replaced between the two looks
            raise _Refused(f"{Path(path).name} is not a regular file")
        if size.st_size > limit:
            raise _TooLarge(f"{Path(path).name} is larger ({size.st_size:,} bytes) than {limit:,} bytes")
        chunks, left = [], limit + 1
        while left > 0 and (chunk := os.read(fd, min(left, 1 << 20))):
            chunks.append(chunk)
            left -= len(chunk)
    finally:
        os.close(fd)
    data = b"".join(chunks)
    if len(data) > limit:  # it grew while read
        raise _TooLarge(f"{Path(path).name} is larger than {limit:,} bytes")
    return data


def _secret(parent: Path, make: bool) -> bytes | None:
    """This cache folder's secret, or None when there is none that is a regular file of 32 bytes.
    With ``make``, one is made (mode 0600) in that case, replacing a bad one: the entries sealed
    with the old one are then made again."""
    path = Path(parent) / SECRET
    with contextlib.suppress(FileNotFoundError, _Refused):
        data = read_regular(path, 32)
        if len(data) == 32:
            return data
    if not make:
        return None
    tmp = Path(parent) / f".tmp-secret-{os.getpid()}"
    _remove(tmp)
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC, 0o600)
    with os.fdopen(fd, "wb") as f:
        f.write(os.urandom(32))
    try:
        if os.path.lexists(path):  # a bad one
            os.replace(tmp, path)
        else:
            with contextlib.suppress(FileExistsError):  # another process made one meanwhile: theirs
                os.link(tmp, path)
    finally:
        tmp.unlink(missing_ok=True)
    return read_regular(path, 32)


def _seal(secret: bytes, manifest: dict) -> str:
    body = {k: manifest[k] for k in ("format", "key", "inputs", "files")}
    return hmac.new(secret, json.dumps(body, sort_keys=True).encode(), hashlib.sha256).hexdigest()


def _unusable(parent: Path, why: str, done: str, report: Callable[[str], None] | None) -> None:
    """One line per process and folder: the cache there cannot be read or written; going on without."""
    if report is not None and str(parent) not in _WARNED:
        _WARNED.add(str(parent))
        report(f"warning: the cache folder {parent} cannot be {done} ({why}); going on without it")


def _why(exc: Exception) -> str:
    return (exc.strerror or type(exc).__name__) if isinstance(exc, OSError) else str(exc)


def _remove(path: Path) -> None:
    """Remove ``path`` if it can be: a folder with what it holds, anything else (a link, a file) itself."""
    with contextlib.suppress(OSError):
        if stat.S_ISDIR(os.lstat(path).st_mode):
            shutil.rmtree(path, ignore_errors=True)
        else:
            path.unlink()


def write(parent: Path, name: str, inputs: dict, files: dict[str, bytes], keep: int = 1,
          report: Callable[[str], None] | None = say) -> Path | None:
    """Store ``files`` as the entry ``name`` made from ``inputs``; keep the ``keep`` most recently
    used entries of ``name`` (the others no current key reaches, or the least recently used).
    None, after one line to ``report``, when the folder cannot be written."""
    folder = entry_folder(parent, name, inputs)
    tmp = folder.parent / f".tmp-{folder.name}-{os.getpid()}"
    try:
        Path(parent).mkdir(parents=True, exist_ok=True)
        secret = _secret(parent, make=True)
        _remove(tmp)
        tmp.mkdir()
        for file, data in files.items():
            (tmp / file).write_bytes(data)
        manifest = {"format": FORMAT, "key": key_of(inputs), "inputs": inputs,
                    "files": {n: {"sha256": sha256(d), "bytes": len(d)} for n, d in sorted(files.items())}}
        manifest["seal"] = _seal(secret, manifest)
        (tmp / MANIFEST).write_text(json.dumps(manifest, sort_keys=True, indent=1) + "\n", encoding="utf-8")
        _remove(folder)
        try:
            tmp.rename(folder)
        except OSError:  # another process wrote the same entry meanwhile (same key: the same files)
            _remove(tmp)
            if not (folder.is_dir() and not folder.is_symlink()):
                raise
    except (OSError, _Refused) as exc:
        _remove(tmp)
        _unusable(parent, _why(exc), "written", report)
        return None
    with contextlib.suppress(OSError):  # an entry another process removes meanwhile
        entries = sorted(_entries(parent, name), key=lambda p: (p.stat().st_mtime, p == folder), reverse=True)
        for old in entries[keep:]:
            _remove(old)
    return folder


def _entries(parent: Path, name: str) -> list[Path]:
    return [p for p in Path(parent).glob(f"{name}-*") if p.is_dir() and len(p.name) == len(name) + 25]


def read(parent: Path, name: str, inputs: dict, what: str,
         report: Callable[[str], None] | None = say) -> dict[str, bytes] | None:
    """The files of the entry ``name`` made from exactly ``inputs``, if it is there and intact
    (then marked most recently used); else None, after one line to ``report`` when an entry was
    there under this key but fails a check, or when the folder cannot be read. ``what`` names the
    entry in that line."""
    folder = entry_folder(parent, name, inputs)
    try:
        mode = os.lstat(folder).st_mode
        secret = _secret(parent, make=False) if stat.S_ISDIR(mode) else None
    except FileNotFoundError:
        return None
    except (OSError, _Refused) as exc:  # the folder cannot be searched, or is a file
        _unusable(parent, _why(exc), "read", report)
        return None
    try:
        problem, files = ("is not a folder", {}) if not stat.S_ISDIR(mode) else _check(folder, inputs, secret)
    except OSError as exc:  # pruned by another process while read, or cannot be read
        problem, files = f"cannot be read ({_why(exc)})", {}
    if problem is None:
        with contextlib.suppress(OSError):  # a read-only cache is still read
            os.utime(folder)
        return files
    if report is not None:
        report(f"{what}: the cache entry {folder} {problem}; recomputing")
    return None


def _manifest_problem(manifest) -> str | None:
    """Why ``manifest`` (parsed JSON) does not have the shape :func:`write` gives it, or None."""
    if not isinstance(manifest, dict) or set(manifest) != {"format", "key", "inputs", "files", "seal"}:
        return "has a manifest of another shape"
    if manifest["format"] != FORMAT:
        return "has a manifest of another format"
    if not isinstance(manifest["key"], str) or not isinstance(manifest["inputs"], dict) or \
            not isinstance(manifest["seal"], str) or not _HEX64.fullmatch(manifest["seal"]) or \
            not isinstance(manifest["files"], dict):
        return "has a manifest of another shape"
    for file, entry in manifest["files"].items():
        if file in ("", ".", "..", MANIFEST, SECRET) or "/" in file or "\0" in file:
            return f"lists a file it may not hold ({echo(file, 60)})"
        if not isinstance(entry, dict) or set(entry) != {"sha256", "bytes"} or \
                not isinstance(entry["sha256"], str) or not _HEX64.fullmatch(entry["sha256"]) or \
                type(entry["bytes"]) is not int or not 0 <= entry["bytes"] <= MAX_FILE_BYTES:
            return f"records {echo(file, 60)} in another shape"
    return None


def _check(folder: Path, inputs: dict, secret: bytes | None) -> tuple[str | None, dict[str, bytes]]:
    try:
        manifest = json.loads(read_regular(folder / MANIFEST, MAX_MANIFEST_BYTES).decode("utf-8"))
    except FileNotFoundError:
        return "has no manifest", {}
    except _Refused as exc:
        return f"has no readable manifest ({exc})", {}
    except (ValueError, RecursionError):  # not UTF-8, not JSON, nested past the parser's depth
        return "has no readable manifest (not JSON)", {}
    problem = _manifest_problem(manifest)
    if problem is not None:
        return problem, {}
    if key_of(manifest["inputs"]) != manifest["key"]:
        return "records inputs that do not hash to its key", {}
    if manifest["key"] != key_of(inputs):
        return f"was made for another key ({clip(manifest['key'], 30)}, not {key_of(inputs)!r})", {}
    if manifest["inputs"] != inputs:
        return "records other inputs than its key's", {}
    if secret is None or not hmac.compare_digest(manifest["seal"], _seal(secret, manifest)):
        return "is not sealed by this cache (its manifest was rewritten, or comes from another cache)", {}
    recorded = manifest["files"]
    present = sorted(p.name for p in os.scandir(folder) if p.name != MANIFEST)
    if present != sorted(recorded):
        extra = sorted(set(present) ^ set(recorded))
        return f"holds other files than its manifest lists ({', '.join(echo(n, 60) for n in extra[:5])})", {}
    files = {}
    for file in present:
        try:
            files[file] = read_regular(folder / file, recorded[file]["bytes"])
        except _TooLarge:  # longer than written
            return f"has {echo(file, 60)} changed since it was written", {}
        except _Refused as exc:
            return f"cannot be used: {exc}", {}
        if len(files[file]) != recorded[file]["bytes"] or sha256(files[file]) != recorded[file]["sha256"]:
            return f"has {echo(file, 60)} changed since it was written", {}
    return None, files


def prune(cache_root: Path, names: dict[str, set[str]]) -> None:
    """Remove what no current key can reach: under ``cache_root/<kind>`` (``names``' keys) the
    entries of names no longer in ``names[kind]``, and anything else (an older layout, stray files,
    a file where a folder should be). What cannot be removed or looked into is left."""
    try:
        children = sorted(Path(cache_root).iterdir())
    except OSError:
        return
    for child in children:
        try:
            if child.name in names and child.is_dir():  # a link to a folder: the cache kept elsewhere
                stale = [p for p in child.iterdir() if p.name != SECRET and (
                    not p.is_dir() or p.is_symlink() or p.name.rsplit("-", 1)[0] not in names[child.name])]
            else:
                stale = [child]
        except OSError:  # cannot be looked into (no permission)
            continue
        for path in stale:
            _remove(path)
