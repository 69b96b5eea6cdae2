# SPDX-License-Identifier: MIT
# libFuzzer targets, built with clang: `make fuzz` builds $(BUILD)/fuzz/<target>;
# `make fuzz-smoke` replays fuzz/regressions/<target>/ and fuzzes each target for
# FUZZ_SECONDS seconds (fuzz/smoke.sh). Included by the top-level Makefile.

FUZZ_CC      ?= clang
FUZZ_SECONDS ?= 60
FUZZ_TARGETS ?= fuzz_parse fuzz_kernels fuzz_fetch fuzz_number fuzz_string fuzz_stream fuzz_query fuzz_feed
FUZZ_BUILD    = $(BUILD)/fuzz
FUZZ_CFLAGS   = -O1 -g -fno-omit-frame-pointer -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined \
                -DJDOC_SCAN_MIN=1
FUZZ_LIB      = $(FUZZ_BUILD)/lib/libjdoc.a
FUZZ_BIN      = $(sort $(FUZZ_TARGETS:%=$(FUZZ_BUILD)/%))
# Extra -D flags for the targets, e.g. -DFUZZ_IGNORE_KNOWN (see fuzz/README.md).
FUZZ_DEFS    ?=

.PHONY: fuzz fuzz-smoke fuzz-lib-force
fuzz: $(FUZZ_BIN)

# The library sources through the top-level object rules, so with the same
# per-kernel ARCH_CFLAGS, compiled by clang with the fuzzing sanitizers into a
# private build directory. The sub-make always runs; it rebuilds only what changed.
$(FUZZ_LIB): fuzz-lib-force
	@$(MAKE) --no-print-directory CC='$(FUZZ_CC)' BUILD='$(FUZZ_BUILD)/lib' CFLAGS='$(FUZZ_CFLAGS)' '$@'

# FUZZ_DEFS as a file that changes only when they do: the targets rebuild then.
$(FUZZ_BUILD)/defs: fuzz-lib-force
	@mkdir -p $(@D)
	@echo '$(FUZZ_DEFS)' | cmp -s - $@ || echo '$(FUZZ_DEFS)' > $@

$(FUZZ_BIN): $(FUZZ_BUILD)/%: fuzz/%.c $(FUZZ_LIB) $(FUZZ_BUILD)/defs $(wildcard fuzz/*.h) include/jdoc.h src/internal.h
	@mkdir -p $(@D)
	$(FUZZ_CC) $(JDOC_CFLAGS) -Wno-missing-prototypes $(FUZZ_CFLAGS) $(FUZZ_DEFS) $< $(FUZZ_LIB) -lm -o $@

fuzz-smoke: $(FUZZ_BIN)
	FUZZ_SECONDS='$(FUZZ_SECONDS)' bash fuzz/smoke.sh '$(FUZZ_BUILD)' $(FUZZ_TARGETS)
