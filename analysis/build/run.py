"""``python -m analysis run SECTION``: the chapter and the chapters it needs, computed in this
process by :func:`analysis.chapters.compute_section`, not in a notebook kernel. A needed chapter
whose build cache entry matches its inputs (:mod:`analysis.build.scheduler`; the cache is only
read) comes from there instead. The results JSON is the one the notebook writes
(:meth:`analysis.chapters.ChapterResults.to_json`), byte for byte. With ``notebook`` the notebook is executed
too (:mod:`analysis.build.execute`), and its results must be the same bytes.
"""

from __future__ import annotations

import json
import os
import shutil
import tempfile
from pathlib import Path

from analysis.build.execute import execute_section
from analysis.build.scheduler import section_inputs
from analysis.chapters import ChapterResults, compute_section
from analysis.chapters.registry import get_section, in_order
from analysis.data import cache
from analysis.data.load import table_closure
from analysis.errors import ExecutionError


def run_section(name: str, overrides: dict, values: dict[str, dict], root: Path, stage: Path,
                notebook: bool = False) -> dict:
    """Compute section ``name`` with ``overrides`` (``values``: every section's parameters, as
    they resolve) into ``stage``; returns its results (``{key: {"value", "unit", "label"}}``)."""

    package, done, raw = cache.package_hashes(root), {}, {}
    for section in in_order([name]):
        inputs = section_inputs(section, values[section.name], root, {n: raw[n] for n in section.needs}, package)
        # the section itself too, unless its notebook is to run: a build's entry for these inputs holds
        # the bytes computing it would write (its notebook's results, which equal the chapter layer's)
        files = None if notebook and section.name == name else \
            cache.read(root / "_build" / "cache" / "sections", section.name, inputs, section.name)
        if files is not None:
            raw[section.name] = files[f"{section.name}.json"]
            done[section.name] = ChapterResults.from_json(json.loads(raw[section.name]))
        else:  # its needs are all in ``done``: computes this one only
            raw[section.name] = compute_section(section.name, overrides, _done=done).to_json().encode()
    if files is None:
        done[name].save(stage)
    else:
        for suffix in (".json", "__results.csv"):
            (stage / f"{name}{suffix}").write_bytes(files[f"{name}{suffix}"])
    if notebook:
        _execute_notebook(name, values[name], root, stage, raw)
    return json.loads(raw[name])["results"]


def _execute_notebook(name: str, params: dict, root: Path, stage: Path, raw: dict[str, bytes]) -> None:
    """Execute the chapter's notebook into ``stage`` with its needs' results beside it; its
    results must be the in-process ones."""

    work = stage / ".notebook"
    work.mkdir()
    for need in get_section(name).needs:
        (work / f"{need}.json").write_bytes(raw[need])
    os.environ["PYTHONPATH"] = os.pathsep.join(filter(None, [str(root), os.environ.get("PYTHONPATH")]))
    saved = os.dup(2)
    with tempfile.TemporaryFile() as log:  # the kernel's own messages (a failure names its cell)
        os.dup2(log.fileno(), 2)
        try:
            execute_section(name, params, stage, root, work, table_closure(get_section(name).tables))
        finally:
            os.dup2(saved, 2)
            os.close(saved)
    if (work / f"{name}.json").read_bytes() != raw[name]:
        raise ExecutionError(f"section '{name}': the notebook's results differ from the chapter layer's "
                             f"({work / (name + '.json')} against {stage / (name + '.json')})")
    for table in sorted(work.glob(f"{name}__*.csv")):
        table.replace(stage / table.name)
    shutil.rmtree(work)
