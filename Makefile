# Newcomer commands: `make serve` (the main job) and `make test` (the whole suite).
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: install test serve bench proto clean train

$(PY):
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip

# Re-install when the build inputs change (the extension is compiled by pip).
$(STAMP): $(PY) pyproject.toml setup.py $(wildcard engine_c/*.pyx engine_c/*.pxd engine_c/*.pxi engine_c/*/*.pyx engine_c/*/*.pxd engine_c/*/*.pxi search/*.pyx search/*.pxd search/*.pxi)
	$(PY) -m pip install --quiet -e ".[dev]"
	touch $(STAMP)

install: $(STAMP)
	@echo "Ready in $(VENV): run 'source $(VENV)/bin/activate' (then 'spellbook-ai --help'), or call $(VENV)/bin/spellbook-ai"

test: $(STAMP)
	$(PY) -m pytest

# The gRPC server on 127.0.0.1:50051 (override: make serve ARGS="--address 0.0.0.0:50051 --workers 2").
serve: $(STAMP)
	$(PY) -m clients.cli serve $(ARGS)

# Regenerate server/_gen from proto/ (tests/test_service_proto.py fails when it is stale).
proto: $(STAMP)
	$(PY) -m server.protogen

# Engine speed (~20 s), search speed and strength table (~40 min), gRPC load (~1 min), fair share (~2 min).
bench: $(STAMP)
	$(PY) bench/engine.py
	$(PY) bench/search.py
	$(PY) bench/grpc_load.py
	$(PY) bench/fairness.py

# Reproduce the shipped model from scratch (self-play, training, SPRT gating; docs/learned.md): about
# 40 minutes on a quiet 2-core machine. Resumable: run it again to continue. Writes data/models/spellbook.npz.
TRAIN_DIR ?= runs/train
train: $(STAMP)
	$(PY) -m clients.cli train --pipeline $(TRAIN_DIR) --ship data/models/spellbook.npz

clean:
	rm -rf build $(VENV) engine_c/*.c engine_c/*.so engine_c/*/*.c engine_c/*/*.so search/*.c search/*.so
