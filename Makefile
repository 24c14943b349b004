# The two commands a new user needs: `make play` and `make test`.
# Each creates .venv and installs what it needs on a fresh machine.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: play test bench lint screenshots clean venv

$(STAMP): pyproject.toml
	@test -d $(VENV) || $(PY) -m venv $(VENV)
	@$(BIN)/pip install -q --upgrade pip
	@$(BIN)/pip install -q -e '.[dev]'
	@touch $(STAMP)

venv: $(STAMP)

play: $(STAMP)
	@$(BIN)/bigtwo play

lint: $(STAMP)
	$(BIN)/ruff check src tests
	$(BIN)/ruff format --check src tests
	$(BIN)/mypy

test: lint
	$(BIN)/python -m pytest src tests

bench: $(STAMP)
	$(BIN)/bigtwo bench engine --games 3000

clean:
	rm -rf $(VENV) build *.egg-info src/*.egg-info
