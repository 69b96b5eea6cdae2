/* SPDX-License-Identifier: MIT */
/* jdoc benchmark driver: prints the environment (CPU, compiler, jdoc and
 * simdjson versions, kernels), runs the registered workloads, then the goals. */
#include "bench.h"
#include "peer_simdjson.h"

#include <stdlib.h>
#include <string.h>

#include "jdoc.h"

#ifndef BENCH_PATHS_DIR
#define BENCH_PATHS_DIR "bench/paths"
#endif

/* Each workload lives in its own bench/bench_<name>.c. */
static const bench_workload workloads[] = {
    { "parse", "stage 1 (jdoc_parse) throughput vs memchr, memcpy, simdjson", bench_parse },
    { "fetch", "parse + 5-10 typed paths per document (bench/paths/*.txt) vs simdjson OD/DOM", bench_fetch },
    { "hotloop", "5 fields of every element of generated Docker arrays vs simdjson", bench_hotloop },
    { "small", "parse + 3 fields of small Docker responses (bench/paths/small/*.txt)", bench_small },
    { "streams", "one field of each of 100k NDJSON Docker events vs iterate_many/parse_many", bench_streams },
    { "alloc", "allocations per parse after warm-up, memory per input byte (every corpus file)", bench_alloc },
};
#define NWORKLOADS (sizeof workloads / sizeof workloads[0])

static void usage(FILE *out)
{
    fprintf(out,
            "usage: bench [--corpus DIR] [--out DIR] [--data DIR] [--paths DIR] [--filter SUBSTRING] [--quick]\n"
            "             [--clock cpu|wall] [WORKLOAD...]\n"
            "       bench --gen list|inspect-array|events N   (the fallback Docker generator, to stdout)\n"
            "  --corpus DIR  corpus root with standard/ and docker/ (default ../shared/corpus)\n"
            "  --out DIR     directory for the TSV files (default build/bench)\n"
            "  --data DIR    generated Docker data (default OUT/data; missing files: generated in memory)\n"
            "  --paths DIR   path lists of fetch and small (default " BENCH_PATHS_DIR ")\n"
            "  --filter S    only files whose name contains S\n"
            "  --quick       fewer, shorter samples (smoke test; numbers are rougher)\n"
            "  --clock C     cpu: time samples by thread CPU time (default); wall: monotonic clock\n"
            "workloads (default: all):\n");
    for (size_t i = 0; i < NWORKLOADS; i++)
        fprintf(out, "  %-8s %s\n", workloads[i].name, workloads[i].what);
    fprintf(out, "TSV: OUT/WORKLOAD.tsv (workload file impl metric median min max unit ratio; ratio = time / the\n"
                 "best simdjson time on that file), OUT/meta.tsv (CPU, date) for `make bench-chart`.\n");
}

static void print_versions(void)
{
    printf("jdoc:        %s (header %s)\n", jdoc_version(), JDOC_VERSION_STRING);
    printf("kernels:    ");
    for (int k = JDOC_KERNEL_AUTO + 1; k < JDOC_KERNEL_COUNT; k++) {
        const char *name = jdoc_kernel_id_name((jdoc_kernel_id)k);
        if (jdoc_kernel_supported((jdoc_kernel_id)k))
            printf(" %s", name);
        else if (jdoc_kernel_compiled((jdoc_kernel_id)k))
            printf(" %s (compiled in, unsupported by this CPU/OS: skipped)", name);
    }
    jdoc_parser *p = jdoc_parser_new(NULL);
    printf("; default: %s\n", p ? jdoc_kernel_name(p) : "(jdoc_parser_new failed)");
    jdoc_parser_free(p);
    if (peer_simdjson_available()) {
        printf("simdjson:    %s, active implementation %s (%s); On Demand compiled for %s\n",
               peer_simdjson_version(), peer_simdjson_impl(), peer_simdjson_impl_desc(), peer_simdjson_builtin());
        printf("peer build:  %s\n", peer_simdjson_compiler());
    } else {
        printf("simdjson:    n/a (not built: header /usr/include/simdjson.h, libsimdjson or g++ missing)\n");
    }
}

/* CPU and date for the chart's title. */
static void write_meta(const bench_ctx *ctx)
{
    char path[4096], date[64];
    snprintf(path, sizeof path, "%s/meta.tsv", ctx->out_dir);
    if (bench_mkdir_p(ctx->out_dir) != 0)
        return;
    FILE *fp = fopen(path, "w");
    if (!fp)
        return;
    time_t now = time(NULL);
    struct tm tm;
    gmtime_r(&now, &tm);
    strftime(date, sizeof date, "%Y-%m-%d", &tm);
    jdoc_parser *p = jdoc_parser_new(NULL);
    fprintf(fp, "cpu\t%s\ndate\t%s\njdoc_kernel\t%s\nsimdjson\t%s %s\n", bench_cpu_model(), date,
            p ? jdoc_kernel_name(p) : "?", peer_simdjson_version(), peer_simdjson_impl());
    jdoc_parser_free(p);
    fclose(fp);
}

int main(int argc, char **argv)
{
    if (argc >= 2 && !strcmp(argv[1], "--gen"))
        return bench_gen_main(argc - 2, argv + 2);
    bench_ctx ctx = { .corpus = "../shared/corpus", .out_dir = "build/bench", .paths_dir = BENCH_PATHS_DIR,
                      .opts = bench_opts_default() };
    bool quick = false;
    int clk = -1; /* -1: the opts default, 0: wall, 1: cpu */
    const char *selected[16];
    int nsel = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--corpus") && i + 1 < argc) {
            ctx.corpus = argv[++i];
        } else if (!strcmp(a, "--out") && i + 1 < argc) {
            ctx.out_dir = argv[++i];
        } else if (!strcmp(a, "--data") && i + 1 < argc) {
            ctx.data_dir = argv[++i];
        } else if (!strcmp(a, "--paths") && i + 1 < argc) {
            ctx.paths_dir = argv[++i];
        } else if (!strcmp(a, "--filter") && i + 1 < argc) {
            ctx.filter = argv[++i];
        } else if (!strcmp(a, "--quick")) {
            quick = true;
        } else if (!strcmp(a, "--clock") && i + 1 < argc && (!strcmp(argv[i + 1], "wall") ||
                                                            !strcmp(argv[i + 1], "cpu"))) {
            clk = !strcmp(argv[++i], "cpu");
        } else if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
            usage(stdout);
            return 0;
        } else if (a[0] != '-' && nsel < 16) {
            selected[nsel++] = a;
        } else {
            usage(stderr);
            return 2;
        }
    }
    if (quick)
        ctx.opts = bench_opts_quick();
    if (clk >= 0)
        ctx.opts.cpu_clock = clk;
    ctx.wopts = ctx.opts;
    if (!quick) {
        ctx.wopts.budget_ns = 600e6;
        ctx.wopts.min_rounds = 11;
        ctx.wopts.max_rounds = 101;
    }
    for (int s = 0; s < nsel; s++) {
        size_t i = 0;
        while (i < NWORKLOADS && strcmp(workloads[i].name, selected[s]) != 0)
            i++;
        if (i == NWORKLOADS) {
            fprintf(stderr, "bench: unknown workload '%s'\n", selected[s]);
            usage(stderr);
            return 2;
        }
    }

    printf("jdoc benchmark\n");
    bench_print_env(stdout);
    print_versions();
    printf("method:      warm-up %.0f ms per case; samples of >= %.0f ms of repeated calls (one untimed call\n"
           "             before each, unless one call is longer); %d..%d samples per case (fetch, hotloop, small,\n"
           "             streams: %d..%d), cases interleaved round by round; median reported\n",
           ctx.opts.warmup_ns / 1e6, ctx.opts.min_sample_ns / 1e6, ctx.opts.min_rounds, ctx.opts.max_rounds,
           ctx.wopts.min_rounds, ctx.wopts.max_rounds);
    if (ctx.opts.cpu_clock)
        printf("clock:       thread CPU time (CLOCK_THREAD_CPUTIME_ID): time other processes run on this CPU is\n"
               "             not counted (--clock wall: monotonic clock, switched-out samples left out)\n");
    else
        printf("clock:       wall (CLOCK_MONOTONIC); samples during which the thread was switched out are left\n"
               "             out and retaken (--clock cpu: thread CPU time)\n");

    write_meta(&ctx);
    int rc = 0;
    uint64_t t0 = bench_now_ns();
    for (size_t i = 0; i < NWORKLOADS; i++) {
        bool run = nsel == 0;
        for (int s = 0; s < nsel; s++)
            run |= !strcmp(selected[s], workloads[i].name);
        if (!run)
            continue;
        uint64_t t = bench_now_ns();
        if (workloads[i].run(&ctx) != 0)
            rc = 1;
        printf("(%s: %.1f s)\n", workloads[i].name, (double)(bench_now_ns() - t) / 1e9);
        fflush(stdout);
    }
    bench_goals_print(stdout);
    printf("total: %.1f s\n", (double)(bench_now_ns() - t0) / 1e9);
    return rc;
}
