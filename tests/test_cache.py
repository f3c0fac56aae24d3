"""The cache (analysis/data/cache.py) against what a hostile or careless hand can leave in it: a
FIFO, a device or a link where a file was, a manifest of another shape, an entry rewritten
together with its checksums, a folder that cannot be used. Each is recomputed (or bypassed) with
one line, never a hang, a traceback or a wrong answer: first on the module itself, then through
the commands that read each kind of entry (``plan`` the validated tables, ``run`` the sections).
A hang would show as the alarm's failure (in process) or a subprocess's timeout, not as a stalled suite."""

from __future__ import annotations

import ctypes
import errno
import json
import os
import shutil
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import copy_repo

from analysis.data import cache

INPUTS = {"what": "a test", "data": {"gpus.csv": "0" * 64}}
FILES = {"result.json": b'{"days": 58.4}\n', "table.csv": b"a,b\n1,2\n"}


@pytest.fixture
def never_hangs():
    """Fail, not stall, if a read blocks (a FIFO opened for reading waits for a writer forever)."""
    def hung(*_):
        raise AssertionError("the cache read blocked")

    previous = signal.signal(signal.SIGALRM, hung)
    signal.alarm(60)
    yield
    signal.alarm(0)
    signal.signal(signal.SIGALRM, previous)


def _read(parent: Path, inputs=INPUTS):
    lines = []
    return cache.read(parent, "entry", inputs, "entry", lines.append), lines


def _entry(tmp_path: Path) -> Path:
    return cache.write(tmp_path / "cache", "entry", INPUTS, FILES, report=None)


def _manifest(folder: Path) -> dict:
    return json.loads((folder / cache.MANIFEST).read_text())


def _rewrite_manifest(folder: Path, manifest) -> None:
    (folder / cache.MANIFEST).write_text(json.dumps(manifest))


def _forge(folder: Path) -> None:
    """The result rewritten and its checksum and size with it, as an editor who knows the format would."""
    data = b'{"days": 50.3}\n'
    (folder / "result.json").write_bytes(data)
    manifest = _manifest(folder)
    manifest["files"]["result.json"] = {"sha256": cache.sha256(data), "bytes": len(data)}
    _rewrite_manifest(folder, manifest)


def _move_under_other_inputs(folder: Path) -> None:
    manifest = _manifest(folder)
    manifest["inputs"]["what"] = "another test"
    manifest["key"] = cache.key_of(manifest["inputs"])
    _rewrite_manifest(folder, manifest)


def _inputs_not_of_the_key(folder: Path) -> None:
    manifest = _manifest(folder)
    manifest["inputs"]["what"] = "another test"
    _rewrite_manifest(folder, manifest)


def _manifest_field(**changes):
    def edit(folder: Path) -> None:
        manifest = _manifest(folder)
        for name, value in changes.items():
            manifest[name] = value(manifest) if callable(value) else value
        _rewrite_manifest(folder, manifest)
    return edit


def _replace(name: str, make):
    def edit(folder: Path) -> None:
        (folder / name).unlink()
        make(folder / name)
    return edit


def _link_to_copy(path: Path, data: bytes) -> None:
    """``path`` made a link to a file outside the entry holding the very bytes it had."""
    (path.parent.parent / "copy").write_bytes(data)
    path.symlink_to(path.parent.parent / "copy")


def _from_another_cache(folder: Path) -> None:
    other = cache.write(folder.parent.parent / "other", "entry", INPUTS, FILES, report=None)
    shutil.rmtree(folder)
    shutil.copytree(other, folder)


def _entry_replaced(make):
    def edit(folder: Path) -> None:
        shutil.rmtree(folder)
        make(folder)
    return edit


def _folder_link(folder: Path) -> None:
    real = folder.parent.parent / "elsewhere"
    shutil.copytree(folder, real)
    shutil.rmtree(folder)
    folder.symlink_to(real)


# (id, how the entry is spoiled, words of the one line that says so)
HOSTILE = [
    ("fifo-file", _replace("result.json", os.mkfifo), "result.json is not a regular file"),
    ("fifo-manifest", _replace(cache.MANIFEST, os.mkfifo), "entry.json is not a regular file"),
    ("dev-zero-file", _replace("result.json", lambda p: p.symlink_to("/dev/zero")), "not a regular file"),
    ("dev-urandom-manifest", _replace(cache.MANIFEST, lambda p: p.symlink_to("/dev/urandom")), "not a regular file"),
    ("link-to-same-bytes", _replace("table.csv", lambda p: _link_to_copy(p, FILES["table.csv"])),
     "table.csv is not a regular file"),
    ("folder-for-file", _replace("table.csv", os.mkdir), "table.csv is not a regular file"),
    ("manifest-not-json", lambda f: (f / cache.MANIFEST).write_bytes(b"\xff{not json"), "no readable manifest"),
    ("manifest-a-list", lambda f: _rewrite_manifest(f, []), "another shape"),
    ("manifest-nested-deep", lambda f: (f / cache.MANIFEST).write_text("[" * 100_000 + "]" * 100_000),
     "no readable manifest"),
    ("manifest-too-large", lambda f: (f / cache.MANIFEST).write_bytes(b" " * (cache.MAX_MANIFEST_BYTES + 1)),
     "entry.json is larger"),
    ("manifest-old-format", _manifest_field(format=1), "another format"),
    ("manifest-files-a-list", _manifest_field(files=[]), "another shape"),
    ("manifest-checksum-bare", _manifest_field(files=lambda m: {n: e["sha256"] for n, e in m["files"].items()}),
     "in another shape"),
    ("manifest-size-negative", _manifest_field(files=lambda m: {n: {**e, "bytes": -1} for n, e in m["files"].items()}),
     "in another shape"),
    ("manifest-size-huge", _manifest_field(files=lambda m: {n: {**e, "bytes": 10**15} for n, e in m["files"].items()}),
     "in another shape"),
    ("manifest-size-bool", _manifest_field(files=lambda m: {n: {**e, "bytes": True} for n, e in m["files"].items()}),
     "in another shape"),
    ("manifest-path-out", _manifest_field(files=lambda m: {"../../etc/passwd": m["files"]["result.json"]}),
     "lists a file it may not hold"),
    ("manifest-no-seal", _manifest_field(seal="0" * 63), "another shape"),
    ("forged-content-and-checksum", _forge, "is not sealed by this cache"),
    ("sealed-by-another-cache", _from_another_cache, "is not sealed by this cache"),
    ("moved-from-another-key", _move_under_other_inputs, "made for another key"),
    ("inputs-not-of-its-key", _inputs_not_of_the_key, "records inputs that do not hash to its key"),
    ("file-added", lambda f: (f / "extra.json").write_text("{}"), "holds other files than its manifest lists (extra.json)"),
    ("file-removed", lambda f: (f / "table.csv").unlink(), "holds other files"),
    ("file-truncated", lambda f: (f / "result.json").write_bytes(b"{"), "result.json changed since it was written"),
    ("file-grown", lambda f: (f / "result.json").write_bytes(FILES["result.json"] * 1000), "changed since it was written"),
    ("entry-a-file", _entry_replaced(lambda p: p.write_text("x")), "is not a folder"),
    ("entry-a-fifo", _entry_replaced(os.mkfifo), "is not a folder"),
    ("entry-a-link", _folder_link, "is not a folder"),
]


@pytest.mark.usefixtures("never_hangs")
@pytest.mark.parametrize("case", HOSTILE, ids=[c[0] for c in HOSTILE])
def test_a_spoiled_entry_is_recomputed_with_one_line(case, tmp_path):
    _, spoil, words = case
    folder = _entry(tmp_path)
    assert _read(folder.parent) == (FILES, [])
    spoil(folder)
    files, lines = _read(folder.parent)
    assert files is None and len(lines) == 1 and "\n" not in lines[0], lines
    assert words in lines[0] and lines[0].endswith("; recomputing"), lines
    cache.write(folder.parent, "entry", INPUTS, FILES, report=None)  # the caller's recompute heals it
    assert _read(folder.parent) == (FILES, [])


def test_the_key_is_a_hash_of_the_stored_inputs_and_the_seal_covers_them(tmp_path):
    folder = _entry(tmp_path)
    manifest = _manifest(folder)
    assert manifest["key"] == cache.key_of(manifest["inputs"]) == folder.name.rsplit("-", 1)[1]
    assert manifest["inputs"] == INPUTS and set(manifest) == {"format", "key", "inputs", "files", "seal"}
    assert manifest["files"]["table.csv"] == {"sha256": cache.sha256(FILES["table.csv"]), "bytes": len(FILES["table.csv"])}
    secret = folder.parent / cache.SECRET
    assert len(secret.read_bytes()) == 32 and secret.stat().st_mode & 0o777 == 0o600


@pytest.mark.usefixtures("never_hangs")
@pytest.mark.parametrize("bad", ["short", "fifo", "link"])
def test_a_bad_secret_is_replaced_and_what_it_sealed_made_again(bad, tmp_path):
    folder = _entry(tmp_path)
    secret = folder.parent / cache.SECRET
    secret.unlink()
    {"short": lambda: secret.write_bytes(b"x"), "fifo": lambda: os.mkfifo(secret),
     "link": lambda: secret.symlink_to("/dev/zero")}[bad]()
    files, lines = _read(folder.parent)
    assert files is None and "is not sealed by this cache" in lines[0]
    assert cache.write(folder.parent, "entry", INPUTS, FILES, report=None) == folder
    assert secret.is_file() and not secret.is_symlink() and len(secret.read_bytes()) == 32
    assert _read(folder.parent) == (FILES, [])


@pytest.mark.usefixtures("never_hangs")
def test_a_file_where_the_cache_folder_should_be_is_bypassed_with_one_line(tmp_path):
    parent = tmp_path / "tables"
    parent.write_text("not a folder")
    lines = []
    for _ in range(3):  # a table per call, as a command reads them: one line in all
        assert cache.read(parent, "entry", INPUTS, "table", lines.append) is None
        assert cache.write(parent, "entry", INPUTS, FILES, report=lines.append) is None
    assert lines == [f"warning: the cache folder {parent} cannot be read (Not a directory); going on without it"]
    assert parent.read_text() == "not a folder"


def test_an_unusable_folder_is_named_by_what_failed():
    """The line says read or written, and the system's reason (here: no permission, which only a
    process without root's capabilities meets; the commands below meet it for real)."""
    lines = []
    cache._unusable(Path("/c/tables"), cache._why(PermissionError(errno.EACCES, os.strerror(errno.EACCES))), "read",
                    lines.append)
    cache._unusable(Path("/c/tables"), "again", "written", lines.append)
    assert lines == ["warning: the cache folder /c/tables cannot be read (Permission denied); going on without it"]


def test_prune_keeps_the_secret_and_removes_what_no_key_reaches_without_following_links(tmp_path):
    root = tmp_path / "cache"
    kept = cache.write(root / "sections", "cluster", INPUTS, FILES, report=None)
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "precious").write_text("x")
    (root / "sections" / "cluster-0123456789abcdef01234567").symlink_to(outside)
    (root / "tables").write_text("a file where a folder should be")
    (root / "sections" / "stray.txt").write_text("x")
    cache.prune(root, {"sections": {"cluster"}, "tables": set()})
    assert sorted(p.name for p in (root / "sections").iterdir()) == sorted([cache.SECRET, kept.name])
    assert not (root / "tables").exists() and (outside / "precious").exists()


# --- through the commands ---------------------------------------------------------------------------

PLAN = ("plan", "--model", "llama31_70b", "--tokens", "15e12", "--gpu", "h100_sxm", "--gpus", "4096", "--json")


def _cli(root: Path, *args: str, preexec_fn=None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "analysis", *args], cwd=root, capture_output=True, text=True,
                          timeout=180, env={**os.environ, "PYTHONPATH": str(root)}, preexec_fn=preexec_fn)


@pytest.fixture(scope="module")
def planned(tmp_path_factory):
    """A repository copy whose table cache a plan has filled, and that plan's output."""
    root = copy_repo(tmp_path_factory.mktemp("cache") / "repo")
    first = _cli(root, *PLAN)
    assert first.returncode == 0, first.stderr
    return root, first.stdout


def _gpus_entry(root: Path) -> Path:
    (entry,) = (root / "_build" / "cache" / "tables").glob("gpus-*")
    return entry


def _forge_table(folder: Path) -> None:
    """Every GPU's BF16 peak doubled, the checksum and size rewritten to match (plan's days fall)."""
    columns = json.loads((folder / "table.json").read_text())
    for column in columns:
        if column[0] == "bf16_dense_tflops":
            column[2] = [v * 2 if v else v for v in column[2]]
    data = json.dumps(columns).encode()
    (folder / "table.json").write_bytes(data)
    manifest = _manifest(folder)
    manifest["files"]["table.json"] = {"sha256": cache.sha256(data), "bytes": len(data)}
    _rewrite_manifest(folder, manifest)


TABLE_CASES = [
    ("fifo-table", _replace("table.json", os.mkfifo)),
    ("fifo-manifest", _replace(cache.MANIFEST, os.mkfifo)),
    ("dev-zero-table", _replace("table.json", lambda p: p.symlink_to("/dev/zero"))),
    ("dev-urandom-manifest", _replace(cache.MANIFEST, lambda p: p.symlink_to("/dev/urandom"))),
    ("manifest-of-another-shape", _manifest_field(files=lambda m: {"table.json": 5})),
    ("forged-table", _forge_table),
]


@pytest.mark.parametrize("case", TABLE_CASES, ids=[c[0] for c in TABLE_CASES])
def test_plan_recomputes_a_spoiled_table_entry_with_one_line(case, planned):
    root, expected = planned
    case[1](_gpus_entry(root))
    proc = _cli(root, *PLAN)
    assert proc.returncode == 0 and proc.stdout == expected, proc.stderr
    assert proc.stderr.count("\n") == 1 and proc.stderr.startswith("table gpus: the cache entry"), proc.stderr
    assert "recomputing" in proc.stderr and "Traceback" not in proc.stderr


def test_plan_goes_on_without_a_cache_folder_that_is_a_file(planned):
    root, expected = planned
    tables = root / "_build" / "cache" / "tables"
    shutil.move(tables, tables.with_name("tables.saved"))
    tables.write_text("x")
    try:
        proc = _cli(root, *PLAN)
    finally:
        tables.unlink()
        shutil.move(tables.with_name("tables.saved"), tables)
    assert proc.returncode == 0 and proc.stdout == expected, proc.stderr
    assert proc.stderr == f"warning: the cache folder {tables} cannot be read (Not a directory); going on without it\n"


def _without_root_powers():
    """As root, give up the capabilities that let root read and search any folder (prctl(2)
    PR_CAPBSET_DROP of CAP_DAC_OVERRIDE and CAP_DAC_READ_SEARCH, before exec), so that chmod 000
    stops this process as it stops any user."""
    if os.geteuid() == 0:
        libc = ctypes.CDLL(None, use_errno=True)
        for capability in (1, 2):
            if libc.prctl(24, capability, 0, 0, 0) != 0:
                raise OSError(ctypes.get_errno(), "prctl(PR_CAPBSET_DROP)")


def _can_drop_root_powers() -> bool:
    return subprocess.run([sys.executable, "-c", "0"], preexec_fn=_without_root_powers).returncode == 0


def test_plan_goes_on_without_a_cache_folder_it_may_not_read(planned):
    if os.geteuid() == 0 and not _can_drop_root_powers():
        pytest.skip("running as root, which chmod 000 does not stop, without CAP_SETPCAP to give that up")
    root, expected = planned
    tables = root / "_build" / "cache" / "tables"
    tables.chmod(0)
    try:
        proc = _cli(root, *PLAN, preexec_fn=_without_root_powers)
    finally:
        tables.chmod(0o755)
    assert proc.returncode == 0 and proc.stdout == expected, proc.stderr
    assert proc.stderr == f"warning: the cache folder {tables} cannot be read (Permission denied); going on without it\n"


def test_a_data_file_it_may_not_read_is_named_as_one_it_cannot_read(planned):
    if os.geteuid() == 0 and not _can_drop_root_powers():
        pytest.skip("running as root, which chmod 000 does not stop, without CAP_SETPCAP to give that up")
    root, _ = planned
    gpus = root / "data" / "gpus.csv"
    gpus.chmod(0)
    try:
        proc = _cli(root, *PLAN, preexec_fn=_without_root_powers)
    finally:
        gpus.chmod(0o644)
    assert proc.returncode == 2 and proc.stderr == f"error: {gpus}: cannot read the data file: Permission denied\n"


def _section_entry(book: Path, name: str) -> Path:
    data = (book / "_build" / "results" / f"{name}.json").read_bytes()
    return max((p for p in (book / "_build" / "cache" / "sections").glob(f"{name}-*")
                if (p / f"{name}.json").read_bytes() == data), key=lambda p: p.stat().st_mtime)


def _forge_results(folder: Path) -> None:
    name = folder.name.rsplit("-", 1)[0]
    doc = json.loads((folder / f"{name}.json").read_text())
    for result in doc["results"].values():
        if isinstance(result.get("value"), float):
            result["value"] *= 0.5
    data = json.dumps(doc).encode()
    (folder / f"{name}.json").write_bytes(data)
    manifest = _manifest(folder)
    manifest["files"][f"{name}.json"] = {"sha256": cache.sha256(data), "bytes": len(data)}
    _rewrite_manifest(folder, manifest)


@pytest.mark.parametrize("spoil,words", [(_replace("uncertainty.json", os.mkfifo), "is not a regular file"),
                                         (_forge_results, "is not sealed by this cache")], ids=["fifo", "forged"])
def test_run_recomputes_a_spoiled_section_entry_with_one_line(book, tmp_path, spoil, words):
    """``run tco`` takes the uncertainty chapter it needs from the build's cache: spoiled, it is computed."""
    entry = _section_entry(book, "uncertainty")
    saved = tmp_path / "saved"
    shutil.copytree(entry, saved)
    try:
        good = _cli(book, "run", "tco", "--out", str(tmp_path / "good"))
        assert good.returncode == 0 and good.stderr == "", good.stderr
        spoil(entry)
        proc = _cli(book, "run", "tco", "--out", str(tmp_path / "spoiled"))
    finally:
        shutil.rmtree(entry)
        shutil.copytree(saved, entry)
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr.count("\n") == 1 and proc.stderr.startswith("uncertainty: the cache entry") and words in proc.stderr
    assert (tmp_path / "spoiled" / "tco.json").read_bytes() == (tmp_path / "good" / "tco.json").read_bytes()
