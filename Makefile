# Table Banker. Two commands do all the set-up on a fresh machine:
#   make run    creates .venv, installs the app, starts the touchscreen app
#   make test   creates .venv with the test extras, installs the Debian packages the suite needs
#               (when run as root), runs `make lint`, then the whole suite on JOBS processes (each
#               with a virtual screen of its own), and prints the ten slowest tests
#   make check  lint and the fast part of the suite (no test marked slow, gui or browser), the property
#               tests and the damaged-file fuzz on a quarter of their examples (tests/examples.py)
#   make lint   ruff (lint, and the format check) and mypy, configured in pyproject.toml
#   make durations  the whole suite, keeping each module's time in tests/durations.json: the test
#               processes are dealt the longest work first by it (tests/schedule.py); commit the file
#   make pi-check  (as root) proves the Raspberry Pi appliance on arm64 under qemu: a Bookworm arm64
#               root, deploy/install.sh into it, the kiosk's first screen (see docs/raspberry-pi.md)
#   make pi-vm-check  (as root, after pi-check) boots that root as a whole arm64 machine under
#               qemu-system-aarch64: KMS/DRM, touch through the kernel, GPIO lines (docs/raspberry-pi.md)
PYTHON ?= python3
VENV   ?= .venv
PY     := $(VENV)/bin/python
GAME   ?=
# Debian packages the suite needs: a virtual screen and a real pointer (xdotool) for the Kivy tests, Chromium for the phone page,
# Mesa's software OpenGL for Kivy, fonts, shellcheck and systemd-analyze for the deploy checks.
TEST_DEBS := xvfb xauth xdotool chromium libgl1 libgl1-mesa-dri libegl1 libmtdev1 fonts-dejavu-core shellcheck systemd util-linux git
PYTEST_ARGS ?=
# Test processes (pytest-xdist), each with a virtual screen of its own. The screen tests wait at a
# person's pace between taps, so the two cores stay busy only with more processes than cores: once
# the tests' CPU fell to about 530 s, a fresh clone's tests took 5 min 39 s on seven processes, 5 min
# 22 s on nine and 5 min 7 s on eleven (benchmarks/README.md, "The suite's time"); about 370 MB of
# memory each, Xvfb included.
JOBS ?= 11
# The tests keep their bytecode, in $(VENV)/pycache, even where PYTHONDONTWRITEBYTECODE is set (as in many
# containers): else every test process, and every program a test starts, compiles the package, the tests
# and the plugins pytest rewrites all over again (5 of the 7 CPU seconds a process spends collecting).
PYTEST_ENV := env -u PYTHONDONTWRITEBYTECODE PYTHONPYCACHEPREFIX=$(abspath $(VENV))/pycache
PYTEST := $(PYTEST_ENV) $(PY) -m pytest -q -n $(JOBS) --no-loadscope-reorder
# Lint, and meanwhile on the other core one collection of the tests, which leaves their rewritten asserts
# in that pycache: on a fresh clone the JOBS processes would otherwise each rewrite every test module at
# once as they start (8 CPU seconds each where a warm collection takes 2).
lint_and_warm = $(PYTEST_ENV) $(PY) -m pytest --collect-only -q -p no:xdist -p no:cacheprovider >/dev/null 2>&1 & \
	$(MAKE) --no-print-directory lint; rc=$$?; wait; exit $$rc

# The tests' games live in memory (/dev/shm) where the machine has it: thousands of commits, each
# flushed to disk by the store, then cost no disk write. Nothing tested needs the disk itself: a killed
# process (tests/test_crash.py) loses nothing the kernel holds, and a full disk is a small tmpfs anyway.
in_memory = tmp=$$(mktemp -d /dev/shm/table-banker-tests.XXXXXX 2>/dev/null || mktemp -d); \
	$(1) --basetemp=$$tmp/t; rc=$$?; rm -rf "$$tmp"; exit $$rc

SEED   ?= 1
TAPS   ?= 2000

.PHONY: run test check lint durations bench monkey system-deps clean pi-check pi-vm-check

# One pip run each: the test extras include the app, so `make test` on a fresh clone resolves and
# installs once (the venv's own pip, 23 or later on Python 3.11, installs a pyproject project editable).
$(PY):
	$(PYTHON) -m venv $(VENV)

$(VENV)/.app: pyproject.toml | $(PY)
	$(PY) -m pip install -q --disable-pip-version-check -e .
	touch $@

# pip compiles what it installs: the tests keep their own bytecode in $(VENV)/pycache (PYTEST_ENV
# below), but the programs they start as the units do (PYTHONDONTWRITEBYTECODE=1, an environment of
# their own) read the compiled files beside the sources, as on the Pi; without them each such start
# compiled Kivy and the app again and, beside other work, the kiosk's first screen took over a minute.
$(VENV)/.test: pyproject.toml | $(PY)
	$(PY) -m pip install -q --disable-pip-version-check -e '.[test]'
	touch $(VENV)/.app $@

run: $(VENV)/.app
	$(VENV)/bin/companion run $(GAME)

system-deps:
	@missing=""; for p in $(TEST_DEBS); do dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
	  if [ "$$(id -u)" = 0 ]; then \
	    echo "installing Debian packages:$$missing"; \
	    apt-get -o DPkg::Lock::Timeout=600 update -qq && DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 install -y -qq --no-install-recommends $$missing >/dev/null; \
	  else \
	    echo "missing Debian packages (run make test as root, or: sudo apt-get install$$missing)"; \
	  fi; \
	fi

lint: $(VENV)/.test
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/mypy

# Each test process starts its own Xvfb (tests/conftest.py), so no xvfb-run here.
test: $(VENV)/.test system-deps
	@$(lint_and_warm)
	$(call in_memory,$(PYTEST) --durations=10 $(PYTEST_ARGS))

durations: $(VENV)/.test system-deps
	$(call in_memory,$(PYTEST) --write-durations $(PYTEST_ARGS))

check: $(VENV)/.test
	@$(lint_and_warm)
	$(call in_memory,$(PYTEST) -m "not slow and not gui and not browser" --hypothesis-profile=check $(PYTEST_ARGS))

# A long random walk with the real pointer over every family (tests/gui/monkey.py): make monkey SEED=7 TAPS=5000
monkey: $(VENV)/.test system-deps
	MONKEY_SEED=$(SEED) MONKEY_TAPS=$(TAPS) xvfb-run -a -s "-screen 0 1280x800x24" $(PY) -m pytest -q tests/gui/test_monkey.py $(PYTEST_ARGS)

# make bench: every benchmark (about 9 minutes on a desktop; longer on a Pi); games go to the system temp
bench: $(VENV)/.test system-deps
	@echo "Running every benchmark: this takes about 9 minutes (longer on a Pi or a busy machine)."
	xvfb-run -a -s "-screen 0 1280x800x24" $(PY) benchmarks/run.py

pi-check:
	bash deploy/pi-check.sh

pi-vm-check:
	bash deploy/pi-vm-check.sh

clean:
	rm -rf $(VENV) .pytest_cache .hypothesis artifacts
