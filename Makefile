# SPDX-License-Identifier: MIT
# jdoc: `make` builds the libraries, the tool and the demo with only a C compiler;
# `make test` builds the tests (they need Criterion: libcriterion-dev) and runs them.
# CFLAGS is yours (e.g. make CFLAGS='-O1 -g -fsanitize=address,undefined');
# the flags jdoc needs live in JDOC_CFLAGS and the per-kernel ISA flags in ARCH_CFLAGS.

CC      ?= cc
CFLAGS  ?= -O2 -g
LDFLAGS ?=
PREFIX  ?= /usr/local
BUILD   ?= build
AR      ?= ar

VERSION := $(shell sed -n 's/^\#define JDOC_VERSION_STRING "\(.*\)"/\1/p' include/jdoc.h)
SOMAJOR := $(firstword $(subst ., ,$(VERSION)))

JDOC_CFLAGS = -std=c11 -Wall -Wextra -Wshadow -Wstrict-prototypes -Wmissing-prototypes -fPIC \
              -fvisibility=hidden -D_GNU_SOURCE -Iinclude -Isrc
ALL_CFLAGS  = $(JDOC_CFLAGS) $(ARCH_CFLAGS) $(CFLAGS)

ARCH := $(shell $(CC) -dumpmachine | cut -d- -f1)

LIB_SRC := src/parser.c src/arch/cpu.c src/arch/dispatch.c src/arch/scalar.c \
           $(wildcard src/stage1/*.c) $(filter-out src/stage2/gen_%.c,$(wildcard src/stage2/*.c))
# JSONPath (src/query/gen_unicode.py writes its table; the build does not run it)
LIB_SRC += $(wildcard src/query/*.c)
ifeq ($(ARCH),x86_64)
LIB_SRC += src/arch/sse42.c src/arch/avx2.c src/arch/avx512.c
endif
ifeq ($(ARCH),aarch64)
LIB_SRC += src/arch/neon.c src/arch/neon_nopmull.c
endif
LIB_OBJ := $(LIB_SRC:%.c=$(BUILD)/obj/%.o)

# ISA flags on the kernel files only: the rest of the library runs on any CPU of the architecture.
$(BUILD)/obj/src/arch/sse42.o:  ARCH_CFLAGS = -msse4.2 -mpclmul -mpopcnt
$(BUILD)/obj/src/arch/avx2.o:   ARCH_CFLAGS = -mavx2 -mbmi -mbmi2 -mpclmul -mpopcnt
$(BUILD)/obj/src/arch/avx512.o: ARCH_CFLAGS = -mavx512f -mavx512bw -mavx512vl -mavx512vbmi -mavx512vbmi2 -mavx2 -mbmi -mbmi2 -mpclmul -mpopcnt
$(BUILD)/obj/src/arch/neon.o:   ARCH_CFLAGS = -march=armv8-a+crypto

TEST_SRC := $(wildcard tests/test_*.c)
TEST_BIN := $(TEST_SRC:tests/%.c=$(BUILD)/tests/%)
TEST_OBJ := $(TEST_SRC:tests/%.c=$(BUILD)/obj/tests/%.o)
TEST_LIBS = -lcriterion -lm -lpthread
SKIPS = $(BUILD)/skips

# Fragments add to EXTRA_ALL (built by `make`), EXTRA_CHECKS (run by `make test`),
# EXTRA_INSTALL (installed by `make install`) and define their own targets.
.DEFAULT_GOAL := all
EXTRA_ALL :=
EXTRA_CHECKS :=
EXTRA_INSTALL :=
-include cli/cli.mk
-include bench/bench.mk
-include fuzz/fuzz.mk
-include bindings/ruby/ruby.mk
-include tests/docker/docker.mk

.PHONY: all lib tests test check check-unit check-criterion check-arm64 check-readme check-isa check-mutants \
        install clean bench
all: lib $(EXTRA_ALL)
tests: $(TEST_BIN)
lib: $(BUILD)/libjdoc.a $(BUILD)/libjdoc.so

$(BUILD)/obj/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -MMD -MP -c $< -o $@

$(BUILD)/libjdoc.a: $(LIB_OBJ)
	@rm -f $@
	$(AR) rcs $@ $^

$(BUILD)/libjdoc.so: $(LIB_OBJ)
	$(CC) $(CFLAGS) $(LDFLAGS) -shared -Wl,-soname,libjdoc.so.$(SOMAJOR) -o $@ $^

# Tests: compiled once, linked again when the library changes (the objects are
# kept: the mutation check relinks often).
.SECONDARY: $(TEST_OBJ)
$(BUILD)/obj/tests/%.o: tests/%.c $(wildcard tests/*.h) | check-criterion
	@mkdir -p $(dir $@)
	$(CC) $(JDOC_CFLAGS) -Wno-missing-prototypes $(CFLAGS) -MMD -MP -c $< -o $@

$(BUILD)/tests/%: $(BUILD)/obj/tests/%.o $(BUILD)/libjdoc.a
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $< -o $@ $(LDFLAGS) $(BUILD)/libjdoc.a $(TEST_LIBS)

# The tests need Criterion; say how to get it instead of a compiler error.
check-criterion:
	@printf '#include <criterion/criterion.h>\n' | $(CC) -E -x c - >/dev/null 2>&1 || { \
	    echo "The tests need Criterion (https://github.com/Snaipe/Criterion):"; \
	    echo "    apt-get install libcriterion-dev    (Debian, Ubuntu; with sudo when not root)"; \
	    echo "    brew install criterion              (macOS)"; \
	    echo "\`make\` builds the libraries, the tool and the demo without it."; exit 1; }

# Criterion runs each test in a forked worker; -j1 keeps the 2-core machine usable.
# Every skip is recorded in $(SKIPS) (TAP reports and tests/testutil.h's notes)
# for the summary at the end of `make test`.
# JDOC_CLI: the tests that run the tool run this build's.
check-unit: $(TEST_BIN) $(BUILD)/jdoc
	@rm -rf $(SKIPS) && mkdir -p $(SKIPS)
	@set -e; for t in $(TEST_BIN); do echo "== $$t"; \
	    JDOC_SKIP_LOG=$(abspath $(SKIPS))/notes.log JDOC_CLI=$(abspath $(BUILD))/jdoc \
	    ./$$t --jobs 2 --tap=$(SKIPS)/$$(basename $$t).tap; done

test: check-unit check-readme check-isa $(EXTRA_CHECKS)
	@if command -v aarch64-linux-gnu-gcc >/dev/null 2>&1 && command -v qemu-aarch64 >/dev/null 2>&1; then \
	    $(MAKE) --no-print-directory check-arm64; \
	else echo "check-arm64: skipped (aarch64-linux-gnu-gcc or qemu-aarch64 not installed)"; \
	    printf 'tool\tarm64 kernels (neon, neon_nopmull)\taarch64-linux-gnu-gcc or qemu-aarch64 not installed\n' >> $(SKIPS)/notes.log; fi
	@sh tests/skips.sh $(SKIPS) $(BUILD)/jdoc
check: test

# Mutation check: every mutant of tests/mutants/list.txt must fail the tests it names.
check-mutants:
	bash tests/mutants/run.sh

# The C example in README.md is compiled and run, and its output compared.
check-readme: $(BUILD)/libjdoc.a
	@mkdir -p $(BUILD)/readme
	awk '/<!-- example:begin -->/{f=1;next} /<!-- example:end -->/{f=0} f && !/^```/' README.md > $(BUILD)/readme/example.c
	awk '/<!-- example:end -->/{f=1;next} f && /^```$$/{if(g)exit; g=1; next} g' README.md > $(BUILD)/readme/expected.txt
	$(CC) $(JDOC_CFLAGS) -Wno-missing-prototypes $(CFLAGS) $(BUILD)/readme/example.c -o $(BUILD)/readme/example $(LDFLAGS) $(BUILD)/libjdoc.a -lm
	$(BUILD)/readme/example > $(BUILD)/readme/got.txt
	diff -u $(BUILD)/readme/expected.txt $(BUILD)/readme/got.txt && echo "check-readme: 1 passed, 0 failed"

# No AVX, AVX-512 or other ISA extension outside the kernel files (tzcnt is not
# checked: gcc writes its baseline "rep bsf" that way): the rest of
# the library must run on any CPU of the architecture.
check-isa: $(BUILD)/libjdoc.a
	@bad=0; for o in $(filter-out %/sse42.o %/avx2.o %/avx512.o %/neon.o %/neon_nopmull.o,$(LIB_OBJ)); do \
	    if objdump -d $$o | grep -Eq '%[yz]mm|\bk[0-7]\b|pclmul|pshufb|popcnt|blsr|andn|shlx|sarx|shrx'; then echo "check-isa: $$o uses ISA extensions"; bad=1; fi; \
	done; if [ $$bad = 0 ]; then echo "check-isa: 1 passed, 0 failed"; else exit 1; fi

# arm64: cross-compile the library and a plain-C differential test, run it under qemu.
ARM_BUILD = $(BUILD)/arm64
check-arm64:
	$(MAKE) --no-print-directory CC=aarch64-linux-gnu-gcc AR=aarch64-linux-gnu-ar BUILD=$(ARM_BUILD) \
	    CFLAGS="$(CFLAGS)" $(ARM_BUILD)/libjdoc.a
	aarch64-linux-gnu-gcc $(JDOC_CFLAGS) -Wno-missing-prototypes $(CFLAGS) -static tests/arm64/check_kernels.c \
	    $(ARM_BUILD)/libjdoc.a -lm -o $(ARM_BUILD)/check_kernels
	@mkdir -p $(SKIPS)
	qemu-aarch64 $(ARM_BUILD)/check_kernels > $(SKIPS)/arm64.log; st=$$?; cat $(SKIPS)/arm64.log; exit $$st

install: lib $(EXTRA_INSTALL)
	@mkdir -p $(BUILD)
	sed -e 's|@PREFIX@|$(PREFIX)|' -e 's|@VERSION@|$(VERSION)|' jdoc.pc.in > $(BUILD)/jdoc.pc
	install -d $(DESTDIR)$(PREFIX)/include $(DESTDIR)$(PREFIX)/lib/pkgconfig
	install -m 644 include/jdoc.h $(DESTDIR)$(PREFIX)/include/
	install -m 644 $(BUILD)/libjdoc.a $(DESTDIR)$(PREFIX)/lib/
	install -m 755 $(BUILD)/libjdoc.so $(DESTDIR)$(PREFIX)/lib/libjdoc.so.$(VERSION)
	ln -sf libjdoc.so.$(VERSION) $(DESTDIR)$(PREFIX)/lib/libjdoc.so.$(SOMAJOR)
	ln -sf libjdoc.so.$(SOMAJOR) $(DESTDIR)$(PREFIX)/lib/libjdoc.so
	install -m 644 $(BUILD)/jdoc.pc $(DESTDIR)$(PREFIX)/lib/pkgconfig/
	@for f in $(EXTRA_INSTALL); do install -d $(DESTDIR)$(PREFIX)/bin && install -m 755 $$f $(DESTDIR)$(PREFIX)/bin/; done

clean:
	rm -rf $(BUILD)

-include $(LIB_OBJ:.o=.d) $(TEST_OBJ:.o=.d)
