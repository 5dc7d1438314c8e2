# Newcomer commands: `make serve` (the main job) and `make test` (the whole suite).
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: install test serve bench bench-web proto clean train

$(PY):
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip

# Re-install when the build inputs change (the extension is compiled by pip).
$(STAMP): $(PY) pyproject.toml setup.py $(wildcard engine_c/*.pxd engine_c/*/*.pyx engine_c/*/*.pxd engine_c/*/*.pxi search/*.pyx search/*.pxd search/*.pxi)
	$(PY) -m pip install --quiet -e ".[dev]"
	touch $(STAMP)

install: $(STAMP)
	@echo "Ready in $(VENV): run 'source $(VENV)/bin/activate' (then 'spellbook-ai --help'), or call $(VENV)/bin/spellbook-ai"

# The browser tests (tests/test_web_browser.py) drive the system's Chromium: Debian's package, installed
# here when missing (apt-get; sudo when not root). Nothing downloads a browser from anywhere else.
CHROMIUM := /usr/bin/chromium
$(CHROMIUM):
	@if command -v apt-get >/dev/null 2>&1; then \
	  if [ "$$(id -u)" = 0 ]; then SUDO=; else SUDO=sudo; fi; \
	  echo "installing Debian's chromium for the browser tests"; \
	  $$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq --no-install-recommends chromium; \
	else echo "no apt-get: install Chromium as $(CHROMIUM) for the browser tests"; fi

test: $(STAMP) $(CHROMIUM)
	$(PY) -m pytest

# The gRPC server on 127.0.0.1:50051 and the web page on http://$(WEB)/ (override: make serve
# ARGS="--address 0.0.0.0:50051 --workers 2", WEB=127.0.0.1:9000; WEB= turns the page off).
WEB ?= 127.0.0.1:8080
serve: $(STAMP)
	@$(if $(WEB),echo "SpellBook AI: the page is at http://$(WEB)/ (open it in a browser); gRPC as the log says",true)
	$(PY) -m clients.cli serve $(if $(WEB),--web-address $(WEB)) $(ARGS)

# Regenerate server/_gen from proto/ (tests/test_service_proto.py fails when it is stale).
proto: $(STAMP)
	$(PY) -m server.protogen

# Engine speed (~20 s), search speed and strength table (~40 min), gRPC load (~1 min), fair share (~2 min),
# tree-less self-play against search self-play (~1 min).
bench: $(STAMP)
	$(PY) bench/engine.py
	$(PY) bench/search.py
	$(PY) bench/grpc_load.py
	$(PY) bench/fairness.py
	$(PY) bench/selfplay.py

# The page in headless Chromium: load time and a move's round trip (~30 s).
bench-web: $(STAMP) $(CHROMIUM)
	$(PY) bench/web.py

# Reproduce the shipped model from scratch (search self-play generations, then the tree-less value
# generations and the final model, SPRT gating, calibration; docs/learned.md): about 95 minutes on a 2-core
# machine, a progress bar per stage. Resumable: run it again to continue. Writes data/models/spellbook.npz.
# `make train GAME=spellbooktcg`: a game's own plan (engine_c/NAME/training.py: self-play, Reanalyse, training,
# a gate against the rollout search) into runs/train-NAME, shipped to data/models/NAME.npz when it passes.
TRAIN_DIR ?= runs/train
GAME ?=
train: $(STAMP)
	$(PY) -m clients.cli train $(if $(GAME),--game $(GAME) --pipeline $(TRAIN_DIR)-$(GAME) --ship data/models/$(GAME).npz,--pipeline $(TRAIN_DIR) --ship data/models/spellbook.npz)

clean:
	rm -rf build $(VENV) engine_c/*/*.c engine_c/*/*.so search/*.c search/*.so
