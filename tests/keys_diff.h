/* SPDX-License-Identifier: MIT */
/* Descendant segments of one name: random documents whose keys are x and
 * its look-alikes, some damaged, and the nodes of $..x through a SIMD
 * kernel's parser (which scans whole containers, k->keys) against the
 * scalar kernel's (which walks them); shared by test_jsonpath.c and the
 * arm64 program. */
#ifndef JDOC_KEYS_DIFF_H
#define JDOC_KEYS_DIFF_H
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "internal.h"
#include "testutil.h"

/* A random value, its keys among x and its look-alikes, into b. */
static void kd_gen_value(uint64_t *seed, char *b, size_t *o, size_t cap, int depth)
{
    static const char *const keys[] = { "\"x\":", "\"x\" :", "\"xy\":", "\"\\u0078\":", "\"a\":", "\"\":" };
    static const char *const scalars[] = { "1", "\"x\"", "true", "\"x:\"", "[]", "{}" };
    uint64_t r = tu_rand(seed);
    if (depth > 4 || *o + 64 > cap || r % 3 == 0) {
        const char *sc = scalars[(r >> 8) % 6];
        size_t l = strlen(sc);
        memcpy(b + *o, sc, l);
        *o += l;
        return;
    }
    bool obj = r & 8;
    b[(*o)++] = obj ? '{' : '[';
    int n = (int)((r >> 4) % 4);
    for (int k = 0; k < n && *o + 64 < cap; k++) {
        if (k)
            b[(*o)++] = ',';
        if (obj) {
            const char *key = keys[tu_rand(seed) % 6];
            size_t l = strlen(key);
            memcpy(b + *o, key, l);
            *o += l;
        }
        kd_gen_value(seed, b, o, cap, depth + 1);
    }
    b[(*o)++] = obj ? '}' : ']';
}

/* The nodes of query over d as "path=value" lines into out, and the status. */
static jdoc_status kd_nodes(jdoc_doc *d, const char *query, char *out, size_t cap)
{
    jdoc_query *q = jdoc_query_compile(query, strlen(query), NULL, NULL);
    jdoc_query_iter *it = jdoc_query_iter_new(q, jdoc_root(d), NULL);
    size_t o = 0;
    jdoc_value v;
    out[0] = 0;
    while (jdoc_query_iter_next(it, &v) && o + 1536 < cap) {
        char path[256], val[1024];
        jdoc_query_iter_path(it, path, sizeof path);
        jdoc_dump(v, val, sizeof val);
        o += (size_t)snprintf(out + o, cap - o, "%s%s=%s", o ? " " : "", path, val);
    }
    jdoc_status st = jdoc_query_iter_status(it);
    jdoc_query_iter_free(it);
    jdoc_query_free(q);
    return st;
}

/* 1000 random documents, a third of them damaged (a byte dropped, or
 * replaced by ',' ':' or a digit): the same nodes, paths and status from
 * both parsers, on $..x, $..x[0] and $..[''] (the empty name: its two
 * quotes are the bytes the scan compares). */
static bool keys_generated(jdoc_parser *ps, jdoc_parser *pk, char *why, size_t cap)
{
    uint64_t seed = 11;
    static char doc[2048], a[8192], b[8192];
    int compared = 0;
    for (int round = 0; round < 1000; round++) {
        size_t o = 0;
        doc[o++] = '[';
        kd_gen_value(&seed, doc, &o, sizeof doc - 2, 0);
        doc[o++] = ']';
        if (round % 3 == 1) {
            size_t at = 1 + tu_rand(&seed) % (o - 2);
            uint64_t how = tu_rand(&seed) % 4;
            if (how == 3) {
                memmove(doc + at, doc + at + 1, o - at - 1);
                o--;
            } else if (!strchr("[]{}\"", doc[at])) {
                doc[at] = ",:1"[how];
            }
        }
        doc[o] = 0;
        jdoc_doc *ds, *dk;
        if (jdoc_parse(ps, doc, o, &ds) != JDOC_OK)
            continue;
        const char *query = round % 4 == 3 ? "$..x[0]" : round % 4 == 1 ? "$..['']" : "$..x";
        jdoc_status ss = kd_nodes(ds, query, a, sizeof a);
        if (jdoc_parse(pk, doc, o, &dk) != JDOC_OK) {
            snprintf(why, cap, "%s does not parse %.80s", jdoc_kernel_name(pk), doc);
            return false;
        }
        jdoc_status sk = kd_nodes(dk, query, b, sizeof b);
        if (ss != sk || strcmp(a, b)) {
            snprintf(why, cap, "%s %s on %.200s: %s (%.100s), scalar %s (%.100s)", jdoc_kernel_name(pk), query, doc,
                     jdoc_status_str(sk), b, jdoc_status_str(ss), a);
            return false;
        }
        compared++;
    }
    if (compared < 500) {
        snprintf(why, cap, "only %d documents compared", compared);
        return false;
    }
    return true;
}
#endif
