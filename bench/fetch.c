/* SPDX-License-Identifier: MIT */
/* Workloads "fetch" and "small": parse + the typed paths of a path list
 * (paths/NAME.txt on corpus file NAME.json; paths/small/ for small Docker
 * responses), parser reused, jdoc against simdjson On Demand and DOM. */
#include "bench.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define MAXP 32

/* A path list: lines "T /json/pointer", T one of s i u d b (string, int64,
 * uint64, double, bool); '#' comments and blank lines skipped. */
typedef struct plist {
    const char *file;
    int n;
    char types[MAXP];
    char *ptrs[MAXP];
    int lines[MAXP];
    jdoc_path *compiled[MAXP];
    const bench_file *f;
} plist;

static void plist_free(plist *pl)
{
    for (int i = 0; i < pl->n; i++)
        free(pl->ptrs[i]), jdoc_path_free(pl->compiled[i]);
    pl->n = 0;
}

static int plist_load(const char *path, plist *pl)
{
    FILE *fp = fopen(path, "r");
    char line[4096];
    memset(pl, 0, sizeof *pl);
    pl->file = path;
    for (int ln = 1; fp && fgets(line, sizeof line, fp); ln++) {
        line[strcspn(line, "\r\n")] = 0;
        if (!line[0] || line[0] == '#')
            continue;
        jdoc_status st = JDOC_ERR_PATH;
        if (!strchr("siudb", line[0]) || line[1] != ' ' || pl->n == MAXP ||
            !(pl->compiled[pl->n] = jdoc_path_compile(line + 2, strlen(line + 2), JDOC_SYNTAX_POINTER, &st))) {
            printf("%s:%d: expected 'T /pointer' (T: s i u d b), at most %d: %s (%s)\n", path, ln, MAXP, line,
                   jdoc_status_str(st));
            fclose(fp);
            return plist_free(pl), -1;
        }
        pl->types[pl->n] = line[0], pl->ptrs[pl->n] = strdup(line + 2), pl->lines[pl->n++] = ln;
    }
    if (fp)
        fclose(fp);
    if (!pl->n)
        printf("%s: no paths\n", path);
    return pl->n ? 0 : -1;
}

static void read_typed(jdoc_status st, jdoc_value v, char t, bench_rec *r)
{
    const char *s;
    size_t n;
    int64_t i;
    uint64_t u;
    double d;
    bool b;
    if (st == JDOC_OK)
        switch (t) {
        case 's': if (jdoc_get_string(v, &s, &n)) break; bench_rec_str(r, s, n); return;
        case 'i': if (jdoc_get_int64(v, &i)) break; bench_rec_i64(r, i); return;
        case 'u': if (jdoc_get_uint64(v, &u)) break; bench_rec_u64(r, u); return;
        case 'd': if (jdoc_get_double(v, &d)) break; bench_rec_f64(r, d); return;
        case 'b': if (jdoc_get_bool(v, &b)) break; bench_rec_bool(r, b); return;
        }
    bench_rec_missing(r);
}

/* op: 0 jdoc_pointer per path (parsed on every call), 1 jdoc_fetch_path per compiled path,
 * 2 jdoc_fetch_many of all compiled paths, 3 parse alone. */
static uint64_t run_jdoc(bench_case *c)
{
    const plist *pl = c->in;
    jdoc_doc *d;
    jdoc_value v[MAXP];
    jdoc_status st[MAXP];
    c->rec.sum = 0;
    if (jdoc_parse(c->p, pl->f->data, pl->f->len, &d) != JDOC_OK)
        return c->failed = 1, 0;
    jdoc_value root = jdoc_root(d);
    if (c->op == 3)
        return (uintptr_t)d;
    if (c->op == 2)
        jdoc_fetch_many(root, (const jdoc_path *const *)pl->compiled, (size_t)pl->n, v, st);
    for (int i = 0; i < pl->n; i++) {
        if (c->op == 0)
            st[i] = jdoc_pointer(root, pl->ptrs[i], strlen(pl->ptrs[i]), &v[i]);
        else if (c->op == 1)
            st[i] = jdoc_fetch_path(root, pl->compiled[i], &v[i]);
        read_typed(st[i], v[i], pl->types[i], &c->rec);
    }
    c->count = (size_t)pl->n; /* as the peer's result */
    return c->rec.sum;
}

static void describe(size_t item, char *buf, size_t cap, const void *ud)
{
    const plist *pl = ud;
    if (item < (size_t)pl->n)
        snprintf(buf, cap, "(%c %s, %s:%d)", pl->types[item], pl->ptrs[item], pl->file, pl->lines[item]);
}

enum { NC = 7, REF = 1, PARSE = 6 };
static const bench_case cases[NC] = {
    { .label = "jdoc:ptr", .impl = "jdoc_pointer", .fam = FAM_JDOC, .fn = run_jdoc, .op = 0 },
    { .label = "jdoc:path", .impl = "jdoc_fetch_path", .fam = FAM_JDOC, .fn = run_jdoc, .op = 1 },
    { .label = "jdoc:many", .impl = "jdoc_fetch_many", .fam = FAM_JDOC, .fn = run_jdoc, .op = 2 },
    { .label = "OD:ptr", .impl = "simdjson_od_at_pointer", .fam = FAM_OD, .fn = bench_peer_fn, .op = PEER_OD_PTR },
    { .label = "OD:nav", .impl = "simdjson_od_find_field", .fam = FAM_OD, .fn = bench_peer_fn, .op = PEER_OD_NAV },
    { .label = "DOM:ptr", .impl = "simdjson_dom_at_pointer", .fam = FAM_DOM, .fn = bench_peer_fn, .op = PEER_DOM_PTR },
    { .label = "parse", .impl = "parse_only:jdoc_parse", .fam = FAM_PART, .fn = run_jdoc, .op = 3 },
};

/* One document: 0 measured, 1 skipped, -1 aborted. Speed-up best peer / best jdoc into *x. */
static int one_doc(const char *wl, plist *pl, peer_simdjson *peer, const bench_unit *u, FILE *tsv, double *x)
{
    bench_alloc a;
    jdoc_parser *p = bench_counting_parser(&a, JDOC_KERNEL_AUTO);
    jdoc_doc *d;
    const char *name = pl->f->name, *na = peer ? "err" : "n/a";
    int rc = 0;
    if (!p || jdoc_parse(p, pl->f->data, pl->f->len, &d) != JDOC_OK) {
        printf("%-28s skipped: %s\n", name, p ? jdoc_last_error(p)->message : "jdoc_parser_new failed");
        jdoc_parser_free(p);
        return 1;
    }
    for (int i = 0; i < pl->n; i++) { /* the list must fit the document: every path found, of its type */
        bench_rec one = { .full = 1 };
        jdoc_value v;
        read_typed(jdoc_fetch_path(jdoc_root(d), pl->compiled[i], &v), v, pl->types[i], &one);
        bool missing = one.buf && one.buf[0] == 'm';
        free(one.buf);
        if (missing) {
            printf("%-28s skipped: %s:%d: %c %s: not found or not of that type\n", name, pl->file, pl->lines[i],
                   pl->types[i], pl->ptrs[i]);
            jdoc_parser_free(p);
            return 1;
        }
    }
    bool have_peer = peer && !peer_simdjson_set_input(peer, pl->f->data, pl->f->len) &&
                     !peer_simdjson_set_paths(peer, (size_t)pl->n, (const char *const *)pl->ptrs, pl->types);
    bench_case c[NC];
    for (int k = 0; k < NC; k++) {
        c[k] = cases[k], c[k].in = pl, c[k].p = p, c[k].peer = peer, c[k].why = na;
        c[k].skip = c[k].fam != FAM_JDOC && c[k].fam != FAM_PART && !have_peer;
    }
    rc = bench_measure(wl, name, c, NC, REF, describe, pl);
    if (rc == 0) {
        double allocs = 0;
        for (int k = 0; k < 3; k++) {
            double v = bench_allocs_per_call(&a, &c[k], 5);
            allocs = v > allocs ? v : allocs;
        }
        bench_best b = bench_best_of(c, NC);
        printf("%-28s %8zu %5d", name, pl->f->len, pl->n);
        *x = bench_row(tsv, wl, name, u, c, NC);
        printf(" %-9s %-8s %5.1f%% %6.2f\n", c[b.jdoc].label + 5, b.sj >= 0 ? c[b.sj].label : "",
               100 * (1 - c[PARSE].med / b.t_jdoc), allocs);
        bench_tsv_value(tsv, wl, name, "jdoc", "allocs_per_parse", allocs, "allocs");
        fflush(stdout);
    }
    jdoc_parser_free(p);
    return rc;
}

static int fetch_dir(const char *wl, const char *sub, const bench_unit *u, const char *goal, double target)
{
    char dir[4096], **lists;
    snprintf(dir, sizeof dir, "%s%s", bench_o.paths, sub);
    int n = bench_list(dir, ".txt", &lists), rc = 0;
    if (n <= 0)
        return n < 0;
    printf("parse + every path of %s/NAME.txt as its typed value, on corpus file NAME.json; %s per call.\n"
           "jdoc:ptr jdoc_pointer per path; jdoc:path jdoc_fetch_path of paths compiled outside timing; jdoc:many\n"
           "jdoc_fetch_many of them all; OD:ptr On Demand doc.at_pointer; OD:nav rewind + find_field_unordered per\n"
           "step; DOM:ptr DOM parse + at_pointer; parse: jdoc_parse alone. Values checked equal to jdoc:path's first.\n"
           "peer/jdoc: best simdjson time / best jdoc time (the speed-up, higher is better); stage2: share of the\n"
           "best jdoc time spent after jdoc_parse; allocs: per call after warm-up, worst jdoc variant.\n",
           dir, u->unit);
    FILE *tsv = bench_tsv(wl);
    peer_simdjson *peer = bench_peer(NULL, "(default implementation)");
    char name[64];
    snprintf(name, sizeof name, "%-28s %8s %5s", "file", "bytes", "paths");
    bench_head(43, name, cases, NC);
    printf(" %7s %-9s %-8s %6s %6s\n", "peer/jd", "best jdoc", "best sj", "stage2", "allocs");
    bench_geo g = { 0 };
    for (int i = 0; i < n && rc == 0; i++) {
        plist pl;
        bench_file f = { 0 };
        char input[4200], *base = strrchr(lists[i], '/') + 1;
        struct stat sb;
        if (plist_load(lists[i], &pl) != 0)
            continue;
        for (int s = 0; s < 2; s++) {
            snprintf(input, sizeof input, "%s/%s/%.*s.json", bench_o.corpus, s ? "docker" : "standard",
                     (int)strlen(base) - 4, base);
            if (stat(input, &sb) == 0)
                break;
        }
        double x = 0;
        if (bench_load(input, &f) == 0) {
            pl.f = &f;
            if (one_doc(wl, &pl, peer, u, tsv, &x) < 0)
                rc = 1;
            bench_geo_add(&g, x, true, f.name);
        }
        bench_file_free(&f);
        plist_free(&pl);
    }
    bench_list_free(lists, n);
    if (rc == 0)
        bench_goal_geo(wl, goal, &g, target, true);
    if (tsv)
        fclose(tsv);
    bench_peer_free(peer);
    return rc;
}

int bench_fetch(void)
{
    bench_unit u = { "us_per_doc", "us", 1, 1000, false };
    return fetch_dir("fetch", "", &u, "best simdjson time / jdoc time, 3-9 paths", 2.0);
}

int bench_small(void)
{
    bench_unit u = { "ns_per_call", "ns", 1, 1, false };
    return fetch_dir("small", "/small", &u, "best simdjson time / jdoc time, 3 fields", 1.25);
}
