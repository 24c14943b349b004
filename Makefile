# The two commands a new user needs: `make play` and `make test`.
# Each creates .venv and installs what it needs on a fresh machine, at the versions pinned in
# requirements.lock (the snapshot tests depend on Textual's exact rendering).
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
LOCK := requirements.lock
STAMP := $(VENV)/.installed
RAY_STAMP := $(VENV)/.installed-ray
TRAIN_STAMP := $(VENV)/.installed-train
CHROMIUM := /usr/bin/chromium
# pytest runs in parallel (pytest-xdist), an idle worker taking tests queued for a busy one
# (worksteal: the slow tests do not pile up on one worker). One worker more than the cores: the
# terminal, browser and server tests spend much of their time waiting (for a screen to settle, a
# page to draw, a server to answer), and a third worker on two cores fills that time
# (measured: pytest 3 min 20 s with two, 3 min 1 s with three). `make test WORKERS=0` runs it in
# one process.
WORKERS ?= $(shell echo $$(( $$(nproc 2>/dev/null || echo 1) + 1 )))
# Python may write its bytecode caches: with PYTHONDONTWRITEBYTECODE set (some shells set it),
# every pytest process compiles its assertion-rewritten plugins again, and every server and
# command the tests start compiles bigtwo again, each time.
unexport PYTHONDONTWRITEBYTECODE
PYTEST := $(BIN)/python -m pytest -n $(WORKERS) --dist worksteal

.PHONY: play test test-slow test-ray test-train bench lint unit js node-deps browser-deps services screenshots clean venv lock

$(STAMP): pyproject.toml $(LOCK)
	@test -x $(BIN)/python || $(PY) -m venv $(VENV)
	@$(BIN)/python -m pip install -q -c $(LOCK) pip
	@$(BIN)/python -m pip install -q -c $(LOCK) -e '.[dev]'
	@touch $(STAMP)

# Ray is an extra (bigtwo[ray]), installed only for the Ray backend's tests.
$(RAY_STAMP): $(STAMP)
	@$(BIN)/python -m pip install -q -c $(LOCK) -e '.[dev,ray]'
	@touch $(RAY_STAMP)

# PyTorch is an extra (bigtwo[train]), installed only for the trainer's tests.
$(TRAIN_STAMP): $(STAMP)
	@$(BIN)/python -m pip install -q -c $(LOCK) -e '.[dev,train]'
	@touch $(TRAIN_STAMP)

venv: $(STAMP)

# Rewrites requirements.lock from a fresh virtual environment of the newest versions the
# dependencies allow (every extra, so one lock serves `make test` and `make test-ray`).
lock:
	rm -rf .lock-venv
	$(PY) -m venv .lock-venv
	.lock-venv/bin/python -m pip install -q --upgrade pip
	.lock-venv/bin/python -m pip install -q '.[dev,ray,train]'
	{ echo "# Exact versions for make's installs (pip install -c); rewrite with make lock."; \
	  .lock-venv/bin/python -m pip freeze --all --exclude bigtwo --exclude setuptools \
	    --exclude wheel; } > $(LOCK)
	rm -rf .lock-venv

# The browser tests drive Debian's chromium; install it when missing and we may, with the Noto
# CJK fonts, so that the Chinese pages (tests, screenshots) show their characters, not boxes.
browser-deps:
	@missing=""; \
	[ -x $(CHROMIUM) ] || missing="chromium"; \
	dpkg -s fonts-noto-cjk >/dev/null 2>&1 || missing="$$missing fonts-noto-cjk"; \
	if [ -n "$$missing" ]; then \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
	    echo "Installing Debian's$$missing for the browser tests..."; \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing >/dev/null; \
	  else \
	    echo "note:$$missing not installed and cannot be installed here (the browser tests need chromium, the Chinese screens fonts-noto-cjk)"; \
	  fi; \
	fi

# PostgreSQL and Redis, which the table store's tests (and the cluster's) use: says how to
# start whichever is missing, and fails in CI (CI=true), where every test must run.
services: $(STAMP)
	@$(BIN)/python tests/test_services.py

play: $(STAMP)
	@$(BIN)/bigtwo play

# lint-imports checks the package's floors and that no package's modules import each other in a
# circle (the contracts in pyproject.toml's [tool.importlinter]).
lint: $(STAMP)
	$(BIN)/ruff check src tests scripts
	$(BIN)/ruff format --check src tests scripts
	$(BIN)/mypy
	$(BIN)/lint-imports

# Everything but the tests marked slow or ray (pyproject.toml's addopts leaves them out).
unit: $(STAMP)
	$(PYTEST) src tests

# The browser client's packages (TypeScript, axe-core), once package.json is there: npm ci
# installs exactly package-lock.json's versions, again only when that file changed.
node-deps:
	@if [ -f package.json ]; then \
	  command -v npm >/dev/null || { echo "make: npm is needed for the browser client's checks (package.json)"; exit 1; }; \
	  if [ ! -f node_modules/.package-lock.json ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then \
	    npm ci --no-audit --no-fund --loglevel=error; \
	  fi; \
	fi

# The browser client's type check and unit tests.
js: node-deps
	@if [ -f package.json ]; then npm run --silent typecheck && npm test --silent; fi

# node-deps first: npm ci installs axe-core, which the browser tests' accessibility checks load.
# The lint and the browser client's checks run beside pytest (which leaves part of the machine
# waiting, see WORKERS); their output is shown when pytest is done, and either failing fails.
CHECKS_LOG := $(VENV)/checks.log
test: $(STAMP) browser-deps services node-deps
	@{ $(MAKE) --no-print-directory lint js > $(CHECKS_LOG) 2>&1; echo $$? > $(CHECKS_LOG).rc; } & \
	$(MAKE) --no-print-directory unit; status=$$?; wait; \
	echo "--- lint, types and the browser client's checks (run beside pytest):"; cat $(CHECKS_LOG); \
	checks=$$(cat $(CHECKS_LOG).rc); rm -f $(CHECKS_LOG) $(CHECKS_LOG).rc; \
	[ $$status = 0 ] && [ $$checks = 0 ]

# The exhaustive checks, minutes long (CI runs them after make test).
test-slow: $(STAMP)
	$(PYTEST) -m slow tests

# The arena's Ray backend, on a private local Ray instance: in one process, as each test
# checks that no Ray process is left behind, which a second instance beside it would upset.
test-ray: $(RAY_STAMP)
	$(BIN)/python -m pytest -m ray tests/test_arena_ray.py

# The trainer (bigtwo train, PyTorch): tiny runs, resuming bit for bit, the export, the critic,
# the league, and the search's moves taught to the network.
test-train: $(TRAIN_STAMP)
	$(PYTEST) -m train tests/test_learn_train.py tests/test_learn_critic.py tests/test_learn_structure_train.py \
		tests/test_learn_league.py tests/test_learn_distill.py

bench: $(STAMP)
	$(BIN)/bigtwo bench engine --games 5000

screenshots: $(STAMP) browser-deps
	$(BIN)/python scripts/screenshots.py

clean:
	rm -rf $(VENV) build src/*.egg-info
