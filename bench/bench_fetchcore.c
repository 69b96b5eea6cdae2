/* SPDX-License-Identifier: MIT */
/* Fetch by path for workloads "fetch" and "small": path lists, five variants
 * (jdoc pointer, jdoc compiled path, simdjson OD at_pointer, OD hand-written
 * navigation, DOM at_pointer), the value check, timing and one report row. */
#include "bench_fetchcore.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* ------------------------------------------------------------------------ */
/* Path lists                                                               */
/* ------------------------------------------------------------------------ */

int pathlist_load(const char *path, pathlist *pl)
{
    memset(pl, 0, sizeof *pl);
    snprintf(pl->path, sizeof pl->path, "%s", path);
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    snprintf(pl->name, sizeof pl->name, "%.*s", (int)(strlen(base) > 4 ? strlen(base) - 4 : strlen(base)), base);
    FILE *fp = fopen(path, "r");
    if (!fp) {
        printf("%s: cannot open (%s)\n", path, strerror(errno));
        return -1;
    }
    char line[4096];
    int ln = 0;
    while (fgets(line, sizeof line, fp)) {
        ln++;
        line[strcspn(line, "\r\n")] = 0;
        if (!line[0] || line[0] == '#')
            continue;
        if (!strchr("siudb", line[0]) || line[1] != ' ' || line[2] != '/') {
            printf("%s:%d: expected 'T /pointer' with T one of s i u d b: %s\n", path, ln, line);
            fclose(fp);
            pathlist_free(pl);
            return -1;
        }
        if (pl->n == FETCH_MAX_PATHS) {
            printf("%s:%d: more than %d paths\n", path, ln, FETCH_MAX_PATHS);
            fclose(fp);
            pathlist_free(pl);
            return -1;
        }
        pl->types[pl->n] = line[0];
        pl->ptrs[pl->n] = strdup(line + 2);
        pl->lens[pl->n] = strlen(line + 2);
        pl->lines[pl->n] = ln;
        pl->n++;
    }
    fclose(fp);
    if (pl->n == 0) {
        printf("%s: no paths\n", path);
        return -1;
    }
    return 0;
}

void pathlist_free(pathlist *pl)
{
    for (int i = 0; i < pl->n; i++)
        free(pl->ptrs[i]);
    pl->n = 0;
}

int pathlist_dir(const char *dir, char ***lists)
{
    char **all;
    int n = bench_list_dir(dir, &all);
    if (n < 0)
        return -1;
    int k = 0;
    for (int i = 0; i < n; i++) {
        size_t l = strlen(all[i]);
        if (l > 4 && !strcmp(all[i] + l - 4, ".txt"))
            all[k++] = all[i];
        else
            free(all[i]);
    }
    *lists = all;
    return k;
}

int pathlist_input(const char *corpus, const char *name, char *out, size_t cap)
{
    static const char *const sub[] = { "standard", "docker" };
    for (int i = 0; i < 2; i++) {
        struct stat sb;
        snprintf(out, cap, "%s/%s/%s.json", corpus, sub[i], name);
        if (stat(out, &sb) == 0 && S_ISREG(sb.st_mode))
            return 0;
    }
    return -1;
}

/* ------------------------------------------------------------------------ */
/* Variants                                                                 */
/* ------------------------------------------------------------------------ */

enum { V_JDOC_PTR = FETCH_JDOC_PTR, V_JDOC_PATH = FETCH_JDOC_PATH, V_JDOC_MANY = FETCH_JDOC_MANY, V_OD_PTR = FETCH_OD_PTR,
       V_OD_NAV = FETCH_OD_NAV, V_DOM_PTR = FETCH_DOM_PTR, NV = FETCH_NV };

static const bench_col cols[NV] = {
    { "jdoc:ptr", "jdoc_pointer", FAM_JDOC },
    { "jdoc:path", "jdoc_fetch_path", FAM_JDOC },
    { "jdoc:many", "jdoc_fetch_many", FAM_JDOC },
    { "OD:ptr", "simdjson_od_at_pointer", FAM_OD },
    { "OD:nav", "simdjson_od_find_field", FAM_OD },
    { "DOM:ptr", "simdjson_dom_at_pointer", FAM_DOM },
};

typedef struct variant {
    int kind;
    const pathlist *pl;
    const bench_file *f;
    jdoc_parser *p;            /* jdoc variants */
    jdoc_path *const *compiled;
    peer_simdjson *peer;       /* simdjson variants */
    bench_rec rec;
    int failed;
    int64_t rc;                /* simdjson's error, negative */
} variant;

static void jdoc_read(jdoc_value v, char t, bench_rec *r)
{
    switch (t) {
    case 's': {
        const char *s;
        size_t n;
        if (jdoc_get_string(v, &s, &n) == JDOC_OK)
            bench_rec_str(r, s, n);
        else
            bench_rec_missing(r);
        break;
    }
    case 'i': {
        int64_t x;
        if (jdoc_get_int64(v, &x) == JDOC_OK)
            bench_rec_i64(r, x);
        else
            bench_rec_missing(r);
        break;
    }
    case 'u': {
        uint64_t x;
        if (jdoc_get_uint64(v, &x) == JDOC_OK)
            bench_rec_u64(r, x);
        else
            bench_rec_missing(r);
        break;
    }
    case 'd': {
        double x;
        if (jdoc_get_double(v, &x) == JDOC_OK)
            bench_rec_f64(r, x);
        else
            bench_rec_missing(r);
        break;
    }
    case 'b': {
        bool x;
        if (jdoc_get_bool(v, &x) == JDOC_OK)
            bench_rec_bool(r, x);
        else
            bench_rec_missing(r);
        break;
    }
    default:
        bench_rec_missing(r);
    }
}

/* (a) jdoc_pointer per path from the root: the pointer is parsed on every call. */
static uint64_t run_jdoc_ptr(void *v)
{
    variant *x = v;
    const pathlist *pl = x->pl;
    bench_rec_reset(&x->rec);
    jdoc_doc *d;
    if (jdoc_parse(x->p, x->f->data, x->f->len, &d) != JDOC_OK) {
        x->failed = 1;
        return 0;
    }
    jdoc_value root = jdoc_root(d), out;
    for (int i = 0; i < pl->n; i++) {
        if (jdoc_pointer(root, pl->ptrs[i], pl->lens[i], &out) == JDOC_OK)
            jdoc_read(out, pl->types[i], &x->rec);
        else
            bench_rec_missing(&x->rec);
    }
    return x->rec.sum;
}

/* (b) paths compiled once (outside timing) + jdoc_fetch_path. */
static uint64_t run_jdoc_path(void *v)
{
    variant *x = v;
    const pathlist *pl = x->pl;
    bench_rec_reset(&x->rec);
    jdoc_doc *d;
    if (jdoc_parse(x->p, x->f->data, x->f->len, &d) != JDOC_OK) {
        x->failed = 1;
        return 0;
    }
    jdoc_value root = jdoc_root(d), out;
    for (int i = 0; i < pl->n; i++) {
        if (jdoc_fetch_path(root, x->compiled[i], &out) == JDOC_OK)
            jdoc_read(out, pl->types[i], &x->rec);
        else
            bench_rec_missing(&x->rec);
    }
    return x->rec.sum;
}

/* (c) all compiled paths at once: jdoc_fetch_many from the root, one pass
 * over the root's members for the paths' first steps. */
static uint64_t run_jdoc_many(void *v)
{
    variant *x = v;
    const pathlist *pl = x->pl;
    bench_rec_reset(&x->rec);
    jdoc_doc *d;
    if (jdoc_parse(x->p, x->f->data, x->f->len, &d) != JDOC_OK) {
        x->failed = 1;
        return 0;
    }
    jdoc_value out[64];
    jdoc_status st[64];
    int n = pl->n < 64 ? pl->n : 64;
    jdoc_fetch_many(jdoc_root(d), (const jdoc_path *const *)x->compiled, (size_t)n, out, st);
    for (int i = 0; i < n; i++) {
        if (st[i] == JDOC_OK)
            jdoc_read(out[i], pl->types[i], &x->rec);
        else
            bench_rec_missing(&x->rec);
    }
    return x->rec.sum;
}

static uint64_t run_peer(void *v)
{
    variant *x = v;
    static const int mode[NV] = { [V_OD_PTR] = PEER_OD_POINTER, [V_OD_NAV] = PEER_OD_NAV,
                                  [V_DOM_PTR] = PEER_DOM_POINTER };
    bench_rec_reset(&x->rec);
    int64_t rc = peer_simdjson_fetch(x->peer, mode[x->kind], &x->rec);
    if (rc < 0) {
        x->failed = 1;
        x->rc = rc;
    }
    return x->rec.sum;
}

static const bench_fn fns[NV] = { run_jdoc_ptr, run_jdoc_path, run_jdoc_many, run_peer, run_peer, run_peer };

/* ------------------------------------------------------------------------ */
/* One document                                                             */
/* ------------------------------------------------------------------------ */

static void describe_path(size_t item, char *buf, size_t cap, void *ud)
{
    const pathlist *pl = ud;
    if (item < (size_t)pl->n)
        snprintf(buf, cap, "(path %c %s, %s:%d)", pl->types[item], pl->ptrs[item], pl->path, pl->lines[item]);
}

void fetch_print_header(int name_w)
{
    printf("%-*s %8s %5s", name_w, "file", "bytes", "paths");
    for (int i = 0; i < NV; i++)
        bench_print_head(cols[i].label);
    printf(" %8s %7s %-14s %6s %7s\n", "jdoc/sj", "faster", "best jdoc/sj", "allocs", "peakB/B");
}

int fetch_measure(const bench_ctx *ctx, const char *workload, const char *label, int name_w, const pathlist *pl,
                  const bench_file *f, peer_simdjson *peer, const bench_unit *u, FILE *tsv, fetch_result *res)
{
    memset(res, 0, sizeof *res);
    variant v[NV];
    bench_alloc_counter cnt[3] = { { 0 } };
    jdoc_allocator al[3] = { bench_counting_allocator(&cnt[0]), bench_counting_allocator(&cnt[1]),
                             bench_counting_allocator(&cnt[2]) };
    jdoc_path *compiled[FETCH_MAX_PATHS] = { 0 };
    int rc = 0;
    for (int i = 0; i < NV; i++)
        v[i] = (variant){ .kind = i, .pl = pl, .f = f, .compiled = compiled, .peer = peer };
    v[V_JDOC_PTR].p = bench_counting_parser(&al[0]);
    v[V_JDOC_PATH].p = bench_counting_parser(&al[1]);
    v[V_JDOC_MANY].p = bench_counting_parser(&al[2]);
    if (!v[V_JDOC_PTR].p || !v[V_JDOC_PATH].p || !v[V_JDOC_MANY].p) {
        printf("%-*s skipped: jdoc_parser_new failed\n", name_w, label);
        rc = 1;
        goto out;
    }
    for (int i = 0; i < pl->n; i++) {
        jdoc_status st;
        compiled[i] = jdoc_path_compile(pl->ptrs[i], pl->lens[i], JDOC_SYNTAX_POINTER, &st);
        if (!compiled[i]) {
            printf("%-*s skipped: %s:%d: jdoc_path_compile(\"%s\"): %s\n", name_w, label, pl->path, pl->lines[i],
                   pl->ptrs[i], jdoc_status_str(st));
            rc = 1;
            goto out;
        }
    }
    /* The list must be right for this document: every path found, of its type. */
    {
        jdoc_doc *d;
        if (jdoc_parse(v[V_JDOC_PATH].p, f->data, f->len, &d) != JDOC_OK) {
            const jdoc_error *e = jdoc_last_error(v[V_JDOC_PATH].p);
            printf("%-*s skipped: jdoc_parse: %s at offset %zu\n", name_w, label, e->message, e->offset);
            rc = 1;
            goto out;
        }
        for (int i = 0; i < pl->n; i++) {
            bench_rec one = { .full = 1 };
            jdoc_value out;
            jdoc_status st = jdoc_fetch_path(jdoc_root(d), compiled[i], &out);
            if (st == JDOC_OK)
                jdoc_read(out, pl->types[i], &one);
            bool missing = st != JDOC_OK || (one.len > 0 && one.buf[0] == 'm');
            bench_rec_free(&one);
            if (missing) {
                printf("%-*s skipped: %s:%d: %c %s: %s in this document (jdoc_fetch_path: %s, then the %c getter)\n",
                       name_w, label, pl->path, pl->lines[i], pl->types[i], pl->ptrs[i],
                       st == JDOC_OK ? "not of that type" : "not found", jdoc_status_str(st), pl->types[i]);
                rc = 1;
                goto out;
            }
        }
        res->idx_bpb = (double)jdoc_doc_index_size(d) * 8.0 / (double)f->len;
    }
    bool have_peer = peer && peer_simdjson_set_input(peer, f->data, f->len) == 0 &&
                     peer_simdjson_set_paths(peer, (size_t)pl->n, (const char *const *)pl->ptrs, pl->lens,
                                             pl->types) == 0;
    if (peer && !have_peer)
        printf("(%s: simdjson cannot take the input or the paths: its columns say err)\n", label);

    /* Check: every variant's values, in full, against jdoc_fetch_path's
     * (bench_rec_equal also compares the digests, computed as in light mode). */
    bench_case cases[NV];
    for (int i = 0; i < NV; i++) {
        cases[i] = (bench_case){ .name = cols[i].label, .fn = fns[i], .ctx = &v[i], .bytes = f->len,
                                 .skip = cols[i].fam != FAM_JDOC && !have_peer };
        v[i].rec.full = 1;
    }
    for (int i = 0; i < NV; i++)
        if (!cases[i].skip)
            fns[i](&v[i]);
    for (int i = 0; i < NV; i++) {
        if (cases[i].skip || i == V_JDOC_PATH)
            continue;
        if (v[i].failed) {
            printf("\n%s: ABORTED on %s: %s failed: %s\n", workload, label, cols[i].label,
                   cols[i].fam == FAM_JDOC ? "jdoc_parse" : peer_simdjson_error_message(v[i].rc));
            rc = -1;
            goto out;
        }
        if (!bench_rec_equal(&v[i].rec, &v[V_JDOC_PATH].rec)) {
            rc = bench_check_fail(workload, label, cols[i].label, cols[V_JDOC_PATH].label, &v[i].rec,
                                  &v[V_JDOC_PATH].rec, describe_path, (void *)pl);
            goto out;
        }
    }
    uint64_t want = v[V_JDOC_PATH].rec.sum;
    for (int i = 0; i < NV; i++)
        bench_rec_free(&v[i].rec); /* full = 0: light mode from here */

    bench_run_interleaved(cases, NV, &ctx->wopts);

    for (int i = 0; i < NV; i++) {
        if (cases[i].skip)
            continue;
        if (v[i].failed || v[i].rec.sum != want) {
            printf("\n%s: ABORTED on %s: %s %s during timing\n", workload, label, cols[i].label,
                   v[i].failed ? "failed" : "returned other values");
            rc = -1;
            goto out;
        }
    }
    /* Allocations per call after warm-up (the timing was the warm-up). */
    double a0 = bench_allocs_per_call(&cnt[0], run_jdoc_ptr, &v[V_JDOC_PTR], 10);
    double a1 = bench_allocs_per_call(&cnt[1], run_jdoc_path, &v[V_JDOC_PATH], 10);
    double a2 = bench_allocs_per_call(&cnt[2], run_jdoc_many, &v[V_JDOC_MANY], 10);
    res->allocs = a0 > a1 ? a0 : a1;
    if (a2 > res->allocs)
        res->allocs = a2;
    res->heap_bpb = (double)cnt[1].peak / (double)f->len;

    bench_row_compute(cols, cases, NV, &res->row);
    for (int i = 0; i < NV; i++)
        res->t[i] = cases[i].skip ? 0 : cases[i].st.median;
    const bench_row *row = &res->row;
    printf("%-*s %8zu %5d", name_w, label, f->len, pl->n);
    for (int i = 0; i < NV; i++)
        bench_print_cell(u, &cases[i], cases[i].skip ? (peer ? "err" : "n/a") : "err");
    if (row->ratio_sj > 0) {
        char best[32];
        snprintf(best, sizeof best, "%s/%s", cols[row->best_jdoc].label + 5 /* after "jdoc:" */,
                 cols[row->best_sj].label);
        printf(" %8.3f %6.2fx %-14s", row->ratio_sj, 1.0 / row->ratio_sj, best);
    } else {
        printf(" %8s %7s %-14s", "n/a", "", "");
    }
    printf(" %6.2f %7.3f\n", res->allocs, res->heap_bpb);
    fflush(stdout);

    bench_tsv_rows(tsv, workload, label, cols, cases, NV, u, row);
    bench_tsv_value(tsv, workload, label, "jdoc", "allocs_per_parse", res->allocs, "allocs");
    bench_tsv_value(tsv, workload, label, "jdoc", "peak_heap_bytes_per_byte", res->heap_bpb, "B/B");
    bench_tsv_value(tsv, workload, label, "jdoc", "index_bytes_per_byte", res->idx_bpb, "B/B");
    rc = 0;
out:
    for (int i = 0; i < NV; i++)
        bench_rec_free(&v[i].rec);
    for (int i = 0; i < pl->n; i++)
        jdoc_path_free(compiled[i]);
    jdoc_parser_free(v[V_JDOC_PTR].p);
    jdoc_parser_free(v[V_JDOC_PATH].p);
    jdoc_parser_free(v[V_JDOC_MANY].p);
    return rc;
}
