# SPDX-License-Identifier: MIT
# `make bench`: build bench/*.c into one binary (plus the simdjson peer with g++ when
# simdjson is installed; never fails without it: jdoc-only numbers), generate the Docker
# data with gen_docker and run every workload on one CPU. `make bench-smoke` is the same
# with --quick (under 30 s). `make bench-chart` draws docs/bench.svg from the TSVs.
# Knobs: BENCH_ARGS (--quick, --filter S, workload names), BENCH_CPU (default 1), BENCH_CXX,
# BENCH_PEER_ARCH (default -march=native: On Demand is compiled for what the flags allow).

BENCH_BUILD = $(BUILD)/bench
BENCH_BIN   = $(BENCH_BUILD)/bench
BENCH_DATA  = $(BENCH_BUILD)/data
BENCH_CXX  ?= g++
BENCH_CPU  ?= 1
BENCH_ARGS ?=
BENCH_PEER_ARCH ?= -march=native
# bench/*.c are the runner and its workloads; a file with its own main() other than the
# runner (bench_feed.c, bench_query.c) is a standalone benchmark: `make bench-NAME` builds it.
BENCH_STANDALONE := $(filter-out bench/runner.c,$(shell grep -l '^int main' bench/*.c 2>/dev/null))
BENCH_OBJ  := $(patsubst bench/%.c,$(BENCH_BUILD)/obj/%.o,$(filter-out $(BENCH_STANDALONE),$(wildcard bench/*.c)))
BENCH_DATA_FILES = $(BENCH_DATA)/containers_200.json $(BENCH_DATA)/inspect_100.json \
                   $(BENCH_DATA)/events_100000.ndjson

.PHONY: bench bench-smoke bench-build bench-data bench-chart bench-jq
bench: $(BENCH_BIN) $(BENCH_DATA_FILES)
	@pin=""; if taskset -c $(BENCH_CPU) true 2>/dev/null; then pin="taskset -c $(BENCH_CPU)"; \
	else echo "bench: taskset unavailable, not pinned"; fi; \
	echo "$$pin $(BENCH_BIN) --out $(BENCH_BUILD) --data $(BENCH_DATA) $(BENCH_ARGS)"; \
	$$pin $(BENCH_BIN) --out $(BENCH_BUILD) --data $(BENCH_DATA) $(BENCH_ARGS)
bench-smoke: bench-standalone
	@$(MAKE) --no-print-directory bench BENCH_ARGS="--quick $(BENCH_ARGS)"
bench-build: $(BENCH_BIN)
# the CLI against jq on a generated 1 GB list (BENCH_JQ_N containers; needs jq and 2 GB of /tmp)
BENCH_JQ_N ?= 600000
bench-jq: $(BUILD)/jdoc $(BUILD)/gen_docker
	bash bench/cli_vs_jq.sh $(BUILD) $(BENCH_JQ_N) $(BENCH_CPU)
bench-data: $(BENCH_DATA_FILES)

# gen_docker: from demo/demo.mk when it is included, else built here.
ifeq ($(filter $(BUILD)/gen_docker,$(EXTRA_ALL)),)
$(BUILD)/gen_docker: demo/gen_docker.c
	@mkdir -p $(@D)
	$(CC) $(JDOC_CFLAGS) $(CFLAGS) $< -o $@ $(LDFLAGS)
endif
$(BENCH_DATA)/containers_200.json: BENCH_GEN_ARGS = list 200
$(BENCH_DATA)/inspect_100.json: BENCH_GEN_ARGS = inspect-array 100
$(BENCH_DATA)/events_100000.ndjson: BENCH_GEN_ARGS = events 100000
$(BENCH_DATA_FILES): $(BUILD)/gen_docker
	@mkdir -p $(@D)
	$(BUILD)/gen_docker $(BENCH_GEN_ARGS) > $@.tmp && mv $@.tmp $@

$(BENCH_BUILD)/obj/%.o: bench/%.c
	@mkdir -p $(@D)
	$(CC) $(JDOC_CFLAGS) $(CFLAGS) -DBENCH_CFLAGS_STR='"$(CFLAGS)"' -DBENCH_PATHS_DIR='"$(abspath bench/paths)"' \
	    -Ibench -MMD -MP -c $< -o $@

# The simdjson peer, when g++ builds and links a probe against simdjson: compiled with
# BENCH_PEER_ARCH, else without it. peer.libs holds what the link adds ("" without it).
$(BENCH_BUILD)/peer.libs: bench/peer_simdjson.cpp bench/peer_simdjson.h bench/rec.h $(wildcard /usr/include/simdjson.h)
	@mkdir -p $(@D); rm -f $(BENCH_BUILD)/peer.o; libs=""; \
	if printf '#include <simdjson.h>\nint main(void) { return !simdjson::get_active_implementation(); }\n' | \
	    $(BENCH_CXX) -std=c++17 -x c++ - -o $(BENCH_BUILD)/peer_probe -lsimdjson >$(BENCH_BUILD)/peer.log 2>&1; then \
	    for arch in "$(BENCH_PEER_ARCH)" ""; do \
	        flags="-std=c++17 $(CFLAGS) -Wall -Ibench $$arch"; echo "$(BENCH_CXX) $$flags -c bench/peer_simdjson.cpp"; \
	        if $(BENCH_CXX) $$flags -DPEER_CXXFLAGS_STR="\"$$flags\"" -c bench/peer_simdjson.cpp \
	            -o $(BENCH_BUILD)/peer.o >>$(BENCH_BUILD)/peer.log 2>&1; then libs="$(BENCH_BUILD)/peer.o -lsimdjson"; break; fi; \
	    done; \
	fi; \
	[ -n "$$libs" ] || echo "bench: simdjson not available (see $(BENCH_BUILD)/peer.log): jdoc-only numbers"; \
	echo "$$libs" > $@

# Linked with g++ only when the peer is in.
$(BENCH_BIN): $(BENCH_OBJ) $(BENCH_BUILD)/peer.libs $(BUILD)/libjdoc.a
	@libs="$$(cat $(BENCH_BUILD)/peer.libs)"; ld="$(CC)"; [ -z "$$libs" ] || ld="$(BENCH_CXX)"; \
	echo "$$ld $(CFLAGS) $(LDFLAGS) -o $@ $(BENCH_OBJ) $(BUILD)/libjdoc.a $$libs -lm"; \
	$$ld $(CFLAGS) $(LDFLAGS) -o $@ $(BENCH_OBJ) $(BUILD)/libjdoc.a $$libs -lm

# Bar chart of jdoc's speed-up over the fastest simdjson per workload and file (never fails the build).
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

# The standalone benchmarks, each its own program: $(BENCH_BUILD)/bench_feed, ...
BENCH_STANDALONE_BIN := $(patsubst bench/%.c,$(BENCH_BUILD)/%,$(BENCH_STANDALONE))
.PHONY: bench-standalone
bench-standalone: $(BENCH_STANDALONE_BIN)
$(BENCH_BUILD)/bench_%: bench/bench_%.c $(BUILD)/libjdoc.a
	@mkdir -p $(@D)
	$(CC) $(JDOC_CFLAGS) -Wno-missing-prototypes $(CFLAGS) -Ibench $< -o $@ $(BUILD)/libjdoc.a -lm
