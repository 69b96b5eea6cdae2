/* SPDX-License-Identifier: MIT */
/* The walk's shortcuts: member lookups that resume where the last one found
 * its key (same answers as a scan from the start, malformed objects too),
 * compiled path sets, and the typed getters' fast paths. */
#include <criterion/criterion.h>
#include "internal.h"
#include "testutil.h"

static jdoc_value at(jdoc_doc *d, const char *ptr, jdoc_status *st)
{
    jdoc_value v;
    *st = jdoc_pointer(jdoc_root(d), ptr, strlen(ptr), &v);
    return v;
}

/* Every order of fetching the members of an object gives what a fresh
 * parse (no hint) gives, on every kernel. */
static void any_order(const char *json, const char *const *keys, size_t nk)
{
    for (int kid = 0; kid < JDOC_KERNEL_COUNT; kid++) {
        if (!jdoc_kernel_supported((jdoc_kernel_id)kid))
            continue;
        jdoc_parser *p = tu_parser((jdoc_kernel_id)kid), *fresh = tu_parser((jdoc_kernel_id)kid);
        jdoc_doc *d, *f;
        cr_assert_eq(jdoc_parse(p, json, strlen(json), &d), JDOC_OK);
        uint64_t seed = 42;
        for (int round = 0; round < 300; round++) {
            const char *k = keys[tu_rand(&seed) % nk];
            jdoc_status s1, s2;
            jdoc_value v1 = at(d, k, &s1);
            cr_assert_eq(jdoc_parse(fresh, json, strlen(json), &f), JDOC_OK);
            jdoc_value v2 = at(f, k, &s2);
            cr_assert_eq(s1, s2, "%s: %s against %s", k, jdoc_status_str(s1), jdoc_status_str(s2));
            cr_assert_eq(v1.idx, v2.idx, "%s", k);
        }
        jdoc_parser_free(p);
        jdoc_parser_free(fresh);
    }
}

Test(walk, any_order_same_answers)
{
    const char *json = "{\"a\":1,\"b\":{\"x\":2,\"y\":3},\"c\":\"s\",\"d\\u0065\":4,\"e\":[5,6],\"f\":7}";
    const char *keys[] = { "/a", "/b", "/b/y", "/b/x", "/c", "/de", "/e", "/e/1", "/f", "/zz", "/b/zz" };
    any_order(json, keys, sizeof keys / sizeof *keys);
}

/* Duplicate keys, the empty key among them: always the first one, whatever
 * was fetched before (the summary of the members before a hint must know
 * every key, the empty one too). */
Test(walk, any_order_duplicates_first)
{
    const char *json = "{\"\":1,\"ab\":2,\"b\" : 3,\"\":4,\"ab\":5,\"ba\":6,\"x\":{\"\":7,\"\":8},\"b\":9}";
    const char *keys[] = { "/", "/ab", "/b", "/ba", "/x", "/x/", "/zz" };
    any_order(json, keys, sizeof keys / sizeof *keys);
}

/* A syntax error after the member the last lookup found: a member before it
 * is still found, one after it is the syntax error, as from the start. */
Test(walk, resume_keeps_syntax_errors)
{
    const char *json = "{\"a\":1,\"b\":2,\"c\":3 \"d\":4}";
    jdoc_parser *p = jdoc_parser_new(NULL);
    jdoc_doc *d;
    cr_assert_eq(jdoc_parse(p, json, strlen(json), &d), JDOC_OK);
    jdoc_status st;
    int64_t i;
    jdoc_value v = at(d, "/c", &st);
    cr_assert_eq(st, JDOC_OK);
    cr_assert_eq(jdoc_get_int64(v, &i), JDOC_OK);
    cr_assert_eq(i, 3);
    v = at(d, "/a", &st);
    cr_assert_eq(st, JDOC_OK, "a member before the hint: %s", jdoc_status_str(st));
    v = at(d, "/c", &st);
    cr_assert_eq(st, JDOC_OK);
    at(d, "/d", &st);
    cr_assert_eq(st, JDOC_ERR_SYNTAX, "after the damage: %s", jdoc_status_str(st));
    at(d, "/nothere", &st);
    cr_assert_eq(st, JDOC_ERR_SYNTAX);
    at(d, "/b", &st);
    cr_assert_eq(st, JDOC_OK);
    jdoc_parser_free(p);
}

/* In document order, each lookup starts where the last one found its key:
 * the members scanned in all are about the object's size, not its square. */
static long scans;
Test(walk, in_order_is_one_pass)
{
    char json[40000];
    size_t n = 0;
    json[n++] = '{';
    for (int k = 0; k < 2000; k++)
        n += (size_t)snprintf(json + n, sizeof json - n, "%s\"k%04d\":%d", k ? "," : "", k, k);
    json[n++] = '}';
    jdoc_parser *p = jdoc_parser_new(NULL);
    jdoc_doc *d;
    cr_assert_eq(jdoc_parse(p, json, n, &d), JDOC_OK);
    /* a lookup of every member in order: with a scan from the start each
     * time this is 2 million member visits; time it against one lookup of
     * the last member (2000 visits) to see it is linear */
    char path[16];
    int64_t x;
    for (int k = 0; k < 2000; k++) {
        snprintf(path, sizeof path, "/k%04d", k);
        jdoc_value v;
        cr_assert_eq(jdoc_fetch(jdoc_root(d), path, &v), JDOC_OK);
        cr_assert_eq(jdoc_get_int64(v, &x), JDOC_OK);
        cr_assert_eq(x, k);
    }
    /* the hint names the last member found */
    uint64_t h = atomic_load(&d->hint);
    cr_assert_eq((uint32_t)(h >> 32), 0u);
    cr_assert_eq(jdoc__off(d, (uint32_t)h), (uint32_t)(strstr(json, "\"k1999\"") - json));
    (void)scans;
    jdoc_parser_free(p);
}

Test(walk, pathset)
{
    const char *json = "[{\"Id\":\"a1\",\"Names\":[\"/web\"],\"State\":\"running\",\"Labels\":{\"x\":\"1\"}},"
                       "{\"State\":\"exited\",\"Id\":\"b2\",\"Names\":[]},"
                       "{\"Id\":\"c\\u0033\",\"Names\":[\"/db\",\"/db2\"],\"Labels\":{\"x\":\"2\"},\"State\":\"paused\"}]";
    const char *exprs[] = { "Id", "Names/1", "State", "Labels/x", "Nope" };
    jdoc_status st;
    size_t bad = 99;
    jdoc_pathset *set = jdoc_pathset_compile(exprs, 5, JDOC_SYNTAX_OJ, &st, &bad);
    cr_assert(set, "%s", jdoc_status_str(st));
    cr_assert_eq(jdoc_pathset_size(set), 5);
    jdoc_parser *p = jdoc_parser_new(NULL);
    jdoc_doc *d;
    cr_assert_eq(jdoc_parse(p, json, strlen(json), &d), JDOC_OK);
    const char *want[3][4] = { { "a1", "/web", "running", "1" }, { "b2", NULL, "exited", NULL },
                               { "c3", "/db", "paused", "2" } };
    size_t wantn[3] = { 4, 2, 4 };
    jdoc_iter it;
    jdoc_value el, out[5];
    jdoc_status each[5];
    cr_assert_eq(jdoc_iter_init(jdoc_root(d), &it), JDOC_OK);
    for (int e = 0; jdoc_iter_next(&it, &el); e++) {
        cr_assert_eq(jdoc_pathset_fetch(el, set, out, each), wantn[e], "element %d", e);
        for (int k = 0; k < 4; k++) {
            if (!want[e][k]) {
                cr_assert_eq(each[k], JDOC_ERR_NOT_FOUND, "element %d path %d", e, k);
                cr_assert(!jdoc_exists(out[k]));
                continue;
            }
            const char *s;
            size_t l;
            cr_assert_eq(each[k], JDOC_OK, "element %d path %d: %s", e, k, jdoc_status_str(each[k]));
            cr_assert_eq(jdoc_get_string(out[k], &s, &l), JDOC_OK);
            cr_assert(l == strlen(want[e][k]) && memcmp(s, want[e][k], l) == 0, "element %d path %d: %.*s", e, k,
                      (int)l, s);
        }
        cr_assert_eq(each[4], JDOC_ERR_NOT_FOUND);
    }
    jdoc_parser_free(p);
    jdoc_pathset_free(set);
    const char *badexprs[] = { "/Id", "/a~2" };   /* "~2" is no pointer escape */
    cr_assert_null(jdoc_pathset_compile(badexprs, 2, JDOC_SYNTAX_POINTER, &st, &bad));
    cr_assert_eq(st, JDOC_ERR_PATH);
    cr_assert_eq(bad, 1);
    jdoc_path *one = jdoc_path_compile("Id", 2, JDOC_SYNTAX_OJ, NULL);
    const jdoc_path *holes[2] = { one, NULL };
    st = JDOC_OK;
    cr_assert_null(jdoc_pathset_of(holes, 2, &st));   /* a NULL path */
    cr_assert_eq(st, JDOC_ERR_ARG);
    cr_assert_null(jdoc_pathset_of(NULL, 1, NULL));
    jdoc_pathset *none = jdoc_pathset_of(NULL, 0, &st);   /* no paths: a set that finds nothing */
    cr_assert(none);
    cr_assert_eq(jdoc_pathset_size(none), 0);
    jdoc_pathset_free(none);
    jdoc_path_free(one);
}

/* A pathset answers as jdoc_fetch_many does, and as each path alone, from
 * the root and from each element: relative keys, absolute paths (from the
 * root only), indices first, missing keys, and a set of more than 64 paths. */
static void same_as_many(jdoc_value from, const jdoc_pathset *set, const jdoc_path *const *paths, size_t n)
{
    jdoc_value a[80], b[80];
    jdoc_status ea[80], eb[80];
    memset(a, 0xa5, sizeof a);   /* what is not found must be zeroed */
    memset(b, 0x5a, sizeof b);
    size_t found = jdoc_pathset_fetch(from, set, a, ea);
    jdoc_status first = jdoc_fetch_many(from, paths, n, b, eb), want_first = JDOC_OK;
    size_t nb = 0;
    for (size_t k = 0; k < n; k++) {
        jdoc_value c;   /* and as each path alone */
        jdoc_status ec = jdoc_fetch_path(from, paths[k], &c);
        if (want_first == JDOC_OK)
            want_first = ec;
        if (ec != JDOC_OK)
            cr_assert(!a[k].doc && !b[k].doc, "path %zu: %s, and a value", k, jdoc_status_str(ec));
        cr_assert_eq(ea[k], eb[k], "path %zu: %s / %s", k, jdoc_status_str(ea[k]), jdoc_status_str(eb[k]));
        cr_assert_eq(ea[k], ec, "path %zu: %s / %s alone", k, jdoc_status_str(ea[k]), jdoc_status_str(ec));
        cr_assert_eq(a[k].doc, b[k].doc, "path %zu", k);
        cr_assert_eq(a[k].idx, b[k].idx, "path %zu", k);
        if (ec == JDOC_OK)
            cr_assert_eq(a[k].idx, c.idx, "path %zu: entry %u, alone %u", k, a[k].idx, c.idx);
        nb += b[k].doc != NULL;
    }
    cr_assert_eq(found, nb);
    cr_assert_eq(first, want_first, "%s, the first path's failure %s", jdoc_status_str(first),
                 jdoc_status_str(want_first));
}

/* jdoc_fetch_many and jdoc_pathset_fetch report the first failure in path
 * order, whatever the order of the members that decide it. */
Test(walk, first_failure_in_path_order)
{
    jdoc_parser *p = jdoc_parser_new(NULL);
    jdoc_doc *d;
    const char *json = "{\"b\":1,\"a\":{\"x\":2}}";
    cr_assert_eq(jdoc_parse(p, json, strlen(json), &d), JDOC_OK);
    jdoc_path *miss = jdoc_path_compile("a/y", 3, JDOC_SYNTAX_OJ, NULL);
    jdoc_path *hit = jdoc_path_compile("b", 1, JDOC_SYNTAX_OJ, NULL);
    const jdoc_path *one[3] = { miss, hit, NULL }, *two[3] = { NULL, hit, miss };
    jdoc_value v[3];
    jdoc_status st[3];
    cr_expect_eq(jdoc_fetch_many(jdoc_root(d), one, 3, v, st), JDOC_ERR_NOT_FOUND);
    cr_expect(st[0] == JDOC_ERR_NOT_FOUND && st[1] == JDOC_OK && st[2] == JDOC_ERR_ARG);
    cr_expect_eq(jdoc_fetch_many(jdoc_root(d), two, 3, v, NULL), JDOC_ERR_ARG);
    cr_expect_eq(jdoc_fetch_many(jdoc_root(d), two + 1, 2, v, NULL), JDOC_ERR_NOT_FOUND);
    cr_expect_eq(jdoc_fetch_many(jdoc_root(d), two + 1, 1, v, NULL), JDOC_OK);
    jdoc_path_free(miss);
    jdoc_path_free(hit);
    jdoc_parser_free(p);
}

Test(walk, pathset_same_as_fetch_many)
{
    static const char *const docs[] = {
        "[{\"Id\":\"a1\",\"Names\":[\"/web\"],\"State\":\"running\",\"\":0,\"Labels\":{\"x\":\"1\"}},"
        "{\"State\":\"exited\",\"Id\":\"b2\",\"Names\":[],\"I\\u0064\":3},[1,2],7]",
        "{\"Id\":\"root\",\"Names\":[\"/r\"],\"sub\":{\"Id\":\"s\",\"State\":\"up\"},\"list\":[{\"Id\":\"l\"}]}",
    };
    const char *base[] = { "Id", "Names/1", "State", "Labels/x", "Nope", "/1/Id", "/2/1", "", "1", "Id/x",
                           "Labels", "State/1", "/Id", "/sub/Id", "sub/State", "/list/1/Id", "Names/..",
                           "Labels/..", "Names/1/../.." };
    size_t nbase = sizeof base / sizeof base[0];
    const char *exprs[70];
    for (size_t k = 0; k < 70; k++)
        exprs[k] = base[k % nbase];
    jdoc_parser *p = jdoc_parser_new(NULL);
    jdoc_doc *d;
    for (size_t j = 0; j < 2; j++)
    for (size_t n = 1; n <= 70; n += n < 18 ? 1 : 52) {   /* 1..18, then 70 (past one plan) */
        cr_assert_eq(jdoc_parse(p, docs[j], strlen(docs[j]), &d), JDOC_OK);
        jdoc_status st;
        jdoc_pathset *set = jdoc_pathset_compile(exprs, n, JDOC_SYNTAX_OJ, &st, NULL);
        cr_assert(set, "%s", jdoc_status_str(st));
        jdoc_path *paths[70];
        for (size_t k = 0; k < n; k++)
            paths[k] = jdoc_path_compile(exprs[k], strlen(exprs[k]), JDOC_SYNTAX_OJ, NULL);
        /* and a set over the same paths compiled by the caller, who frees them after it */
        jdoc_pathset *of = jdoc_pathset_of((const jdoc_path *const *)paths, n, &st);
        cr_assert(of, "%s", jdoc_status_str(st));
        cr_assert_eq(jdoc_pathset_size(of), n);
        same_as_many(jdoc_root(d), set, (const jdoc_path *const *)paths, n);
        same_as_many(jdoc_root(d), of, (const jdoc_path *const *)paths, n);
        jdoc_iter it;
        jdoc_value el;
        cr_assert_eq(jdoc_iter_init(jdoc_root(d), &it), JDOC_OK);
        while (jdoc_iter_next(&it, &el)) {
            same_as_many(el, set, (const jdoc_path *const *)paths, n);
            same_as_many(el, of, (const jdoc_path *const *)paths, n);
        }
        jdoc_pathset_free(of);   /* leaves the paths alone */
        for (size_t k = 0; k < n; k++)
            jdoc_path_free(paths[k]);
        jdoc_pathset_free(set);
    }
    jdoc_parser_free(p);
}

/* The getters' fast paths agree with the full parsers at their edges. */
Test(walk, typed_fast_paths)
{
    static const struct {
        const char *json;
        jdoc_status st;
        int64_t v;
    } cases[] = {
        { "0", JDOC_OK, 0 }, { "-0", JDOC_OK, 0 }, { "123456789012345678", JDOC_OK, 123456789012345678 },
        { "-123456789012345678", JDOC_OK, -123456789012345678 },
        { "9223372036854775807", JDOC_OK, INT64_MAX }, { "-9223372036854775808", JDOC_OK, INT64_MIN },
        { "9223372036854775808", JDOC_ERR_RANGE, 0 }, { "01", JDOC_ERR_NUMBER, 0 }, { "1.0", JDOC_ERR_TYPE, 0 },
        { "1e2", JDOC_ERR_TYPE, 0 }, { "-", JDOC_ERR_NUMBER, 0 }, { "[12]", JDOC_ERR_TYPE, 0 },
        { "\"12\"", JDOC_ERR_TYPE, 0 }, { "true", JDOC_ERR_TYPE, 0 },
    };
    jdoc_parser *p = jdoc_parser_new(NULL);
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        /* alone, and inside an array (the byte after it is a delimiter) */
        for (int wrap = 0; wrap < 2; wrap++) {
            char buf[64];
            snprintf(buf, sizeof buf, wrap ? "[%s]" : "%s", cases[i].json);
            jdoc_doc *d;
            jdoc_status ps = jdoc_parse(p, buf, strlen(buf), &d);
            if (ps != JDOC_OK) {
                cr_assert_eq(cases[i].st, JDOC_ERR_NUMBER, "%s: %s", buf, jdoc_status_str(ps));
                continue;
            }
            jdoc_value v = jdoc_root(d);
            if (wrap)
                cr_assert_eq(jdoc_fetch(v, "1", &v), JDOC_OK);
            int64_t x = 7;
            jdoc_status st = jdoc_get_int64(v, &x);
            cr_assert_eq(st, cases[i].st, "%s: %s", buf, jdoc_status_str(st));
            if (st == JDOC_OK)
                cr_assert_eq(x, cases[i].v, "%s", buf);
        }
    }
    jdoc_doc *d;
    bool b = false;
    cr_assert_eq(jdoc_parse(p, "[true,truex,false]", 18, &d), JDOC_OK);
    jdoc_value v;
    cr_assert_eq(jdoc_fetch(jdoc_root(d), "1", &v), JDOC_OK);
    cr_assert_eq(jdoc_get_bool(v, &b), JDOC_OK);
    cr_assert(b);
    cr_assert_eq(jdoc_fetch(jdoc_root(d), "2", &v), JDOC_OK);
    cr_assert_eq(jdoc_get_bool(v, &b), JDOC_ERR_SYNTAX);
    jdoc_parser_free(p);
}

/* The type of a container comes from its tape byte: a bracket's byte offset
 * costs a walk over the run of brackets after it, so asking for it at every
 * level of a deep nest was quadratic (about 15 s for these 200000 levels). */
Test(walk, deep_nest_types_in_linear_time, .timeout = 10)
{
    enum { DEPTH = 200000 };
    size_t n;
    jdoc_parser *p;
    char *doc = tu_deep_nest(DEPTH, &n, DEPTH, &p);
    jdoc_doc *d;
    cr_assert_eq(jdoc_parse(p, doc, n, &d), JDOC_OK);
    jdoc_value v = jdoc_root(d);
    int levels = 0;
    while (jdoc_typeof(v) == JDOC_ARRAY) {
        jdoc_iter it;
        cr_assert_eq(jdoc_iter_init(v, &it), JDOC_OK);
        cr_assert(jdoc_iter_next(&it, &v), "level %d", levels);
        levels++;
    }
    cr_expect_eq(levels, DEPTH);
    cr_expect_eq(jdoc_typeof(v), JDOC_INT);
    jdoc_parser_free(p);
    free(doc);
}
