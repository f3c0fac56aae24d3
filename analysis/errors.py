"""The two kinds of failure the CLI distinguishes (exit codes 2 and 1)."""


class InputError(ValueError):
    """Bad input from the user: a parameter, a scenario file or a data file. Exit code 2."""

    exit_code = 2


class ExecutionError(RuntimeError):
    """A section or the book build failed while running. Exit code 1."""

    exit_code = 1
