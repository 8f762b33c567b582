# The two commands of the README: `make run` and `make test`.
# Both create the virtual environment on first use; nothing else is needed.
PYTHON ?= python3
VENV ?= .venv
PY := $(VENV)/bin/python
GAME ?= tessella
PORT ?= 8080
export BLINKA_OS_AGNOSTIC := 1

.PHONY: run test lint bench system-deps clean
# The MicroPython WebAssembly port the firmware tests run on (npm, into .cache/npm).
MICROPYTHON_WASM := @micropython/micropython-webassembly-pyscript@1.27.0
NPM_DIR := .cache/npm

$(VENV)/.installed: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q -e '.[dev]'
	touch $@

system-deps:
	bash .ci/system-deps

$(NPM_DIR)/.installed: Makefile
	mkdir -p $(NPM_DIR)
	npm install --silent --no-audit --no-fund --prefix $(NPM_DIR) $(MICROPYTHON_WASM)
	touch $@

run: $(VENV)/.installed
	$(VENV)/bin/sensorboard run --game $(GAME) --backend sim --demo --web --port $(PORT)

test: $(VENV)/.installed system-deps
	$(MAKE) $(NPM_DIR)/.installed
	$(VENV)/bin/ruff check rules boards hardware sensorboard firmware_bridge engine tests bench
	$(PY) -m pytest -n 2

lint: $(VENV)/.installed
	$(VENV)/bin/ruff check rules boards hardware sensorboard firmware_bridge engine tests bench

bench: $(VENV)/.installed
	for f in bench/*.py; do echo "## $$f"; $(PY) $$f || exit 1; echo; done

clean:
	rm -rf $(VENV) records .pytest_cache
