# The two commands a new user needs: `make book` and `make test`. Both create .venv/ from the lock
# file requirements.txt (every package pinned with its PyPI hashes) when it is missing or stale
# (the hash of the lock and of pyproject.toml differs from the one recorded at install).
PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.requirements.sha256
JOBS   ?= 2
PIP    := $(PY) -m pip --quiet --disable-pip-version-check
# Python's own bytecode cache, which some machines turn off (PYTHONDONTWRITEBYTECODE=1): with it,
# each chapter's kernel and each command the tests run imports the package's compiled modules
# instead of compiling them again (about 0.3 s a process). An empty value is Python's default.
export PYTHONDONTWRITEBYTECODE :=

.PHONY: book test bench venv lock clean

# The lock installs with --require-hashes, so nothing outside it enters .venv and the install fails
# if the lock misses a dependency. pip installs uv first, from uv's own lines of the lock (pinned,
# hashes checked), and uv installs the lock: seconds, where pip takes a minute or more. The project
# itself is then installed editable (no dependencies, no build isolation: setuptools comes from the
# lock), so `python -m analysis` works from any folder.
# A venv's paths are absolute (its scripts, the editable install, the kernel spec), so the new one
# is built at .venv itself, with the old one moved aside to .venv.old: on success the old one is
# removed, on failure (a tampered lock, no network) the new one is and the old one moved back. One
# left aside by an interrupted install (.venv.old beside a .venv with no stamp) is moved back first.
VENV_OLD := $(VENV).old
venv:
	@if [ -d $(VENV_OLD) ] && [ ! -f $(STAMP) ]; then rm -rf $(VENV) && mv $(VENV_OLD) $(VENV); fi; \
	want=$$(cat requirements.txt pyproject.toml | sha256sum | cut -d' ' -f1); \
	have=$$(cat $(STAMP) 2>/dev/null || true); \
	if [ "$$want" != "$$have" ] || [ ! -x $(PY) ]; then \
	  echo "Setting up $(VENV) from the lock file requirements.txt"; \
	  rm -rf $(VENV_OLD) && if [ -e $(VENV) ]; then mv $(VENV) $(VENV_OLD); fi && \
	  if $(PYTHON) -m venv $(VENV) && \
	    awk '/^uv==/ { on = 1 } on { print } on && !/\\$$/ { exit }' requirements.txt > $(VENV)/uv-lock.txt && \
	    $(PIP) install --require-hashes --no-deps -r $(VENV)/uv-lock.txt && \
	    $(VENV)/bin/uv pip install --quiet --python $(PY) --require-hashes -r requirements.txt && \
	    PYTHONWARNINGS=ignore $(PIP) install --no-deps --no-build-isolation -e . && \
	    $(PY) -m ipykernel install --prefix $(VENV) --name python3 >/dev/null && \
	    echo "$$want" > $(STAMP); \
	  then rm -rf $(VENV_OLD); \
	  else rm -rf $(VENV); \
	    if [ -e $(VENV_OLD) ]; then mv $(VENV_OLD) $(VENV) && echo "Installing from the lock failed; $(VENV) is the one it had" >&2; \
	    else echo "Installing from the lock failed; no $(VENV) was made" >&2; fi; \
	    exit 1; \
	  fi; \
	fi

book: venv
	$(PY) -m analysis build --jobs $(JOBS)
	@echo "Open _build/html/index.html"

# The tests run on $(TEST_JOBS) pytest-xdist workers, a test file per worker at a time (a file's
# module fixtures, such as the browser pass over every page, are then made once), taking the files
# in the order tests/conftest.py gives them (the longest first).
TEST_JOBS ?= 2
test: venv
	$(PY) -m ruff check .
	$(VENV)/bin/lint-imports
	$(PY) -m pytest -n $(TEST_JOBS) --dist loadfile --no-loadscope-reorder

bench: venv
	$(PY) -m bench.build_times

# Re-resolve requirements.in into requirements.txt, from PyPI only (this machine's local indexes
# and wheel folders are left out, so the hashes are PyPI's), for Python 3.11 on Linux. Keeps the
# versions already pinned unless requirements.in excludes them; `make lock UPGRADE=1` takes the
# newest versions requirements.in allows.
lock:
	$(PYTHON) -m venv _build/lock-tools
	PIP_CONFIG_FILE=/dev/null PIP_FIND_LINKS= _build/lock-tools/bin/pip install --quiet \
	  --index-url https://pypi.org/simple pip-tools==7.6.2
	PIP_CONFIG_FILE=/dev/null PIP_FIND_LINKS= CUSTOM_COMPILE_COMMAND="make lock" \
	  _build/lock-tools/bin/pip-compile --generate-hashes --allow-unsafe --strip-extras \
	  --index-url https://pypi.org/simple --no-emit-index-url $(if $(UPGRADE),--upgrade) \
	  --output-file requirements.txt requirements.in

clean:
	rm -rf _build
