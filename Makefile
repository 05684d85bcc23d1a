# Two commands for a newcomer: `make run` and `make test`. Both start with `make setup`,
# which is idempotent: it rebuilds the .venv only when pyproject.toml changed.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.setup-stamp
SAMPLE := resources/samples/community-sample
# A plain path entry (.pth) for the editable install: setuptools' default import finder costs
# every start of the CLI ~20 ms of imports (pathlib, importlib.util, fnmatch).
EDITABLE := --config-settings editable_mode=compat

.PHONY: setup run test test-lag lint bench package screenshots clean corpus

setup: $(STAMP)

# setup.py and the C source: the optional accelerator (moderator_app/core/formats/_jcs.c) is built
# in place by the editable install; without a C compiler the install goes on without it.
$(STAMP): pyproject.toml setup.py moderator_app/core/formats/_jcs.c moderator_app/core/formats/_jcs_pow5.h \
		moderator_app/core/formats/_skim.c moderator_app/core/formats/_skim_table.h \
		moderator_app/core/formats/_skim_checks.h \
		moderator_app/core/video/_grid.c moderator_app/core/sync/_lookup.c \
		moderator_app/core/formats/_unescape.c
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --disable-pip-version-check -e '.[test]' $(EDITABLE)
	@$(BIN)/python -c "from moderator_app.core.formats import native; print('C accelerator:', 'built' if native.JCS and native.SKIM else 'NOT built (pure-Python path, slower)')"
	@$(BIN)/python -m compileall -q moderator_app > /dev/null
	@touch $(STAMP)

run: setup
	$(BIN)/moderator-app $(SAMPLE)

# --durations=30: every CI log names its 30 slowest tests (the stop's CI took 4,133 s of its
# 5,400 s, session 39's 2,057 s, and no log said where the time went).
# TEST_WORKERS: the suite runs in that many processes (pytest-xdist, a `test` extra), one a
# core of the 2-core CI machine: run serially, one core idled (stop 52's CI: 4,382 s of the
# 5,400 s). --dist loadfile: a test file's tests stay in one process, so its module-scoped
# fixtures and caches are made once (docs/DECISIONS.md, session 45, "The suite on both cores").
# `make test TEST_WORKERS=0` runs it in one process, as before.
TEST_WORKERS ?= 2
test: setup
	$(BIN)/python -m pytest -q -ra --durations=30 $(if $(filter-out 0,$(TEST_WORKERS)),-n $(TEST_WORKERS) --dist loadfile)

# The widget tests with the window's background work landing 0.5 s late; a test that ends
# while its window is still busy fails (tests/conftest.py, MODERATOR_TEST_LAG).
test-lag: setup
	MODERATOR_TEST_LAG=0.5 $(BIN)/python -m pytest -q -ra tests/ui

lint: setup
	$(BIN)/ruff check .

# The real-game corpus (tests/corpus) into .cache/corpus/ (tests build what they need anyway).
corpus: setup
	cd tests && nice -n 10 ../$(BIN)/python -m corpus

bench: setup
	$(BIN)/python bench/run.py

package: setup
	$(BIN)/python -m pip install --quiet --disable-pip-version-check -e '.[test,package]' $(EDITABLE)
	$(BIN)/pyinstaller --noconfirm --clean --distpath dist --workpath build packaging/moderator-app.spec

screenshots: setup
	$(BIN)/python scripts/screenshots.py

clean:
	rm -rf build dist .pytest_cache .ruff_cache
