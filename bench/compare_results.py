"""Compare two folders of results JSON (a build's ``_build/results``): every section's keys, values
and units. Used to show that a change which should move no number moved none.

    python -m bench.compare_results OLD_FOLDER NEW_FOLDER [--ignore-keys KEY ...]

Prints one line per section and every difference; exits 1 if any key or value differs.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path


def results_of(folder: Path) -> dict[str, dict]:
    return {p.stem: json.loads(p.read_text())["results"] for p in sorted(folder.glob("*.json"))}


def differences(old: dict[str, dict], new: dict[str, dict], ignore: set[str]) -> list[str]:
    out = [f"section {s}: only in the old results" for s in sorted(old.keys() - new.keys())]
    out += [f"section {s}: only in the new results" for s in sorted(new.keys() - old.keys())]
    for section in sorted(old.keys() & new.keys()):
        a, b = old[section], new[section]
        out += [f"{section}.{k}: removed" for k in sorted(a.keys() - b.keys()) if k not in ignore]
        out += [f"{section}.{k}: added" for k in sorted(b.keys() - a.keys()) if k not in ignore]
        for k in sorted(a.keys() & b.keys()):
            if (a[k]["value"], a[k]["unit"]) != (b[k]["value"], b[k]["unit"]):
                out.append(f"{section}.{k}: {a[k]['value']} {a[k]['unit']} -> {b[k]['value']} {b[k]['unit']}")
    return out


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("old", type=Path)
    parser.add_argument("new", type=Path)
    parser.add_argument("--ignore-keys", nargs="*", default=[], help="result keys removed on purpose")
    args = parser.parse_args(argv)
    old, new = results_of(args.old), results_of(args.new)
    found = differences(old, new, set(args.ignore_keys))
    keys = sum(len(v) for v in new.values())
    print(f"{len(new)} sections, {keys} result keys compared (values and units, exactly)")
    print("\n".join(found) if found else "no difference")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
