/* SPDX-License-Identifier: MIT */
/* Workload "query": JSONPath on generated Docker arrays. $[*]['Id','Image',...]
 * against this repository's hand-written hot loop (jdoc_iter + jdoc_fetch_many
 * of the same fields) and simdjson On Demand's (find_field_unordered per
 * field); $..IPAddress against the parse alone. Goals: the wildcard query at
 * most 1.2x the hand loop, the descendant query at most 1.5x the parse. */
#include "bench.h"

#include <string.h>

#define NF 3

static const struct shape {
    const char *file;
    const char *query, *desc;
    const char *oj[NF];
    const char *ptr[NF];
} shapes[] = {
    { "containers_200.json", "$[*]['Id','Image','State']", "$..IPAddress", { "Id", "Image", "State" },
      { "/Id", "/Image", "/State" } },
    { "inspect_100.json", "$[*]['Id','Name','Image']", "$..IPAddress", { "Id", "Name", "Image" },
      { "/Id", "/Name", "/Image" } },
};

typedef struct input {
    const bench_file *f;
    jdoc_path *paths[NF];
    jdoc_query *q[2];        /* the wildcard query, the descendant one */
    jdoc_query_iter *it[2];
} input;

static void read_str(bench_rec *r, jdoc_value v)
{
    const char *s;
    size_t n;
    if (jdoc_get_string(v, &s, &n) == JDOC_OK)
        bench_rec_str(r, s, n);
    else
        bench_rec_missing(r);
}

/* op 0: the wildcard query; 1: the hand loop; 2: parse alone; 3: the descendant query. */
static uint64_t run_jdoc(bench_case *c)
{
    const input *in = c->in;
    jdoc_doc *d;
    c->rec.sum = 0, c->count = 0;
    if (jdoc_parse(c->p, in->f->data, in->f->len, &d) != JDOC_OK)
        return c->failed = 1, 0;
    if (c->op == 2)
        return (uintptr_t)d;
    jdoc_value v;
    if (c->op == 0 || c->op == 3) {
        jdoc_query_iter *it = in->it[c->op == 3];
        jdoc_query_iter_reset(it, jdoc_root(d));
        size_t nodes = 0;
        while (jdoc_query_iter_next(it, &v)) {
            read_str(&c->rec, v);
            nodes++;
        }
        c->count = c->op == 0 ? nodes / NF : nodes;   /* elements, as the other cases count */
        c->failed |= jdoc_query_iter_status(it) != JDOC_OK;
        return c->rec.sum;
    }
    jdoc_iter it;
    jdoc_value e, out[NF];
    jdoc_status st[NF];
    if (jdoc_iter_init(jdoc_root(d), &it) != JDOC_OK)
        return c->failed = 1, 0;
    while (jdoc_iter_next(&it, &e)) {
        jdoc_fetch_many(e, (const jdoc_path *const *)in->paths, NF, out, st);
        for (int k = 0; k < NF; k++) {
            if (st[k] == JDOC_OK)
                read_str(&c->rec, out[k]);
            else
                bench_rec_missing(&c->rec);
        }
        c->count++;
    }
    return c->rec.sum;
}

static void describe(size_t item, char *buf, size_t cap, const void *ud)
{
    snprintf(buf, cap, "(node %zu, field %s)", item + 1, ((const struct shape *)ud)->oj[item % NF]);
}

enum { NC = 5, QUERY = 0, HAND = 1, PARSE = 4, DESC = 3 };

int bench_query(void)
{
    printf("jdoc:query parse + the wildcard query, every node's string; jdoc:hand parse + jdoc_iter + jdoc_fetch_many\n"
           "of the same fields; OD:find On Demand find_field_unordered per field; jdoc:desc parse + $..IPAddress;\n"
           "parse: jdoc_parse alone. Values of the first three checked equal first. us per document.\n"
           "q/hand = jdoc:query / jdoc:hand (goal <= 1.2); d/parse = jdoc:desc / parse (goal <= 1.5).\n");
    FILE *tsv = bench_tsv("query");
    peer_simdjson *peer = bench_peer(NULL, "(default implementation)");
    bench_case c[NC] = {
        { .label = "jdoc:query", .impl = "jdoc_query", .fam = FAM_JDOC, .fn = run_jdoc, .op = 0 },
        { .label = "jdoc:hand", .impl = "jdoc_fetch_many", .fam = FAM_JDOC, .fn = run_jdoc, .op = 1 },
        { .label = "OD:find", .impl = "simdjson_od_find_field", .fam = FAM_OD, .fn = bench_peer_fn, .op = PEER_HOT_OD_KEYS },
        { .label = "jdoc:desc", .impl = "jdoc_query_descendant", .fam = FAM_PART, .fn = run_jdoc, .op = 3 },
        { .label = "parse", .impl = "parse_only:jdoc_parse", .fam = FAM_PART, .fn = run_jdoc, .op = 2 },
    };
    char name[64];
    snprintf(name, sizeof name, "%-22s %8s", "file", "bytes");
    bench_head(31, name, c, NC);
    printf(" %7s %7s %7s\n", "peer/jd", "q/hand", "d/parse");
    bench_geo gq = { 0 }, gd = { 0 };
    int rc = 0;
    for (size_t i = 0; i < sizeof shapes / sizeof shapes[0] && rc == 0; i++) {
        const struct shape *s = &shapes[i];
        bench_file f;
        input in = { &f, { 0 }, { 0 }, { 0 } };
        if ((bench_o.filter && !strstr(s->file, bench_o.filter)) || bench_load_data(s->file, &f) != 0)
            continue;
        jdoc_parser *p = jdoc_parser_new(NULL);
        jdoc_error e;
        bool ok = p != NULL;
        for (int k = 0; k < NF; k++)
            ok &= (in.paths[k] = jdoc_path_compile(s->oj[k], strlen(s->oj[k]), JDOC_SYNTAX_OJ, NULL)) != NULL;
        const char *qs[2] = { s->query, s->desc };
        jdoc_doc *d;
        ok &= p && jdoc_parse(p, f.data, f.len, &d) == JDOC_OK;
        for (int k = 0; k < 2 && ok; k++)
            ok &= (in.q[k] = jdoc_query_compile(qs[k], strlen(qs[k]), NULL, &e)) != NULL &&
                  (in.it[k] = jdoc_query_iter_new(in.q[k], jdoc_root(d), NULL)) != NULL;
        char types[NF] = { 's', 's', 's' };
        bool have_peer = peer && !peer_simdjson_set_input(peer, f.data, f.len) &&
                         !peer_simdjson_set_paths(peer, NF, s->ptr, types);
        for (int k = 0; k < NC; k++) {
            c[k].in = &in, c[k].p = p, c[k].peer = peer, c[k].why = peer ? "err" : "n/a";
            c[k].skip = c[k].fam == FAM_OD && !have_peer;
        }
        int r = ok ? bench_measure("query", s->file, c, NC, HAND, describe, s) : 1;
        if (r == 0) {
            bench_unit u = { "us_per_document", "us", 1, 1e3, false };
            printf("%-22s %8zu", s->file, f.len);
            bench_row(tsv, "query", s->file, &u, c, NC);
            double q = c[QUERY].med / c[HAND].med, dd = c[DESC].med / c[PARSE].med;
            printf(" %7.3f %7.3f\n", q, dd);
            bench_tsv_value(tsv, "query", s->file, "jdoc", "query_over_hand_loop", q, "ratio");
            bench_tsv_value(tsv, "query", s->file, "jdoc", "descendant_over_parse", dd, "ratio");
            bench_geo_add(&gq, q, false, s->file);
            bench_geo_add(&gd, dd, false, s->file);
        } else if (!ok) {
            printf("%-22s skipped: the queries or paths did not compile (%s)\n", s->file, p ? "" : "no parser");
        }
        rc |= r < 0;
        for (int k = 0; k < 2; k++) {
            jdoc_query_iter_free(in.it[k]);
            jdoc_query_free(in.q[k]);
        }
        for (int k = 0; k < NF; k++)
            jdoc_path_free(in.paths[k]);
        jdoc_parser_free(p);
        bench_file_free(&f);
    }
    if (rc == 0) {
        bench_goal_geo("query", "wildcard query time / hand-written jdoc loop", &gq, 1.2, false);
        bench_goal_geo("descendant", "$..IPAddress time / parse time", &gd, 1.5, false);
    }
    if (tsv)
        fclose(tsv);
    bench_peer_free(peer);
    return rc;
}
