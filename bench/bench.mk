# SPDX-License-Identifier: MIT
# `make bench`: build the benchmark (bench/*.c, plus the simdjson peer with g++
# when simdjson is installed; never fails without it) and run it on one CPU.
# Knobs: BENCH_ARGS (e.g. --quick, --filter twitter), BENCH_CPU (default 1), BENCH_CXX.

BENCH_BUILD  = $(BUILD)/bench
BENCH_BIN    = $(BENCH_BUILD)/bench
BENCH_CXX   ?= g++
BENCH_CPU   ?= 1
BENCH_ARGS  ?=
BENCH_SIMDJSON_LIBS ?= -lsimdjson

BENCH_SRC   := $(wildcard bench/bench_*.c)
BENCH_OBJ   := $(BENCH_SRC:bench/%.c=$(BUILD)/bench/obj/%.o)
BENCH_DEFS   = -DBENCH_CFLAGS_STR='"$(CFLAGS)"' -DBENCH_JDOC_CFLAGS_STR='"$(JDOC_CFLAGS)"'
BENCH_CXXFLAGS = -std=c++17 $(CFLAGS) -Wall -Ibench -DPEER_CXXFLAGS_STR='"-std=c++17 $(CFLAGS)"'

.PHONY: bench bench-build
bench: $(BENCH_BIN)
	@if command -v taskset >/dev/null 2>&1 && taskset -c $(BENCH_CPU) true 2>/dev/null; then \
	    pin="taskset -c $(BENCH_CPU)"; else pin=""; echo "bench: taskset unavailable, not pinned"; fi; \
	echo "$$pin $(BENCH_BIN) --out $(BENCH_BUILD) $(BENCH_ARGS)"; \
	$$pin $(BENCH_BIN) --out $(BENCH_BUILD) $(BENCH_ARGS)

bench-build: $(BENCH_BIN)

$(BUILD)/bench/obj/%.o: bench/%.c
	@mkdir -p $(@D)
	$(CC) $(JDOC_CFLAGS) $(CFLAGS) $(BENCH_DEFS) -Ibench -MMD -MP -c $< -o $@

# The simdjson peer: try g++ + simdjson.h + -lsimdjson; on any failure build the
# "n/a" stand-in instead. peer.libs holds the extra link flags (empty without simdjson).
$(BENCH_BUILD)/peer.o: bench/peer_simdjson.cpp bench/peer_simdjson_none.c bench/peer_simdjson.h \
                       $(wildcard /usr/include/simdjson.h)
	@mkdir -p $(@D)
	@rm -f $@ $(BENCH_BUILD)/peer.libs
	@echo "$(BENCH_CXX) $(BENCH_CXXFLAGS) -c bench/peer_simdjson.cpp -o $@"
	@if $(BENCH_CXX) $(BENCH_CXXFLAGS) -c bench/peer_simdjson.cpp -o $@.tmp >$(BENCH_BUILD)/peer.log 2>&1 && \
	    printf 'int main(void) { return 0; }\n' >$(BENCH_BUILD)/peer_check.c && \
	    $(BENCH_CXX) -x c $(BENCH_BUILD)/peer_check.c -x none $@.tmp $(BENCH_SIMDJSON_LIBS) \
	        -o $(BENCH_BUILD)/peer_check >>$(BENCH_BUILD)/peer.log 2>&1; then \
	    echo "$(BENCH_SIMDJSON_LIBS)" >$(BENCH_BUILD)/peer.libs; mv $@.tmp $@; \
	    echo "bench: simdjson peer built"; \
	else \
	    rm -f $@.tmp; echo "bench: simdjson not available (see $(BENCH_BUILD)/peer.log): its columns say n/a"; \
	    echo "$(CC) $(JDOC_CFLAGS) $(CFLAGS) -Ibench -c bench/peer_simdjson_none.c -o $@"; \
	    $(CC) $(JDOC_CFLAGS) $(CFLAGS) -Ibench -c bench/peer_simdjson_none.c -o $@ && : >$(BENCH_BUILD)/peer.libs; \
	fi

# Linked with g++ only when the peer is the real simdjson one.
$(BENCH_BIN): $(BENCH_OBJ) $(BENCH_BUILD)/peer.o $(BUILD)/libjdoc.a
	@libs="$$(cat $(BENCH_BUILD)/peer.libs 2>/dev/null)"; \
	if [ -n "$$libs" ]; then ld="$(BENCH_CXX)"; else ld="$(CC)"; fi; \
	echo "$$ld $(CFLAGS) $(LDFLAGS) -o $@ $(BENCH_OBJ) $(BENCH_BUILD)/peer.o $(BUILD)/libjdoc.a $$libs -lm"; \
	$$ld $(CFLAGS) $(LDFLAGS) -o $@ $(BENCH_OBJ) $(BENCH_BUILD)/peer.o $(BUILD)/libjdoc.a $$libs -lm

-include $(BENCH_OBJ:.o=.d)
