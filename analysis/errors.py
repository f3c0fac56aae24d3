import math

"""The two kinds of failure the CLI distinguishes (exit codes 2 and 1)."""


class InputError(ValueError):
    """Bad input from the user: a parameter, a scenario file or a data file. Exit code 2."""

    exit_code = 2


class ExecutionError(RuntimeError):
    """A section or the book build failed while running. Exit code 1."""

    exit_code = 1


MAX_ECHO = 200  # characters of a user-supplied value that a message repeats
MAX_LINE = 2_000  # characters of one line of a message as printed


def clip(value, limit: int = MAX_ECHO) -> str:
    """``repr(value)``, cut to ``limit`` characters: a message never echoes a megabyte back, and a
    control or bidirectional character (an escape sequence, a right-to-left override) is shown
    escaped (``\\x1b``, ``\\u202e``), never sent to the terminal."""
    text = repr(value)
    return text if len(text) <= limit else f"{text[:limit]}... ({len(text):,} characters)"


def echo(text, limit: int = MAX_ECHO) -> str:
    """User text (a name, a path) inside a message: as typed when it is short and printable, else
    :func:`clip`'s quoted, escaped and cut form."""
    text = str(text)
    return text if len(text) <= limit and text.isprintable() else clip(text, limit)


def terminal_safe(message: str, limit: int = MAX_LINE) -> str:
    """``message`` as printed: every character that is not printable but the newline (control
    characters, bidirectional controls) written as its escape, each line cut to ``limit`` characters.
    The last guard, for whatever user text a message repeated raw (argparse's, a library's)."""
    def line(text: str) -> str:
        text = "".join(c if c.isprintable() else c.encode("unicode_escape").decode("ascii") for c in text)
        return text if len(text) <= limit else f"{text[:limit]}... ({len(text):,} characters)"
    return "\n".join(line(part) for part in str(message).split("\n"))


def first_not_finite(doc, where: str = "") -> tuple[str, float] | None:
    """The first number in ``doc`` (nested mappings and lists, as JSON holds them) that is not
    finite, as ``(path, value)`` (``"days.p10"``), or None when every number is finite."""

    if isinstance(doc, dict):
        items = doc.items()
    elif isinstance(doc, (list, tuple)):
        items = enumerate(doc)
    else:
        is_number = isinstance(doc, (int, float)) and not isinstance(doc, bool)
        return (where, doc) if is_number and not math.isfinite(doc) else None
    for key, value in items:
        found = first_not_finite(value, f"{where}.{key}" if where else str(key))
        if found is not None:
            return found
    return None


def finite_or_refused(compute, given: dict[str, object], as_json, what: str = "result"):
    """``compute(None)`` when every number of ``as_json(result)`` is finite. Otherwise, and when
    the arithmetic overflows, an InputError (exit code 2) naming the input at fault: the first flag
    of ``given`` (flag -> the value the user gave) for which ``compute(flag)``, the same computation
    with that flag left at its default, is finite; or every flag of ``given`` when none is.
    ``compute(flag)`` returns None for a flag that has no default (a required one).
    Numpy's overflow warnings are silenced meanwhile: the refusal says it instead, once."""
    import numpy as np  # noqa: PLC0415 (numpy only when a result is checked; `params` and `sections` stay light)

    def attempt(flag):
        with np.errstate(all="ignore"):
            try:
                result = compute(flag)
            except (OverflowError, ZeroDivisionError, FloatingPointError) as exc:
                return None, ("overflow", str(exc))
        if result is None:
            return None, ("no default", None)
        bad = first_not_finite(as_json(result))
        return (result, None) if bad is None else (None, bad)

    result, bad = attempt(None)
    if bad is None:
        return result
    if bad[0] == "overflow":
        shown = f"arithmetic overflows ({bad[1]})"
    else:  # "days.value" -> "days", "days.p10" -> "days (p10)"
        key, _, part = bad[0].partition(".")
        shown = f"{key}{f' ({part})' if part and part != 'value' else ''} would be {bad[1]}"
    for flag in given:
        if attempt(flag)[1] is None:  # this flag at its default gives finite numbers: it is the cause
            raise InputError(f"{flag} {_number(given[flag])}: with this value the {what}'s {shown}, not a finite "
                             f"number; it is too extreme for the other inputs (leave {flag} out for the default)")
    listed = ", ".join(f"{flag} {_number(value)}" for flag, value in given.items())
    raise InputError(f"the {what}'s {shown}, not a finite number, with {listed or 'these inputs'}; "
                     "give less extreme values")


def _number(value) -> str:
    return f"{value:g}" if isinstance(value, float) else str(value)
