/* SPDX-License-Identifier: MIT */
/* Workload "streams": 100k generated Docker events (NDJSON), one string field
 * per event: jdoc_stream_begin/next vs simdjson iterate_many/parse_many. */
#include "bench.h"
#include "peer_simdjson.h"

#include <stdlib.h>
#include <string.h>

#define EVENTS 100000u
static const char *const field = "Action"; /* in every event ("status" is not, e.g. network events) */

enum { V_JDOC, V_OD, V_DOM, NV };

static const bench_col cols[NV] = {
    { "jdoc:stream", "jdoc_stream", FAM_JDOC },
    { "OD:many", "simdjson_od_iterate_many", FAM_OD },
    { "DOM:many", "simdjson_dom_parse_many", FAM_DOM },
};

typedef struct variant {
    int kind;
    const bench_file *f;
    jdoc_parser *p;
    const jdoc_path *path;
    peer_simdjson *peer;
    bench_rec rec;
    int failed;
    int64_t rc;
    size_t docs;
} variant;

static uint64_t run_jdoc(void *vv)
{
    variant *x = vv;
    bench_rec_reset(&x->rec);
    if (jdoc_stream_begin(x->p, x->f->data, x->f->len) != JDOC_OK) {
        x->failed = 1;
        return 0;
    }
    jdoc_doc *d;
    jdoc_status st;
    size_t n = 0;
    while (jdoc_stream_next(x->p, &d, &st)) {
        jdoc_value v;
        const char *s;
        size_t len;
        if (st != JDOC_OK) {
            x->failed = 1;
            break;
        }
        if (jdoc_fetch_path(jdoc_root(d), x->path, &v) == JDOC_OK && jdoc_get_string(v, &s, &len) == JDOC_OK)
            bench_rec_str(&x->rec, s, len);
        else
            bench_rec_missing(&x->rec);
        n++;
    }
    x->docs = n;
    return x->rec.sum;
}

static uint64_t run_peer(void *vv)
{
    variant *x = vv;
    bench_rec_reset(&x->rec);
    int64_t rc = peer_simdjson_stream(x->peer, x->kind == V_OD ? PEER_STREAM_OD : PEER_STREAM_DOM, field, &x->rec);
    if (rc < 0) {
        x->failed = 1;
        x->rc = rc;
        return 0;
    }
    x->docs = (size_t)rc;
    return x->rec.sum;
}

static const bench_fn fns[NV] = { run_jdoc, run_peer, run_peer };

static void describe(size_t item, char *buf, size_t cap, void *ud)
{
    (void)ud;
    snprintf(buf, cap, "(event %zu, /%s)", item + 1, field);
}

int bench_streams(const bench_ctx *ctx)
{
    static const char *const name = "events_100000.ndjson";
    printf("\n== streams: NDJSON Docker events, read /%s of each, events per second (millions; higher is better)\n",
           field);
    bench_print_impls();
    printf("jdoc:stream jdoc_stream_begin (one index for the whole buffer) + jdoc_stream_next + jdoc_fetch_path\n"
           "OD:many     simdjson ondemand iterate_many (default 1 MB batches) + find_field_unordered\n"
           "DOM:many    simdjson dom parse_many + at_key\n"
           "Values checked equal first. jdoc/sj: time ratio best jdoc / best simdjson (lower is better; no goal set).\n");
    if (ctx->filter && !strstr(name, ctx->filter))
        return 0;
    bench_file f;
    char source[4600];
    if (bench_data_load(ctx, name, "events", EVENTS, &f, source, sizeof source) != 0)
        return 1;
    printf("data: %s\n", source);
    char tsv_path[4096];
    FILE *tsv = bench_tsv_open(ctx, "streams", tsv_path, sizeof tsv_path);
    peer_simdjson *peer = peer_simdjson_new();
    bench_alloc_counter cnt = { 0 };
    jdoc_allocator al = bench_counting_allocator(&cnt);
    char ptr[64];
    snprintf(ptr, sizeof ptr, "/%s", field);
    jdoc_path *path = jdoc_path_compile(ptr, strlen(ptr), JDOC_SYNTAX_POINTER, NULL);
    variant v[NV];
    int rc = 0;
    for (int i = 0; i < NV; i++)
        v[i] = (variant){ .kind = i, .f = &f, .path = path, .peer = peer };
    v[V_JDOC].p = bench_counting_parser(&al);
    if (!v[V_JDOC].p || !path) {
        printf("streams: jdoc_parser_new or jdoc_path_compile failed\n");
        rc = 1;
        goto out;
    }
    bool have_peer = peer && peer_simdjson_set_input(peer, f.data, f.len) == 0;
    bench_case cases[NV];
    for (int i = 0; i < NV; i++) {
        cases[i] = (bench_case){ .name = cols[i].label, .fn = fns[i], .ctx = &v[i], .bytes = f.len,
                                 .skip = i != V_JDOC && !have_peer };
        v[i].rec.full = 1;
        if (!cases[i].skip)
            fns[i](&v[i]);
    }
    if (v[V_JDOC].failed || v[V_JDOC].docs == 0) {
        const jdoc_error *e = jdoc_last_error(v[V_JDOC].p);
        printf("streams: jdoc cannot read %s: %s at offset %zu\n", name, e->message, e->offset);
        rc = 1;
        goto out;
    }
    for (int i = 1; i < NV; i++) {
        if (cases[i].skip)
            continue;
        if (v[i].failed) {
            printf("\nstreams: ABORTED: %s failed: %s\n", cols[i].label, peer_simdjson_error_message(v[i].rc));
            rc = 1;
            goto out;
        }
        if (!bench_rec_equal(&v[i].rec, &v[V_JDOC].rec) || v[i].docs != v[V_JDOC].docs) {
            bench_check_fail("streams", name, cols[i].label, cols[V_JDOC].label, &v[i].rec, &v[V_JDOC].rec, describe,
                             NULL);
            rc = 1;
            goto out;
        }
    }
    size_t docs = v[V_JDOC].docs;
    uint64_t want = v[V_JDOC].rec.sum;
    for (int i = 0; i < NV; i++)
        bench_rec_free(&v[i].rec);

    bench_run_interleaved(cases, NV, &ctx->wopts);

    for (int i = 0; i < NV; i++) {
        if (!cases[i].skip && (v[i].failed || v[i].rec.sum != want)) {
            printf("\nstreams: ABORTED: %s %s during timing\n", cols[i].label,
                   v[i].failed ? "failed" : "returned other values");
            rc = 1;
            goto out;
        }
    }
    double allocs = bench_allocs_per_call(&cnt, run_jdoc, &v[V_JDOC], 3);
    double heap = (double)cnt.peak / (double)f.len;

    bench_unit u = { .metric = "events_per_s", .unit = "Mevents/s", .per_call = (double)docs, .scale = 1e-6,
                     .rate = true };
    bench_unit ns = { .metric = "ns_per_event", .unit = "ns", .per_call = (double)docs, .scale = 1 };
    bench_row row;
    bench_row_compute(cols, cases, NV, &row);
    printf("%-22s %9s %7s", "file", "bytes", "events");
    for (int i = 0; i < NV; i++)
        bench_print_head(cols[i].label);
    printf(" %8s %7s %6s %7s\n", "jdoc/sj", "faster", "allocs", "peakB/B");
    printf("%-22s %9zu %7zu", name, f.len, docs);
    for (int i = 0; i < NV; i++)
        bench_print_cell(&u, &cases[i], peer ? "err" : "n/a");
    if (row.ratio_sj > 0)
        printf(" %8.3f %6.2fx", row.ratio_sj, 1.0 / row.ratio_sj);
    else
        printf(" %8s %7s", "n/a", "");
    printf(" %6.2f %7.3f\n", allocs, heap);
    printf("%-22s %9s %7s", "  (ns per event)", "", "");
    for (int i = 0; i < NV; i++)
        bench_print_cell(&ns, &cases[i], peer ? "err" : "n/a");
    printf("\n");
    bench_tsv_rows(tsv, "streams", name, cols, cases, NV, &u, &row);
    bench_tsv_rows(tsv, "streams", name, cols, cases, NV, &ns, &row);
    bench_tsv_value(tsv, "streams", name, "jdoc", "allocs_per_parse", allocs, "allocs");
    bench_tsv_value(tsv, "streams", name, "jdoc", "peak_heap_bytes_per_byte", heap, "B/B");
    bench_goal_alloc("streams (per stream)", allocs);
    if (row.ratio_sj > 0) {
        char detail[256];
        snprintf(detail, sizeof detail, "%s vs %s, %.2f vs %.2f M events/s", cols[row.best_jdoc].label,
                 cols[row.best_sj].label, bench_unit_value(&u, row.t_jdoc), bench_unit_value(&u, row.t_sj));
        bench_goal_report(GOAL_STREAMS, row.ratio_sj, -1, detail);
    }
    if (tsv)
        printf("TSV: %s\n", tsv_path);
out:
    if (tsv)
        fclose(tsv);
    for (int i = 0; i < NV; i++)
        bench_rec_free(&v[i].rec);
    jdoc_path_free(path);
    jdoc_parser_free(v[V_JDOC].p);
    peer_simdjson_free(peer);
    bench_file_free(&f);
    return rc;
}
