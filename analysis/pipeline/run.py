"""``python -m analysis run SECTION``: one chapter, computed in this process through the chapter
layer (:func:`analysis.chapters.module_for` ``(name).compute``), after the chapters it needs.

A needed chapter whose build cache entry matches its inputs now (:mod:`analysis.pipeline.scheduler`)
is read from there, not recomputed; the cache is only read. The chapter's results JSON is written
as its notebook writes it (:class:`analysis.results.Results`), byte for byte. With ``notebook``
the chapter's notebook is also executed (papermill, :mod:`analysis.pipeline.execute`), and the
results it writes must equal the in-process ones.
"""

from __future__ import annotations

import json
import os
import shutil
import tempfile
from pathlib import Path
from types import SimpleNamespace

from analysis import cache
from analysis.chapters import ChapterResults, module_for
from analysis.data import table_closure
from analysis.errors import ExecutionError
from analysis.results import Results
from analysis.sections import get_section, run_order


def as_results(chapter: ChapterResults, parameters: dict) -> Results:
    """The :class:`Results` a notebook records from ``chapter`` (``R.record``), without glue."""
    R = Results(chapter.section, parameters)
    for key, q in chapter.quantities.items():
        R.add(key, q.value, q.unit, q.label, glue=False)
    return R


def run_section(name: str, values: dict[str, dict], root: Path, stage: Path, notebook: bool = False) -> dict:
    """Compute section ``name`` with ``values`` (every section's validated parameters) into
    ``stage``; returns its results (``{key: {"value", "unit", "label"}}``)."""
    from analysis.pipeline.scheduler import package_hashes, section_inputs

    package, done, raw = package_hashes(root), {}, {}
    for section in [s for level in run_order([name]) for s in level]:
        needs = {n: raw[n] for n in section.needs}
        if section.name != name:
            inputs = section_inputs(section, values[section.name], root, needs, package)
            files = cache.read(root / "_build" / "cache" / "sections", section.name, inputs, f"{section.name}")
            if files is not None:
                raw[section.name] = files[f"{section.name}.json"]
                done[section.name] = ChapterResults.from_json(json.loads(raw[section.name]))
                continue
        P = SimpleNamespace(**values[section.name])
        done[section.name] = module_for(section.name).compute(P, {n: done[n] for n in section.needs})
        done[section.name].parameters = dict(values[section.name])
        R = as_results(done[section.name], values[section.name])
        raw[section.name] = R.to_json().encode()
    R.save(stage)
    if notebook:
        _execute_notebook(name, values[name], root, stage, raw)
    return R.results


def _execute_notebook(name: str, params: dict, root: Path, stage: Path, raw: dict[str, bytes]) -> None:
    """Execute the chapter's notebook into ``stage`` with its needs' results beside it; its
    results must be the in-process ones."""
    from analysis.pipeline.execute import execute_section

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
