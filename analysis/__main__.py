import os
import sys

# Chapter kernels run with PYTHONHASHSEED=0 (set iteration order is part of their output), and
# the build forks them from this process (analysis.pipeline.kernels), so this process runs with
# it too: restart once with it set. Cheap: nothing is imported yet.
if os.environ.get("PYTHONHASHSEED") != "0" and hasattr(os, "execve"):
    os.execve(sys.executable, [sys.executable, *sys.orig_argv[1:]], {**os.environ, "PYTHONHASHSEED": "0"})

from analysis.cli import main  # noqa: E402

code = main()
# Every output is written and closed by now, and the pool and renderer have ended; skipping the
# interpreter's teardown of a thousand imported modules saves about 0.3 s of every command.
sys.stdout.flush()
sys.stderr.flush()
os._exit(code)
