/* SPDX-License-Identifier: MIT */
/* Workload "streams": 100k generated Docker events (NDJSON), /Action of each:
 * jdoc_stream_begin/next vs simdjson iterate_many/parse_many. */
#include "bench.h"

#include <string.h>

static const char *const ptr = "/Action"; /* in every event ("status" is not, e.g. network events) */

static uint64_t run_jdoc(bench_case *c)
{
    const bench_file *f = c->in;
    jdoc_doc *d;
    jdoc_status st;
    jdoc_value v;
    const char *s;
    size_t n;
    c->rec.sum = 0, c->count = 0;
    c->failed |= jdoc_stream_begin(c->p, f->data, f->len) != JDOC_OK;
    while (jdoc_stream_next(c->p, &d, &st)) {
        if (st != JDOC_OK)
            return c->failed = 1, 0;
        if (jdoc_fetch_path(jdoc_root(d), c->ud, &v) == JDOC_OK && jdoc_get_string(v, &s, &n) == JDOC_OK)
            bench_rec_str(&c->rec, s, n);
        else
            bench_rec_missing(&c->rec);
        c->count++;
    }
    return c->rec.sum;
}

static void describe(size_t item, char *buf, size_t cap, const void *ud)
{
    snprintf(buf, cap, "(event %zu, %s)", item + 1, (const char *)ud);
}

int bench_streams(void)
{
    static const char *const name = "events_100000.ndjson";
    bench_file f;
    bench_alloc a;
    printf("%s of every event. jdoc:stream jdoc_stream_begin (in place, 256 KiB windows) + jdoc_stream_next +\n"
           "jdoc_fetch_path; OD:many iterate_many (1 MB batches) + find_field_unordered; DOM:many parse_many +\n"
           "at_key. Values checked equal first. Million events/s; peer/jdoc = best simdjson time / jdoc time.\n",
           ptr);
    if ((bench_o.filter && !strstr(name, bench_o.filter)) || bench_load_data(name, &f) != 0)
        return 0;
    peer_simdjson *peer = bench_peer(NULL, "(default implementation)");
    bool have_peer = peer && !peer_simdjson_set_input(peer, f.data, f.len) &&
                     !peer_simdjson_set_paths(peer, 1, &ptr, "s");
    jdoc_path *path = jdoc_path_compile(ptr, strlen(ptr), JDOC_SYNTAX_POINTER, NULL);
    bench_case c[3] = {
        { .label = "jdoc:strm", .impl = "jdoc_stream", .fam = FAM_JDOC, .fn = run_jdoc },
        { .label = "OD:many", .impl = "simdjson_od_iterate_many", .fam = FAM_OD, .fn = bench_peer_fn, .op = PEER_STREAM_OD },
        { .label = "DOM:many", .impl = "simdjson_dom_parse_many", .fam = FAM_DOM, .fn = bench_peer_fn, .op = PEER_STREAM_DOM },
    };
    jdoc_parser *p = bench_counting_parser(&a, JDOC_KERNEL_AUTO);
    for (int k = 0; k < 3; k++)
        c[k].in = &f, c[k].p = p, c[k].ud = path, c[k].peer = peer, c[k].skip = k && !have_peer,
        c[k].why = peer ? "err" : "n/a";
    int rc = p && path ? bench_measure("streams", name, c, 3, 0, describe, ptr) : 1;
    if (rc == 0) {
        FILE *tsv = bench_tsv("streams");
        bench_unit u = { "events_per_s", "Mevents/s", (double)c[0].count, 1e-6, true };
        bench_unit ns = { "ns_per_event", "ns", (double)c[0].count, 1, false };
        double allocs = bench_allocs_per_call(&a, &c[0], 2);
        char head[64];
        snprintf(head, sizeof head, "%-22s %9s %7s", "file", "bytes", "events");
        bench_head(40, head, c, 3);
        printf(" %7s %6s\n%-22s %9zu %7zu", "peer/jd", "allocs", name, f.len, c[0].count);
        bench_row(tsv, "streams", name, &u, c, 3);
        printf(" %6.2f\n%-40s", allocs, "  (ns per event)");
        bench_row(tsv, "streams", name, &ns, c, 3);
        printf("\n");
        bench_tsv_value(tsv, "streams", name, "jdoc", "allocs_per_parse", allocs, "allocs");
        if (tsv)
            fclose(tsv);
    }
    jdoc_path_free(path);
    jdoc_parser_free(p);
    bench_peer_free(peer);
    bench_file_free(&f);
    return rc < 0;
}
