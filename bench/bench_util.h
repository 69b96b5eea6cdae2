/* SPDX-License-Identifier: MIT */
/* Common helpers for every jdoc benchmark workload: a monotonic clock, an
 * interleaved median-of-samples runner, file/corpus loading and environment
 * printing. Workloads (bench_<name>.c) are registered in bench_main.c. */
#ifndef JDOC_BENCH_UTIL_H
#define JDOC_BENCH_UTIL_H

#include <stdbool.h>
#include <stddef.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <time.h>

/* ------------------------------------------------------------------------ */
/* Clock                                                                    */
/* ------------------------------------------------------------------------ */

/** Monotonic time in nanoseconds (CLOCK_MONOTONIC, vDSO: ~20 ns per read). */
static inline uint64_t bench_now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/** CPU time consumed by the calling thread, in nanoseconds (CLOCK_THREAD_CPUTIME_ID,
 *  a system call: ~0.2-0.5 us). Excludes the time the thread is switched out. */
static inline uint64_t bench_cpu_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/** Results of timed calls are folded into this so no call can be optimized away. */
extern volatile uint64_t bench_sink;

/* ------------------------------------------------------------------------ */
/* Runner                                                                   */
/* ------------------------------------------------------------------------ */

/** One unit of work: called many times; return something data-dependent. */
typedef uint64_t (*bench_fn)(void *ctx);

/** Statistics over samples, in nanoseconds per call. */
typedef struct bench_stats {
    double median, min, max, q1, q3;
    int n;            /* samples the statistics are over */
    int taken;        /* samples taken */
    int switched;     /* samples during which the thread was switched out (wall clock: left out) */
    bool all_samples; /* wall clock, too few clean samples: statistics over all of them */
    uint64_t iters;   /* calls per sample */
} bench_stats;

/** A measured case. Fill name/fn/ctx (and bytes for GB/s); the runner fills st. */
typedef struct bench_case {
    const char *name;
    bench_fn fn;
    void *ctx;
    size_t bytes;    /* bytes processed per call, for bench_gbps */
    bool skip;       /* set by the caller to leave a case out (e.g. peer failed) */
    bench_stats st;  /* output */
    double est_ns;   /* output: calibrated ns per call */
} bench_case;

typedef struct bench_opts {
    double warmup_ns;     /* untimed warm-up per case (at least 2 calls) */
    double min_sample_ns; /* each timed sample repeats the call until at least this long */
    double budget_ns;     /* timed budget per case: fewer rounds for slow cases (big files) */
    int min_rounds;       /* samples per case, at least ... */
    int max_rounds;       /* ... and at most (odd numbers keep the median a real sample) */
    bool cpu_clock;       /* time samples by the thread's CPU time instead of the wall clock */
} bench_opts;

/** Defaults: 20 ms warm-up, >= 2 ms samples, 7..41 samples within ~200 ms per case, CPU clock. */
bench_opts bench_opts_default(void);
/** Shorter settings for a smoke run (--quick). */
bench_opts bench_opts_quick(void);

/** Warm up and calibrate every case, then take samples round by round, the
 *  cases interleaved (order rotated each round) so that drift and noise from
 *  other processes hit all of them alike. Each sample shorter than
 *  min_sample_ns per call is preceded by one untimed call (the previous case
 *  may have evicted caches).
 *  With o->cpu_clock (the default), samples are timed by the thread's CPU
 *  time, which leaves out the time other processes ran on the CPU; on a shared
 *  machine the wall clock would charge their slices to whatever case was
 *  running. With the wall clock (bench_now_ns), a sample during which the
 *  thread was switched out (getrusage context switches) is left out and
 *  retaken in extra rounds (at most twice the planned rounds, within twice the
 *  planned time); if fewer than half the planned samples are clean,
 *  statistics use all samples (st.all_samples). Returns the number of rounds. */
int bench_run_interleaved(bench_case *cases, size_t n, const bench_opts *o);

/** Throughput in GB/s (10^9 bytes per second) for `bytes` processed in `ns`. */
static inline double bench_gbps(size_t bytes, double ns) { return ns > 0 ? (double)bytes / ns : 0; }

/* ------------------------------------------------------------------------ */
/* Statistics helpers                                                       */
/* ------------------------------------------------------------------------ */

/** Running geometric mean. */
typedef struct bench_geo {
    double log_sum;
    int n;
} bench_geo;
static inline void bench_geo_add(bench_geo *g, double x)
{
    if (x > 0) {
        g->log_sum += log(x);
        g->n++;
    }
}
static inline double bench_geo_mean(const bench_geo *g) { return g->n ? exp(g->log_sum / g->n) : 0; }

/* ------------------------------------------------------------------------ */
/* Files                                                                    */
/* ------------------------------------------------------------------------ */

typedef struct bench_file {
    char *path;  /* as given */
    char *name;  /* last path component */
    char *data;  /* 64-byte aligned, exactly len bytes read (plus one NUL not counted) */
    size_t len;
} bench_file;

/** Read a whole file. Returns 0, or -1 with errno set. */
int bench_file_load(const char *path, bench_file *f);
void bench_file_free(bench_file *f);

/** Regular files of directory `dir`, sorted by name, as malloc'ed full paths.
 *  Returns the count, or -1 if the directory cannot be opened. */
int bench_list_dir(const char *dir, char ***paths);
void bench_list_free(char **paths, int n);

/** mkdir -p. Returns 0 or -1. */
int bench_mkdir_p(const char *dir);

/* ------------------------------------------------------------------------ */
/* Environment                                                              */
/* ------------------------------------------------------------------------ */

/** CPU model as in /proc/cpuinfo ("model name"), or "unknown". Static buffer. */
const char *bench_cpu_model(void);

/** Print CPU model, logical CPUs, pinning (sched affinity), compiler, flags and date. */
void bench_print_env(FILE *out);

#endif /* JDOC_BENCH_UTIL_H */
