# make lab: open the lessons in JupyterLab.  make test: run every test.
# Both create .venv and install the project into it when needed.

PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
# One stamp per install: make lab installs what the lessons need (.[lab]), make deck adds Voila, make test
# (and the maintainers' targets) add the test tools; each install includes the ones before.
LAB_STAMP := $(VENV)/.bleu-teach-lab
DECK_STAMP := $(VENV)/.bleu-teach-deck
STAMP := $(VENV)/.bleu-teach-installed
# The slide decks' and the static site's scripts (reveal.js, MathJax 2, Pyodide, ...) from the npm registry, for offline use.
NODE_STAMP := node_modules/.bleu-teach-installed
LAB_PORT ?= 8888
# The closing slide of the deck shows the course's address and its QR code: make slides (site, deck) COURSE_URL=https://...
COURSE_URL ?= https://your-course-site.example/

.PHONY: lab deck test check notebooks solutions slides site dist benchmark class constraints clean

$(LAB_STAMP): pyproject.toml constraints.txt
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --constraint constraints.txt --editable '.[lab]'
	touch $(LAB_STAMP)

$(DECK_STAMP): pyproject.toml constraints.txt
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --constraint constraints.txt --editable '.[deck]'
	touch $(LAB_STAMP) $(DECK_STAMP)

$(STAMP): pyproject.toml constraints.txt
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --constraint constraints.txt --editable '.[deck,test,site]'
	touch $(LAB_STAMP) $(DECK_STAMP) $(STAMP)

# 127.0.0.1 only, token authentication on, the project's JupyterLab settings (scripts/lab.py).
$(NODE_STAMP): package.json package-lock.json
	npm ci --no-audit --no-fund --loglevel=error
	touch $(NODE_STAMP)

lab: $(LAB_STAMP)
	$(BIN)/python scripts/lab.py --port $(LAB_PORT) --open-browser

# The live demo deck: Voila's reveal template with working widgets, on 127.0.0.1, every asset local (scripts/lab.py).
DECK_PORT ?= 8866
deck: $(DECK_STAMP) $(NODE_STAMP)
	$(BIN)/python -m scripts.lab --deck --port $(DECK_PORT) --course-url "$(COURSE_URL)"

# The project's JavaScript (the site's and the classroom server's scripts), in seconds: its JSDoc types
# (TypeScript's checker, nothing emitted: tsconfig.json for the pages, tsconfig.worker.json for the Python worker),
# lint (ESLint, eslint.config.mjs), and the unit tests of its pure functions (node --test, tests/js/; the scripts
# have no package.json type, hence the warning left out).
JS_CHECK := node_modules/.bin/tsc -p tsconfig.json && node_modules/.bin/tsc -p tsconfig.worker.json \
	&& node_modules/.bin/eslint . && node --disable-warning=MODULE_TYPELESS_PACKAGE_JSON --test tests/js/

# Formatting and lint first (ruff, configured in pyproject.toml: ruff format rewrites, ruff check --fix mends), then
# the JavaScript's checks (JS_CHECK), then types (mypy), then every test on both cores: each test file stays in one
# process (a lesson's cells run in order under nbval); the site and the wheel are built once for both.
LINT := $(BIN)/ruff format --check --quiet . && $(BIN)/ruff check --quiet .
test: $(STAMP) $(NODE_STAMP)
	$(LINT)
	$(JS_CHECK)
	$(BIN)/python -m mypy
	$(BIN)/python -m pytest -n 2 --dist loadfile

# The fast tier for daily work: lint, the JavaScript's checks (JS_CHECK), types, then the core, the views, the
# explorers, the exercises and the command line, with no browser, no notebook and nothing marked slow, on both
# cores (README: which tests to run when).
check: $(STAMP) $(NODE_STAMP)
	$(LINT)
	$(JS_CHECK)
	$(BIN)/python -m mypy
	BLEU_TEACH_QUICK=1 $(BIN)/python -m pytest -n 2 -m "not browser and not notebook and not slow" tests bleu_teach

RUN_NOTEBOOK := $(BIN)/jupyter nbconvert --to notebook --execute \
	--ExecutePreprocessor.record_timing=False --ExecutePreprocessor.store_widget_state=True
EXECUTE := $(RUN_NOTEBOOK) --inplace

# Re-execute every lesson in place, top to bottom on a fresh kernel, saving widget state;
# then remake and execute the teacher's solution copies.
notebooks: $(STAMP)
	$(EXECUTE) notebooks/*.ipynb notebooks/slides/*.ipynb
	$(MAKE) solutions

# The solution copies (notebooks/solutions/), made from the lessons' tagged exercise cells.
solutions: $(STAMP)
	$(BIN)/python scripts/solutions.py
	$(EXECUTE) notebooks/solutions/*.ipynb

# The demo deck as a reveal.js slide show with nothing loaded from outside: build/slides/. Served over http(s) its
# widgets run bleu_teach in the browser (Pyodide, the package's wheel); opened from disk they show the saved example.
# The deck is executed into build/decks/ (the stored notebook stays as it is; make notebooks rewrites it).
slides: $(STAMP) $(NODE_STAMP) dist
	$(RUN_NOTEBOOK) --output-dir build/decks notebooks/slides/*.ipynb
	$(BIN)/python -m bleu_teach_site.slides --decks build/decks --wheel dist/bleu_teach-$(VERSION)-py3-none-any.whl \
		--course-url "$(COURSE_URL)"

# The static website, nothing to install for its readers: build/site/ (the bleu_teach_site package).
# Lessons with their stored outputs, the deck, and a live explorer running bleu_teach on Pyodide.
# Publish: copy build/site/ to any web host, or serve it: python -m http.server --bind 127.0.0.1 -d build/site
site: $(STAMP) $(NODE_STAMP) dist
	$(BIN)/python -m bleu_teach_site --wheel dist/bleu_teach-$(VERSION)-py3-none-any.whl --course-url "$(COURSE_URL)"

# The package to install anywhere (a JupyterHub, a lab machine): a wheel and an sdist in dist/, built by
# python -m build from dist/ itself (the project's build/ folder would shadow the build module).
VERSION := $(shell sed -n 's/^version = "\(.*\)"/\1/p' pyproject.toml)
dist: $(STAMP)
	rm -rf dist && mkdir dist
	cd dist && ../$(BIN)/python -m build --outdir . .. >/dev/null
	ls dist

# The classroom server (README: The classroom server) on 127.0.0.1, with the course website beside it.
CLASS_PORT ?= 8000
# Starts from the site already built (make site rebuilds it); builds it only when there is none, so a built class
# starts offline.
class: $(STAMP)
	@test -f build/site/index.html || $(MAKE) site
	$(BIN)/python -m bleu_teach class serve --site build/site --port $(CLASS_PORT)

benchmark: $(STAMP)
	$(BIN)/python benchmarks/bench_core.py
	$(BIN)/python benchmarks/bench_widgets.py
	$(BIN)/python -m benchmarks.bench_dashboard_count
	$(BIN)/python -m benchmarks.bench_classroom
	$(MAKE) site
	$(BIN)/python benchmarks/bench_pages.py --site build/site

# Re-pin after an upgrade (README): lift pins, make clean notebooks test, then make constraints.
constraints: $(STAMP)
	{ echo "# Versions the stored notebook outputs were made with; the make targets install with these."; \
	  echo "# Refresh: make constraints (see README)."; \
	  $(BIN)/python -m pip freeze --exclude-editable | grep -v '^bleu-teach'; } > constraints.txt.new
	mv constraints.txt.new constraints.txt

clean:
	rm -rf $(VENV) node_modules build dist
