# Newcomer commands: `make serve` (the main job) and `make test` (the whole suite).
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: install test serve bench clean

$(PY):
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip

# Re-install when the build inputs change (the extension is compiled by pip).
$(STAMP): $(PY) pyproject.toml setup.py $(wildcard engine_c/*.pyx engine_c/*.pxd search/*.pyx search/*.pxd)
	$(PY) -m pip install --quiet -e ".[dev]"
	touch $(STAMP)

install: $(STAMP)

test: $(STAMP)
	$(PY) -m pytest

serve: $(STAMP)
	$(PY) -m clients.cli serve

bench: $(STAMP)
	$(PY) bench/engine.py

clean:
	rm -rf build $(VENV) engine_c/*.c engine_c/*.so search/*.c search/*.so
