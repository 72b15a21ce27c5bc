# onym-ledger — the two commands of the README, and a few helpers.
#
#   make run    build the release binary and run the main job
#   make test   run the whole test suite
#
# Both install what they need first (Debian packages via apt-get; a Python JSON Schema validator, Selenium and
# cryptography via pip when the python3 on PATH lacks them), and only what is missing.

SHELL := /bin/bash
APT_PACKAGES := libgit2-dev libssl-dev libsodium-dev zlib1g-dev libsqlite3-dev libjemalloc-dev libdeflate-dev sqlite3 pkg-config git \
  openssh-client python3 python3-pip golang-go golang-golang-x-mod-dev python3-cryptography chromium chromium-driver
SWIFT ?= swift
BIN := .build/release/onym-ledger
VECTORS := Tests/LedgerTests/Vectors/reference

.PHONY: run test deps build format lint fuzz fuzz-git vectors example oracle append-property follow-crash docs report-screenshot fsck \
  bench bench-10m

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
	@python3 -c 'import selenium' 2>/dev/null || \
	  python3 -m pip install --quiet --disable-pip-version-check 'selenium>=4.11' 2>/dev/null || \
	  python3 -m pip install --quiet --disable-pip-version-check --break-system-packages 'selenium>=4.11'
	@python3 -c 'import cryptography' 2>/dev/null || \
	  python3 -m pip install --quiet --disable-pip-version-check 'cryptography>=38' 2>/dev/null || \
	  python3 -m pip install --quiet --disable-pip-version-check --break-system-packages 'cryptography>=38'

## Release binaries carry the Swift runtime and Foundation linked in (--static-swift-stdlib): every verb starts in
## ~8 ms instead of ~13.5 ms (BENCHMARKS.md), and the binary runs where no Swift toolchain is installed.
RELEASE := -c release --static-swift-stdlib
build: deps
	$(SWIFT) build $(RELEASE) --product onym-ledger

## The main job: verify the example ledger pinned to its trust key, then show what it holds —
## a reconciliation dry run on a day when an expired ban is still set, and five gate answers.
EXAMPLE := ledger-example/ledger.git
TRUST := ledger-example/trust.pub
ACTORS := ledger-example/actors.tsv
## The demo's auditor state lives in the build folder: the example is regenerated now and then (a new first
## commit), and a machine's own auditor state would rightly report that as a rewritten history.
DEMO_STATE := .build/example-auditor-state
run: build
	@echo "== verify: the auditor's offline check, pinned to the vendor's first signing key"
	@$(BIN) verify $(EXAMPLE) --trust $(TRUST) --state $(DEMO_STATE) --full --forget
	@echo
	@echo "== reconcile at 2026-07-15: Dmitri's 30-day ban expired on 07-08 while his phone was away"
	@$(BIN) reconcile $(EXAMPLE) --at 2026-07-15T00:00:00Z --trust $(TRUST) --state $(DEMO_STATE)
	@echo
	@echo "== gate: Bruno (banned), Kofi (case open), Alice (clear), Milo (new holder of Bruno's phone), Nadia (banned on her new phone: the recovery grant moved her ban there)"
	@$(BIN) gate $(EXAMPLE) --trust $(TRUST) --state $(DEMO_STATE) --at 2026-09-01T00:00:00Z --user $$(awk '$$1=="bruno"{print $$2}' $(ACTORS))
	@echo
	@$(BIN) gate $(EXAMPLE) --trust $(TRUST) --state $(DEMO_STATE) --at 2026-07-21T00:00:00Z --user $$(awk '$$1=="kofi"{print $$2}' $(ACTORS))
	@echo
	@$(BIN) gate $(EXAMPLE) --trust $(TRUST) --state $(DEMO_STATE) --at 2026-07-01T00:00:00Z --user $$(awk '$$1=="alice"{print $$2}' $(ACTORS))
	@echo
	@$(BIN) gate $(EXAMPLE) --trust $(TRUST) --state $(DEMO_STATE) --at 2026-08-21T00:00:00Z --apple-bits 10 --user $$(awk '$$1=="milo"{print $$2}' $(ACTORS))
	@echo
	@$(BIN) gate $(EXAMPLE) --trust $(TRUST) --state $(DEMO_STATE) --at 2026-09-15T00:00:00Z --user $$(awk '$$1=="nadia"{print $$2}' $(ACTORS))
	@echo
	@echo "== the public face: a static report and the DSA statements of reasons (both beside the example)"
	@$(BIN) report $(EXAMPLE) --trust $(TRUST) --state $(DEMO_STATE) --out ledger-example/report
	@$(BIN) export dsa $(EXAMPLE) --trust $(TRUST) --state $(DEMO_STATE) --out ledger-example/dsa-statements.jsonl

## The README's screenshots of the example's report (headless Chromium, no network): the overview on a desktop,
## and Bruno's story — his device's binding page, which checks its records in the browser — on a phone (390 px).
report-screenshot: build
	$(BIN) report $(EXAMPLE) --trust $(TRUST) --state $(DEMO_STATE) --out ledger-example/report
	chromium --headless --no-sandbox --disable-gpu --hide-scrollbars --window-size=1100,1500 \
	  --screenshot=$(abspath docs/report-overview.png) file://$(abspath ledger-example/report/index.html)
	page=$$(grep -l "$$(awk '$$1=="bruno"{print $$3}' $(ACTORS))" ledger-example/report/bindings/b-*.html | head -1); \
	chromium --headless --no-sandbox --disable-gpu --hide-scrollbars --virtual-time-budget=5000 --window-size=390,1700 \
	  --screenshot=$(abspath docs/report-phone.png) file://$(abspath .)/$$page

## Regenerate the example from ledger-example/scenario.txt: its inputs, replay.sh, and the ledger replay.sh
## builds from them (bit-identical commits).
example:
	$(SWIFT) build $(RELEASE) --product onym-ledger
	$(SWIFT) build $(RELEASE) --product ExampleGenerator
	rm -rf $(EXAMPLE)
	.build/release/ExampleGenerator --scenario ledger-example/scenario.txt --root ledger-example --actors $(ACTORS)
	ONYM_LEDGER=$(abspath $(BIN)) ledger-example/replay.sh $(abspath $(EXAMPLE))
	$(BIN) repack $(EXAMPLE)

## The conformance suite (conformance/): regenerated by its generator in the test target.
conformance: deps
	ONYM_LEDGER_CONFORMANCE_OUT=$(abspath conformance) $(SWIFT) test --filter ConformanceSuiteTests/theGeneratorMakesTheCheckedInSuite

## The test suite, short runs of the two fuzzers (the long ones: make fuzz, make fuzz-git), and the docs build.
## The git-object fuzzer's run fails unless it reached the pack scan with a delta.
TEST_FUZZ_SECONDS ?= 15
test: deps
	$(SWIFT) test
	scripts/fuzz-parser $(TEST_FUZZ_SECONDS)
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

## append accepts => verify accepts at the same moment, long (make test runs 60 fixed-seed steps):
##   make append-property APPEND_STEPS=3000 APPEND_SEED=12345
APPEND_STEPS ?= 3000
APPEND_SEED ?= 12345
append-property: deps
	ONYM_APPEND_PROPERTY_STEPS=$(APPEND_STEPS) ONYM_APPEND_PROPERTY_SEED=$(APPEND_SEED) \
	  $(SWIFT) test --filter AppendThenVerifyPropertyTests

## fsck of the replay state at every commit of the example ledger (make test checks every 10th): the state
## a writer rebuilds from the commit's tree, and the one resumed from a checkpoint, equal the fold's.
fsck: deps
	ONYM_FSCK_STRIDE=1 $(SWIFT) test --filter ReplayStateFsckTests

## follow killed with SIGKILL at seeded instants, long (make test runs 10 kills):
##   make follow-crash FOLLOW_KILLS=100 FOLLOW_KILL_SEED=251727923
FOLLOW_KILLS ?= 100
FOLLOW_KILL_SEED ?= 251727923
follow-crash: deps
	ONYM_FOLLOW_KILLS=$(FOLLOW_KILLS) ONYM_FOLLOW_KILL_SEED=$(FOLLOW_KILL_SEED) \
	  $(SWIFT) test --filter FollowCrashTests

## The benchmarks of BENCHMARKS.md (release builds; not part of make test). Each size builds its synthetic
## ledger, then times append, full and incremental verify, the floor and stock git on it:
##   make bench BENCH_SIZES="10000 100000 1000000"        (about 15 minutes on 2 cores)
##   make bench-10m                                       (ten million write entries: hours, ~25 GB of disk)
## BENCH_DIR keeps the ledgers (default: a new folder under /tmp); BENCH_REUSE=1 measures the ledgers an earlier
## run generated there instead of generating them again.
BENCH_SIZES ?= 10000 100000 1000000
bench: deps
	BENCH_DIR=$(BENCH_DIR) BENCH_REUSE=$(BENCH_REUSE) benchmarks/run $(BENCH_SIZES)
bench-10m: deps
	BENCH_DIR=$(BENCH_DIR) BENCH_REUSE=$(BENCH_REUSE) benchmarks/run 10000000

## Fuzz the canonical-JSON parser with libFuzzer: make fuzz FUZZ_SECONDS=600
FUZZ_SECONDS ?= 60
fuzz:
	scripts/fuzz-parser $(FUZZ_SECONDS)

## Fuzz the verifier's raw git-object readers (trees, packs; pack seeds made by stock git): make fuzz-git FUZZ_SECONDS=600
fuzz-git:
	scripts/fuzz-git-objects $(FUZZ_SECONDS)
