# Two commands set everything up on a fresh machine: `make demo` and `make test`.
# Each creates (or refreshes, when pyproject.toml changes) the virtual environment in .venv.

PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: demo test clean help

help:
	@echo "make demo   - score the bundled sample game (creates .venv on first use)"
	@echo "make test   - run the test suite (creates .venv on first use)"
	@echo "make clean  - remove .venv and caches"

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

demo: $(STAMP)
	$(BIN)/sueca-referee score -g samples/games/game1.sueca

test: $(STAMP)
	$(BIN)/python -m pytest -q

clean:
	rm -rf $(VENV) .pytest_cache .hypothesis build *.egg-info
	find . -name __pycache__ -type d -prune -exec rm -rf {} +
