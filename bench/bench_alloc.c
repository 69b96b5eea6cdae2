/* SPDX-License-Identifier: MIT */
/* The counting jdoc_allocator, and workload "alloc": allocations per jdoc_parse
 * after warm-up and memory per input byte over every corpus and generated file. */
#include "bench.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------------------ */
/* Counting allocator                                                       */
/* ------------------------------------------------------------------------ */

/* Each block starts with its size; 16 bytes keep malloc's alignment. */
#define HDR 16

static void *count_malloc(void *ud, size_t n)
{
    bench_alloc_counter *c = ud;
    unsigned char *b = malloc(n + HDR);
    if (!b)
        return NULL;
    memcpy(b, &n, sizeof n);
    c->allocs++;
    c->live += n;
    if (c->live > c->peak)
        c->peak = c->live;
    return b + HDR;
}

static void count_free(void *ud, void *p)
{
    bench_alloc_counter *c = ud;
    if (!p)
        return;
    unsigned char *b = (unsigned char *)p - HDR;
    size_t n;
    memcpy(&n, b, sizeof n);
    c->frees++;
    c->live -= n;
    free(b);
}

static void *count_realloc(void *ud, void *p, size_t n)
{
    bench_alloc_counter *c = ud;
    if (!p)
        return count_malloc(ud, n);
    unsigned char *b = (unsigned char *)p - HDR;
    size_t old;
    memcpy(&old, b, sizeof old);
    unsigned char *nb = realloc(b, n + HDR);
    if (!nb)
        return NULL;
    memcpy(nb, &n, sizeof n);
    c->allocs++;
    c->live = c->live - old + n;
    if (c->live > c->peak)
        c->peak = c->live;
    return nb + HDR;
}

jdoc_allocator bench_counting_allocator(bench_alloc_counter *c)
{
    return (jdoc_allocator){ count_malloc, count_realloc, count_free, c };
}

jdoc_parser *bench_counting_parser(const jdoc_allocator *a)
{
    jdoc_options o = { .kernel = JDOC_KERNEL_AUTO, .allocator = a };
    return jdoc_parser_new(&o);
}

double bench_allocs_per_call(const bench_alloc_counter *c, bench_fn fn, void *ctx, int calls)
{
    uint64_t before = c->allocs, acc = 0;
    for (int i = 0; i < calls; i++)
        acc += fn(ctx);
    bench_sink += acc;
    return (double)(c->allocs - before) / calls;
}

/* ------------------------------------------------------------------------ */
/* Workload "alloc"                                                         */
/* ------------------------------------------------------------------------ */

typedef struct one {
    jdoc_parser *p;
    const char *data;
    size_t len;
    bool stream;  /* NDJSON: jdoc_stream_begin + every jdoc_stream_next */
    int failed;
    size_t docs;
} one;

static uint64_t run_one(void *v)
{
    one *o = v;
    jdoc_doc *d;
    if (!o->stream) {
        if (jdoc_parse(o->p, o->data, o->len, &d) != JDOC_OK) {
            o->failed = 1;
            return 0;
        }
        return jdoc_doc_index_size(d);
    }
    if (jdoc_stream_begin(o->p, o->data, o->len) != JDOC_OK) {
        o->failed = 1;
        return 0;
    }
    jdoc_status st;
    size_t n = 0;
    while (jdoc_stream_next(o->p, &d, &st))
        n += st == JDOC_OK;
    o->docs = n;
    return n;
}

/* Measure one input with a fresh parser: warm-up, then allocations per call,
 * peak bytes; prints a line and a TSV row set. Returns allocs per call or -1. */
static double measure(const char *group, const char *name, const char *data, size_t len, bool stream, FILE *tsv,
                      bench_geo *geo_heap, bench_geo *geo_idx)
{
    bench_alloc_counter cnt = { 0 };
    jdoc_allocator a = bench_counting_allocator(&cnt);
    one o = { .p = bench_counting_parser(&a), .data = data, .len = len, .stream = stream };
    if (!o.p) {
        printf("%-34s jdoc_parser_new failed\n", name);
        return -1;
    }
    run_one(&o);
    if (o.failed) {
        const jdoc_error *e = jdoc_last_error(o.p);
        printf("%-34s skipped: not one JSON document (%s at offset %zu)\n", name, e->message, e->offset);
        jdoc_parser_free(o.p);
        return -1;
    }
    run_one(&o); /* warm-up: the second parse of the same size must not grow anything */
    double per = bench_allocs_per_call(&cnt, run_one, &o, 10);
    /* Index entries of the whole document (streams: of the last document only, so not shown). */
    double idx = 0;
    if (!stream) {
        jdoc_doc *d;
        if (jdoc_parse(o.p, data, len, &d) == JDOC_OK)
            idx = (double)jdoc_doc_index_size(d) * 8.0 / (double)len;
    }
    double heap = (double)cnt.peak / (double)len;
    printf("%-34s %10zu %12.2f %10.3f", name, len, per, heap);
    if (stream)
        printf(" %9s  (%zu documents)\n", "-", o.docs);
    else
        printf(" %9.3f\n", idx);
    char file[512];
    snprintf(file, sizeof file, "%s/%s", group, name);
    bench_tsv_value(tsv, "alloc", file, "jdoc", "allocs_per_parse", per, "allocs");
    char where[600];
    snprintf(where, sizeof where, "alloc %s", file);
    bench_goal_alloc(where, per);
    bench_tsv_value(tsv, "alloc", file, "jdoc", "peak_heap_bytes_per_byte", heap, "B/B");
    if (!stream)
        bench_tsv_value(tsv, "alloc", file, "jdoc", "index_bytes_per_byte", idx, "B/B");
    bench_geo_add(geo_heap, heap);
    if (!stream)
        bench_geo_add(geo_idx, idx);
    jdoc_parser_free(o.p);
    return per;
}

int bench_alloc(const bench_ctx *ctx)
{
    printf("\n== alloc: allocations per jdoc_parse after warm-up (goal 0) and memory per input byte\n");
    bench_print_impls();
    printf("one fresh parser per file, memory through a counting jdoc_allocator: 2 warm-up parses, then 10 counted;\n"
           "peakB/B: most bytes jdoc held at once / input bytes; idxB/B: jdoc_doc_index_size*8 / input bytes.\n"
           "The timed workloads (fetch, hotloop, small, streams) report the same for parse + their fetches.\n");
    char tsv_path[4096];
    FILE *tsv = bench_tsv_open(ctx, "alloc", tsv_path, sizeof tsv_path);
    printf("%-34s %10s %12s %10s %9s\n", "file", "bytes", "allocs/parse", "peakB/B", "idxB/B");
    static const char *const corpora[] = { "standard", "docker" };
    double worst = 0;
    char worst_where[512] = "";
    int files = 0;
    bench_geo geo_heap = { 0 }, geo_idx = { 0 };
    for (size_t ci = 0; ci < 2; ci++) {
        char dir[4096];
        snprintf(dir, sizeof dir, "%s/%s", ctx->corpus, corpora[ci]);
        char **paths;
        int n = bench_list_dir(dir, &paths);
        if (n < 0) {
            printf("[%s] skipped: cannot open %s (%s)\n", corpora[ci], dir, strerror(errno));
            continue;
        }
        for (int i = 0; i < n; i++) {
            const char *name = strrchr(paths[i], '/') + 1;
            if (ctx->filter && !strstr(name, ctx->filter))
                continue;
            bench_file f;
            if (bench_file_load(paths[i], &f) != 0 || f.len == 0) {
                printf("%-34s skipped: cannot read or empty\n", name);
                continue;
            }
            bool nd = strstr(name, ".ndjson") != NULL;
            double per = measure(corpora[ci], name, f.data, f.len, nd, tsv, &geo_heap, &geo_idx);
            if (per >= 0) {
                files++;
                if (per > worst || !worst_where[0]) {
                    worst = per;
                    snprintf(worst_where, sizeof worst_where, "%s/%s", corpora[ci], name);
                }
            }
            bench_file_free(&f);
        }
        bench_list_free(paths, n);
    }
    /* The generated Docker data of hotloop and streams. */
    static const struct { const char *name, *mode; unsigned n; bool stream; } gen[] = {
        { "containers_200.json", "list", 200, false },
        { "inspect_100.json", "inspect-array", 100, false },
        { "events_100000.ndjson", "events", 100000, true },
    };
    for (size_t g = 0; g < sizeof gen / sizeof gen[0]; g++) {
        if (ctx->filter && !strstr(gen[g].name, ctx->filter))
            continue;
        bench_file f;
        char src[512];
        if (bench_data_load(ctx, gen[g].name, gen[g].mode, gen[g].n, &f, src, sizeof src) != 0)
            continue;
        double per = measure("generated", gen[g].name, f.data, f.len, gen[g].stream, tsv, &geo_heap, &geo_idx);
        if (per >= 0) {
            files++;
            if (per > worst) {
                worst = per;
                snprintf(worst_where, sizeof worst_where, "generated/%s", gen[g].name);
            }
        }
        bench_file_free(&f);
    }
    printf("%-34s %10s %12.2f %10.3f %9.3f  (worst allocs/parse; geomeans of B/B)\n", "SUMMARY", "", worst,
           bench_geo_mean(&geo_heap), bench_geo_mean(&geo_idx));
    (void)files;
    if (tsv) {
        fclose(tsv);
        printf("TSV: %s\n", tsv_path);
    }
    return 0;
}
