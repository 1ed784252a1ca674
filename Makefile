# Menagerie — `make help` lists the targets.
SHELL := /bin/bash
.DEFAULT_GOAL := help

PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
PACKAGES := -e protos/python -e shared/rules -e shared/platform -e services/beasts -e services/zoo -e services/pursuit -e services/lobby -e services/bots -e clients/cli
STAMP := $(VENV)/.installed

help: ## List the targets
	@grep -E '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | awk -F':.*## ' '{printf "  make %-10s %s\n", $$1, $$2}'

$(STAMP): constraints.txt requirements-dev.txt protos/python/pyproject.toml shared/*/pyproject.toml services/*/pyproject.toml clients/*/pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -c constraints.txt -r requirements-dev.txt $(PACKAGES)
	touch $(STAMP)

install: $(STAMP) ## Create the virtualenv and install every package (editable)

protos: $(STAMP) ## Regenerate the Python code of protos/ (committed; a test fails when stale)
	$(BIN)/python protos/generate.py

lint: $(STAMP) ## ruff and mypy
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy shared services clients tests bench deploy protos/generate.py

format: $(STAMP) ## Apply ruff's fixes and formatting
	$(BIN)/ruff check --fix .
	$(BIN)/ruff format .

test: lint ## Lint, then the whole test suite (unit, integration, e2e)
	$(BIN)/pytest

soak: $(STAMP) ## Long seeded property runs of every engine
	MENAGERIE_PROPERTY_MATCHES=5000 $(BIN)/pytest tests/unit -k property

bench: $(STAMP) ## Benchmarks with baselines measured in the same run
	$(BIN)/python -m bench

arena: $(STAMP) ## Greedy bots against random ones, 1,000 seeded games per game
	$(BIN)/python -m bench.arena --game beasts --mode training --seats 2 --games 1000
	$(BIN)/python -m bench.arena --game zoo --mode advanced --seats 4 --games 1000
	$(BIN)/python -m bench.arena --game pursuit --difficulty all --seats 3 --games 1000

run: $(STAMP) ## Start the platform on this machine (Ctrl-C stops it)
	$(BIN)/python deploy/local/run.py

.PHONY: help install protos lint format test soak bench arena run
