"""The two kinds of failure the CLI distinguishes (exit codes 2 and 1)."""


class InputError(ValueError):
    """Bad input from the user: a parameter, a scenario file or a data file. Exit code 2."""

    exit_code = 2


class ExecutionError(RuntimeError):
    """A section or the book build failed while running. Exit code 1."""

    exit_code = 1


MAX_ECHO = 80  # characters of a user-supplied value that a message repeats


def clip(value, limit: int = MAX_ECHO) -> str:
    """``repr(value)``, cut to ``limit`` characters: a message never echoes a megabyte back."""
    text = repr(value)
    return text if len(text) <= limit else f"{text[:limit]}... ({len(text):,} characters)"
