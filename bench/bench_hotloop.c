/* SPDX-License-Identifier: MIT */
/* Workload "hotloop": a generated 200-container /containers/json and a
 * 100-container `docker inspect` array; parse, then 5 strings of every
 * element (Id, name, image, state, compose service label), ns per element. */
#include "bench.h"
#include "peer_simdjson.h"

#include <stdlib.h>
#include <string.h>

#define NF 5

typedef struct shape {
    const char *file, *mode, *what;
    unsigned n;
    int peer_shape;
    const char *oj[NF];  /* relative Oj::Doc paths (1-based indices) for jdoc */
    const char *ptr[NF]; /* the same as JSON Pointers for simdjson DOM */
} shape;

static const shape shapes[] = {
    { "containers_200.json", "list", "GET /containers/json, 200 containers", 200, PEER_SHAPE_LIST,
      { "Id", "Names/1", "Image", "State", "Labels/com.docker.compose.service" },
      { "/Id", "/Names/0", "/Image", "/State", "/Labels/com.docker.compose.service" } },
    { "inspect_100.json", "inspect-array", "docker inspect of 100 containers", 100, PEER_SHAPE_INSPECT,
      { "Id", "Name", "Config/Image", "State/Status", "Config/Labels/com.docker.compose.service" },
      { "/Id", "/Name", "/Config/Image", "/State/Status", "/Config/Labels/com.docker.compose.service" } },
};

enum { V_MANY, V_PATH, V_OD, V_DOM, NV };

static const bench_col cols[NV] = {
    { "jdoc:many", "jdoc_fetch_many", FAM_JDOC },
    { "jdoc:path", "jdoc_fetch_path", FAM_JDOC },
    { "OD:find", "simdjson_od_find_field", FAM_OD },
    { "DOM:ptr", "simdjson_dom_at_pointer", FAM_DOM },
};

typedef struct variant {
    int kind;
    const bench_file *f;
    jdoc_parser *p;
    jdoc_path *const *paths;
    peer_simdjson *peer;
    int peer_shape;
    bench_rec rec;
    int failed;
    int64_t rc;
    size_t elements, labels;
} variant;

static inline void read_str(bench_rec *r, jdoc_status st, jdoc_value v)
{
    const char *s;
    size_t n;
    if (st == JDOC_OK && jdoc_get_string(v, &s, &n) == JDOC_OK)
        bench_rec_str(r, s, n);
    else
        bench_rec_missing(r);
}

/* Parse once, iterate the elements, fetch_many the 5 compiled paths: one pass over each element's members. */
static uint64_t run_many(void *vv)
{
    variant *x = vv;
    bench_rec_reset(&x->rec);
    jdoc_doc *d;
    if (jdoc_parse(x->p, x->f->data, x->f->len, &d) != JDOC_OK) {
        x->failed = 1;
        return 0;
    }
    jdoc_iter it;
    jdoc_value e;
    size_t n = 0, labels = 0;
    jdoc_iter_init(jdoc_root(d), &it);
    while (jdoc_iter_next(&it, &e)) {
        jdoc_value v[NF];
        jdoc_status st[NF];
        jdoc_fetch_many(e, (const jdoc_path *const *)x->paths, NF, v, st);
        for (int k = 0; k < NF; k++)
            read_str(&x->rec, st[k], v[k]);
        labels += st[NF - 1] == JDOC_OK;
        n++;
    }
    x->failed |= it.status != JDOC_OK;
    x->elements = n;
    x->labels = labels;
    return x->rec.sum + labels;
}

/* The same with one jdoc_fetch_path per field. */
static uint64_t run_path(void *vv)
{
    variant *x = vv;
    bench_rec_reset(&x->rec);
    jdoc_doc *d;
    if (jdoc_parse(x->p, x->f->data, x->f->len, &d) != JDOC_OK) {
        x->failed = 1;
        return 0;
    }
    jdoc_iter it;
    jdoc_value e;
    size_t n = 0, labels = 0;
    jdoc_iter_init(jdoc_root(d), &it);
    while (jdoc_iter_next(&it, &e)) {
        for (int k = 0; k < NF; k++) {
            jdoc_value v;
            jdoc_status st = jdoc_fetch_path(e, x->paths[k], &v);
            read_str(&x->rec, st, v);
            if (k == NF - 1)
                labels += st == JDOC_OK;
        }
        n++;
    }
    x->failed |= it.status != JDOC_OK;
    x->elements = n;
    x->labels = labels;
    return x->rec.sum + labels;
}

static uint64_t run_peer(void *vv)
{
    variant *x = vv;
    bench_rec_reset(&x->rec);
    int64_t rc = peer_simdjson_hot(x->peer, x->kind == V_OD ? PEER_OD_NAV : PEER_DOM_POINTER, x->peer_shape, &x->rec);
    if (rc < 0) {
        x->failed = 1;
        x->rc = rc;
        return 0;
    }
    x->elements = (size_t)rc;
    return x->rec.sum;
}

static const bench_fn fns[NV] = { run_many, run_path, run_peer, run_peer };

static void describe(size_t item, char *buf, size_t cap, void *ud)
{
    const shape *s = ud;
    snprintf(buf, cap, "(element %zu, field %s)", item / NF, s->oj[item % NF]);
}

/* Returns 0, 1 when skipped, -1 when aborted. */
static int one_shape(const bench_ctx *ctx, const shape *s, peer_simdjson *peer, FILE *tsv, bench_row *row_out,
                     double *allocs_out)
{
    enum { W = 22 };
    bench_file f;
    char source[4600];
    if (bench_data_load(ctx, s->file, s->mode, s->n, &f, source, sizeof source) != 0)
        return 1;
    bench_alloc_counter cnt[2] = { { 0 } };
    jdoc_allocator al[2] = { bench_counting_allocator(&cnt[0]), bench_counting_allocator(&cnt[1]) };
    jdoc_path *paths[NF] = { 0 };
    variant v[NV];
    int rc = 0;
    for (int i = 0; i < NV; i++)
        v[i] = (variant){ .kind = i, .f = &f, .paths = paths, .peer = peer, .peer_shape = s->peer_shape };
    v[V_MANY].p = bench_counting_parser(&al[0]);
    v[V_PATH].p = bench_counting_parser(&al[1]);
    for (int k = 0; k < NF; k++) {
        jdoc_status st;
        paths[k] = jdoc_path_compile(s->oj[k], strlen(s->oj[k]), JDOC_SYNTAX_OJ, &st);
        if (!paths[k]) {
            printf("%-*s skipped: jdoc_path_compile(\"%s\"): %s\n", W, s->file, s->oj[k], jdoc_status_str(st));
            rc = 1;
            goto out;
        }
    }
    if (!v[V_MANY].p || !v[V_PATH].p) {
        printf("%-*s skipped: jdoc_parser_new failed\n", W, s->file);
        rc = 1;
        goto out;
    }
    size_t lens[NF];
    char types[NF];
    for (int k = 0; k < NF; k++)
        lens[k] = strlen(s->ptr[k]), types[k] = 's';
    bool have_peer = peer && peer_simdjson_set_input(peer, f.data, f.len) == 0 &&
                     peer_simdjson_set_paths(peer, NF, s->ptr, lens, types) == 0;

    bench_case cases[NV];
    for (int i = 0; i < NV; i++) {
        cases[i] = (bench_case){ .name = cols[i].label, .fn = fns[i], .ctx = &v[i], .bytes = f.len,
                                 .skip = cols[i].fam != FAM_JDOC && !have_peer };
        v[i].rec.full = 1;
        if (!cases[i].skip)
            fns[i](&v[i]);
    }
    if (v[V_MANY].failed || v[V_MANY].elements == 0) {
        const jdoc_error *e = jdoc_last_error(v[V_MANY].p);
        printf("%-*s skipped: not an array of objects for jdoc (%s at offset %zu)\n", W, s->file, e->message,
               e->offset);
        rc = 1;
        goto out;
    }
    for (int i = 0; i < NV; i++) {
        if (cases[i].skip || i == V_MANY)
            continue;
        if (v[i].failed) {
            printf("\nhotloop: ABORTED on %s: %s failed: %s\n", s->file, cols[i].label,
                   cols[i].fam == FAM_JDOC ? "jdoc_parse or iteration" : peer_simdjson_error_message(v[i].rc));
            rc = -1;
            goto out;
        }
        if (!bench_rec_equal(&v[i].rec, &v[V_MANY].rec) || v[i].elements != v[V_MANY].elements) {
            rc = bench_check_fail("hotloop", s->file, cols[i].label, cols[V_MANY].label, &v[i].rec, &v[V_MANY].rec,
                                  describe, (void *)s);
            goto out;
        }
    }
    size_t elements = v[V_MANY].elements, labels = v[V_MANY].labels;
    uint64_t want = v[V_MANY].rec.sum;
    for (int i = 0; i < NV; i++)
        bench_rec_free(&v[i].rec);

    bench_run_interleaved(cases, NV, &ctx->wopts);

    for (int i = 0; i < NV; i++) {
        if (!cases[i].skip && (v[i].failed || v[i].rec.sum != want)) {
            printf("\nhotloop: ABORTED on %s: %s %s during timing\n", s->file, cols[i].label,
                   v[i].failed ? "failed" : "returned other values");
            rc = -1;
            goto out;
        }
    }
    double a0 = bench_allocs_per_call(&cnt[0], run_many, &v[V_MANY], 10);
    double a1 = bench_allocs_per_call(&cnt[1], run_path, &v[V_PATH], 10);
    double allocs = a0 > a1 ? a0 : a1;
    double heap = (double)cnt[0].peak / (double)f.len;

    bench_unit u = { .metric = "ns_per_element", .unit = "ns", .per_call = (double)elements, .scale = 1 };
    bench_row row;
    bench_row_compute(cols, cases, NV, &row);
    printf("%-*s %8zu %5zu %6zu", W, s->file, f.len, elements, labels);
    for (int i = 0; i < NV; i++)
        bench_print_cell(&u, &cases[i], peer ? "err" : "n/a");
    if (row.ratio_od > 0)
        printf(" %7.3f %6.2fx %7.3f", row.ratio_od, 1.0 / row.ratio_od, row.ratio_sj);
    else
        printf(" %7s %7s %7s", "n/a", "", "n/a");
    printf(" %6.2f %7.3f\n", allocs, heap);
    printf("  data: %s\n", source);
    bench_tsv_rows(tsv, "hotloop", s->file, cols, cases, NV, &u, &row);
    bench_tsv_value(tsv, "hotloop", s->file, "jdoc", "allocs_per_parse", allocs, "allocs");
    bench_tsv_value(tsv, "hotloop", s->file, "jdoc", "peak_heap_bytes_per_byte", heap, "B/B");
    *row_out = row;
    *allocs_out = allocs;
out:
    for (int i = 0; i < NV; i++)
        bench_rec_free(&v[i].rec);
    for (int k = 0; k < NF; k++)
        jdoc_path_free(paths[k]);
    jdoc_parser_free(v[V_MANY].p);
    jdoc_parser_free(v[V_PATH].p);
    bench_file_free(&f);
    return rc;
}

int bench_hotloop(const bench_ctx *ctx)
{
    printf("\n== hotloop: parse + 5 strings of every element of a Docker array, ns per element (parse included)\n");
    bench_print_impls();
    printf("fields: Id, first name, image, state, compose service label (list: Names/1, State, Labels/...;\n"
           "inspect: Name, Config/Image, State/Status, Config/Labels/...); a missing label counts as missing.\n"
           "jdoc:many  jdoc_parse + jdoc_iter + jdoc_fetch_many(5 compiled relative Oj paths) + jdoc_get_string\n"
           "jdoc:path  the same with 5 jdoc_fetch_path per element\n"
           "OD:find    On Demand: iterate the array, find_field_unordered per field in document order\n"
           "DOM:ptr    DOM parse + element.at_pointer per field\n"
           "Values checked equal first. jdoc/OD: best jdoc / On Demand (goal <= 0.667, 1.5x); jdoc/sj: / best simdjson.\n");
    char tsv_path[4096];
    FILE *tsv = bench_tsv_open(ctx, "hotloop", tsv_path, sizeof tsv_path);
    peer_simdjson *peer = peer_simdjson_new();
    printf("%-22s %8s %5s %6s", "file", "bytes", "elems", "labels");
    for (int i = 0; i < NV; i++)
        bench_print_head(cols[i].label);
    printf(" %7s %7s %7s %6s %7s\n", "jdoc/OD", "faster", "jdoc/sj", "allocs", "peakB/B");
    int rc = 0, n = 0, all_met = 1;
    bench_geo geo = { 0 };
    char detail[512] = "";
    for (size_t i = 0; i < sizeof shapes / sizeof shapes[0] && rc == 0; i++) {
        if (ctx->filter && !strstr(shapes[i].file, ctx->filter))
            continue;
        bench_row row = { .best_jdoc = -1, .best_sj = -1, .best_od = -1 };
        double allocs = 0;
        int r = one_shape(ctx, &shapes[i], peer, tsv, &row, &allocs);
        if (r < 0)
            rc = 1;
        if (r != 0)
            continue;
        char ad[300];
        snprintf(ad, sizeof ad, "hotloop %s", shapes[i].file);
        bench_goal_alloc(ad, allocs);
        if (row.ratio_od > 0) {
            n++;
            bench_geo_add(&geo, row.ratio_od);
            all_met &= row.ratio_od <= 1 / 1.5;
            size_t l = strlen(detail);
            snprintf(detail + l, sizeof detail - l, "%s%s %.3f", l ? ", " : "jdoc/OD: ", shapes[i].file, row.ratio_od);
        }
    }
    if (rc == 0 && n) {
        double g = bench_geo_mean(&geo);
        printf("GEOMEAN jdoc/OD %.3f (%.2fx faster)\n", g, 1 / g);
        bench_goal_report(GOAL_HOTLOOP, g, all_met, detail);
    }
    if (tsv) {
        fclose(tsv);
        printf("TSV: %s\n", tsv_path);
    }
    peer_simdjson_free(peer);
    return rc;
}
