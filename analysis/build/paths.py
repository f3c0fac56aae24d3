"""Output paths, checked before any work starts.

``--out`` of ``run``, ``compare`` and ``measure`` names a folder; ``plan --out`` names a file. A
bad one is an input error (exit code 2) naming the flag, found in milliseconds rather than after
the computing is done, and never a hang: a FIFO given as a file would block the writer until some
other process opened it for reading.

A file output is a regular file, or a new name in an existing, writable folder. A folder output
is a folder, or a new one whose nearest existing parent is a writable folder (it is created with
its missing parents, so the default ``_build/run`` works in a fresh clone). Neither may be empty,
lie under ``/proc``, ``/sys`` or ``/dev`` (kernel interfaces and devices, not places for results),
or be a FIFO, socket or device. Symbolic links are followed before these checks.
"""

from __future__ import annotations

import os
import stat
import tempfile
from pathlib import Path

from analysis.errors import InputError, echo

KERNEL_TREES = (Path("/proc"), Path("/sys"), Path("/dev"))


def _refuse(flag: str, text: str, why: str):
    raise InputError(f"{flag} {echo(text)}: {why}")


def _absolute(flag: str, out) -> tuple[str, Path]:
    text = str(out)
    if not text.strip():
        raise InputError(f"{flag}: the path is empty")
    if "\0" in text:
        _refuse(flag, text, "a path cannot contain a NUL character")
    given = Path(os.path.abspath(os.path.expanduser(text)))
    path = Path(os.path.realpath(given))
    # both the path as given and where its links lead: /dev/stdout is a link into /proc, and /proc/self/fd/1
    # can lead to a regular file when stdout is redirected, which must not make /dev/stdout a place for output
    for shown in (given, path):
        for tree in KERNEL_TREES:
            if shown == tree or tree in shown.parents:
                what = "devices" if tree.name == "dev" else "a kernel interface"
                _refuse(flag, text, f"{shown} is under {tree} ({what}), not a place for output files")
    return text, path


def _file_above(path: Path) -> Path | None:
    """The nearest existing parent of ``path`` when it is a file (``f.txt`` for ``f.txt/sub``)."""
    for parent in path.parents:
        if parent.exists():
            return None if parent.is_dir() else parent
    return None


def _kind(mode: int) -> str:
    if stat.S_ISFIFO(mode):
        return "a FIFO (named pipe)"
    if stat.S_ISSOCK(mode):
        return "a socket"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    return "not a regular file"


def _check_folder(flag: str, text: str, folder: Path, what: str) -> None:
    """``folder`` (which exists) must be a writable, searchable folder."""
    if not folder.is_dir():
        _refuse(flag, text, f"{folder} is a file, so {what} cannot be made there")
    if not os.access(folder, os.W_OK | os.X_OK):  # also false on a read-only file system (EROFS)
        _refuse(flag, text, f"the folder {folder} is not writable")


def check_out_file(flag: str, out) -> Path:
    """``out`` as an absolute path to a file that can be written: an existing regular file, or a
    new name in an existing, writable folder; otherwise an InputError naming ``flag``."""
    text, path = _absolute(flag, out)
    try:
        mode = os.stat(path).st_mode
    except FileNotFoundError:
        mode = None
    except NotADirectoryError:
        _refuse(flag, text, f"{_file_above(path)} is a file, so the file cannot be made under it")
    except OSError as exc:  # ELOOP, EACCES
        _refuse(flag, text, f"cannot be used: {exc.strerror}")
    if mode is not None:
        if stat.S_ISDIR(mode):
            _refuse(flag, text, "is a folder; give a file name")
        if not stat.S_ISREG(mode):
            _refuse(flag, text, f"is {_kind(mode)}; give the name of a regular file")
    parent = path.parent
    if not parent.exists():
        _refuse(flag, text, f"the folder {parent} does not exist")
    _check_folder(flag, text, parent, "the file")
    return path


def check_out_dir(flag: str, out, staged_beside: bool = False) -> Path:
    """``out`` as an absolute path to a folder that exists and is writable, or that can be made
    (its nearest existing parent is a writable folder); otherwise an InputError naming ``flag``.
    ``staged_beside``: the command stages its files in a folder next to ``out`` (``run``,
    ``compare``), so ``out``'s parent must be writable too."""
    text, path = _absolute(flag, out)
    if path == Path(path.anchor):
        _refuse(flag, text, f"refusing to write into the root folder {path}")
    try:
        return _check_dir(flag, text, path, staged_beside)
    except OSError as exc:  # a name too long, a loop of links, a folder that cannot be searched
        _refuse(flag, text, f"cannot be used: {exc.strerror}")


def _check_dir(flag: str, text: str, path: Path, staged_beside: bool) -> Path:
    probe = path
    while not probe.exists() and probe != probe.parent:
        if probe.is_symlink():  # a dangling link: there is nothing to make a folder in
            _refuse(flag, text, f"{probe} is a broken symbolic link")
        probe = probe.parent
    if probe == path:
        mode = os.stat(path).st_mode
        if not stat.S_ISDIR(mode):
            _refuse(flag, text, f"exists and is not a folder (it is {'a file' if stat.S_ISREG(mode) else _kind(mode)})")
        _check_folder(flag, text, path, "files")
        if staged_beside:
            _check_folder(flag, text, path.parent, "a staging folder")
    else:
        _check_folder(flag, text, probe, "the folder")
    return path


def write_text_atomic(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` through a temporary file in the same folder, renamed over it:
    a reader sees the old file or the whole new one, and an interrupted write leaves no half file."""
    path = Path(path)
    try:  # keep an existing file's permissions; a new one gets what open() would give it
        mode = stat.S_IMODE(os.stat(path).st_mode)
    except FileNotFoundError:
        umask = os.umask(0)
        os.umask(umask)
        mode = 0o666 & ~umask
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
        os.chmod(tmp, mode)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
