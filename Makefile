# Every target creates the virtual environment itself, so a fresh clone works with one command.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
export HF_HUB_DISABLE_PROGRESS_BARS := 1
export HF_HUB_OFFLINE := 1
export TRANSFORMERS_OFFLINE := 1
# Bytecode is written even where the shell says not to: pytest caches the modules whose asserts it rewrites (the
# tests, and hypothesis's and schemathesis's plugins whole), which otherwise every run rewrites again (~20 s).
unexport PYTHONDONTWRITEBYTECODE

.PHONY: install test test-fast ingest ask serve clean

# torch's CPU build where pip finds it on this machine's disk (its find-links), never the multi-GB CUDA build an
# unpinned torch would pull.
WHEELS := $(firstword $(or $(PIP_FIND_LINKS),$(shell $(PYTHON) -m pip config get global.find-links 2>/dev/null)))
TORCH_WHEEL := $(firstword $(wildcard $(WHEELS)/torch-2.13.0+cpu-*.whl))

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	# uv installs everything, downloading and unpacking in parallel (pip: 104 s, uv: 25 s with an empty cache),
	# torch from the CPU build's wheel file; where there is none, pip takes torch first as its config says, and
	# the project's torch range keeps that build. No bytecode is compiled at install: of torch's thousands of
	# modules the suite imports a few, compiled when first imported (81 s -> 26 s).
ifneq ($(TORCH_WHEEL),)
	$(BIN)/pip install --quiet uv
	$(BIN)/uv pip install --quiet --python $(BIN)/python $(TORCH_WHEEL) -e '.[test]'
else
	$(BIN)/pip install --quiet --no-compile torch==2.13.0 uv
	$(BIN)/uv pip install --quiet --python $(BIN)/python -e '.[test]'
endif
	# While the model exports (on one core, mostly), the other compiles what the suite imports and caches its
	# rewritten asserts (a collection, 19 s cold, 7 s warm), which both workers of `make test` would otherwise do at
	# once. Only a warm-up: a collection error shows in `make test`.
	$(BIN)/rulings export-model & exporting=$$!; \
	$(BIN)/python -m pytest --collect-only -q > /dev/null 2>&1; wait $$exporting
	touch $(STAMP)

install: $(STAMP)

# The modules holding tests marked serial: the serial runs collect only these, not the whole suite again.
SERIAL := $(shell grep -rl "mark\.serial" tests --include="*.py")

# The whole suite (what CI runs): on two workers (pytest-xdist, scheduled as tests/conftest.py says), then the
# tests marked serial alone, since another busy core could make them miss their time.
test: $(STAMP)
	$(BIN)/python -m pytest -q -n 2 --dist loadscope -m "not serial"; status=$$?; \
	$(BIN)/python -m pytest -q -m serial $(SERIAL) && exit $$status

# The quick tier for edits: no browser, no ../shared/corpora documents, nothing slow (pyproject.toml's markers),
# on two workers as `test` is, the serial tests after.
test-fast: $(STAMP)
	$(BIN)/python -m pytest -q -n 2 --dist loadscope -m "not browser and not corpus and not slow and not serial"; \
	status=$$?; $(BIN)/python -m pytest -q -m "serial and not browser and not corpus and not slow" $(SERIAL) && exit $$status

# Rebuild rulings.db from sources/, then record every executable example's result in it.
ingest: $(STAMP)
	$(BIN)/rulings ingest
	$(BIN)/rulings verify

ask: $(STAMP)
	$(BIN)/rulings ask "$(Q)"

# The web app on http://127.0.0.1:5000 (waitress) and Datasette on http://127.0.0.1:8001; Ctrl-C stops both.
serve: $(STAMP)
	test -f rulings.db || $(BIN)/rulings ingest
	$(BIN)/rulings serve --port 5000 & trap 'kill $$!' EXIT; $(BIN)/rulings browse --port 8001

clean:
	rm -rf $(VENV) .pytest_cache
