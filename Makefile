# One command each: `make play`, `make test`, `make bench`. The first run creates .venv.
PYTHON ?= python3
VENV   ?= .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed-dev

.PHONY: install lock play serve test lint typecheck warm unit nojit bench clean browser dist shots

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

$(STAMP): pyproject.toml constraints.txt | $(BIN)/python
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]' -c constraints.txt
	touch $(STAMP)

# Re-pin constraints.txt to the newest releases pyproject.toml allows (then run `make test`).
lock: | $(BIN)/python
	$(BIN)/python -m pip install --quiet --upgrade --upgrade-strategy eager -e '.[dev]'
	{ sed -n '1,2p' constraints.txt; $(BIN)/python -m pip freeze --exclude-editable; } > constraints.new
	mv constraints.new constraints.txt
	touch $(STAMP)

# Bytecode for our modules even where PYTHONDONTWRITEBYTECODE is set: each program start
# (a CodinGame bot's first turn counts it) would otherwise compile every module from source.
install: $(STAMP)
	@$(BIN)/python -m compileall -q src

play: install
	$(BIN)/patchwork play

# The game server on http://127.0.0.1:8000 (SQLite in ./patchwork.db unless SERVE_ARGS says).
serve: install
	$(BIN)/patchwork serve $(SERVE_ARGS)

lint: install
	$(BIN)/ruff check src tests benchmarks examples
	$(BIN)/ruff format --check src tests benchmarks examples
	$(BIN)/lint-imports --no-cache

typecheck: install
	$(BIN)/mypy

# The web client's tests drive Debian's Chromium (never a downloaded browser build); Chinese and
# Japanese pages and charts need fonts with their characters (Debian's Noto CJK).
CHROMIUM ?= /usr/bin/chromium
CJK_FONT ?= /usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc
browser:
	@test -x $(CHROMIUM) -a -f $(CJK_FONT) || { \
	  if [ "$$(id -u)" = 0 ]; then \
	    echo "installing Debian's chromium and fonts for the browser tests"; \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium \
	      fonts-dejavu-core fonts-noto-cjk; \
	  else \
	    echo "the browser tests need $(CHROMIUM) and $(CJK_FONT):" \
	      "run 'sudo apt-get install chromium fonts-noto-cjk'" >&2; exit 1; \
	  fi; }

# Three processes on two cores (a test file stays on one, with its servers): each waits on its
# servers, browsers and bots about half the time, so a third keeps both cores busy (the suite
# took 14.6 min so against 17.2 with two; on 2026-12-07 11.8 min against 12.4 with four).
TEST_WORKERS ?= 3
unit: install browser
	$(BIN)/python -m pytest -q -n $(TEST_WORKERS) --dist loadfile

# The web tests again, keeping a screenshot of every screen they reach in test-output/screenshots/
# (a plain run takes none: nobody opens them there).
shots: install browser
	PATCHWORK_SHOTS=1 $(BIN)/python -m pytest -q -n $(TEST_WORKERS) --dist loadfile tests/web

# The rules also hold as plain Python (how coverage and debugging see them).
nojit: install
	NUMBA_DISABLE_JIT=1 $(BIN)/python -m pytest -q tests/test_rules_checks.py tests/test_perft.py

# Numba compiles a kernel on its first use and caches it on disk. In a fresh checkout every
# test process and server that starts before the cache is written would compile the search
# again, so the kernels are compiled once first, beside the (single-core) checks.
warm: install
	$(BIN)/python -m patchwork.ai.warmup

test: install
	@$(MAKE) --no-print-directory --output-sync=target -j3 lint typecheck warm
	@$(MAKE) --no-print-directory unit nojit

bench: install
	$(BIN)/patchwork bench

# The sdist, and the wheel built from it, into dist/ (no index needed: the build backend is
# installed with the dev extra). `pip install 'dist/patchwork_game-VERSION-py3-none-any.whl[rl]'`.
dist: install
	rm -rf dist
	$(BIN)/python -m build --no-isolation --outdir dist .

clean:
	rm -rf $(VENV) dist .pytest_cache .mypy_cache .ruff_cache .hypothesis
	find src tests -name __pycache__ -type d -prune -exec rm -rf {} +
