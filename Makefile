# onym-ledger — the two commands of the README, and a few helpers.
#
#   make run    build the release binary and run the main job
#   make test   run the whole test suite
#
# Both install what they need first (Debian packages via apt-get, a Python JSON Schema validator
# via pip), and only what is missing.

SHELL := /bin/bash
APT_PACKAGES := libgit2-dev libssl-dev libsodium-dev zlib1g-dev pkg-config git openssh-client python3 python3-pip
SWIFT ?= swift
BIN := .build/release/onym-ledger
VECTORS := Tests/LedgerTests/Vectors/reference

.PHONY: run test deps build format lint fuzz fuzz-git vectors example oracle docs

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

## The main job: verify the example ledger pinned to its trust key, then show what it holds —
## a reconciliation dry run on a day when an expired ban is still set, and three gate answers.
EXAMPLE := ledger-example/ledger.git
TRUST := ledger-example/trust.pub
ACTORS := ledger-example/actors.tsv
run: build
	@echo "== verify: the auditor's offline check, pinned to the vendor's first signing key"
	@$(BIN) verify $(EXAMPLE) --trust $(TRUST) --full
	@echo
	@echo "== reconcile at 2026-07-15: Dmitri's 30-day ban expired on 07-08 while his phone was away"
	@$(BIN) reconcile $(EXAMPLE) --at 2026-07-15T00:00:00Z --trust $(TRUST)
	@echo
	@echo "== gate: Bruno (banned), Kofi (case open), Alice (clear), Milo (new holder of Bruno's phone)"
	@$(BIN) gate $(EXAMPLE) --trust $(TRUST) --at 2026-09-01T00:00:00Z --user $$(awk '$$1=="bruno"{print $$2}' $(ACTORS))
	@echo
	@$(BIN) gate $(EXAMPLE) --trust $(TRUST) --at 2026-07-21T00:00:00Z --user $$(awk '$$1=="kofi"{print $$2}' $(ACTORS))
	@echo
	@$(BIN) gate $(EXAMPLE) --trust $(TRUST) --at 2026-07-01T00:00:00Z --user $$(awk '$$1=="alice"{print $$2}' $(ACTORS))
	@echo
	@$(BIN) gate $(EXAMPLE) --trust $(TRUST) --at 2026-08-21T00:00:00Z --apple-bits 10 --user $$(awk '$$1=="milo"{print $$2}' $(ACTORS))

## Regenerate the example from ledger-example/scenario.txt: its inputs, replay.sh, and the ledger replay.sh
## builds from them (bit-identical commits).
example:
	$(SWIFT) build -c release --product onym-ledger
	$(SWIFT) build -c release --product ExampleGenerator
	rm -rf $(EXAMPLE)
	.build/release/ExampleGenerator --scenario ledger-example/scenario.txt --root ledger-example --actors $(ACTORS)
	ONYM_LEDGER=$(abspath $(BIN)) ledger-example/replay.sh $(abspath $(EXAMPLE))
	$(BIN) repack $(EXAMPLE)

## The test suite, a short run of the git-object fuzzer (the long one: make fuzz-git), and the docs build.
TEST_FUZZ_SECONDS ?= 15
test: deps
	$(SWIFT) test
	scripts/fuzz-git-objects $(TEST_FUZZ_SECONDS)
	scripts/build-docs

## The DocC documentation of the library modules, as static sites in .build/docs (fails on a broken link).
docs: deps
	scripts/build-docs

## Reformat the sources with the checked-in .swift-format.
format:
	$(SWIFT) format --in-place --recursive Sources Tests Package.swift

lint:
	$(SWIFT) format lint --strict --recursive Sources Tests Package.swift

## Regenerate the data-file vectors from their checked-in generators.
vectors:
	python3 scripts/make-canonical-vectors.py
	python3 scripts/make-ed25519-vectors.py

## The fold against its independent oracle, long (make test runs a short, fixed-seed budget):
##   make oracle ORACLE_SEQUENCES=100000 LOOP_SEQUENCES=1000 ORACLE_SEED=971237
ORACLE_SEQUENCES ?= 100000
LOOP_SEQUENCES ?= 1000
ORACLE_SEED ?= 971237
oracle: deps
	ONYM_ORACLE_SEQUENCES=$(ORACLE_SEQUENCES) ONYM_CLOSED_LOOP_SEQUENCES=$(LOOP_SEQUENCES) ONYM_ORACLE_SEED=$(ORACLE_SEED) \
	  $(SWIFT) test --filter 'OracleTests|ClosedLoopTests'

## Fuzz the canonical-JSON parser with libFuzzer: make fuzz FUZZ_SECONDS=600
FUZZ_SECONDS ?= 60
fuzz:
	scripts/fuzz-parser $(FUZZ_SECONDS)

## Fuzz the verifier's raw git-object readers (trees, packs): make fuzz-git FUZZ_SECONDS=600
fuzz-git:
	scripts/fuzz-git-objects $(FUZZ_SECONDS)
