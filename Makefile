# Menagerie — `make help` lists the targets.
# Nothing outlives make (issue 34): each recipe's shell, and each long command in it, is tied
# to the process that started it with setpriv's parent-death signal (Linux; plain elsewhere),
# so that make stopped or killed, however (SIGTERM, Ctrl-C, SIGKILL), takes them with it.
# make's SIGTERM ends the shell but not what the shell started; SIGKILL ends neither.
TIED := $(shell command -v setpriv >/dev/null 2>&1 && echo setpriv --pdeathsig TERM --)
SHELL := $(TIED) /bin/bash
.DEFAULT_GOAL := help

PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
# Every package folder, games included, found rather than named: a new game's folder is installed as it lands.
PACKAGES := $(addprefix -e ,protos/python $(patsubst %/pyproject.toml,%,$(sort $(wildcard shared/*/pyproject.toml services/*/pyproject.toml clients/*/pyproject.toml))))
STAMP := $(VENV)/.installed
# Python compiles every module it imports; where PYTHONDONTWRITEBYTECODE is set (this machine
# sets it, and CI runs on one like it) nothing is cached: each process compiles the whole stack
# again (a game service started in 1.7 s of CPU, 1.0 s of it compiling), and make run and the
# tests start hundreds. So the install compiles the packages (uv --compile-bytecode) and the
# targets that start processes compile the project's own sources first (compileall: only what
# changed since, a fraction of a second).
BYTECODE := $(BIN)/python -m compileall -q -j 0 -x node_modules shared services clients/cli protos/python tests bench deploy
# The web app (clients/web): npm ci from its lockfile, built into clients/web/dist (not committed).
WEB := clients/web
WEB_DEPS := $(WEB)/node_modules/.installed
WEB_SOURCES := $(shell find $(WEB)/src $(WEB)/public -type f 2>/dev/null) $(WEB)/index.html $(WEB)/vite.config.ts $(WEB)/tsconfig.json $(WEB)/package.json
# buf, for the protos (buf.yaml): pinned in clients/web's package.json (Buf ships it on npm), so
# `make lint` stands on the web's npm ci. The protos are checked against the last released ones,
# RELEASED_PROTOS, a buf image taken at each release: `make proto-release` rewrites it, on purpose,
# when a release lets the contract change (docs/architecture.md, "The contract and its releases").
BUF := $(WEB)/node_modules/.bin/buf
RELEASED_PROTOS := protos/released.binpb

help: ## List the targets
	@grep -E '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | awk -F':.*## ' '{printf "  make %-13s %s\n", $$1, $$2}'

# uv installs the ~110 pinned packages in well under a minute where pip took minutes (issue 30,
# item 9); uv itself is pinned in constraints.txt with the rest, and pip only installs uv.
$(STAMP): constraints.txt requirements-dev.txt protos/python/pyproject.toml shared/*/pyproject.toml services/*/pyproject.toml clients/*/pyproject.toml
	@echo "[install 1/3] the virtualenv $(VENV)"
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	@echo "[install 2/3] uv, as pinned in constraints.txt"
	$(BIN)/python -m pip install --quiet --disable-pip-version-check -c constraints.txt uv
	@echo "[install 3/3] every package, pinned by constraints.txt (uv), compiled to bytecode"
	$(BIN)/uv pip install --quiet --compile-bytecode --python $(BIN)/python -c constraints.txt -r requirements-dev.txt $(PACKAGES)
	$(BYTECODE)
	touch $(STAMP)

install: $(STAMP) ## Create the virtualenv and install every package (editable)

bytecode: $(STAMP) ## Compile the project's changed sources to bytecode (the targets that start processes do it first)
	@$(BYTECODE)

protos: $(STAMP) $(WEB_DEPS) ## Rewrite every game's service and envelopes (protos/envelopes.py), regenerate the Python and TypeScript code of protos/ (committed; tests fail when stale)
	$(BIN)/python protos/envelopes.py
	$(BIN)/python protos/generate.py
	$(WEB)/scripts/generate.sh

# npm ci is tried three times: a registry hiccup skips an optional (platform) package silently
# and the next attempt starts from a clean node_modules.
$(WEB_DEPS): $(WEB)/package-lock.json
	@echo "[web 1/2] npm ci (clients/web's lockfile)"
	cd $(WEB) && for attempt in 1 2 3; do \
		$(TIED) npm ci --no-audit --no-fund && break; \
		test $$attempt -lt 3 || exit 1; echo "npm ci failed (attempt $$attempt of 3); retrying" >&2; sleep 5; \
	done
	touch $@

# The current protos are built into an image and compared with the released one as a whole: buf
# compares a workspace (buf.yaml's modules) with an image module by module, which it cannot pair.
proto-release: $(WEB_DEPS) ## Take the protos as released: rewrite protos/released.binpb, the baseline of `buf breaking` (commit it)
	$(BUF) lint
	$(BUF) build --exclude-source-info -o $(RELEASED_PROTOS)

web-protos: $(STAMP) $(WEB_DEPS) ## Regenerate only the TypeScript code of protos/ (clients/web/src/gen, committed)
	$(WEB)/scripts/generate.sh

$(WEB)/dist/index.html: $(WEB_DEPS) $(WEB_SOURCES)
	@echo "[web 2/2] vite build (clients/web/dist)"
	cd $(WEB) && $(TIED) npm run build

web: $(WEB)/dist/index.html ## Build the web app (clients/web/dist) when missing or stale: npm ci from the lockfile, vite build

screenshots: $(STAMP) web ## Play each game in a browser (Debian's chromium): docs/screenshots/<game>.png, and each page at desktop and phone sizes, <page>-<size>.png
	MENAGERIE_SCREENSHOTS=docs/screenshots $(TIED) $(BIN)/pytest tests/e2e/web/test_play.py tests/e2e/web/test_boards.py tests/e2e/web/test_phone.py tests/e2e/web/test_replay.py -p no:randomly

deploy-files: $(STAMP) ## Regenerate docker-compose.yml and deploy/k8s/<game>.yaml from deploy/games.toml (committed; a test fails when stale)
	$(BIN)/python deploy/generate.py

# mypy cannot follow editable installs: every package folder under services/ (each game's among
# them) goes on MYPYPATH, found rather than named, so a new game's folder is type-checked as it
# lands; mypy searches MYPYPATH first, then the other folders of mypy_path (pyproject.toml).
# vulture fails on code nothing uses but tests (issue 28): what is kept on purpose is named, with
# the reason, in vulture_allowlist.py; tests, generated code and stubs are not searched.
lint: $(STAMP) $(WEB_DEPS) ## ruff, mypy, the import rules (engines pure, no cycle in a game), no unused code (vulture), engine complexity (≤ 25), buf lint and breaking
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	MYPYPATH=$(subst $() ,:,$(patsubst %/pyproject.toml,%,$(wildcard services/*/pyproject.toml))) \
		$(BIN)/mypy shared services clients tests bench deploy protos/generate.py protos/envelopes.py
	$(BIN)/lint-imports
	$(BIN)/vulture services shared clients deploy bench vulture_allowlist.py --min-confidence 60 \
		--exclude "*/tests/*,*_pb2.py,*_pb2_grpc.py,*_connect.py,*.pyi,*/node_modules/*"
	$(BIN)/python -m tests.support.complexity
	$(BUF) lint
	set -o pipefail; $(BUF) build -o -#format=binpb | $(BUF) breaking -#format=binpb --against $(RELEASED_PROTOS)

golden: $(STAMP) ## Rewrite tests/golden/: a seeded match of every game and mode in the engines' words (a test fails when stale)
	$(TIED) $(BIN)/python -m tests.support.golden

format: $(STAMP) ## Apply ruff's fixes and formatting
	$(BIN)/ruff check --fix .
	$(BIN)/ruff format .

# The lint and two halves of the suite at once on two cores. tests/ (integration and e2e) sets
# the pace: its tests wait on processes, timers and each other, and stretch when the cores are
# busy. It runs two workers: three were 7% faster (fresh clones the same afternoon: make test
# 703 s with two, 658 s with three) but two of three runs with three each had a timing test
# fail under the extra contention; cached bytecode did more (make test 557-585 s with three).
# services/ (the games' own tests, mostly pure engines) and the lint (mypy from a cold cache on
# a fresh clone) only need the cores' time, so they run niced and take what tests/ leaves. Each
# worker starts its own Redis and services (session fixtures); a module's tests stay on one
# worker, and each long run is a group of its own, sent first
# (--dist loadgroup in the order tests/support/fixtures.py gives). services/ and the lint print
# their reports once tests/ is done, so that nothing interleaves. npm ci runs before all three
# (the lint's buf and the web tests' `make web` stand on it), not twice at once in one node_modules.
SERVICES_LOG := $(VENV)/services-tests.log
LINT_LOG := $(VENV)/lint.log
test: $(STAMP) $(WEB_DEPS) bytecode ## Lint and the whole test suite (unit, integration, e2e): the lint, tests/ and services/ side by side
	@$(TIED) nice -n 10 $(MAKE) --no-print-directory lint > $(LINT_LOG) 2>&1 & lint=$$!; \
	$(TIED) nice -n 10 $(BIN)/pytest -n 2 --dist loadgroup --no-loadscope-reorder --durations=15 services > $(SERVICES_LOG) 2>&1 & games=$$!; \
	$(TIED) $(BIN)/pytest -n 2 --dist loadgroup --no-loadscope-reorder --durations=15 tests; platform=$$?; \
	wait $$games; games_code=$$?; wait $$lint; lint_code=$$?; \
	echo "--- services/ (the games' own tests) ---"; cat $(SERVICES_LOG); \
	echo "--- make lint ---"; cat $(LINT_LOG); \
	echo "tests/: exit $$platform; services/: exit $$games_code; lint: exit $$lint_code"; \
	test $$platform -eq 0 -a $$games_code -eq 0 -a $$lint_code -eq 0

test-extended: $(STAMP) $(WEB_DEPS) bytecode ## What make test leaves out to keep within 15 minutes: the longer repeats of its coverage (marker extended)
	$(TIED) $(BIN)/pytest -n 2 --dist loadgroup --no-loadscope-reorder -m 'extended and not chaos' tests

chaos: $(STAMP) bytecode ## Every fault test, the long and repeated ones too, then what crowds and floods cost the others (bench)
	$(TIED) $(BIN)/pytest -m 'faults or chaos' tests
	$(TIED) $(BIN)/python -m bench --only resilience --game beasts

soak: $(STAMP) ## Long seeded property runs of every engine
	MENAGERIE_PROPERTY_MATCHES=5000 $(TIED) $(BIN)/pytest services -m property

bench: $(STAMP) bytecode ## Benchmarks with baselines measured in the same run
	$(TIED) $(BIN)/python -m bench $(ARGS)

bench-first-run: $(STAMP) ## A fresh clone's first make run, a warm restart and Ctrl-C, timed beside their targets (empty package caches; ARGS=--warm-caches keeps them)
	$(TIED) $(BIN)/python -m bench.first_run $(ARGS)

bench-scale: $(STAMP) bytecode ## The whole platform under 10, 100 and 1,000 concurrent bot matches: moves/s, latency, memory, CPU, matchmaking (ARGS=--scale-out: 1–2 bot workers × 1–2 replicas per game, and a 100k-match cluster plan)
	$(TIED) $(BIN)/python -m bench.scale $(ARGS)

# Then Fantastic Beasts' co-op mode III at 2, 4 and 6 seats, each at difficulty gentle, standard
# and hard (random team against greedy team; `--game all` plays it at 3), and a short balance
# report of Catch the Golden Snitch's Build Your Team: greedy against greedy over three Fundings
# with Spectators (win rates by House and Funding, the cards bought).
arena: $(STAMP) ## Greedy bots against random ones, 1,000 seeded games per installed game (teams for co-op games, beasts advanced at 2/4/6 seats at each difficulty); a snitch Build Your Team report
	$(TIED) $(BIN)/menagerie-arena sweep --game all --games 1000
	$(TIED) $(BIN)/menagerie-arena sweep --game beasts --mode advanced --seats 2,4,6 --option difficulty=all --games 1000
	$(TIED) $(BIN)/menagerie-arena sweep --game snitch --mode advanced --opponent greedy --games 200 \
		--funding-sweep 0,5,10 --option spectators=on

run: $(STAMP) web bytecode ## Start the platform on this machine, the web app at http://127.0.0.1:8080 (Ctrl-C stops it)
	$(TIED) $(BIN)/python deploy/local/run.py $(ARGS)

.PHONY: help install bytecode protos proto-release web-protos web screenshots deploy-files lint golden format test test-extended chaos soak bench bench-first-run bench-scale arena run
