# Two commands for a newcomer: `make run` (the service) and `make test` (the suite).
SHELL := /bin/bash
PY ?= python3.11
VENV := .venv
STAMP := $(VENV)/.installed
# Certificates from the system's store (a proxy's own CA is trusted there, as pip's `cert` is);
# pip's index and local wheels when its environment names them (uv reads UV_* settings only).
UV_PIP = $(VENV)/bin/uv pip install -q --system-certs --compile-bytecode --python $(VENV)/bin/python \
  $(if $(PIP_INDEX_URL),--index-url $(PIP_INDEX_URL)) \
  $(if $(wildcard $(PIP_FIND_LINKS)),--find-links $(PIP_FIND_LINKS))

.PHONY: run test install lint format vendor docs docs-serve

$(STAMP): pyproject.toml
	@command -v $(PY) >/dev/null || { echo "Python 3.11 is required ($(PY) not found)"; exit 1; }
	@test -x $(VENV)/bin/python || $(PY) -m venv $(VENV)
	@# uv installs what pip would, the same versions, in a third of the time (docs/operations/
	@# testing.md), compiled to bytecode as pip does (or each process of the first test run
	@# compiles what it imports). torch first and alone: the CPU wheel from PIP_FIND_LINKS when
	@# one is there, else PyPI's.
	$(VENV)/bin/pip install -q uv==0.13.8
	$(UV_PIP) "torch==2.13.0"
	@# Dependencies only: the project itself runs from the checkout (manage.py, pytest rootdir).
	$(VENV)/bin/python bin/requirements-from-pyproject > $(VENV)/requirements.txt
	$(UV_PIP) -r $(VENV)/requirements.txt
	@touch $(STAMP)

install: $(STAMP)

run: $(STAMP)
	@bin/run-local

test: $(STAMP)
	@# Three test processes (TEST_PROCESSES); the 25 slowest tests are listed at the end
	@# (docs/operations/testing.md: 24:07 in one process, 14:48 in two, 11:04 in three, measured 2026-12-04).
	@bin/run-tests --durations=25

lint: $(STAMP)
	$(VENV)/bin/ruff check . && $(VENV)/bin/ruff format --check .

format: $(STAMP)
	$(VENV)/bin/ruff format . && $(VENV)/bin/ruff check --fix .

# The documentation site (docs/, mkdocs.yml), offline: strict, so any warning fails the build
# (NO_MKDOCS_2_WARNING silences Material's end-of-life banner, which is not about the docs).
docs: $(STAMP)
	NO_MKDOCS_2_WARNING=1 $(VENV)/bin/mkdocs build --strict --site-dir .local/site

docs-serve: $(STAMP)
	NO_MKDOCS_2_WARNING=1 $(VENV)/bin/mkdocs serve --strict --dev-addr 127.0.0.1:8001

# Refresh the vendored front-end files from the npm packages pinned in package.json.
vendor:
	npm ci --no-audit --no-fund
	cp node_modules/htmx.org/dist/htmx.min.js static/vendor/htmx-2.0.11.min.js
	cp node_modules/cytoscape/dist/cytoscape.min.js static/vendor/cytoscape-3.34.4.min.js
	@# The source map is not vendored: its comment would send browsers for a file that is not there.
	sed '/^\/\/# sourceMappingURL=/d' node_modules/cytoscape-dagre/dist/cytoscape-dagre.min.js \
	  > static/vendor/cytoscape-dagre-4.0.1.min.js
	@# axe-core is not served by any page: only the browser tests inject it (the accessibility check).
	cp node_modules/axe-core/axe.min.js static/vendor/axe-core-4.14.1.min.js
