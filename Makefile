# The two commands a new user needs: `make book` and `make test`. Both create .venv/ from
# requirements.txt when it is missing or stale (its hash differs from the one recorded at install).
PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.requirements.sha256
JOBS   ?= 2

.PHONY: book test bench venv clean

venv:
	@want=$$(sha256sum requirements.txt | cut -d' ' -f1); \
	have=$$(cat $(STAMP) 2>/dev/null || true); \
	if [ "$$want" != "$$have" ] || [ ! -x $(PY) ]; then \
	  echo "Setting up $(VENV) from requirements.txt"; \
	  rm -rf $(VENV) && $(PYTHON) -m venv $(VENV) && \
	  $(PY) -m pip install --quiet --disable-pip-version-check -r requirements.txt && \
	  $(PY) -m ipykernel install --prefix $(VENV) --name python3 >/dev/null && \
	  echo "$$want" > $(STAMP); \
	fi

book: venv
	$(PY) -m analysis build --jobs $(JOBS)
	@echo "Open _build/html/index.html"

# PYTHONHASHSEED=0: the hash seed the chapter kernels run with, so that builds the tests run in
# this process can fork their kernels (analysis/pipeline/kernels.py) instead of launching them.
test: venv
	$(PY) -m ruff check .
	PYTHONHASHSEED=0 $(PY) -m pytest

bench: venv
	$(PY) -m bench.build_times

clean:
	rm -rf _build
