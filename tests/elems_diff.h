/* SPDX-License-Identifier: MIT */
/* Indices far into arrays: a SIMD kernel's parser (which skips whole steps of
 * plain elements, k->elems) against the scalar kernel's (which walks each
 * element); shared by test_fetch.c and the arm64 program. */
#ifndef JDOC_ELEMS_DIFF_H
#define JDOC_ELEMS_DIFF_H
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "internal.h"
#include "testutil.h"

/* Every index from..to (by step) under prefix: the same status, and the same
 * value offset, from both parsers. */
static bool elems_same(jdoc_parser *ps, jdoc_parser *pk, const char *json, size_t len, uint64_t from, uint64_t to,
                       uint64_t step, const char *prefix, char *why, size_t cap)
{
    jdoc_doc *ds, *dk;
    if (jdoc_parse(ps, json, len, &ds) != JDOC_OK || jdoc_parse(pk, json, len, &dk) != JDOC_OK) {
        snprintf(why, cap, "does not parse: %.60s", json);
        return false;
    }
    char path[128];
    for (uint64_t i = from; i <= to; i += step) {
        snprintf(path, sizeof path, "%s/%llu", prefix, (unsigned long long)i);
        jdoc_value vs, vk;
        jdoc_status ss = jdoc_pointer(jdoc_root(ds), path, strlen(path), &vs);
        jdoc_status sk = jdoc_pointer(jdoc_root(dk), path, strlen(path), &vk);
        if (sk != ss || (ss == JDOC_OK && jdoc_offset(vk) != jdoc_offset(vs))) {
            snprintf(why, cap, "%s: %s: status %d at %zu, scalar %d at %zu; %.80s", jdoc_kernel_name(pk), path, sk,
                     sk ? 0 : jdoc_offset(vk), ss, ss ? 0 : jdoc_offset(vs), json);
            return false;
        }
    }
    return true;
}

/* 200 generated arrays of scalars, strings, containers with no container
 * inside and (some arrays) nested ones, with whitespace; a third damaged at
 * 1-3 separators, close together or not (a missing or doubled ',', a ':',
 * ',:,'); every index up to two past the end. On clean arrays of plain
 * elements, the skip alone: it stops at the element asked for, or (within
 * two steps of the end) at an element before it, with the count left. */
static bool elems_generated(jdoc_parser *ps, jdoc_parser *pk, char *why, size_t cap)
{
    static const char *shapes[] = { "1", "-2.5e3", "true", "null", "\"s\"", "\"a\\\"b\"", "[1,2]", "[]",
                                    "{\"k\":1}", "{}", "[\"x\",{}]", "[[1]]", "{\"a\":[2]}" };
    char *json = malloc(1 << 16);
    uint64_t seed = 0x13198a2e03707344ull;
    bool ok = true;
    for (int r = 0; ok && r < 200; r++) {
        size_t n = (size_t)(tu_rand(&seed) % 400), len = 0;
        bool nested = r % 5 == 0, spaced = r % 3 == 0;
        size_t bad[3] = { SIZE_MAX, SIZE_MAX, SIZE_MAX };
        int damage[3] = { 0 };
        for (int j = 0; r % 3 == 0 && j < 1 + r / 3 % 3; j++) {
            bad[j] = j && r / 3 % 2 ? bad[0] + (size_t)j : (size_t)(tu_rand(&seed) % (n + 1));
            damage[j] = (int)(tu_rand(&seed) % 4);
        }
        json[len++] = '[';
        for (size_t i = 0; i < n; i++) {
            if (i) {
                const char *sep = ",";
                for (int j = 0; j < 3; j++)
                    if (i == bad[j])
                        sep = damage[j] == 0 ? " " : damage[j] == 1 ? ",," : damage[j] == 2 ? ":" : ",:,";
                len += (size_t)sprintf(json + len, "%s%s", sep, spaced && i % 7 == 0 ? "\n " : "");
            }
            size_t sh = (size_t)(tu_rand(&seed) % (nested ? 13 : 10));   /* the last 3 hold a container */
            len += (size_t)sprintf(json + len, "%s", shapes[sh]);
        }
        json[len++] = ']';
        json[len] = 0;
        ok = elems_same(ps, pk, json, len, 0, n + 2, 1, "", why, cap);
        if (!ok || nested || bad[0] != SIZE_MAX || n <= 40)
            continue;
        jdoc_doc *d;
        jdoc_parse(pk, json, len, &d);
        uint32_t end = pk->doc.index[0];
        for (uint64_t want = 16; ok && want < n; want += 3) {
            uint64_t left = want;
            uint32_t at = pk->k->elems(pk->doc.tape, 1, end, &left);
            jdoc_value v;
            char ptr[32];
            snprintf(ptr, sizeof ptr, "/%llu", (unsigned long long)(want - left));
            ok = jdoc_pointer(jdoc_root(d), ptr, strlen(ptr), &v) == JDOC_OK && at == v.idx &&
                 (left == 0 || end - at <= 128);
            if (!ok)
                snprintf(why, cap, "%s: the skip to element %llu of %zu: entry %u with %llu left; element %s is entry %u",
                         jdoc_kernel_name(pk), (unsigned long long)want, n, at, (unsigned long long)left, ptr, v.idx);
        }
    }
    free(json);
    return ok;
}

/* Indices into every 37th ring of canada.json's first feature, and into the rings. */
static bool elems_canada(jdoc_parser *ps, jdoc_parser *pk, char *why, size_t cap)
{
    size_t clen;
    char *c = tu_read(CORPUS "/standard/canada.json", &clen);
    jdoc_doc *d;
    jdoc_value rings;
    bool ok = c && jdoc_parse(ps, c, clen, &d) == JDOC_OK &&
              jdoc_pointer(jdoc_root(d), "/features/0/geometry/coordinates", 32, &rings) == JDOC_OK;
    size_t nr = ok ? jdoc_count(rings) : 0;
    if (ok && nr < 400) {
        snprintf(why, cap, "canada.json: %zu rings", nr);
        ok = false;
    }
    char prefix[80];
    for (size_t i = 0; ok && i < nr; i += 37) {
        snprintf(prefix, sizeof prefix, "/features/0/geometry/coordinates/%zu", i);
        ok = elems_same(ps, pk, c, clen, 0, 7000, 97, prefix, why, cap);
    }
    if (ok)
        ok = elems_same(ps, pk, c, clen, 0, nr + 1, 1, "/features/0/geometry/coordinates", why, cap);
    free(c);
    return ok;
}
#endif
