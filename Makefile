# Two commands do everything on a fresh clone: `make demo` and `make test`.
# Each creates .venv on first use. The CPU torch wheel is installed before
# anything that depends on torch, so pip never pulls a multi-GB CUDA build.
PYTHON ?= python3
# Where torch comes from: empty = pip's default (this project's machines hold the CPU wheel);
# elsewhere give PyTorch's CPU index so pip does not fetch the multi-gigabyte CUDA build:
#   make test TORCH_INDEX=https://download.pytorch.org/whl/cpu
TORCH_INDEX ?=
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.meeplezoo-installed

# The browser tests drive Debian's Chromium (never a browser Playwright would download).
CHROMIUM := /usr/bin/chromium
SUDO := $(if $(filter 0,$(shell id -u)),,sudo)

.PHONY: demo test lint bench install chromium clean

$(STAMP): pyproject.toml
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet torch==2.13.0 $(if $(TORCH_INDEX),--index-url $(TORCH_INDEX))
	$(PY) -m pip install --quiet -e ".[train,dev,rllib,report,web]"
	$(MAKE) chromium
	touch $(STAMP)

# Chromium from Debian's packages when it is missing (for the web table's browser tests), and
# a Japanese font when no installed font covers Japanese (地方創生, 東京 and the districts
# would draw as empty boxes): fonts-ipafont-gothic (IPA Gothic, 3.5 MB; fonts-noto-cjk also
# does, at 57 MB).
chromium:
	@test -x $(CHROMIUM) || { $(SUDO) apt-get update -qq && \
		$(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium; }
	@fc-list :lang=ja family | grep -q . || { $(SUDO) apt-get update -qq && \
		$(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq fonts-ipafont-gothic; }

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
