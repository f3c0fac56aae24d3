"""CI as written runs anywhere it is started.

- Every workflow validates against SchemaStore's GitHub workflow schema (vendored in tests/schemas/,
  its source and licence beside it); actionlint itself runs on GitHub, a job of the workflow.
- Every action is pinned to its current major, all of them on Node 24 (looked up in each action's
  repository: actions/checkout v7, setup-python v7, upload-artifact v7, upload-pages-artifact v5,
  deploy-pages v5).
- The runner image is pinned, the browser is Playwright's own Chromium, passed to the tests as
  BOOK_CHROMIUM, and Pages deploys from main only.
- `.ci/run` installs apt's chromium on Debian only; elsewhere, with no browser, it stops with a
  sentence naming BOOK_CHROMIUM and `playwright install`.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
from pathlib import Path

import jsonschema
import pytest
import yaml
from conftest import REPO

WORKFLOWS = sorted((REPO / ".github" / "workflows").glob("*.yml"))
CURRENT_MAJORS = {"actions/checkout": "v7", "actions/setup-python": "v7", "actions/upload-artifact": "v7",
                  "actions/upload-pages-artifact": "v5", "actions/deploy-pages": "v5"}


def _workflow(path: Path) -> dict:
    doc = yaml.safe_load(path.read_text(encoding="utf-8"))
    # PyYAML reads YAML 1.1, where a bare `on` is the boolean true; GitHub reads the key `on`
    if True in doc:
        doc["on"] = doc.pop(True)
    return doc


def _steps(doc: dict):
    for name, job in doc["jobs"].items():
        for step in job.get("steps", []):
            yield name, step


def test_there_is_a_workflow():
    assert [p.name for p in WORKFLOWS] == ["book.yml"]


@pytest.mark.parametrize("path", WORKFLOWS, ids=[p.name for p in WORKFLOWS])
def test_workflow_matches_schemastores_schema(path):
    schema = json.loads((REPO / "tests" / "schemas" / "github-workflow.json").read_text(encoding="utf-8"))
    validator = jsonschema.Draft7Validator(schema)
    errors = [f"{list(e.absolute_path)}: {e.message[:200]}" for e in validator.iter_errors(_workflow(path))]
    assert errors == []


def test_the_schema_catches_a_broken_workflow():
    schema = json.loads((REPO / "tests" / "schemas" / "github-workflow.json").read_text(encoding="utf-8"))
    doc = _workflow(WORKFLOWS[0])
    broken = {**doc, "jobs": {**doc["jobs"], "deploy": {**doc["jobs"]["deploy"], "runs_on": "ubuntu-24.04"}}}
    assert not jsonschema.Draft7Validator(schema).is_valid(broken)


@pytest.mark.parametrize("path", WORKFLOWS, ids=[p.name for p in WORKFLOWS])
def test_every_action_is_its_current_major(path):
    used = [step["uses"] for _, step in _steps(_workflow(path)) if "uses" in step]
    assert used
    for uses in used:
        action, _, ref = uses.partition("@")
        assert action in CURRENT_MAJORS, f"{uses}: not an action whose current major was looked up"
        assert ref == CURRENT_MAJORS[action], f"{uses}: the current major is {CURRENT_MAJORS[action]}"


def test_the_book_workflow_pins_the_image_and_the_browser_and_deploys_from_main():
    doc = _workflow(REPO / ".github" / "workflows" / "book.yml")
    assert {job["runs-on"] for job in doc["jobs"].values()} == {"ubuntu-24.04"}
    runs = "\n".join(step.get("run", "") for _, step in _steps(doc))
    assert "python -m playwright install --with-deps chromium" in runs
    assert "BOOK_CHROMIUM=" in runs and "$GITHUB_ENV" in runs and "bash .ci/run" in runs
    deploy = doc["jobs"]["deploy"]
    main_push = "github.ref == 'refs/heads/main' && github.event_name == 'push'"
    assert deploy["if"] == main_push and set(deploy["needs"]) == {"actionlint", "build-and-test"}
    upload = next(step for _, step in _steps(doc) if step.get("uses", "").startswith("actions/upload-pages-artifact"))
    assert upload["if"] == main_push and upload["with"]["path"] == "_build/html"


def test_actionlint_runs_on_github_pinned():
    doc = _workflow(REPO / ".github" / "workflows" / "book.yml")
    run = "\n".join(step.get("run", "") for step in doc["jobs"]["actionlint"]["steps"])
    pinned = re.search(r"rhysd/actionlint/v(\d+\.\d+\.\d+)/scripts/download-actionlint\.bash\) (\d+\.\d+\.\d+)", run)
    assert pinned and pinned.group(1) == pinned.group(2), run
    assert "./actionlint" in run


def test_the_vendored_schema_names_its_source_and_licence():
    notice = (REPO / "tests" / "schemas" / "github-workflow.NOTICE.md").read_text(encoding="utf-8")
    assert "https://github.com/SchemaStore/schemastore" in notice and "Apache License 2.0" in notice
    assert re.search(r"\b[0-9a-f]{40}\b", notice)


# --- .ci/run ------------------------------------------------------------------------------------------

def _ci_copy(tmp_path: Path, os_id: str | None, chromium_present: bool) -> tuple[Path, dict]:
    """.ci/run in a folder of its own, its two machine paths (Debian's Chromium, /etc/os-release)
    pointed into ``tmp_path``, with `make`, `apt-get` and `sudo` stubs that log their arguments."""
    root, stubs = tmp_path / "project", tmp_path / "bin"
    (root / ".ci").mkdir(parents=True)
    stubs.mkdir()
    chromium, os_release = tmp_path / "usr-bin-chromium", tmp_path / "os-release"
    text = (REPO / ".ci" / "run").read_text(encoding="utf-8")
    assert "/usr/bin/chromium" in text and "/etc/os-release" in text
    text = text.replace("/usr/bin/chromium", str(chromium)).replace("/etc/os-release", str(os_release))
    (root / ".ci" / "run").write_text(text, encoding="utf-8")
    if os_id is not None:
        os_release.write_text(f'PRETTY_NAME="test"\nID={os_id}\n', encoding="utf-8")
    if chromium_present:
        chromium.write_text("#!/bin/sh\n", encoding="utf-8")
        chromium.chmod(0o755)
    log = tmp_path / "log"
    for name in ("make", "apt-get", "sudo"):
        (stubs / name).write_text(f'#!/bin/sh\necho "{name} $* BOOK_CHROMIUM=$BOOK_CHROMIUM" >> "{log}"\n'
                                  + ('[ "$1" = apt-get ] && shift && exec apt-get "$@"\n' if name == "sudo" else ""),
                                  encoding="utf-8")
        (stubs / name).chmod(0o755)
    env = {k: v for k, v in os.environ.items() if k != "BOOK_CHROMIUM"}
    env["PATH"] = f"{stubs}:{env['PATH']}"
    return root, env


def _ci_run(root: Path, env: dict) -> tuple[subprocess.CompletedProcess, str]:
    proc = subprocess.run(["bash", str(root / ".ci" / "run")], env=env, capture_output=True, text=True, timeout=60)
    log = root.parent / "log"
    return proc, log.read_text() if log.exists() else ""


@pytest.mark.skipif(shutil.which("bash") is None, reason="needs bash")
def test_ci_run_on_debian_installs_apts_chromium(tmp_path):
    root, env = _ci_copy(tmp_path, "debian", chromium_present=False)
    proc, log = _ci_run(root, env)
    assert proc.returncode == 0, proc.stderr
    assert "apt-get install -y -qq chromium" in log and log.strip().endswith(f"BOOK_CHROMIUM={tmp_path / 'usr-bin-chromium'}")
    assert log.splitlines()[-1].startswith("make test")


@pytest.mark.parametrize("os_id", ["ubuntu", "fedora", None])
def test_ci_run_elsewhere_without_a_browser_says_how_to_get_one(tmp_path, os_id):
    root, env = _ci_copy(tmp_path, os_id, chromium_present=False)
    proc, log = _ci_run(root, env)
    assert proc.returncode == 1 and log == ""  # nothing installed, no tests run
    assert "BOOK_CHROMIUM" in proc.stderr and "playwright install" in proc.stderr


def test_ci_run_uses_book_chromium_anywhere(tmp_path):
    root, env = _ci_copy(tmp_path, "ubuntu", chromium_present=False)
    playwright_chromium = tmp_path / "ms-playwright" / "chrome"
    playwright_chromium.parent.mkdir()
    playwright_chromium.write_text("#!/bin/sh\n", encoding="utf-8")
    playwright_chromium.chmod(0o755)
    proc, log = _ci_run(root, {**env, "BOOK_CHROMIUM": str(playwright_chromium)})
    assert proc.returncode == 0, proc.stderr
    assert log.splitlines() == [f"make test BOOK_CHROMIUM={playwright_chromium}"]


def test_ci_run_with_a_wrong_book_chromium_stops_even_on_debian(tmp_path):
    root, env = _ci_copy(tmp_path, "debian", chromium_present=False)
    proc, log = _ci_run(root, {**env, "BOOK_CHROMIUM": str(tmp_path / "nowhere")})
    assert proc.returncode == 1 and log == "" and "BOOK_CHROMIUM" in proc.stderr


def test_ci_run_with_debians_chromium_present_just_tests(tmp_path):
    root, env = _ci_copy(tmp_path, "debian", chromium_present=True)
    proc, log = _ci_run(root, env)
    assert proc.returncode == 0 and log.splitlines() == [f"make test BOOK_CHROMIUM={tmp_path / 'usr-bin-chromium'}"]
