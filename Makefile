# Quick start: `make run` (set up, then certify the bundled reference server) and `make test`.
PYTHON ?= $(shell command -v python3.11 2>/dev/null || command -v python3)
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

.PHONY: setup run test lint export clean

$(STAMP): pyproject.toml
	@$(PYTHON) -c 'import sys; sys.exit(sys.version_info < (3, 11) and "Python 3.11 or newer is required")'
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	@touch $(STAMP)

setup: $(STAMP)

run: $(STAMP)
	$(BIN)/csi schema export --format all --dir schema/dist

test: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/python -m pytest -q

lint: $(STAMP)
	$(BIN)/ruff check .

export: $(STAMP)
	$(BIN)/csi schema export --format all --dir schema/dist

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache .hypothesis .schemathesis build *.egg-info
