# feeds: the two commands a person needs are `make run` and `make test`; both install what is
# missing on a fresh Debian machine (apt-get when root, a clear message otherwise).
SHELL := /bin/bash
PREFIX ?= /usr/local
# Where `make install` puts each file, as distributions do (DESTDIR= stages them elsewhere).
BINDIR ?= $(PREFIX)/bin
MANDIR ?= $(PREFIX)/share/man
BASHCOMPDIR ?= $(PREFIX)/share/bash-completion/completions
ZSHCOMPDIR ?= $(PREFIX)/share/zsh/site-functions
FISHCOMPDIR ?= $(PREFIX)/share/fish/vendor_completions.d
SYSTEMDUSERDIR ?= $(PREFIX)/lib/systemd/user
SWIFT ?= swift
CONFIG ?= release
DEMO_HOME ?= $(CURDIR)/.demo
BIN := .build/$(CONFIG)/feeds
# The Swift runtime and Foundation linked into the binary: `feeds` then starts in ~10 ms
# instead of ~90 ms (no dynamic loading and relocation of the Swift libraries) and its resident
# memory is ~6 MB smaller; the price is a larger file (~60 MB stripped, ICU data included).
# STATIC= builds against the shared libraries instead.
STATIC ?= --static-swift-stdlib
# Linked by lld with packed relative relocations (DT_RELR, glibc 2.36 and later): the ~75,000
# relocations of the position-independent binary take 32 KB instead of 1.8 MB that the loader
# reads at every start; `feeds update` then holds ~1 MB less resident memory (9.5 instead of
# 10.5 MB of the binary's pages, issue 21). Only where the toolchain has ld.lld (swift.org's
# does) and glibc is new enough; LLD= links with the default linker.
SWIFT_DIR := $(dir $(realpath $(shell command -v $(SWIFT) 2>/dev/null)))
GLIBC_MINOR := $(shell getconf GNU_LIBC_VERSION 2>/dev/null | sed -n 's/^glibc 2\.\([0-9]*\).*/\1/p')
LLD ?= $(if $(and $(wildcard $(SWIFT_DIR)ld.lld),$(shell [ "0$(GLIBC_MINOR)" -ge 36 ] && echo yes)),-Xswiftc -use-ld=lld -Xlinker -z -Xlinker pack-relative-relocs)
# With lld, the functions a run executes are placed together, first in the code (the list is
# tools/symbol-order.txt, written by tools/symbol-order.sh from what a realistic run executes):
# the kernel maps code in 64 KB windows around each page a process first runs, so scattered
# functions kept ~9.7 MB of the binary resident in `feeds update`; together, ~5 MB less (issue
# 21). Same code, only its order; ORDER= links without it.
ORDER ?= $(if $(and $(LLD),$(wildcard $(CURDIR)/tools/symbol-order.txt)),-Xlinker --symbol-ordering-file=$(CURDIR)/tools/symbol-order.txt -Xlinker --no-warn-symbol-ordering)

# Debian packages the build and the tests need (C libraries and their pkg-config files).
# libpq-dev: the PostgreSQL client library of the second store (issue 22).
BUILD_PKGS := libxml2-dev libcurl4-openssl-dev libsqlite3-dev libpq-dev pkg-config
# What the pseudo-terminal tests run: the real less (and more, util-linux's, Essential on Debian);
# mandoc checks the manual pages; postgresql is the server the PostgreSQL store's tests start
# on loopback in a temporary folder (initdb and pg_ctl from /usr/lib/postgresql/N/bin).
TEST_PKGS := less mandoc postgresql sqlite3
# Peers the benchmark measures against, and the tools it uses.
BENCH_PKGS := sfeed newsboat python3-feedparser libxml2-utils curl time

.PHONY: all deps bench-deps build debug run test bench browser-test install install-bin install-data uninstall check-man clean crosscheck fuzz test-sanitizers

all: build

# Installs whichever of the packages in $(1) are missing.
define ensure_pkgs
	@missing=""; for p in $(1); do dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q "install ok installed" || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
		if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
			echo "installing:$$missing"; \
			apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing >/dev/null || { echo "apt-get install$$missing failed" >&2; exit 1; }; \
		else \
			echo "missing Debian packages:$$missing" >&2; \
			echo "install them with: sudo apt-get install$$missing" >&2; exit 1; \
		fi; \
	fi
endef

deps:
	@command -v $(SWIFT) >/dev/null || { echo "swift not found: install a Swift 6 toolchain (swift.org) and put it on PATH" >&2; exit 1; }
	$(call ensure_pkgs,$(BUILD_PKGS))

bench-deps: deps
	$(call ensure_pkgs,$(BENCH_PKGS))

build: deps
	$(SWIFT) build -c $(CONFIG) --product feeds $(STATIC) $(LLD) $(ORDER)

debug: deps
	$(SWIFT) build --product feeds

# The main job on the bundled offline sources in Feeds/, then what it produced.
run: build
	@Feeds/demo.sh "$(BIN)" "$(DEMO_HOME)"

# The suite is XCTest; Swift Testing is switched off so the run ends on XCTest's own summary.
test: deps
	$(call ensure_pkgs,$(TEST_PKGS))
	@$(MAKE) --no-print-directory check-man
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build --disable-swift-testing

# The manual pages through mandoc's linter (warnings and errors; its style notes aside) and
# man-db's formatter with its warnings on: any message fails.
check-man:
	mandoc -T lint -W warning man/feeds.1 man/feeds-sources.5
	@for page in man/feeds.1 man/feeds-sources.5; do \
		out=$$(MANWIDTH=80 man --warnings -l "$$page" 2>&1 >/dev/null); \
		if [ -n "$$out" ]; then echo "$$page: $$out" >&2; exit 1; fi; \
	done; echo "man pages: ok"

bench: bench-deps build
	@bench/run.sh "$(BIN)" $(BENCH_ARGS)

# Renders the digest in headless Chromium: screenshots, console errors, the conformance
# sanitize cases (needs ../shared). Not part of `make test`.
browser-test: build
	$(call ensure_pkgs,chromium python3)
	@Tests/Browser/run.sh "$(BIN)" "$(CURDIR)/.browser-test"

install: build install-bin install-data

install-bin:
	install -D -s -m 755 $(BIN) $(DESTDIR)$(BINDIR)/feeds

# Manual pages, shell completions and the systemd user timer: everything but the binary (no
# build needed; the tests stage it with DESTDIR).
install-data:
	install -D -m 644 man/feeds.1 $(DESTDIR)$(MANDIR)/man1/feeds.1
	install -D -m 644 man/feeds-sources.5 $(DESTDIR)$(MANDIR)/man5/feeds-sources.5
	install -D -m 644 completions/feeds.bash $(DESTDIR)$(BASHCOMPDIR)/feeds
	install -D -m 644 completions/_feeds $(DESTDIR)$(ZSHCOMPDIR)/_feeds
	install -D -m 644 completions/feeds.fish $(DESTDIR)$(FISHCOMPDIR)/feeds.fish
	install -d $(DESTDIR)$(SYSTEMDUSERDIR)
	sed 's|@BINDIR@|$(BINDIR)|g' contrib/systemd/feeds-update.service > $(DESTDIR)$(SYSTEMDUSERDIR)/feeds-update.service
	install -m 644 contrib/systemd/feeds-update.timer $(DESTDIR)$(SYSTEMDUSERDIR)/feeds-update.timer

uninstall:
	rm -f $(DESTDIR)$(BINDIR)/feeds $(DESTDIR)$(MANDIR)/man1/feeds.1 $(DESTDIR)$(MANDIR)/man5/feeds-sources.5 \
		$(DESTDIR)$(BASHCOMPDIR)/feeds $(DESTDIR)$(ZSHCOMPDIR)/_feeds $(DESTDIR)$(FISHCOMPDIR)/feeds.fish \
		$(DESTDIR)$(SYSTEMDUSERDIR)/feeds-update.service $(DESTDIR)$(SYSTEMDUSERDIR)/feeds-update.timer

clean:
	rm -rf .build $(DEMO_HOME) .browser-test .build-fuzz-* .build-asan .build-tsan .fuzz

# --- Hardening (issue 7): not part of `make test`; these need ../shared or take long. ---
SHARED ?= ../shared

# Differential check: every item of ../shared/bench's corpus through feeds and python3-feedparser.
crosscheck: bench-deps build
	@test -d "$(SHARED)/bench" || { echo "crosscheck needs $(SHARED)/bench (set SHARED=path)" >&2; exit 1; }
	/usr/bin/python3 tools/crosscheck.py "$(BIN)" --shared "$(SHARED)"

# libFuzzer + ASan on every parser (tools/fuzz.sh): FUZZ_SECONDS per target (default 60).
FUZZ_SECONDS ?= 60
fuzz: deps
	FUZZ_SECONDS=$(FUZZ_SECONDS) SHARED="$(SHARED)" tools/fuzz.sh $(FUZZ_TARGETS)

# The test suite under AddressSanitizer, and its concurrent parts under ThreadSanitizer.
test-sanitizers: deps
	tools/test-sanitizers.sh $(SANITIZERS)
