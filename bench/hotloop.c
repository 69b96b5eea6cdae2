/* SPDX-License-Identifier: MIT */
/* Workload "hotloop": a generated 200-container /containers/json and a
 * 100-container `docker inspect` array; parse, then 5 strings of every element
 * (Id, name, image, state, compose service label): ns per element, and the
 * stage-2 time per member visited. */
#include "bench.h"

#include <string.h>

#define NF 5

static const struct shape {
    const char *file;
    int peer_shape;
    const char *oj[NF];  /* relative Oj paths (1-based) for jdoc */
    const char *ptr[NF]; /* the same as JSON Pointers for simdjson DOM */
    const char *via[4];  /* the containers the fields are in: their members are "visited" */
} shapes[] = {
    { "containers_200.json", PEER_SHAPE_LIST,
      { "Id", "Names/1", "Image", "State", "Labels/com.docker.compose.service" },
      { "/Id", "/Names/0", "/Image", "/State", "/Labels/com.docker.compose.service" },
      { "", "Names", "Labels", NULL } },
    { "inspect_100.json", PEER_SHAPE_INSPECT,
      { "Id", "Name", "Config/Image", "State/Status", "Config/Labels/com.docker.compose.service" },
      { "/Id", "/Name", "/Config/Image", "/State/Status", "/Config/Labels/com.docker.compose.service" },
      { "", "State", "Config", "Config/Labels" } },
};

typedef struct input {
    const bench_file *f;
    jdoc_path *paths[NF];
    jdoc_pathset *set;
} input;

static void read_str(bench_rec *r, jdoc_status st, jdoc_value v)
{
    const char *s;
    size_t n;
    if (st == JDOC_OK && jdoc_get_string(v, &s, &n) == JDOC_OK)
        bench_rec_str(r, s, n);
    else
        bench_rec_missing(r);
}

/* op 0: jdoc_fetch_many of the 5 compiled paths per element (one pass over its
 * members); 1: jdoc_fetch_path per field; 2: parse alone; 3: jdoc_pathset_fetch
 * of the 5 as one compiled set. (A JSONPath query variant goes here as op 4.) */
static uint64_t run_jdoc(bench_case *c)
{
    const input *in = c->in;
    jdoc_doc *d;
    jdoc_iter it;
    jdoc_value e, v[NF];
    jdoc_status st[NF];
    c->rec.sum = 0, c->count = 0;
    if (jdoc_parse(c->p, in->f->data, in->f->len, &d) != JDOC_OK || jdoc_iter_init(jdoc_root(d), &it) != JDOC_OK)
        return c->failed = 1, 0;
    if (c->op == 2)
        return (uintptr_t)d;
    while (jdoc_iter_next(&it, &e)) {
        if (c->op == 0)
            jdoc_fetch_many(e, (const jdoc_path *const *)in->paths, NF, v, st);
        else if (c->op == 3)
            jdoc_pathset_fetch(e, in->set, v, st);
        for (int k = 0; k < NF; k++) {
            if (c->op == 1)
                st[k] = jdoc_fetch_path(e, in->paths[k], &v[k]);
            read_str(&c->rec, st[k], v[k]);
        }
        c->count++;
    }
    c->failed |= it.status != JDOC_OK;
    return c->rec.sum;
}

static void describe(size_t item, char *buf, size_t cap, const void *ud)
{
    snprintf(buf, cap, "(element %zu, field %s)", item / NF + 1, ((const struct shape *)ud)->oj[item % NF]);
}

/* Members (and elements) of every container the fields are in, over all elements. */
static size_t members_visited(jdoc_parser *p, const bench_file *f, const struct shape *s)
{
    jdoc_doc *d;
    jdoc_iter it;
    jdoc_value e, v;
    size_t n = 0;
    if (jdoc_parse(p, f->data, f->len, &d) != JDOC_OK || jdoc_iter_init(jdoc_root(d), &it) != JDOC_OK)
        return 0;
    while (jdoc_iter_next(&it, &e))
        for (int k = 0; k < 4 && s->via[k]; k++)
            n += !s->via[k][0] ? jdoc_count(e) : jdoc_fetch(e, s->via[k], &v) == JDOC_OK ? jdoc_count(v) : 0;
    return n;
}

enum { NC = 6, PARSE = 5 };

int bench_hotloop(void)
{
    printf("jdoc:many jdoc_parse + jdoc_iter + jdoc_fetch_many(5 compiled relative paths); jdoc:path 5 jdoc_fetch_path\n"
           "per element; jdoc:set jdoc_pathset_fetch of the 5 as one set; OD:find On Demand, find_field_unordered per field in document order; DOM:ptr DOM parse +\n"
           "element.at_pointer; parse: jdoc_parse alone. Values checked equal first. ns per element, parse included;\n"
           "peer/jdoc: best simdjson time / best jdoc time (speed-up); ns/member: (best jdoc - parse) time per member\n"
           "of the element objects and of the containers the fields are in (Names, Labels, State, Config).\n");
    FILE *tsv = bench_tsv("hotloop");
    peer_simdjson *peer = bench_peer(NULL, "(default implementation)");
    bench_case c[NC] = {
        { .label = "jdoc:many", .impl = "jdoc_fetch_many", .fam = FAM_JDOC, .fn = run_jdoc, .op = 0 },
        { .label = "jdoc:path", .impl = "jdoc_fetch_path", .fam = FAM_JDOC, .fn = run_jdoc, .op = 1 },
        { .label = "jdoc:set", .impl = "jdoc_pathset_fetch", .fam = FAM_JDOC, .fn = run_jdoc, .op = 3 },
        { .label = "OD:find", .impl = "simdjson_od_find_field", .fam = FAM_OD, .fn = bench_peer_fn, .op = PEER_HOT_OD },
        { .label = "DOM:ptr", .impl = "simdjson_dom_at_pointer", .fam = FAM_DOM, .fn = bench_peer_fn, .op = PEER_HOT_DOM },
        { .label = "parse", .impl = "parse_only:jdoc_parse", .fam = FAM_PART, .fn = run_jdoc, .op = 2 },
    };
    char name[64];
    snprintf(name, sizeof name, "%-22s %8s %5s", "file", "bytes", "elems");
    bench_head(37, name, c, NC);
    printf(" %7s %9s %6s\n", "peer/jd", "ns/member", "allocs");
    bench_geo g = { 0 };
    int rc = 0;
    for (size_t i = 0; i < sizeof shapes / sizeof shapes[0] && rc == 0; i++) {
        const struct shape *s = &shapes[i];
        bench_file f;
        input in = { &f, { 0 }, NULL };
        bench_alloc a;
        if ((bench_o.filter && !strstr(s->file, bench_o.filter)) || bench_load_data(s->file, &f) != 0)
            continue;
        jdoc_parser *p = bench_counting_parser(&a, JDOC_KERNEL_AUTO);
        size_t members = p ? members_visited(p, &f, s) : 0;
        char types[NF] = { 's', 's', 's', 's', 's' };
        for (int k = 0; k < NF; k++)
            in.paths[k] = jdoc_path_compile(s->oj[k], strlen(s->oj[k]), JDOC_SYNTAX_OJ, NULL);
        in.set = jdoc_pathset_compile(s->oj, NF, JDOC_SYNTAX_OJ, NULL, NULL);
        bool have_peer = peer && !peer_simdjson_set_input(peer, f.data, f.len) &&
                         !peer_simdjson_set_paths(peer, NF, s->ptr, types);
        for (int k = 0; k < NC; k++) {
            c[k].in = &in, c[k].p = p, c[k].peer = peer, c[k].shape = s->peer_shape, c[k].why = peer ? "err" : "n/a";
            c[k].skip = (c[k].fam == FAM_OD || c[k].fam == FAM_DOM) && !have_peer;
        }
        int r = p && members ? bench_measure("hotloop", s->file, c, NC, 0, describe, s) : 1;
        if (r == 0) {
            size_t elems = c[0].count;
            double allocs = bench_allocs_per_call(&a, &c[0], 5);
            bench_unit u = { "ns_per_element", "ns", (double)elems, 1, false };
            double per = (bench_best_of(c, NC).t_jdoc - c[PARSE].med) / (double)members;
            printf("%-22s %8zu %5zu", s->file, f.len, elems);
            double x = bench_row(tsv, "hotloop", s->file, &u, c, NC);
            printf(" %9.2f %6.2f\n", per, allocs);
            bench_tsv_value(tsv, "hotloop", s->file, "jdoc", "stage2_ns_per_member", per, "ns");
            bench_tsv_value(tsv, "hotloop", s->file, "jdoc", "allocs_per_parse", allocs, "allocs");
            bench_geo_add(&g, x, true, s->file);
        } else if (!p || !members) {
            printf("%-22s skipped: not an array of objects for jdoc\n", s->file);
        }
        rc |= r < 0;
        for (int k = 0; k < NF; k++)
            jdoc_path_free(in.paths[k]);
        jdoc_pathset_free(in.set);
        jdoc_parser_free(p);
        bench_file_free(&f);
    }
    if (rc == 0)
        bench_goal_geo("hotloop", "best simdjson time / jdoc time, 5 fields", &g, 1.5, true);
    if (tsv)
        fclose(tsv);
    bench_peer_free(peer);
    return rc;
}
