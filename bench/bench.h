/* SPDX-License-Identifier: MIT */
/* The workload interface: each workload is one function in its own
 * bench/bench_<name>.c, registered in the table of bench_main.c; plus the
 * helpers they share (reports, goals, counting allocator, generated data). */
#ifndef JDOC_BENCH_H
#define JDOC_BENCH_H

#include "bench_util.h"
#include "bench_rec.h"

#include "jdoc.h"

typedef struct bench_ctx {
    const char *corpus;    /* corpus root holding standard/ and docker/ */
    const char *out_dir;   /* where workloads write their TSV files */
    const char *data_dir;  /* generated Docker data (make bench writes it); NULL: <out_dir>/data */
    const char *paths_dir; /* the path lists (bench/paths) */
    const char *filter;    /* only files whose name contains this, or NULL */
    bench_opts opts;       /* runner settings (parse: many cases per file) */
    bench_opts wopts;      /* fetch, hotloop, small, streams: fewer cases, so more samples each */
} bench_ctx;

typedef struct bench_workload {
    const char *name;
    const char *what;
    int (*run)(const bench_ctx *ctx); /* 0 on success */
} bench_workload;

/* Stage 1 throughput (bench_parse.c): jdoc kernels vs memchr, memcpy, simdjson. */
int bench_parse(const bench_ctx *ctx);
/* Parse + 5-10 typed fetches per document (bench_fetch.c). */
int bench_fetch(const bench_ctx *ctx);
/* 5 fields of every element of Docker arrays (bench_hotloop.c). */
int bench_hotloop(const bench_ctx *ctx);
/* Parse + 3 fields of small Docker responses (bench_small.c). */
int bench_small(const bench_ctx *ctx);
/* One field of every document of an NDJSON event stream (bench_streams.c). */
int bench_streams(const bench_ctx *ctx);
/* Allocations per parse after warm-up and memory per input byte (bench_alloc.c). */
int bench_alloc(const bench_ctx *ctx);

/* ------------------------------------------------------------------------ */
/* Counting allocator (bench_alloc.c)                                       */
/* ------------------------------------------------------------------------ */

typedef struct bench_alloc_counter {
    uint64_t allocs; /* malloc + realloc calls */
    uint64_t frees;
    size_t live;     /* bytes currently allocated */
    size_t peak;     /* most bytes allocated at once */
} bench_alloc_counter;

/** A jdoc_allocator over malloc that counts into *c (a size header per block). */
jdoc_allocator bench_counting_allocator(bench_alloc_counter *c);
/** A parser of the default kernel (AUTO, as jdoc_parser_new(NULL)) whose memory goes
 *  through `a` (jdoc copies the allocator; its counter must outlive the parser). */
jdoc_parser *bench_counting_parser(const jdoc_allocator *a);
/** Allocations per call of fn over `calls` calls (run after warm-up). */
double bench_allocs_per_call(const bench_alloc_counter *c, bench_fn fn, void *ctx, int calls);

/* ------------------------------------------------------------------------ */
/* Reports (bench_report.c)                                                 */
/* ------------------------------------------------------------------------ */

/* Who a measured column is: the ratios compare the best jdoc column with the
 * best simdjson column (and with the best On Demand column). */
typedef enum bench_family { FAM_JDOC, FAM_OD, FAM_DOM } bench_family;

typedef struct bench_col {
    const char *label; /* table header (<= 12 characters) */
    const char *impl;  /* TSV impl */
    bench_family fam;
} bench_col;

/* How a median ns-per-call becomes the reported number. */
typedef struct bench_unit {
    const char *metric; /* TSV metric, e.g. "us_per_doc" */
    const char *unit;   /* TSV unit, e.g. "us" */
    double per_call;    /* work units per call (elements, events; 1 for documents) */
    double scale;       /* value = ns / per_call / scale (1000: us); for rates: value = per_call * scale * 1e9 / ns */
    bool rate;          /* higher is better (events/s) */
} bench_unit;

typedef struct bench_row {
    int best_jdoc, best_sj, best_od; /* column index, -1 if none measured */
    double t_jdoc, t_sj, t_od;       /* their median ns per call */
    double ratio_sj, ratio_od;       /* t_jdoc / t_sj and t_jdoc / t_od; 0 when n/a */
} bench_row;

/** Best columns and ratios of one file's measurement (skipped cases left out). */
void bench_row_compute(const bench_col *cols, const bench_case *cases, int n, bench_row *row);
/** A measured value in the unit. */
double bench_unit_value(const bench_unit *u, double ns);
/** One table cell: value ~ IQR/median, or `na` when skipped; width 15. */
void bench_print_cell(const bench_unit *u, const bench_case *c, const char *na);
/** Header cell of width 15. */
void bench_print_head(const char *label);
/** Print a number with 4 significant digits in `width` characters. */
void bench_print_num(double v, int width);

/** Open <out_dir>/<workload>.tsv and write the header line; NULL (with a warning) on failure. */
FILE *bench_tsv_open(const bench_ctx *ctx, const char *workload, char *path, size_t cap);
/** One TSV line per measured column: median/min/max in the unit, ratio = its
 *  time / the best simdjson time ("-" without simdjson). */
void bench_tsv_rows(FILE *tsv, const char *workload, const char *file, const bench_col *cols,
                    const bench_case *cases, int n, const bench_unit *u, const bench_row *row);
/** One TSV line of a single value (allocations, bytes per byte): median = min = max, ratio "-". */
void bench_tsv_value(FILE *tsv, const char *workload, const char *file, const char *impl, const char *metric,
                     double v, const char *unit);

/* Goals: the numbered goals of the benchmark, reported once at the end. */
enum { GOAL_FETCH = 1, GOAL_HOTLOOP, GOAL_SMALL, GOAL_STREAMS, GOAL_ALLOC, GOAL_COUNT };
/** Record a goal's measurement: `ratio` (a time ratio jdoc/peer, or a count
 *  for GOAL_ALLOC), met = 1/0 (-1: no target), `detail` a short text. */
void bench_goal_report(int goal, double ratio, int met, const char *detail);
/** Record one workload's allocations per parse after warm-up (GOAL_ALLOC keeps the worst). */
void bench_goal_alloc(const char *where, double allocs_per_parse);
/** Print the summary of every goal (those not run say so). */
void bench_goals_print(FILE *out);

/** Print the check failure of `impl` against the reference and return -1. */
int bench_check_fail(const char *workload, const char *file, const char *impl, const char *ref,
                     const bench_rec *got, const bench_rec *want, void (*describe)(size_t item, char *buf, size_t cap, void *ud),
                     void *ud);

/* ------------------------------------------------------------------------ */
/* Generated Docker data (bench_gen.c)                                      */
/* ------------------------------------------------------------------------ */

/** Generate with the benchmark's own fallback generator: mode "list",
 *  "inspect-array" or "events" with n items, into a malloc'ed buffer.
 *  Returns 0, or -1 for an unknown mode or out of memory. */
int bench_gen(const char *mode, unsigned n, char **out, size_t *len);
/** `bench --gen MODE N`: write the fallback generator's output to stdout. */
int bench_gen_main(int argc, char **argv);
/** Load <data_dir>/<name> (written by make bench, by gen_docker or the
 *  fallback), or generate it in memory with the fallback generator. `source`
 *  says where it came from. Returns 0 or -1 (message printed). */
int bench_data_load(const bench_ctx *ctx, const char *name, const char *mode, unsigned n, bench_file *f,
                    char *source, size_t cap);

/** Print "jdoc kernel: NAME" and the simdjson line shared by the new workloads. */
void bench_print_impls(void);

#endif /* JDOC_BENCH_H */
