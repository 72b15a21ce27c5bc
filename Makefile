# onym-ledger — the two commands of the README, and a few helpers.
#
#   make run    build the release binary and run the main job
#   make test   run the whole test suite
#
# Both install what they need first (Debian packages via apt-get, a Python JSON Schema validator
# via pip), and only what is missing.

SHELL := /bin/bash
APT_PACKAGES := libgit2-dev libssl-dev libsodium-dev pkg-config git openssh-client python3 python3-pip
SWIFT ?= swift
BIN := .build/release/onym-ledger
VECTORS := Tests/LedgerTests/Vectors/reference

.PHONY: run test deps build format lint fuzz vectors

## Install missing system packages (apt-get, only when something is missing) and the schema validator.
deps:
	@missing=""; for p in $(APT_PACKAGES); do \
	  dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q "install ok installed" || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
	  echo "installing:$$missing"; \
	  SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo ); \
	  $$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq $$missing >/dev/null; \
	fi
	@python3 -c 'import jsonschema, referencing' 2>/dev/null || \
	  python3 -m pip install --quiet --disable-pip-version-check 'jsonschema>=4.18' 2>/dev/null || \
	  python3 -m pip install --quiet --disable-pip-version-check --break-system-packages 'jsonschema>=4.18'

build: deps
	$(SWIFT) build -c release --product onym-ledger

## The main job. Until the example ledger exists: inspect the reference vectors.
run: build
	@echo "== onym-ledger $$($(BIN) --help | head -1 | cut -d: -f2-)"
	@echo
	$(BIN) inspect $(VECTORS)/derived-mandate.json --key onym:key:66be7e332c7a453332bd9d0a7f7db055f5c5ef1a06ada66d98b39fb6810c473a
	@echo
	$(BIN) inspect $(VECTORS)/derived-ban-verdict.json --key onym:key:ea4a6c63e29c520abef5507b132ec5f9954776aebebe7b92421eea691446d22c

test: deps
	$(SWIFT) test

## Reformat the sources with the checked-in .swift-format.
format:
	$(SWIFT) format --in-place --recursive Sources Tests Package.swift

lint:
	$(SWIFT) format lint --strict --recursive Sources Tests Package.swift

## Regenerate the data-file vectors from their checked-in generators.
vectors:
	python3 scripts/make-canonical-vectors.py
	python3 scripts/make-ed25519-vectors.py

## Fuzz the canonical-JSON parser with libFuzzer: make fuzz FUZZ_SECONDS=600
FUZZ_SECONDS ?= 60
fuzz:
	scripts/fuzz-parser $(FUZZ_SECONDS)
