# make run   set up and serve the site and the portal at http://127.0.0.1:$(PORT)
# make test  set up (browser and checkers included) and run every test
# make site  freeze the public site into build/
# make bench print page weights and timings (figures, not tests)
# make mutation  mutmut over the modules where a wrong line costs most (long; not in CI)
# make content-check  check a content pack: every problem, with file, field and fix
#
# CONTENT=path/to/pack uses another municipality's content (default: content/) for
# site, run and content-check; it sets SITE_CONTENT_DIR and PORTAL_CONTENT_DIR.

PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV   := .venv
BIN    := $(VENV)/bin
PORT   ?= 8000
STAMP  := $(VENV)/.installed
NODE_STAMP := tests/node_modules/.installed
CONTENT ?=
ifneq ($(CONTENT),)
export SITE_CONTENT_DIR := $(abspath $(CONTENT))
export PORTAL_CONTENT_DIR := $(abspath $(CONTENT))
endif

.PHONY: run site test lint format bench mutation clean system-tools content-check

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[dev]'
	touch $@

# The build checks the content first (as the portal does when it starts) and stops on a problem.
site: $(STAMP)
	$(BIN)/python -m static_site build

content-check: $(STAMP)
	$(BIN)/python -m content_model check $(or $(SITE_CONTENT_DIR),content)

# The same server as production (gunicorn), serving the frozen site beside the portal.
# Without PORTAL_MAIL_SERVER, mail is written to instance/mail/*.eml and named in the log.
# A fixed local secret keeps sign-ins and status links valid across restarts; the portal
# refuses to start without a secret key and a public address, so both are given here.
run: site
	@mkdir -p instance
	@test -s instance/secret_key || $(BIN)/python -c "import secrets; print(secrets.token_hex(32))" > instance/secret_key
	@echo "Serving http://127.0.0.1:$(PORT)  (staff accounts: $(BIN)/flask --app portal staff add NAME)"
	PORTAL_SITE_DIR=build \
	PORTAL_SECRET_KEY=$$(cat instance/secret_key) \
	PORTAL_PUBLIC_URL=$${PORTAL_PUBLIC_URL:-http://127.0.0.1:$(PORT)} \
	PORTAL_SMO_EMAIL=$${PORTAL_SMO_EMAIL:-stormwater-officer@localhost} \
	$(BIN)/gunicorn --workers 2 --bind 127.0.0.1:$(PORT) --access-logfile - 'portal:create_app()'

# Debian's chromium (for Playwright) and a Java runtime (for the Nu HTML Checker),
# installed only when missing.
system-tools:
	@missing=""; \
	command -v chromium >/dev/null || missing="$$missing chromium"; \
	command -v java >/dev/null || missing="$$missing default-jre-headless"; \
	command -v npm >/dev/null || missing="$$missing npm"; \
	if [ -n "$$missing" ]; then \
	  echo "installing:$$missing"; \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing; \
	fi

$(NODE_STAMP): tests/package.json tests/package-lock.json | system-tools
	npm ci --prefix tests --no-audit --no-fund
	touch $@

test: $(STAMP) $(NODE_STAMP) system-tools
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/pytest

lint: $(STAMP)
	$(BIN)/ruff check --fix .
	$(BIN)/ruff format .

bench: $(STAMP)
	$(BIN)/python -m bench --record docs/benchmarks.md

# A score per module; MODULES="deadlines mail-outbox" runs only those (tools/mutation.py).
# At the lowest priority: it runs each module's tests again for every mutant.
mutation: $(STAMP)
	nice -n 19 $(BIN)/python tools/mutation.py --list $(MODULES)

clean:
	rm -rf build .pytest_cache
