# Quick start: `make run` (set up, then certify the bundled reference server) and `make test`.
PYTHON ?= $(shell command -v python3.11 2>/dev/null || command -v python3)
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

.PHONY: setup run test lint export fuzz serve clean

$(STAMP): pyproject.toml
	@$(PYTHON) -c 'import sys; sys.exit(sys.version_info < (3, 11) and "Python 3.11 or newer is required")'
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	@touch $(STAMP)

setup: $(STAMP)

run: $(STAMP)
	$(BIN)/csi run --report-dir reports

test: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/python -m pytest -q

lint: $(STAMP)
	$(BIN)/ruff check .

export: $(STAMP)
	$(BIN)/csi schema export --format all --dir schema/dist
	$(BIN)/csi checks --coverage > docs/clauses.md

serve: $(STAMP)
	$(BIN)/csi serve

FUZZ_PORT ?= 8785
fuzz: $(STAMP)  # the reference under schemathesis beyond CI's bound: FUZZ_EXAMPLES cases per operation and phase
	@$(BIN)/csi serve --port $(FUZZ_PORT) & pid=$$!; trap "kill $$pid" EXIT; \
	until $(BIN)/python -c "import socket; socket.create_connection(('127.0.0.1', $(FUZZ_PORT)), 1)" 2>/dev/null; \
	do sleep 0.2; done; \
	SCHEMATHESIS_HOOKS=harness.fuzz.schemathesis_hooks $(BIN)/schemathesis --config-file harness/fuzz/schemathesis.toml \
	  run schema/dist/openapi.json --url http://127.0.0.1:$(FUZZ_PORT) -n $(or $(FUZZ_EXAMPLES),500) --seed 1

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache .hypothesis .schemathesis build *.egg-info
