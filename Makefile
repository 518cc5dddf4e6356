# make run   set up and serve the site and the portal at http://127.0.0.1:$(PORT)
# make test  set up (browser and checkers included) and run every test
# make site  freeze the public site into build/
# make bench print page weights and timings (figures, not tests)
# make mutation  mutmut over the modules where a wrong line costs most (long; not in CI)
# make content-check  check a content pack: every problem, with file, field and fix
# make messages  gather the templates' and code's words into translations/*.po (then translate)
# make staff-add NAME=smo [EMAIL=smo@example.org]  a staff account for `make run` (asks a password)
# make flask ARGS="staff list"  any `flask --app portal` command, with the settings of `make run`
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

.PHONY: run site test lint format bench mutation clean system-tools content-check local-key staff-add flask messages

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[dev]'
	touch $@

# The gettext catalogues (translations/<language>/LC_MESSAGES/messages.po, committed) compiled
# for the apps; the .mo files are built here, never committed.
CATALOGUES := $(wildcard translations/*/LC_MESSAGES/messages.po)
COMPILED := $(CATALOGUES:.po=.mo)

$(COMPILED): %.mo: %.po | $(STAMP)
	$(BIN)/pybabel compile --statistics -i $< -o $@

# Every translatable word of the templates and the code, into each language's catalogue:
# new ones come in untranslated (msgstr ""), for a translator to fill in.
messages: $(STAMP)
	$(BIN)/pybabel extract -F babel.cfg -w 100 -k N_ -k _l --no-location --sort-output -o translations/messages.pot .
	$(BIN)/pybabel update -w 100 -i translations/messages.pot -d translations --no-fuzzy-matching --ignore-obsolete

# The build checks the content first (as the portal does when it starts) and stops on a problem.
site: $(STAMP) $(COMPILED)
	$(BIN)/python -m static_site build

content-check: $(STAMP)
	$(BIN)/python -m content_model check $(or $(SITE_CONTENT_DIR),content)

# The settings `make run` serves with, so the admin commands below act on the same database,
# sign with the same key and build the same links. A fixed local secret (made once in
# $(KEY_FILE)) keeps sign-ins and status links valid across restarts; the portal refuses to
# start without a secret key and a public address, so both are given here.
KEY_FILE ?= instance/secret_key
LOCAL_SETTINGS = PORTAL_SECRET_KEY=$$(cat $(KEY_FILE)) \
	PORTAL_PUBLIC_URL=$${PORTAL_PUBLIC_URL:-http://127.0.0.1:$(PORT)} \
	PORTAL_SMO_EMAIL=$${PORTAL_SMO_EMAIL:-stormwater-officer@localhost}

local-key:
	@mkdir -p $(dir $(KEY_FILE))
	@test -s $(KEY_FILE) || $(BIN)/python -c "import secrets; print(secrets.token_hex(32))" > $(KEY_FILE)

# The same server as production (gunicorn), serving the frozen site beside the portal.
# Without PORTAL_MAIL_SERVER, mail is written to instance/mail/*.eml and named in the log.
# The frozen pages name their language alternates by full address, as published ones do.
run: export SITE_PUBLIC_URL ?= http://127.0.0.1:$(PORT)
run: site local-key
	@echo "Serving http://127.0.0.1:$(PORT)  (a staff account: make staff-add NAME=smo)"
	PORTAL_SITE_DIR=build $(LOCAL_SETTINGS) \
	$(BIN)/gunicorn --workers 2 --threads 8 --bind 127.0.0.1:$(PORT) --access-logfile - 'portal:create_app()'

# A staff account for the portal `make run` serves; it asks for the password twice.
staff-add: $(STAMP) $(COMPILED) local-key
	@test -n "$(NAME)" || { echo "Name the account: make staff-add NAME=smo [EMAIL=smo@example.org]"; exit 2; }
	$(LOCAL_SETTINGS) $(BIN)/flask --app portal staff add '$(NAME)' $(if $(EMAIL),--email '$(EMAIL)')

# Any admin command with those settings: make flask ARGS="staff list", ARGS="outbox status".
flask: $(STAMP) $(COMPILED) local-key
	$(LOCAL_SETTINGS) $(BIN)/flask --app portal $(ARGS)

# Debian's chromium (for Playwright) and a Java runtime (for the Nu HTML Checker),
# installed only when missing.
system-tools:
	@missing=""; \
	command -v chromium >/dev/null || missing="$$missing chromium"; \
	command -v java >/dev/null || missing="$$missing default-jre-headless"; \
	command -v npm >/dev/null || missing="$$missing npm"; \
	command -v pdftotext >/dev/null || missing="$$missing poppler-utils"; \
	if [ -n "$$missing" ]; then \
	  echo "installing:$$missing"; \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing; \
	fi

$(NODE_STAMP): tests/package.json tests/package-lock.json | system-tools
	npm ci --prefix tests --no-audit --no-fund
	touch $@

# On every core (TEST_WORKERS=0: in this process only). --dist loadgroup: each test goes to
# whichever worker is free, except the groups tests/conftest.py names (the timed tests, one
# after another; the files sharing the Open311 server), which each stay on one worker.
TEST_WORKERS ?= auto
# The tests' files (databases, photos, mail folders, the browser's profile) in memory where
# the machine has it: every commit's fsync on a disk was the suite's largest wait (a quarter
# of its time), and no test can tell an fsync that reached a platter from one that did not.
TEST_TMP ?= $(if $(wildcard /dev/shm/.),/dev/shm/portal-tests-$(shell id -u))

test: $(STAMP) $(COMPILED) $(NODE_STAMP) system-tools
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(if $(TEST_TMP),mkdir -p $(TEST_TMP))
	TMPDIR=$(TEST_TMP) $(BIN)/pytest -n $(TEST_WORKERS) --dist loadgroup

lint: $(STAMP)
	$(BIN)/ruff check --fix .
	$(BIN)/ruff format .

bench: $(STAMP) $(COMPILED)
	$(BIN)/python -m bench --record docs/benchmarks.md

# A score per module; MODULES="deadlines mail-outbox" runs only those (tools/mutation.py).
# At the lowest priority: it runs each module's tests again for every mutant.
mutation: $(STAMP) $(COMPILED)
	nice -n 19 $(BIN)/python tools/mutation.py --list $(MODULES)

clean:
	rm -rf build .pytest_cache
