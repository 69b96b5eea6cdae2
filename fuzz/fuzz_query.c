/* SPDX-License-Identifier: MIT */
/* fuzz_query: a JSONPath query (the input up to its first NUL byte) compiled,
 * and run over a document (the rest): compilation either succeeds or reports
 * JDOC_ERR_PATH with an offset inside the query; evaluation ends with a
 * defined status, every node is a value of the document, its normalized path
 * starts with '$' and, in a valid document, reads back (as a query) to that
 * same node (when no object has two members of one name); a query with a
 * descendant segment gives the same nodes and status as its evaluation by
 * frames only (no kernel scan, no one-walk path). */
#include "fuzz_util.h"
#include "query/query.h"

#define MAX_NODES 256

static jdoc_parser *p;

/* Does any object below v have two members of the same name? */
static bool dup_names(jdoc_value v, int depth)
{
    jdoc_iter it, jt;
    jdoc_value c;
    if (depth > 200 || jdoc_iter_init(v, &it) != JDOC_OK)
        return depth > 200;
    while (jdoc_iter_next(&it, &c)) {
        if (dup_names(c, depth + 1))
            return true;
        if (!it.object)
            continue;
        const char *k, *k2;
        size_t n, n2;
        jdoc_iter_key(&it, &k, &n);
        jdoc_iter_init(v, &jt);
        for (uint32_t i = 1; i < it.n && jdoc_iter_next(&jt, NULL); i++) {
            jdoc_iter_key(&jt, &k2, &n2);
            if (n == n2 && !memcmp(k, k2, n))
                return true;
        }
    }
    return false;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (!p)
        p = jdoc_parser_new(NULL);
    const uint8_t *nul = memchr(data, 0, size);
    size_t ql = nul ? (size_t)(nul - data) : size;
    char *qs = fz_copy(data, ql);
    jdoc_error err;
    jdoc_query *q = jdoc_query_compile(qs, ql, NULL, &err);
    if (!q) {
        FZ_CHECK(err.code == JDOC_ERR_PATH || err.code == JDOC_ERR_NOMEM, "compile: status %s",
                 jdoc_status_str(err.code));
        FZ_CHECK(err.offset <= ql && err.message && *err.message, "compile: offset %zu of %zu", err.offset, ql);
        free(qs);
        return 0;
    }
    const char *doc = nul ? (const char *)nul + 1 : "[0,{\"a\":[1,\"x\"]},[[2]]]";
    size_t dl = nul ? size - ql - 1 : strlen(doc);
    char *dc = fz_copy(doc, dl);
    jdoc_doc *d;
    if (jdoc_parse(p, dc, dl, &d) == JDOC_OK) {
        bool valid = jdoc_validate(d) == JDOC_OK;   /* else names may not decode */
        bool unique = valid && !dup_names(jdoc_root(d), 0);   /* else a name is ambiguous */
        jdoc_status st;
        jdoc_query_iter *it = jdoc_query_iter_new(q, jdoc_root(d), &st);
        FZ_CHECK(it, "iter_new: %s", jdoc_status_str(st));
        jdoc_value v;
        size_t n = 0;
        char path[512];
        uint32_t seen[MAX_NODES];
        while (n < MAX_NODES && jdoc_query_iter_next(it, &v)) {
            seen[n] = v.idx;
            n++;
            FZ_CHECK(jdoc_offset(v) < dl, "node outside the document");
            size_t pl = jdoc_query_iter_path(it, path, sizeof path);
            FZ_CHECK(pl > 0 && path[0] == '$', "normalized path %s", path);
            if (valid && unique && pl < sizeof path) {
                /* a normalized path is a singular query that selects the node */
                jdoc_query *back = jdoc_query_compile(path, pl, NULL, &err);
                FZ_CHECK(back, "normalized path %s does not compile: %s at %zu", path, err.message, err.offset);
                jdoc_query_iter *bi = jdoc_query_iter_new(back, jdoc_root(d), NULL);
                jdoc_value w;
                FZ_CHECK(jdoc_query_iter_next(bi, &w) && w.idx == v.idx, "normalized path %s selects another node",
                         path);
                jdoc_query_iter_free(bi);
                jdoc_query_free(back);
            }
        }
        st = jdoc_query_iter_status(it);
        FZ_CHECK(st == JDOC_OK || st == JDOC_ERR_SYNTAX || st == JDOC_ERR_NOMEM, "query status %s",
                 jdoc_status_str(st));
        jdoc_query_iter_free(it);
        if (memmem(qs, ql, "..", 2)) {
            jdoc_query *fq = jdoc_query_compile(qs, ql, NULL, NULL);
            jdoc__query_frames_only(fq);
            jdoc_query_iter *fi = jdoc_query_iter_new(fq, jdoc_root(d), NULL);
            size_t m = 0;
            while (m < n && jdoc_query_iter_next(fi, &v)) {
                FZ_CHECK(v.idx == seen[m], "node %zu: entry %u, by frames %u", m, seen[m], v.idx);
                m++;
            }
            FZ_CHECK(m == n, "%zu nodes, by frames %zu", n, m);
            if (n < MAX_NODES) {
                FZ_CHECK(!jdoc_query_iter_next(fi, NULL), "by frames more than %zu nodes", n);
                FZ_CHECK(jdoc_query_iter_status(fi) == st, "status %s, by frames %s", jdoc_status_str(st),
                         jdoc_status_str(jdoc_query_iter_status(fi)));
            }
            jdoc_query_iter_free(fi);
            jdoc_query_free(fq);
        }
    }
    jdoc_query_free(q);
    free(dc);
    free(qs);
    return 0;
}
