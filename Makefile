# ranchhand: the targets a newcomer runs. Everything installs into .venv.
# Playing installs only what playing needs (the package and its server extra: the terminal
# and the browser); the other targets install every extra, as CI needs.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
PLAYER := $(VENV)/.player
STAMP  := $(VENV)/.installed
EXTRAS := dev,server,web,pettingzoo,gymnasium,openspiel,lab,cluster,fast
GAME   ?= rancho
SEATS  ?= human,greedy,greedy

.PHONY: help install play terminal test package lint format bench bench-server simulate docs golden screenshots clean

help:  ## list the targets
	@grep -E '^[a-z-]+:.*##' $(MAKEFILE_LIST) | awk -F':.*## ' '{printf "  make %-13s %s\n", $$1, $$2}'

$(PLAYER): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e ".[server]"
	touch $(PLAYER)

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e ".[$(EXTRAS)]"
	touch $(PLAYER) $(STAMP)

install: $(STAMP)  ## create .venv and install ranchhand with every extra and the test tools

play: $(PLAYER)  ## play Rancho in the browser against two greedy bots (GAME=, SEATS=)
	$(BIN)/ranchhand play $(GAME) --seats $(SEATS) --browser

terminal: $(PLAYER)  ## the same game in the terminal (GAME=, SEATS=)
	$(BIN)/ranchhand play $(GAME) --seats $(SEATS)

# The suite runs on every core (up to 4; pytest-xdist, each worker with its own database
# and browser): on the 2-core machine, 12 minutes instead of 17 from a fresh checkout,
# numba compiling the four engines included. PYTEST_JOBS=0 runs it in one process.
PYTEST_JOBS ?= auto

test: $(STAMP)  ## lint and type-check, then run the whole test suite
	$(BIN)/ruff check src tests tools
	$(BIN)/ruff format --check src tests tools
	$(BIN)/mypy
	$(BIN)/python -m pytest --numprocesses $(PYTEST_JOBS) --maxprocesses 4 --dist worksteal

package: $(STAMP)  ## build the wheel, install it in a new venv, run it and serve a page (CI)
	$(BIN)/python tools/check_package.py

lint: $(STAMP)  ## ruff check only
	$(BIN)/ruff check src tests tools

format: $(STAMP)  ## reformat the code
	$(BIN)/ruff format src tests tools
	$(BIN)/ruff check --fix src tests tools

bench: $(STAMP)  ## games per second on one core, every game
	$(BIN)/ranchhand bench

bench-server: $(STAMP)  ## moves/s and latency of ranchhand serve, 100 tables, SQLite and PostgreSQL (TABLES=, SECONDS=, SOAK=1: hostile clients beside)
	$(BIN)/python benchmarks/server_load.py --tables $(or $(TABLES),100) --seconds $(or $(SECONDS),20) $(if $(SOAK),--soak)

simulate: $(STAMP)  ## 10,000 four-player greedy games of Rancho
	$(BIN)/ranchhand simulate rancho --players 4 --seats greedy --games 10000

docs: $(STAMP)  ## regenerate the figures in docs/ from the project's own commands
	$(BIN)/python tools/make_docs.py

screenshots: $(STAMP)  ## play each game in the browser and save docs/screenshots/*.png
	$(BIN)/python tools/screenshots.py

golden: $(STAMP)  ## rewrite the golden playthroughs and records (only when rules change on purpose)
	$(BIN)/python tools/make_golden.py
	$(BIN)/python -m tests.golden.records

clean:  ## remove the virtual environment and caches
	rm -rf $(VENV) .pytest_cache .ruff_cache .hypothesis build dist src/*.egg-info
