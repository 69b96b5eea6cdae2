# SPDX-License-Identifier: MIT
# `make bench`: build the benchmark (bench/*.c, plus the simdjson peer with g++
# when simdjson is installed; never fails without it), generate the Docker data
# and run every workload on one CPU. `make bench-chart` draws docs/bench.svg.
# Knobs: BENCH_ARGS (e.g. --quick, --filter twitter, or workload names), BENCH_CPU
# (default 1), BENCH_CXX, BENCH_PEER_ARCH (default -march=native: simdjson's On
# Demand is compiled for the CPU the flags allow, its best configuration).

BENCH_BUILD  = $(BUILD)/bench
BENCH_BIN    = $(BENCH_BUILD)/bench
BENCH_DATA   = $(BENCH_BUILD)/data
BENCH_CXX   ?= g++
BENCH_CPU   ?= 1
BENCH_ARGS  ?=
BENCH_SIMDJSON_LIBS ?= -lsimdjson
BENCH_PEER_ARCH ?= -march=native

# bench/bench_*.c are the workloads and helpers of the one binary; a standalone
# microbenchmark with its own main() dropped here (e.g. bench_number.c) is left out.
BENCH_STANDALONE := $(filter-out bench/bench_main.c,$(shell grep -l '^int main' bench/bench_*.c 2>/dev/null))
BENCH_SRC   := $(filter-out $(BENCH_STANDALONE),$(wildcard bench/bench_*.c))
BENCH_OBJ   := $(BENCH_SRC:bench/%.c=$(BUILD)/bench/obj/%.o)
BENCH_DEFS   = -DBENCH_CFLAGS_STR='"$(CFLAGS)"' -DBENCH_JDOC_CFLAGS_STR='"$(JDOC_CFLAGS)"' \
               -DBENCH_PATHS_DIR='"$(abspath bench/paths)"'
BENCH_CXXFLAGS = -std=c++17 $(CFLAGS) -Wall -Ibench

# Generated Docker data: demo/gen_docker when its rule exists (demo/demo.mk, included
# through cli/cli.mk, adds it to EXTRA_ALL), else the benchmark's fallback (`bench --gen`).
# If gen_docker fails at run time the fallback writes the file instead. NAME.src says which.
ifneq ($(filter $(BUILD)/gen_docker,$(EXTRA_ALL)),)
BENCH_GEN_DEP = $(BUILD)/gen_docker
BENCH_GEN     = $(BUILD)/gen_docker
else
BENCH_GEN_DEP =
BENCH_GEN     = $(BENCH_BIN) --gen
endif
BENCH_DATA_FILES = $(BENCH_DATA)/containers_200.json $(BENCH_DATA)/inspect_100.json \
                   $(BENCH_DATA)/events_100000.ndjson

.PHONY: bench bench-build bench-data bench-chart
bench: $(BENCH_BIN) $(BENCH_DATA_FILES)
	@if command -v taskset >/dev/null 2>&1 && taskset -c $(BENCH_CPU) true 2>/dev/null; then \
	    pin="taskset -c $(BENCH_CPU)"; else pin=""; echo "bench: taskset unavailable, not pinned"; fi; \
	echo "$$pin $(BENCH_BIN) --out $(BENCH_BUILD) --data $(BENCH_DATA) $(BENCH_ARGS)"; \
	$$pin $(BENCH_BIN) --out $(BENCH_BUILD) --data $(BENCH_DATA) $(BENCH_ARGS)

bench-build: $(BENCH_BIN)
bench-data: $(BENCH_DATA_FILES)

# $(1): file, $(2): generator arguments.
define bench_gen_rule
$(BENCH_DATA)/$(1): $(BENCH_GEN_DEP) | $(BENCH_BIN)
	@mkdir -p $$(@D)
	@echo "$(BENCH_GEN) $(2) > $$@"
	@if $(BENCH_GEN) $(2) > $$@.tmp 2>$$@.log; then echo "$(notdir $(firstword $(BENCH_GEN))) $(2)" > $$@.src; \
	else echo "bench: '$(BENCH_GEN) $(2)' failed (see $$@.log): using the fallback generator"; \
	    $(BENCH_BIN) --gen $(2) > $$@.tmp && echo "bench --gen $(2) (fallback)" > $$@.src; fi
	@mv $$@.tmp $$@
endef
$(eval $(call bench_gen_rule,containers_200.json,list 200))
$(eval $(call bench_gen_rule,inspect_100.json,inspect-array 100))
$(eval $(call bench_gen_rule,events_100000.ndjson,events 100000))

$(BUILD)/bench/obj/%.o: bench/%.c
	@mkdir -p $(@D)
	$(CC) $(JDOC_CFLAGS) $(CFLAGS) $(BENCH_DEFS) -Ibench -MMD -MP -c $< -o $@

# The simdjson peer: try g++ + simdjson.h + -lsimdjson, with BENCH_PEER_ARCH and
# then without it; on any failure build the "n/a" stand-in instead. peer.libs
# holds the extra link flags (empty without simdjson).
$(BENCH_BUILD)/peer.o: bench/peer_simdjson.cpp bench/peer_simdjson_none.c bench/peer_simdjson.h bench/bench_rec.[ch] \
                       $(wildcard /usr/include/simdjson.h)
	@mkdir -p $(@D)
	@rm -f $@ $(BENCH_BUILD)/peer.libs $(BENCH_BUILD)/peer.log
	@printf 'int main(void) { return 0; }\n' >$(BENCH_BUILD)/peer_check.c
	@for arch in "$(BENCH_PEER_ARCH)" ""; do \
	    flags="$(BENCH_CXXFLAGS) $$arch"; \
	    echo "$(BENCH_CXX) $$flags -c bench/peer_simdjson.cpp -o $@"; \
	    if $(BENCH_CXX) $$flags -DPEER_CXXFLAGS_STR="\"$$flags\"" -c bench/peer_simdjson.cpp -o $@.tmp \
	            >>$(BENCH_BUILD)/peer.log 2>&1 && \
	        $(CC) $(CFLAGS) -Ibench -c bench/bench_rec.c -o $(BENCH_BUILD)/peer_rec.o >>$(BENCH_BUILD)/peer.log 2>&1 && \
	        $(BENCH_CXX) -x c $(BENCH_BUILD)/peer_check.c -x none $(BENCH_BUILD)/peer_rec.o $@.tmp $(BENCH_SIMDJSON_LIBS) \
	            -o $(BENCH_BUILD)/peer_check >>$(BENCH_BUILD)/peer.log 2>&1; then \
	        echo "$(BENCH_SIMDJSON_LIBS)" >$(BENCH_BUILD)/peer.libs; mv $@.tmp $@; \
	        echo "bench: simdjson peer built"; exit 0; \
	    fi; \
	    [ -n "$$arch" ] || break; \
	done; \
	rm -f $@.tmp; echo "bench: simdjson not available (see $(BENCH_BUILD)/peer.log): its columns say n/a"; \
	echo "$(CC) $(JDOC_CFLAGS) $(CFLAGS) -Ibench -c bench/peer_simdjson_none.c -o $@"; \
	$(CC) $(JDOC_CFLAGS) $(CFLAGS) -Ibench -c bench/peer_simdjson_none.c -o $@ && : >$(BENCH_BUILD)/peer.libs

# Linked with g++ only when the peer is the real simdjson one.
$(BENCH_BIN): $(BENCH_OBJ) $(BENCH_BUILD)/peer.o $(BUILD)/libjdoc.a
	@libs="$$(cat $(BENCH_BUILD)/peer.libs 2>/dev/null)"; \
	if [ -n "$$libs" ]; then ld="$(BENCH_CXX)"; else ld="$(CC)"; fi; \
	echo "$$ld $(CFLAGS) $(LDFLAGS) -o $@ $(BENCH_OBJ) $(BENCH_BUILD)/peer.o $(BUILD)/libjdoc.a $$libs -lm"; \
	$$ld $(CFLAGS) $(LDFLAGS) -o $@ $(BENCH_OBJ) $(BENCH_BUILD)/peer.o $(BUILD)/libjdoc.a $$libs -lm

# Bar chart of jdoc's speed-up over the fastest simdjson per workload and file,
# from the TSVs of the last `make bench` (never fails the build).
bench-chart:
	@if ! command -v gnuplot >/dev/null 2>&1; then \
	    echo "bench-chart: gnuplot not installed (apt-get install -y gnuplot-nox): docs/bench.svg not drawn"; \
	elif ! ls $(BENCH_BUILD)/fetch.tsv $(BENCH_BUILD)/hotloop.tsv $(BENCH_BUILD)/small.tsv \
	          $(BENCH_BUILD)/streams.tsv >/dev/null 2>&1; then \
	    echo "bench-chart: no TSVs of fetch/hotloop/small/streams in $(BENCH_BUILD): run 'make bench' first"; \
	else \
	    mkdir -p docs; \
	    if sh bench/chart.sh $(BENCH_BUILD) docs/bench.svg; then echo "bench-chart: docs/bench.svg"; \
	    else echo "bench-chart: gnuplot failed (see above): docs/bench.svg not drawn"; fi; \
	fi

-include $(BENCH_OBJ:.o=.d)
