/* SPDX-License-Identifier: MIT */
/* The workload interface: each workload is one function in its own
 * bench/bench_<name>.c, registered in the table of bench_main.c. */
#ifndef JDOC_BENCH_H
#define JDOC_BENCH_H

#include "bench_util.h"

typedef struct bench_ctx {
    const char *corpus;  /* corpus root holding standard/ and docker/ */
    const char *out_dir; /* where workloads write their TSV files */
    const char *filter;  /* only files whose name contains this, or NULL */
    bench_opts opts;     /* runner settings */
} bench_ctx;

typedef struct bench_workload {
    const char *name;
    const char *what;
    int (*run)(const bench_ctx *ctx); /* 0 on success */
} bench_workload;

/* Stage 1 throughput (bench_parse.c): jdoc kernels vs memchr, memcpy, simdjson. */
int bench_parse(const bench_ctx *ctx);

#endif /* JDOC_BENCH_H */
