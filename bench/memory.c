/* SPDX-License-Identifier: MIT */
/* Workload "memory": through a counting jdoc_allocator, on every corpus file
 * and the generated data: peak heap of one parse per input byte, allocations
 * per parse after warm-up, and allocations when the warm parser meets a
 * document 1% larger than any it has seen. NDJSON: one whole stream a "parse". */
#include "bench.h"

#include <stdlib.h>
#include <string.h>

typedef struct one {
    const char *data;
    size_t len;
    bool stream;
} one;

static uint64_t run_one(bench_case *c)
{
    const one *o = c->in;
    jdoc_doc *d;
    jdoc_status st;
    if (!o->stream) {
        c->failed |= jdoc_parse(c->p, o->data, o->len, &d) != JDOC_OK;
        return (uintptr_t)d;
    }
    c->failed |= jdoc_stream_begin(c->p, o->data, o->len) != JDOC_OK;
    size_t n = 0;
    while (jdoc_stream_next(c->p, &d, &st))
        n++, c->failed |= st != JDOC_OK;
    return c->count = n;
}

/* json wrapped as [json,[0,0,...,0]], about 1% longer: more bytes and more entries than json. */
static char *grow_1pct(const char *json, size_t len, size_t *out)
{
    size_t extra = len / 100 < 8 ? 8 : len / 100, n = len + extra;
    char *b = malloc(n);
    if (!b)
        return NULL;
    b[0] = '[';
    memcpy(b + 1, json, len);
    memcpy(b + 1 + len, ",[0", 3);
    size_t i = len + 4;
    for (; i + 4 <= n; i += 2)
        memcpy(b + i, ",0", 2);
    memcpy(b + i, "]]", 2);
    *out = i + 2;
    return b;
}

typedef struct totals {
    double worst_excess, worst_allocs;
    char excess_at[160], allocs_at[160];
    int files;
    FILE *tsv;
} totals;

static void measure(totals *t, const char *group, const bench_file *f)
{
    bench_alloc a;
    one o = { f->data, f->len, strstr(f->name, ".ndjson") || strstr(f->name, ".txt") };
    bench_case c = { .fn = run_one, .in = &o, .p = bench_counting_parser(&a, JDOC_KERNEL_AUTO) };
    char where[160];
    snprintf(where, sizeof where, "%s/%s", group, f->name);
    if (!c.p || (run_one(&c), c.failed)) {
        printf("%-40s skipped: %s\n", where, c.p ? jdoc_last_error(c.p)->message : "jdoc_parser_new failed");
        jdoc_parser_free(c.p);
        return;
    }
    double peak = (double)a.peak / (double)f->len, excess = a.peak > 65536 ? (double)(a.peak - 65536) / (double)f->len : 0;
    run_one(&c); /* warm-up: one more of the same size */
    double per = bench_allocs_per_call(&a, &c, 10);
    printf("%-40s %10zu %9.3f %10.3f %12.2f", where, f->len, peak, excess, per);
    bench_tsv_value(t->tsv, "memory", where, "jdoc", "peak_heap_bytes_per_byte", peak, "B/B");
    bench_tsv_value(t->tsv, "memory", where, "jdoc", "allocs_per_parse", per, "allocs");
    size_t blen;
    char *big = o.stream ? NULL : grow_1pct(f->data, f->len, &blen);
    if (big) {
        one ob = { big, blen, false };
        uint64_t before = a.allocs;
        c.in = &ob;
        run_one(&c);
        printf(" %10.0f%s\n", (double)(a.allocs - before), c.failed ? " (parse failed)" : "");
        bench_tsv_value(t->tsv, "memory", where, "jdoc", "allocs_at_1pct_larger", (double)(a.allocs - before), "allocs");
        free(big);
    } else {
        printf(" %10s  (%zu documents)\n", "-", c.count);
    }
    if (!t->files++ || excess > t->worst_excess)
        t->worst_excess = excess, snprintf(t->excess_at, sizeof t->excess_at, "%s", where);
    if (t->files == 1 || per > t->worst_allocs)
        t->worst_allocs = per, snprintf(t->allocs_at, sizeof t->allocs_at, "%s", where);
    jdoc_parser_free(c.p);
}

int bench_memory(void)
{
    static const char *const corpora[] = { "standard", "docker" };
    static const char *const gen[] = { "containers_200.json", "inspect_100.json", "events_100000.ndjson" };
    totals t = { .tsv = bench_tsv("memory") };
    printf("one fresh parser per file (default kernel), its memory counted: peakB/B = most bytes held at once in\n"
           "the first parse / input bytes; over64K: (peak - 64 KiB) / input bytes (0 below); allocs/parse: after one warm-up\n"
           "parse, over 10; +1%%: allocations of the warm parser's first parse of [file,[0,0,...]], 1%% longer.\n");
    printf("%-40s %10s %9s %10s %12s %10s\n", "file", "bytes", "peakB/B", "over64K", "allocs/parse", "allocs+1%");
    for (int ci = 0; ci < 2; ci++) {
        char dir[4096], **paths;
        snprintf(dir, sizeof dir, "%s/%s", bench_o.corpus, corpora[ci]);
        int n = bench_list(dir, NULL, &paths);
        for (int i = 0; i < n; i++) {
            bench_file f;
            if (bench_load(paths[i], &f) == 0)
                measure(&t, corpora[ci], &f);
            bench_file_free(&f);
        }
        bench_list_free(paths, n);
    }
    for (size_t i = 0; i < sizeof gen / sizeof gen[0]; i++) {
        bench_file f;
        if ((!bench_o.filter || strstr(gen[i], bench_o.filter)) && bench_load_data(gen[i], &f) == 0) {
            measure(&t, "generated", &f);
            bench_file_free(&f);
        }
    }
    if (t.tsv)
        fclose(t.tsv);
    if (!t.files)
        return 0;
    char d[256];
    snprintf(d, sizeof d, "largest of %d files: %s", t.files, t.excess_at);
    bench_goal("peak heap", "(peak heap - 64 KiB) / input bytes, every file", t.worst_excess, 2, false, d);
    snprintf(d, sizeof d, t.worst_allocs > 0 ? "largest of %d files: %s" : "%d files: none allocates", t.files,
             t.allocs_at);
    bench_goal("allocs", "allocations per parse after warm-up", t.worst_allocs, 0, false, d);
    return 0;
}
