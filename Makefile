# Quick start: `make run` (set up, then certify the bundled reference server) and `make test`.
PYTHON ?= $(shell command -v python3.11 2>/dev/null || command -v python3)
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

.PHONY: setup prover prover-v2 browser run test lint export fuzz soak mutate serve clean

$(STAMP): pyproject.toml
	@$(PYTHON) -c 'import sys; sys.exit(sys.version_info < (3, 11) and "Python 3.11 or newer is required")'
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	@touch $(STAMP)

setup: $(STAMP)

prover: $(STAMP)  # the light prover (npm package @lightprotocol/zk-compression-cli 0.18.0) into the user cache
	$(BIN)/csi prover install

prover-v2: $(STAMP)  # the prover of the v2 circuits (npm 0.27.0, 151 MB): batched trees' proofs and the chain's forester
	$(BIN)/csi prover install --v2

run: $(STAMP) prover  # the reference serves real proofs, and crypto.groth16-proof verifies them
	$(BIN)/csi run --report-dir reports

APT := $(if $(filter 0,$(shell id -u)),,sudo )apt-get
browser:  # headless Chromium from Debian's packages: the report's browser test renders report.html in it
	@command -v chromium >/dev/null 2>&1 || command -v chromium-browser >/dev/null 2>&1 || \
	  $(APT) install -y chromium || { $(APT) update && $(APT) install -y chromium; }

# `make test` takes tens of minutes; tests/test_docs_site.py in it builds the docs site (mkdocs build --strict)
test: $(STAMP) prover prover-v2 browser  # the proof tests run the real prover end to end; the browser test runs Chromium
	$(BIN)/ruff check .
	$(BIN)/python -m pytest -o console_output_style=count -rfE --durations=30

lint: $(STAMP)
	$(BIN)/ruff check .

export: $(STAMP) browser
	$(BIN)/csi schema export --format all --dir schema/dist
	$(BIN)/python -m tests.harness.clause_map > docs/clauses.md
	$(BIN)/python -m tests.docs_reference docs/reference
	CSI_PROVER=none $(BIN)/python -m tests.harness.report.screenshot docs/report.png

serve: $(STAMP)
	$(BIN)/csi serve

FUZZ_PORT ?= 8785
fuzz: $(STAMP)  # the reference under schemathesis beyond CI's bound: FUZZ_EXAMPLES cases per operation and phase
	@$(BIN)/csi serve --port $(FUZZ_PORT) --prover none & pid=$$!; trap "kill $$pid" EXIT; \
	until $(BIN)/python -c "import socket; socket.create_connection(('127.0.0.1', $(FUZZ_PORT)), 1)" 2>/dev/null; \
	do sleep 0.2; done; \
	SCHEMATHESIS_HOOKS=csi_conformance.harness.fuzz.schemathesis_hooks $(BIN)/schemathesis --config-file harness/fuzz/schemathesis.toml \
	  run schema/dist/openapi.json --url http://127.0.0.1:$(FUZZ_PORT) -n $(or $(FUZZ_EXAMPLES),500) --seed 1

soak: $(STAMP)  # many random scenario shapes certified: CSI_SOAK_EXAMPLES documents per shape (CI draws one)
	CSI_SOAK_EXAMPLES=$(or $(CSI_SOAK_EXAMPLES),25) $(BIN)/python -m pytest -q tests/test_certify_shapes.py

mutate: $(STAMP)  # mutation testing on demand, never in CI: the modules changed against main, or MUTATE_PATHS=...
	$(BIN)/python -m tests.mutation

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache .hypothesis .schemathesis build *.egg-info
