# CommonBroker. `make demo` and `make test` set up a fresh Debian machine by themselves.
SHELL := /bin/bash
SWIFT ?= swift
PREFIX ?= /usr/local
# Debian packages the build, the demo and the tests need.
APT_BUILD := libncurses-dev libssl-dev pkg-config
APT_TEST := tmux python3-venv openssl
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

.PHONY: all build release demo run test deps deps-test bench fuzz install clean

all: build

# Installs only what is missing, so repeated runs are quick and need no network.
deps:
	@missing=$$(for p in $(APT_BUILD); do dpkg -s $$p >/dev/null 2>&1 || echo $$p; done); \
	if [ -n "$$missing" ]; then \
	  echo "Installing: $$missing"; \
	  $(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq $$missing; \
	fi

deps-test: deps
	@missing=$$(for p in $(APT_TEST); do dpkg -s $$p >/dev/null 2>&1 || echo $$p; done); \
	if [ -n "$$missing" ]; then \
	  echo "Installing: $$missing"; \
	  $(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq $$missing; \
	fi

build: deps
	$(SWIFT) build

release: deps
	$(SWIFT) build -c release --product commonbroker

demo: release
	.build/release/commonbroker --demo

run: release
	.build/release/commonbroker

# Python peers for the tests (an independent WebSocket implementation), in a local virtual environment.
VENV := $(CURDIR)/.venv
$(VENV)/.ready: | deps-test
	python3 -m venv $(VENV)
	$(VENV)/bin/pip install --quiet --disable-pip-version-check 'websockets>=12'
	touch $@

# Builds every target (the benchmarks too, so they cannot rot); the end-to-end tests drive the debug
# binary inside tmux.
test: deps-test $(VENV)/.ready
	$(SWIFT) build
	COMMONBROKER_BIN=$(CURDIR)/.build/debug/commonbroker COMMONBROKER_PYTHON=$(VENV)/bin/python3 $(SWIFT) test --parallel

# Ours against the reference hub design, the renderer, the decoders and start-up (the release app in a
# pty). A few minutes; prints the table and writes bench-results.json. BENCH_ARGS=--quick for a dry run.
bench: release
	$(SWIFT) build -c release --product Benchmarks
	.build/release/Benchmarks --commonbroker .build/release/commonbroker --out bench-results.json $(BENCH_ARGS)

install: release
	install -d $(DESTDIR)$(PREFIX)/bin
	install -m 0755 .build/release/commonbroker $(DESTDIR)$(PREFIX)/bin/commonbroker

clean:
	rm -rf .build
