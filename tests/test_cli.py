"""`python -m analysis`: commands, exit codes, and nothing written on bad input."""

import json
from pathlib import Path

import pytest
from conftest import run_cli

from analysis.chapters.registry import get_section

INJECTION = "__import__('os').system('touch /tmp/analysis-cli-injected')"


def test_sections_and_params_list_everything():
    out = run_cli("sections").stdout
    assert "cluster" in out and "The 100,000-H100 cluster" in out
    proc = run_cli("params", "cluster")
    assert proc.returncode == 0
    for p in get_section("cluster").params:
        assert p.name in proc.stdout
    assert "valid:" in proc.stdout and "source:" in proc.stdout


@pytest.mark.parametrize("args,message", [
    (["run", "cluster", "-p", "gpus", "abc"], "parameter 'gpus'"),
    (["run", "cluster", "-p", "gpus", "nan"], "not finite"),
    (["run", "cluster", "-p", "pue", "0.5"], "out of range"),
    (["run", "cluster", "-p", "gpu", INJECTION], "parameter 'gpu'"),
    (["run", "cluster", "-p", "gpus", INJECTION], "not a number"),
    (["run", "cluster", "-p", "no_such", "1"], "unknown parameter 'no_such'"),
    (["run", "nowhere"], "unknown section 'nowhere'"),
    (["run", "cluster", "--scenario", "/nonexistent.yaml"], "cannot read"),
    (["build", "--jobs", "0"], "--jobs expects an integer"),
    (["frobnicate"], "invalid choice"),
])
def test_bad_input_exits_2_and_writes_nothing(tmp_path, args, message):
    out = tmp_path / "out"
    extra = ["--out", str(out)] if args[0] == "run" else []
    proc = run_cli(*args, *extra)
    assert proc.returncode == 2, proc.stderr
    assert message in proc.stderr
    assert not out.exists()
    assert not Path("/tmp/analysis-cli-injected").exists()


def test_run_reruns_the_chapter_with_new_inputs(tmp_path):
    out = tmp_path / "run"
    proc = run_cli("run", "cluster", "-p", "gpus", "50000", "--out", str(out))
    assert proc.returncode == 0, proc.stderr
    assert not (out / "cluster.ipynb").exists()  # computed in process: `--notebook` executes the notebook too
    result = json.loads((out / "cluster.json").read_text())
    assert result["section"] == "cluster" and result["parameters"]["gpus"] == 50_000
    values = {k: v["value"] for k, v in result["results"].items()}
    assert values["cluster_it_mw"] == pytest.approx(69.45)  # 50,000 x 1,389 W, half of the 100k cluster's 138.9 MW
    assert values["first_failure_minutes"] == pytest.approx(2 * 26.28, rel=1e-3)
    assert "Critical IT power of the cluster" in proc.stdout and "cluster_it_mw" in proc.stdout
    assert not list(tmp_path.glob(".*partial"))


def test_failing_section_exits_1_naming_section_cell_and_error(tmp_path):
    from conftest import copy_repo

    root = copy_repo(tmp_path / "repo")
    nb = root / "notebooks" / "cluster.py"
    nb.write_text(nb.read_text().replace("R = chapter.compute(P, upstream)",
                                         'R = chapter.compute(P, upstream)\nraise RuntimeError("boom")'))
    out = tmp_path / "out"
    proc = run_cli("run", "cluster", "--notebook", "--out", str(out), cwd=root)
    assert proc.returncode == 1
    assert "section 'cluster' failed in cell" in proc.stderr and "RuntimeError: boom" in proc.stderr
    assert not out.exists()


def test_only_a_build_speaks_of_the_previous_book_when_interrupted():
    from analysis.cli import _interrupted

    for command in ("run", "plan", "compare", "measure"):
        message = _interrupted(KeyboardInterrupt("SIGTERM"), command)
        assert message.startswith("SIGTERM received: ") and "only when" in message and "book" not in message, command
    assert _interrupted(KeyboardInterrupt(), None) == "interrupted"
    assert "the previous book and results are untouched" in _interrupted(KeyboardInterrupt(), "build")


def test_run_works_in_a_folder_with_spaces_and_non_ascii_characters(tmp_path):
    from conftest import copy_repo

    root = copy_repo(tmp_path / "mon livre é ü" / "repo")
    out = tmp_path / "sortie à part"
    proc = run_cli("run", "cluster", "-p", "gpus", "20000", "--notebook", "--out", str(out), cwd=root)
    assert proc.returncode == 0, proc.stderr
    assert json.loads((out / "cluster.json").read_text())["parameters"]["gpus"] == 20_000
    assert "gpus = 20000" in (out / "cluster.ipynb").read_text()


def test_run_prints_the_books_number_formats(tmp_path):
    """Money, ratios and percentages as the chapter's answer box shows them, not 3.125e+04."""
    proc = run_cli("run", "capex", "--out", str(tmp_path))
    assert proc.returncode == 0, proc.stderr
    lines = {line.rsplit("(", 1)[-1].rstrip(")"): line for line in proc.stdout.splitlines()[1:]}
    assert "$31,250 per GPU" in lines["h100_capex_usd_per_gpu"]
    assert "1.73x" in lines["gb200_to_h100_capex_ratio"]
    assert "e+" not in proc.stdout and "USD per GPU" not in proc.stdout


class _Stream:
    def __init__(self, tty: bool):
        self.tty, self.text = tty, ""

    def isatty(self):
        return self.tty

    def write(self, text):
        self.text += text

    def flush(self):
        pass


@pytest.mark.parametrize("tty,ci", [(True, ""), (False, ""), (True, "true")])
def test_build_progress_updates_one_line_on_a_terminal_and_keeps_every_line_elsewhere(tty, ci, monkeypatch):
    from analysis.build.scheduler import Progress

    monkeypatch.setenv("CI", ci)
    monkeypatch.setenv("TERM", "xterm")
    stream = _Stream(tty)
    progress = Progress(3, stream)
    progress.finished("network", None)
    progress.finished("cluster", 2.14)
    progress.line("  capex: the cache entry ... recomputing", keep=True)
    progress.finished("capex", 0.5)
    progress.end()
    if tty and not ci:  # rewritten in place; a kept line stays; the last one ends with a newline
        assert stream.text == ("\r\x1b[K[1/3] network      from the cache\r\x1b[K[2/3] cluster      ran in   2.1 s\n"
                               "  capex: the cache entry ... recomputing\n\r\x1b[K[3/3] capex        ran in   0.5 s\n")
    else:
        assert stream.text == ("[1/3] network      from the cache\n[2/3] cluster      ran in   2.1 s\n"
                               "  capex: the cache entry ... recomputing\n[3/3] capex        ran in   0.5 s\n")
