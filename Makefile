# CommonBroker. `make demo` and `make test` set up a fresh Debian machine by themselves.
SHELL := /bin/bash
SWIFT ?= swift
PREFIX ?= /usr/local
# Debian packages the build, the demo and the tests need. (No libcurl: nothing links FoundationNetworking,
# the app speaks HTTP itself.)
APT_BUILD := libncurses-dev libssl-dev pkg-config
APT_TEST := tmux python3-venv openssl nats-server
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

.PHONY: all build release demo run test test-tsan deps deps-test bench soak fuzz install clean

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

# On Linux the release binary carries the Swift runtime and Foundation (--static-swift-stdlib): it runs
# on a machine without a Swift toolchain, and takes about 6 MB less memory (37 MB -> 31 MB for the demo),
# because the shared libraries' pages it touched no longer count. Debug builds and tests link dynamically.
RELEASE_FLAGS := $(if $(filter Linux,$(shell uname -s)),--static-swift-stdlib)
release: deps
	$(SWIFT) build -c release $(RELEASE_FLAGS) --product commonbroker

# Ctrl-Z stops make too (it is in the terminal's foreground group and it is the shell's job), and make
# stops at once, before the app has left the alternate screen: the shell's "Stopped" notice is then
# printed there and wiped by the app's restore. No recipe can take make out of that group, so these
# targets say how to run the binary as the shell's own job. `exec` leaves no shell between make and it.
SUSPEND_HINT = To suspend with Ctrl-Z (and see the shell's Stopped notice), run the binary itself:
demo: release
	@echo "$(SUSPEND_HINT) .build/release/commonbroker --demo"
	exec .build/release/commonbroker --demo

run: release
	@echo "$(SUSPEND_HINT) .build/release/commonbroker"
	exec .build/release/commonbroker

# Python peers for the tests (an independent WebSocket implementation) and the bench's independent
# terminal emulator (pyte), in a local virtual environment.
VENV := $(CURDIR)/.venv
PIP_PACKAGES := 'websockets>=12' 'pyte>=0.8'
$(VENV)/.ready: | deps-test
	python3 -m venv $(VENV)
	$(VENV)/bin/pip install --quiet --disable-pip-version-check $(PIP_PACKAGES)
	touch $@

# Builds every target (the benchmarks too, so they cannot rot); the end-to-end tests drive the debug
# binary inside tmux.
test: deps-test $(VENV)/.ready
	$(SWIFT) build
	COMMONBROKER_BIN=$(CURDIR)/.build/debug/commonbroker COMMONBROKER_PYTHON=$(VENV)/bin/python3 $(SWIFT) test --parallel

# Every test under ThreadSanitizer, built apart in .build-tsan: the unit and integration tests, then the
# end-to-end tests on their own, driving the TSan-built binary in tmux (run together, TSan's slowdown
# pushed tests with a few seconds' deadline over it). TSan writes each report to $(TSAN_REPORTS).<pid>,
# from a test process or any it starts (the app in tmux too), and a single report fails the run. The
# project's lock is `Locked` (Sources/Locking), not `Mutex`, which TSan cannot see:
# the first step refuses `Mutex`, whose false reports would come and go with contention.
# Tests/tsan-suppressions.txt holds the runtime's one known false report (a continuation's hand-over),
# matched on the top frame only.
# TSan runs the code 5 to 15 times slower, so the tests' wall-clock limits (waits, deadlines, timeouts
# that must not fire) are stretched by COMMONBROKER_TEST_TIME_SCALE (Tests/TestSupport/TestTime.swift).
TSAN_SCRATCH := .build-tsan
TSAN_TIME_SCALE ?= 5
TSAN_REPORTS := $(CURDIR)/$(TSAN_SCRATCH)/tsan-report
test-tsan: deps-test $(VENV)/.ready
	@if grep -rnE '\bMutex *(<|\()' Sources Tests; then \
		echo "Use Locked (Sources/Locking) instead of Mutex above: TSan reports Mutex's contended hand-over as a race"; exit 1; \
	fi
	$(SWIFT) build --build-tests --sanitize=thread --scratch-path $(TSAN_SCRATCH)
	rm -f $(TSAN_REPORTS).*
	export TSAN_OPTIONS="log_path=$(TSAN_REPORTS) suppressions=$(CURDIR)/Tests/tsan-suppressions.txt" COMMONBROKER_BIN=$(CURDIR)/$(TSAN_SCRATCH)/debug/commonbroker \
		COMMONBROKER_PYTHON=$(VENV)/bin/python3 COMMONBROKER_TEST_TIME_SCALE=$(TSAN_TIME_SCALE); \
	$(SWIFT) test --sanitize=thread --scratch-path $(TSAN_SCRATCH) --skip-build --parallel --skip EndToEndTests; \
	status=$$?; \
	$(SWIFT) test --sanitize=thread --scratch-path $(TSAN_SCRATCH) --skip-build --parallel --filter EndToEndTests \
		|| status=1; \
	if ls $(TSAN_REPORTS).* >/dev/null 2>&1; then \
		cat $(TSAN_REPORTS).*; echo "ThreadSanitizer reported the races above (in $(TSAN_REPORTS).*)"; exit 1; \
	fi; \
	exit $$status

# Ours against the reference hub design, the renderer, the decoders, start-up (the release app in a
# pty), the journal and paper ledger, and the bus (leader to follower through a nats-server it starts,
# installed like the test tools), and wire to screen (the release app in a pty fed by four fixture brokers,
# its screen read by pyte; about 8 minutes of it). Prints the table and writes bench-results.json.
# BENCH_ARGS=--quick for a dry run, BENCH_ARGS="--only bus" for one part.
bench: release deps-test $(VENV)/.ready
	@$(VENV)/bin/python3 -c 'import pyte' 2>/dev/null || $(VENV)/bin/pip install --quiet --disable-pip-version-check $(PIP_PACKAGES)
	$(SWIFT) build -c release $(RELEASE_FLAGS) --product Benchmarks
	.build/release/Benchmarks --commonbroker .build/release/commonbroker --out bench-results.json $(BENCH_ARGS)

# Issue 18: the release app for SOAK_MINUTES (60) in tmux against four fixture brokers that drop every
# connection 20 s after it opened, one of them paused for a minute every ten (one pause at minute 2 in a
# run under 20 minutes), a symbol added and one removed by keys every 5 s. RSS, descriptors, threads and
# CPU every 10 s go to soak-results/soak.csv, a one-page soak-results/summary.md says what was seen; it
# fails when RSS or descriptors grow over 10 % after minute 5 (minute 1 in a run of 5 minutes or less), a
# subscription is missing after a reconnect, or the app exits. Tests/Fixtures/soak/soak.py says how.
SOAK_MINUTES ?= 60
soak: release deps-test $(VENV)/.ready
	$(VENV)/bin/python3 -m doctest Tests/Fixtures/soak/soak.py
	$(VENV)/bin/python3 -u Tests/Fixtures/soak/soak.py --app .build/release/commonbroker --python $(VENV)/bin/python3 \
		--minutes $(SOAK_MINUTES) --out soak-results

# Fuzzing with libFuzzer (swiftc -sanitize=fuzzer; Linux). Each harness Fuzz/<Target>Fuzzer.swift is
# compiled with only the sources it needs, outside SwiftPM, so `swift build` never needs the fuzzer
# runtime. Each target runs FUZZ_SECONDS; new inputs go to .build/fuzz/corpus-<Target>, crash inputs to
# .build/fuzz/artifacts, and any crash fails the run. FUZZ_ARGS go to libFuzzer. See Fuzz/README.md.
FUZZ_SECONDS ?= 60
FUZZ_ARGS ?=
FUZZ_SANITIZERS ?= fuzzer,address
FUZZ_SWIFTC ?= swiftc
FUZZ_DIR := .build/fuzz
FUZZ_WS := Sources/Networking/WebSocket
# Prices are read as `ExactDecimal`: its files alone (imports: none) are built as a module named Domain,
# instrumented like the harnesses, so the decoders' `import Domain` holds outside SwiftPM too.
FUZZ_MODULES := $(FUZZ_DIR)/modules
# The stream decoders build on Domain (ExactDecimal), which builds on TextSafety and Locking.
FUZZ_DOMAIN := $(FUZZ_MODULES)/libTextSafety.a $(FUZZ_MODULES)/libLocking.a $(FUZZ_MODULES)/libDomain.a
FUZZ_DOMAIN_SOURCES := $(addprefix Sources/Domain/Trading/,ExactDecimal.swift ExactDecimal+Parsing.swift \
	ExactDecimal+Arithmetic.swift ExactDecimal+Rounding.swift)
# The scanner with its extensions (StreamJSONScanner+*.swift), whatever decoders add to it, and the
# protocol that gives every decoder its ways in from a String or into a new array.
FUZZ_STREAMING := $(wildcard Sources/BrokerAdapters/Streaming/StreamJSONScanner*.swift) Sources/BrokerAdapters/Streaming/StreamFrameDecoder.swift \
	Sources/BrokerAdapters/Wire/RFC3339.swift \
	Sources/BrokerAdapters/Wire/EpochTimestamp.swift Fuzz/Support/StreamDecoderFuzzing.swift $(FUZZ_DOMAIN)
FUZZ_SOURCES_WebSocketFrameCodec := $(addprefix $(FUZZ_WS)/,WebSocketFrame.swift WebSocketFrameCodec.swift \
	WebSocketMessageAssembler.swift WebSocketOpcode.swift WebSocketProtocolError.swift WebSocketMaskingKey.swift \
	WebSocketCloseFrame.swift WebSocketUTF8Validator.swift WebSocketConnection.swift WebSocketCertificateRejection.swift \
	WebSocketMessages.swift)
# WebSocketConnection.swift names the connection's message queue (WebSocketMessages, Locking's OneReaderStream).
FUZZ_IMPORTS_WebSocketFrameCodec := Locking
FUZZ_SOURCES_WebSocketHandshake := $(addprefix $(FUZZ_WS)/,WebSocketHandshake.swift WebSocketEndpoint.swift SHA1.swift \
	WebSocketConnection.swift WebSocketCertificateRejection.swift WebSocketMessages.swift) Sources/Networking/Redaction.swift \
	$(addprefix Sources/Networking/HTTP/,HTTPRequest.swift HTTPHeaderFields.swift)
FUZZ_IMPORTS_WebSocketHandshake := Locking
FUZZ_SOURCES_StreamJSONScanner := $(FUZZ_STREAMING)
FUZZ_NATS := Sources/Networking/NATS
FUZZ_SOURCES_NATSProtocolParser := $(addprefix $(FUZZ_NATS)/,NATSProtocolParser.swift NATSProtocolEncoder.swift NATSFrame.swift \
	NATSMessage.swift NATSMalformedMessage.swift NATSHeaders.swift NATSServerInfo.swift NATSConnectOptions.swift NATSProtocolError.swift)
# A broker's stream decoder is fuzzed by Fuzz/<Broker>StreamDecoderFuzzer.swift, built with its
# <Broker>StreamDecoder.swift and <Broker>StreamEvent.swift: adding a broker is adding its name here (and,
# if its decoder needs more files, `FUZZ_SOURCES_<Broker>StreamDecoder := <files>` above this line).
FUZZ_STREAM_BROKERS := Polygon Alpaca Finnhub Tradier
$(foreach broker,$(FUZZ_STREAM_BROKERS),$(eval FUZZ_SOURCES_$(broker)StreamDecoder += \
	$(addprefix Sources/BrokerAdapters/$(broker)/$(broker),StreamDecoder.swift StreamEvent.swift) $(FUZZ_STREAMING)))
# Parsers of files from outside (the lots CSV, the journal and the paper ledger, decimals) live in modules
# that import others. A harness names those in FUZZ_IMPORTS_<Target>: each is built once, with the same
# instrumentation, as a static library and module in $(FUZZ_DIR)/modules, from all its sources
# (FUZZ_MODULE_SOURCES_<Module>), after the modules it imports (FUZZ_MODULE_IMPORTS_<Module>).
FUZZ_MODULES := $(FUZZ_DIR)/modules
FUZZ_MODULE_SOURCES_TextSafety := $(sort $(shell find Sources/TextSafety -name '*.swift'))
FUZZ_MODULE_SOURCES_Locking := $(sort $(shell find Sources/Locking -name '*.swift'))
FUZZ_MODULE_SOURCES_Domain := $(sort $(shell find Sources/Domain -name '*.swift'))
FUZZ_MODULE_IMPORTS_Domain := TextSafety Locking
FUZZ_MODULE_SOURCES_Stores := $(sort $(shell find Sources/Stores -name '*.swift'))
FUZZ_MODULE_IMPORTS_Stores := TextSafety Locking Domain
FUZZ_HOLDINGS := Sources/Stores/Holdings
FUZZ_SOURCES_LotsCSV := $(addprefix $(FUZZ_HOLDINGS)/,CSVField.swift CSVReader.swift LotsCSV.swift LotValueReader.swift \
	LotsFileError.swift LotsFileRejection.swift TextPosition.swift TradeDate.swift ManualLot.swift)
FUZZ_IMPORTS_LotsCSV := TextSafety Locking Domain
FUZZ_LEDGER := Fuzz/Support/FuzzBytes.swift Fuzz/Support/LedgerFuzzing.swift
FUZZ_SOURCES_JournalReplay := $(FUZZ_LEDGER)
FUZZ_IMPORTS_JournalReplay := TextSafety Locking Domain Stores
FUZZ_SOURCES_PaperLedgerReplay := $(sort $(shell find Sources/PaperTrading -name '*.swift')) $(FUZZ_LEDGER)
FUZZ_IMPORTS_PaperLedgerReplay := TextSafety Locking Domain Stores
FUZZ_SOURCES_ExactDecimalParsing := $(wildcard Sources/Domain/Trading/ExactDecimal*.swift)
FUZZ_IMPORTS_ExactDecimalParsing := TextSafety
# The bus's quote line (Sources/Bus/Wire): its two files, with CommonQuote from Domain.
FUZZ_SOURCES_BusQuoteWire := $(addprefix Sources/Bus/Wire/,BusQuoteWire.swift BusWireError.swift) Fuzz/Support/FuzzBytes.swift
FUZZ_IMPORTS_BusQuoteWire := TextSafety Locking Domain
# The HTTP client's response parser (Sources/Networking/HTTP): its three files, no imports.
FUZZ_SOURCES_HTTPResponseParser := $(addprefix Sources/Networking/HTTP/,HTTPResponseParser.swift HTTPResponseHead.swift HTTPResponseParseError.swift)
# Tradier's quotes body scanner against JSONDecoder (differential). Its files `import Networking` for the
# HTTP types: a Networking module of just those files (the whole one needs OpenSSL and the poll shims),
# and the Tradier and wire files the request factory that names the body's decoder pulls in.
FUZZ_MODULE_SOURCES_Networking := $(addprefix Sources/Networking/,HTTPResponse.swift HTTP/HTTPRequest.swift \
	HTTP/HTTPHeaderFields.swift RequestConstructionError.swift Request.swift RequestServicer.swift HTTPStatusMapping.swift \
	ServiceContext.swift JSONStringLiteral.swift)
FUZZ_MODULE_IMPORTS_Networking := TextSafety Locking Domain
FUZZ_TRADIER := Sources/BrokerAdapters/Tradier
FUZZ_SOURCES_TradierQuotesDecoder := $(addprefix $(FUZZ_TRADIER)/Tradier,QuotesDecoder.swift QuotesCursor.swift Quote.swift \
	QuotesEnvelope.swift Nullable.swift ResponseDecoding.swift ErrorBody.swift RequestFactory.swift Exchange.swift \
	OrderAckEnvelope.swift OrderForm.swift StreamSessionEnvelope.swift Symbol.swift Credentials.swift BalancesEnvelope.swift \
	OrderEnvelope.swift OrdersEnvelope.swift PositionsEnvelope.swift ProfileEnvelope.swift Order.swift) \
	$(addprefix Sources/BrokerAdapters/Wire/,BrokerURL.swift WireDecoding.swift OneOrMany.swift FlexibleExactDecimal.swift \
	FlexibleInt64.swift FlexibleIdentifier.swift RFC3339.swift RFC3339Date.swift EpochTimestamp.swift) \
	$(addprefix Sources/BrokerAdapters/Trading/,LiveTradingGuard.swift LiveTrading.swift) \
	$(wildcard Sources/BrokerAdapters/Streaming/StreamJSONScanner*.swift) Sources/BrokerAdapters/Streaming/StreamJSONText.swift
FUZZ_IMPORTS_TradierQuotesDecoder := TextSafety Locking Domain Networking
FUZZ_TARGETS := WebSocketFrameCodec WebSocketHandshake NATSProtocolParser StreamJSONScanner $(addsuffix StreamDecoder,$(FUZZ_STREAM_BROKERS)) \
	LotsCSV JournalReplay PaperLedgerReplay ExactDecimalParsing BusQuoteWire HTTPResponseParser TradierQuotesDecoder

fuzz: $(addprefix $(FUZZ_DIR)/bin/,$(FUZZ_TARGETS))
	Fuzz/run.sh $(FUZZ_DIR) $(FUZZ_SECONDS) $(FUZZ_TARGETS)

# CI: every harness for 30 s over the kept corpus (Fuzz/corpus), about 6.5 minutes after the harnesses'
# build. After a long run, `make fuzz-merge` adds to Fuzz/corpus the inputs that reach new coverage.
.PHONY: fuzz-ci fuzz-merge
fuzz-ci:
	$(MAKE) fuzz FUZZ_SECONDS=30
fuzz-merge: $(addprefix $(FUZZ_DIR)/bin/,$(FUZZ_TARGETS))
	Fuzz/merge.sh $(FUZZ_DIR) $(FUZZ_TARGETS)

FUZZ_FLAGS = -swift-version 6 -parse-as-library -O -g -sanitize=$(FUZZ_SANITIZERS) -I $(FUZZ_MODULES)
fuzz_libraries = $(addprefix $(FUZZ_MODULES)/lib,$(addsuffix .a,$(1)))
# Built by a pattern rule for a harness, the libraries would otherwise be deleted as intermediate files.
.PRECIOUS: $(FUZZ_MODULES)/lib%.a

.SECONDEXPANSION:
$(FUZZ_DIR)/bin/%: Fuzz/%Fuzzer.swift Fuzz/Support/FuzzInvariant.swift $$(FUZZ_SOURCES_$$*) $$(call fuzz_libraries,$$(FUZZ_IMPORTS_$$*))
	@mkdir -p $(@D)
	$(FUZZ_SWIFTC) $(FUZZ_FLAGS) -module-name $*Fuzz -use-ld=lld $^ -o $@

# A static pattern rule: an implicit one could not build a library that needs another (make refuses to
# chain one implicit rule through itself).
$(call fuzz_libraries,TextSafety Locking Domain Stores Networking): $(FUZZ_MODULES)/lib%.a: $$(FUZZ_MODULE_SOURCES_$$*) $$(call fuzz_libraries,$$(FUZZ_MODULE_IMPORTS_$$*))
	@mkdir -p $(@D)
	$(FUZZ_SWIFTC) $(FUZZ_FLAGS) -module-name $* -emit-module -emit-module-path $(@D)/$*.swiftmodule \
		-emit-library -static $(filter %.swift,$^) -o $@

install: release
	install -d $(DESTDIR)$(PREFIX)/bin
	install -m 0755 .build/release/commonbroker $(DESTDIR)$(PREFIX)/bin/commonbroker

clean:
	rm -rf .build .build-tsan
