# sluice — build, test, demo, bench, install.
#
# Every program is the objects of its directory linked against lib/, so a
# new file in fetcher/ needs no Makefile change.  Variants build into their
# own tree: `make SAN=1` puts objects in build/asan and binaries in
# build/asan/bin, leaving the normal build alone.

VERSION   := 0.1.0
PREFIX    ?= /usr/local
SAN       ?=
ifeq ($(SAN),)
  OUT     := build/release
  BIN     := bin
  OPT     := -O2
else
  OUT     := build/asan
  BIN     := build/asan/bin
  OPT     := -O1 -fno-omit-frame-pointer -fsanitize=address,undefined -fno-sanitize-recover=all
endif

CC        ?= cc
PKGS      := libcurl libuv gumbo msgpack sqlite3 libpcre2-8 libidn2 libpsl libpq libxml-2.0 zlib jansson libcrypto libzip \
             libbrotlidec libzstd
PKG_CFLAGS := $(shell pkg-config --cflags $(PKGS) 2>/dev/null)
CFLAGS    ?= -g
CFLAGS    += $(OPT) -std=c11 -D_GNU_SOURCE -Wall -Wextra -Werror -Ilib \
             -DSLUICE_VERSION='"$(VERSION)"' $(PKG_CFLAGS)
LDFLAGS   += $(filter -fsanitize=%,$(OPT))

# Libraries each program links, so fetch carries no gumbo and parse no libuv.
LIBS_fetch    := $(shell pkg-config --libs libcurl libidn2 libpsl libuv msgpack sqlite3 libpq zlib \
                   libcrypto libpcre2-8 libbrotlidec libzstd 2>/dev/null) -lm
LIBS_parse    := $(shell pkg-config --libs gumbo libidn2 libpsl libxml-2.0 zlib msgpack libcrypto jansson 2>/dev/null) -lm
LIBS_validate := $(shell pkg-config --libs libpcre2-8 msgpack 2>/dev/null) -lm
LIBS_sink     := $(shell pkg-config --libs sqlite3 libpcre2-8 libidn2 libpsl msgpack libpq zlib libcrypto libzip 2>/dev/null) -lm
LIBS_render   := $(shell pkg-config --libs libcurl libidn2 libpsl libuv jansson msgpack 2>/dev/null) -lm
LIBS_unit     := $(shell pkg-config --libs $(PKGS) 2>/dev/null) -lm

PROGS     := fetch parse validate sink render
DIR_fetch := fetcher
DIR_parse := parser
DIR_validate := validator
DIR_sink  := sinker
DIR_render := renderer

LIB_SRC   := $(wildcard lib/*.c)
LIB_OBJ   := $(LIB_SRC:%.c=$(OUT)/%.o)
LIB_A     := $(OUT)/libsluice.a
UNIT_SRC  := $(wildcard tests/unit/*.c)
UNIT_BIN  := $(UNIT_SRC:tests/unit/%.c=$(OUT)/tests/%)

# Fuzz targets (fuzz/fuzz_NAME.c) and the program sources each needs
# beyond lib/.  `make` builds each as $(OUT)/tests/replay_NAME, which
# replays the corpus and past findings in `make test`; `make fuzz` builds
# them with libFuzzer into build/fuzz and runs each FUZZ_SECONDS.
FUZZ_NAMES := cs jsonld page robots rec rules sel sitemap url warc
PARSE_LIB  := $(filter-out parser/main.c,$(wildcard parser/*.c))
VALID_LIB  := $(filter-out validator/main.c,$(wildcard validator/*.c))
FUZZ_DEPS_cs    := $(PARSE_LIB)
FUZZ_DEPS_jsonld := parser/jsonld.c parser/date.c parser/buf.c
FUZZ_DEPS_page  := $(PARSE_LIB)
FUZZ_DEPS_sel   := $(PARSE_LIB)
FUZZ_DEPS_sitemap := $(PARSE_LIB)
FUZZ_DEPS_rules := $(VALID_LIB)
FUZZ_SECONDS ?= 60
FUZZ_CFLAGS := -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all \
               -std=c11 -D_GNU_SOURCE -Wall -Wextra -Werror -Ilib -Iparser -Ivalidator \
               -DSLUICE_VERSION='"$(VERSION)"' $(PKG_CFLAGS)
REPLAY_BIN := $(FUZZ_NAMES:%=$(OUT)/tests/replay_%)

all: $(PROGS:%=$(BIN)/%) $(UNIT_BIN) $(REPLAY_BIN)

$(OUT)/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -MMD -MP -c -o $@ $<

$(LIB_A): $(LIB_OBJ)
	rm -f $@ && ar rcs $@ $^

define prog_rule
$(1)_OBJ := $$(patsubst %.c,$(OUT)/%.o,$$(wildcard $$(DIR_$(1))/*.c))
$(BIN)/$(1): $$($(1)_OBJ) $(LIB_A)
	@mkdir -p $$(dir $$@)
	$$(CC) $$(LDFLAGS) -o $$@ $$^ $$(LIBS_$(1))
endef
$(foreach p,$(PROGS),$(eval $(call prog_rule,$(p))))

# A unit test links lib/ and, for a module of a program, that module's
# sources (UNIT_DEPS_test_NAME), whose headers it finds with -Iparser or
# -Ifetcher.  fetch's pure policies (retry, redirect, robots) link
# alone: they read no global.
UNIT_DEPS_test_sel := parser/sel.c
UNIT_DEPS_test_dedup := parser/dedup.c parser/buf.c
UNIT_DEPS_test_retry := fetcher/retry.c
UNIT_DEPS_test_redirect := fetcher/redirect.c
UNIT_DEPS_test_robots := fetcher/robots.c fetcher/retry.c
UNIT_DEPS_test_sig := validator/sig.c
# test_opt_PROG includes PROG's main.c (its option table and parsing are
# static there) and links the rest of the program.
UNIT_DEPS_test_opt_fetch := $(filter-out fetcher/main.c,$(wildcard fetcher/*.c))
UNIT_DEPS_test_opt_render := $(filter-out renderer/main.c,$(wildcard renderer/*.c))
UNIT_DEPS_test_opt_parse := $(PARSE_LIB)
UNIT_DEPS_test_opt_validate := $(VALID_LIB)
UNIT_DEPS_test_opt_sink := $(filter-out sinker/main.c,$(wildcard sinker/*.c))
$(OUT)/tests/unit/%.o: CFLAGS += -Iparser -Ifetcher
define unit_rule
$(OUT)/tests/$(1): $(OUT)/tests/unit/$(1).o $$(UNIT_DEPS_$(1):%.c=$(OUT)/%.o) $(LIB_A)
	@mkdir -p $$(dir $$@)
	$$(CC) $$(LDFLAGS) -o $$@ $$^ $$(LIBS_unit)
endef
$(foreach t,$(UNIT_BIN:$(OUT)/tests/%=%),$(eval $(call unit_rule,$(t))))

$(OUT)/fuzz/%.o: CFLAGS += -Iparser -Ivalidator

define fuzz_rule
$(OUT)/tests/replay_$(1): $(OUT)/fuzz/fuzz_$(1).o $(OUT)/fuzz/replay.o $(OUT)/fuzz/fuzz_fd.o \
		$$(FUZZ_DEPS_$(1):%.c=$(OUT)/%.o) $(LIB_A)
	@mkdir -p $$(dir $$@)
	$$(CC) $$(LDFLAGS) -o $$@ $$^ $$(LIBS_unit)
build/fuzz/fuzz_$(1): fuzz/fuzz_$(1).c fuzz/fuzz_fd.c $(LIB_SRC) $$(FUZZ_DEPS_$(1))
	@mkdir -p $$(dir $$@)
	clang $$(FUZZ_CFLAGS) -o $$@ $$^ $$(LIBS_unit)
endef
$(foreach f,$(FUZZ_NAMES),$(eval $(call fuzz_rule,$(f))))
fuzz-build: $(FUZZ_NAMES:%=build/fuzz/fuzz_%)

fuzz:
	@scripts/deps-ok --make deps-fuzz $(DEPS) $(DEPS_FUZZ)
	@$(MAKE) fuzz-build
	@scripts/fuzz.sh $(FUZZ_SECONDS) $(FUZZ_NAMES)

-include $(shell find build -name '*.d' 2>/dev/null)

# Debian packages, by what needs them.  DEPS: building the programs
# (the libraries' -dev packages; libssl-dev for libcrypto's SHA-256 of
# parse's content_hash, sink's WARC digests and fetch --from-warc's;
# libzip-dev for sink's WACZ; libbrotli-dev and libzstd-dev for the br
# and zstd bodies a WARC keeps) and make demo (the test server, the
# sqlite3 shell, gnuplot for scripts/report --html, python3-psycopg2 for
# its postgresql:// stores), and Chromium, which
# render drives at run time (t-report renders its page with it too).  Each other list is
# what its target needs beyond DEPS.
DEPS := build-essential pkg-config libcurl4-openssl-dev libuv1-dev \
        libgumbo-dev libmsgpack-dev libsqlite3-dev libpcre2-dev libidn2-dev libpsl-dev libpq-dev \
        libxml2-dev zlib1g-dev libjansson-dev chromium python3 sqlite3 gnuplot-nox \
        python3-psycopg2 libssl-dev libzip-dev libbrotli-dev libzstd-dev
# make test and test-asan: the tests' tools (jq, curl, bc, /usr/bin/time,
# pgrep, strace in t-sync, GNU parallel in t-scale), PostgreSQL for the
# --queue and sink tests (scripts/pg-tmp), the PostgreSQL manual as
# t-fetch-pipeline's corpus, fonts and PIL for t-report's screenshot,
# tinyproxy as t-fetch-transport's forward proxy and openssl to make its
# CA, zstd for its compression bomb, nginx (with its ssl and http_v2
# modules, as Debian builds it) as t-fetch-nginx's origin; promtool
# (prometheus) and python3-prometheus-client to read t-metrics' files;
# cmark-gfm to read t-parse-markdown's output back; Node.js, whose npm
# brings t-sink-warc's warcio, playwright-core and ReplayWeb.page; wget to
# write the WARC t-fetch-warc reads, brotli to make its br bodies.
DEPS_TEST := jq curl bc time procps strace parallel postgresql postgresql-doc-15 \
        fonts-dejavu-core python3-pil tinyproxy openssl zstd nginx \
        prometheus python3-prometheus-client cmark-gfm nodejs wget brotli
# make fuzz: clang's libFuzzer.
DEPS_FUZZ := clang libclang-rt-14-dev
# make bench: nginx serving the PostgreSQL and Python manuals, wrk, and
# the crawlers compared with (Scrapy, aiohttp + bs4, wget2), the
# extractors parse --markdown is compared with (readability, html2text);
# wget to write bench-warc's WARC, Node.js whose npm brings warcio.
DEPS_BENCH := nginx wrk python3-aiohttp python3-bs4 python3-scrapy wget2 \
        postgresql postgresql-doc-15 python3.11-doc jq curl time parallel \
        python3-readability python3-html2text wget nodejs

# make deps installs what the programs and make demo need; make test,
# test-asan, fuzz and bench install their extras themselves when run as
# root (scripts/deps-ok), so each is one command on a fresh machine; as a
# user, deps-ok names the sudo make deps-... to run.  deps-all: all lists.
APT := apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends
deps:
	$(APT) $(DEPS)
deps-test:
	$(APT) $(DEPS) $(DEPS_TEST)
deps-fuzz:
	$(APT) $(DEPS) $(DEPS_FUZZ)
deps-bench:
	$(APT) $(DEPS) $(DEPS_BENCH)
deps-all:
	$(APT) $(sort $(DEPS) $(DEPS_TEST) $(DEPS_FUZZ) $(DEPS_BENCH))

deps-ok:
	@scripts/deps-ok $(DEPS)

test:
	@scripts/deps-ok --make deps-test $(DEPS) $(DEPS_TEST)
	@$(MAKE) all
	@BIN=$(abspath $(BIN)) UNIT=$(abspath $(OUT)/tests) tests/run.sh

test-asan:
	@scripts/deps-ok --make deps-test $(DEPS) $(DEPS_TEST)
	$(MAKE) SAN=1 all
	@BIN=$(abspath build/asan/bin) UNIT=$(abspath build/asan/tests) \
	  ASAN_OPTIONS=detect_leaks=1:abort_on_error=0:exitcode=99 \
	  UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1:exitcode=99 \
	  tests/run.sh

demo:
	@$(MAKE) -s deps-ok
	@$(MAKE) all
	@scripts/demo.sh

bench:
	@scripts/deps-ok --make deps-bench $(DEPS) $(DEPS_BENCH)
	@$(MAKE) all
	@scripts/bench.sh

# The OPTIONS section of each man page, from the program's option table
# (lib/opt.h); tests/t-options.sh fails until this has been run.
man: $(PROGS:%=$(BIN)/%)
	@for p in $(PROGS); do scripts/man-options $(BIN)/$$p man/$$p.1 || exit 1; done

install: all
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/man/man1
	install -m 755 $(PROGS:%=$(BIN)/%) $(DESTDIR)$(PREFIX)/bin
	install -m 644 $(wildcard man/*.1) $(DESTDIR)$(PREFIX)/share/man/man1

clean:
	rm -rf build bin demo.db

.PHONY: all deps deps-test deps-fuzz deps-bench deps-all deps-ok fuzz-build fuzz test test-asan demo bench man install clean
