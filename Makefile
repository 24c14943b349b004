# The two commands a new user needs: `make play` and `make test`.
# Each creates .venv and installs what it needs on a fresh machine.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
CHROMIUM := /usr/bin/chromium

.PHONY: play test bench lint unit browser-deps screenshots clean venv

$(STAMP): pyproject.toml
	@test -x $(BIN)/python || $(PY) -m venv $(VENV)
	@$(BIN)/python -m pip install -q --upgrade pip
	@$(BIN)/python -m pip install -q -e '.[dev]'
	@touch $(STAMP)

venv: $(STAMP)

# The browser tests drive Debian's chromium; install it when missing and we may.
browser-deps:
	@if [ ! -x $(CHROMIUM) ]; then \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
	    echo "Installing Debian's chromium for the browser tests..."; \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null; \
	  else \
	    echo "note: $(CHROMIUM) is missing and cannot be installed here; browser tests will say so"; \
	  fi; \
	fi

play: $(STAMP)
	@$(BIN)/bigtwo play

lint: $(STAMP)
	$(BIN)/ruff check src tests scripts
	$(BIN)/ruff format --check src tests scripts
	$(BIN)/mypy

unit: $(STAMP)
	$(BIN)/python -m pytest src tests

test: $(STAMP) browser-deps lint unit

bench: $(STAMP)
	$(BIN)/bigtwo bench engine --games 5000

screenshots: $(STAMP) browser-deps
	$(BIN)/python scripts/screenshots.py

clean:
	rm -rf $(VENV) build src/*.egg-info
