/* SPDX-License-Identifier: MIT */
/* The benchmark's runner (runner.c): cases, interleaved samples, clocks, value
 * checks, reports, TSV, goals, files, the counting allocator. Each workload is
 * one file (stage1.c, memory.c, fetch.c, hotloop.c, streams.c) registered in
 * runner.c's table. */
#ifndef JDOC_BENCH_H
#define JDOC_BENCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "jdoc.h"
#include "peer_simdjson.h"
#include "rec.h"

/* Settings of the run (command line). */
typedef struct bench_opts {
    const char *corpus, *out, *data, *paths, *filter;
    bool quick, wall_clock;
    double warmup_ns, sample_ns, budget_ns; /* per case: warm-up, shortest sample, timed budget */
    int min_rounds, max_rounds;
} bench_opts;
extern bench_opts bench_o;
extern volatile uint64_t bench_sink;

/* Who a case is: ratios compare the best jdoc case with the best On Demand, DOM
 * and simdjson (either) case of the same run. FLOOR (memcpy) and PART (a piece
 * of jdoc's work, e.g. parse alone) are shown but never "best". */
enum bench_fam { FAM_FLOOR, FAM_PART, FAM_JDOC, FAM_OD, FAM_DOM };

typedef struct bench_case bench_case;
typedef uint64_t (*bench_fn)(bench_case *c);

struct bench_case {
    const char *label, *impl; /* table header (<= 10 characters), TSV impl */
    int fam;
    bench_fn fn;
    /* the workload's state */
    jdoc_parser *p;
    peer_simdjson *peer;
    int op, shape, failed;
    const void *in;
    void *ud;
    bench_rec rec;
    int64_t err;  /* simdjson's error, negative */
    size_t count; /* elements or documents read */
    /* the runner's */
    bool skip;
    const char *why;                   /* table text of a skipped case: "n/a", "err" */
    double med, q1, q3, min, max, est; /* ns per call */
    uint64_t iters;
};

/* The best cases of one measurement (index, -1 if none) and their times. */
typedef struct bench_best {
    int jdoc, od, dom, sj;
    double t_jdoc, t_od, t_dom, t_sj;
} bench_best;

/** Warm up and calibrate every case, then take samples round by round, the
 *  cases interleaved (order rotated each round), each short sample preceded by
 *  one untimed call; thread CPU time unless --clock wall. Fills med..max. */
void bench_run(bench_case *c, int n);
/** Check, then time: every non-skipped JDOC/OD/DOM case once in full mode,
 *  values compared with case `ref`'s; then bench_run, then each digest compared
 *  again. describe(item, buf, cap, ud) names a value for the message.
 *  0: measured; 1: `ref` failed (file skipped, reason printed); -1: a case
 *  failed or differs (printed: the caller aborts the workload). */
int bench_measure(const char *wl, const char *file, bench_case *c, int n, int ref,
                  void (*describe)(size_t item, char *buf, size_t cap, const void *ud), const void *ud);
bench_best bench_best_of(const bench_case *c, int n);

/* Reports. A cell is one case's median in the unit: ns / per / scale (rate: per * scale * 1e9 / ns). */
typedef struct bench_unit {
    const char *metric, *unit;
    double per, scale;
    bool rate;
} bench_unit;
double bench_value(const bench_unit *u, double ns);
/** Header: `name` column of width w, then each case's label. */
void bench_head(int w, const char *name, const bench_case *c, int n);
/** Cells of every case (width 10), then the largest IQR/median of the row ("~N%"). */
void bench_cells(const bench_unit *u, const bench_case *c, int n);
/** bench_cells, then the speed-up best simdjson time / best jdoc time (returned; 0: n/a), and the TSV rows. */
double bench_row(FILE *tsv, const char *wl, const char *file, const bench_unit *u, const bench_case *c, int n);
/** <out>/<wl>.tsv with its header line, or NULL (warning printed). */
FILE *bench_tsv(const char *wl);
/** TSV: workload file impl metric median min max unit ratio; ratio = time / best simdjson time ("-"). */
void bench_tsv_cases(FILE *t, const char *wl, const char *file, const bench_unit *u, const bench_case *c, int n);
void bench_tsv_value(FILE *t, const char *wl, const char *file, const char *impl, const char *metric, double v,
                     const char *unit);

/* Goals: printed where measured and again in the summary at the end.
 * higher: the goal is measured >= target (else <=). */
void bench_goal(const char *name, const char *what, double measured, double target, bool higher, const char *detail);
void bench_goals_print(void);
typedef struct bench_geo bench_geo;
/** bench_goal of a geomean, its worst file as the detail (nothing when g is empty). */
void bench_goal_geo(const char *name, const char *what, const bench_geo *g, double target, bool higher);

/* Running geometric mean with its worst element. */
struct bench_geo {
    double log_sum, worst;
    int n;
    char worst_at[128];
};
/** Add x; worst = the largest (higher = false) or smallest (higher = true). */
void bench_geo_add(bench_geo *g, double x, bool higher, const char *where);
double bench_geo_mean(const bench_geo *g);

/* Files: data 64-byte aligned, len bytes plus a NUL. */
typedef struct bench_file {
    char *name;
    char *data;
    size_t len;
} bench_file;
int bench_load(const char *path, bench_file *f); /* 0, or -1 (message printed) */
void bench_file_free(bench_file *f);
/** Regular files of dir ending in `suffix` (NULL: any) whose name contains --filter, sorted, as full
 *  paths. Returns the count, -1 if the directory cannot be opened (message printed). */
int bench_list(const char *dir, const char *suffix, char ***paths);
void bench_list_free(char **paths, int n);
/** Generated Docker data <data>/<name> (make bench-data writes it); -1 with a message when missing. */
int bench_load_data(const char *name, bench_file *f);

/* The simdjson peer: implementation `impl` (NULL: the default), or NULL with the reason printed
 * ("simdjson WHAT: skipped: ..."); free (NULL allowed); the case function of every peer case:
 * peer_simdjson_run(c->peer, c->op, c->shape) into c->rec, its result into c->count. */
peer_simdjson *bench_peer(const char *impl, const char *what);
void bench_peer_free(peer_simdjson *p);
uint64_t bench_peer_fn(bench_case *c);

/* Counting allocator: every call of a parser through it is counted. */
typedef struct bench_alloc {
    uint64_t allocs;
    size_t live, peak;
    jdoc_allocator a;
} bench_alloc;
/** A parser of kernel k (AUTO: the default) whose memory goes through c (which must outlive it). */
jdoc_parser *bench_counting_parser(bench_alloc *c, jdoc_kernel_id k);
/** Allocations per call of fn(c) over `calls` calls. */
double bench_allocs_per_call(bench_alloc *a, bench_case *c, int calls);

/* Workloads: 0 on success. */
int bench_stage1(void);
int bench_memory(void);
int bench_fetch(void);
int bench_small(void);
int bench_hotloop(void);
int bench_query(void);
int bench_streams(void);

#endif
