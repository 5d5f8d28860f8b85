# Two commands do everything on a fresh clone: `make demo` and `make test`.
# Each creates .venv on first use. The CPU torch wheel is installed before
# anything that depends on torch, so pip never pulls a multi-GB CUDA build.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.meeplezoo-installed

.PHONY: demo test lint bench install clean

$(STAMP): pyproject.toml
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet torch==2.13.0
	$(PY) -m pip install --quiet -e ".[train,dev,rllib,report]"
	touch $(STAMP)

install: $(STAMP)

demo: $(STAMP)
	$(PY) -m meeplezoo demo

test: $(STAMP)
	$(PY) -m ruff check meeplezoo envs training tests
	$(PY) -m pytest -n 2 -q

lint: $(STAMP)
	$(PY) -m ruff check meeplezoo envs training tests

bench: $(STAMP)
	$(PY) -m meeplezoo bench

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache
