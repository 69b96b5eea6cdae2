/* SPDX-License-Identifier: MIT */
/* JSONPath (RFC 9535) through the C API: the whole JSONPath Compliance Test
 * Suite (../shared/corpus/jsonpath/cts.json), error offsets, bad queries,
 * iterator reuse, normalized paths, stale documents. */
#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include "testutil.h"
#include "jp_dom.h"
#include "query/query.h"
#include "keys_diff.h"

#define CTS CORPUS "/jsonpath/cts.json"

static jdoc_value ptr(jdoc_value v, const char *p)
{
    jdoc_value out;
    if (jdoc_pointer(v, p, strlen(p), &out) != JDOC_OK)
        return (jdoc_value){ 0 };
    return out;
}

static char *str_of(jdoc_value v, size_t *n)
{
    const char *s;
    if (jdoc_get_string(v, &s, n) != JDOC_OK)
        return NULL;
    char *c = malloc(*n + 1);
    memcpy(c, s, *n);
    c[*n] = 0;
    return c;
}

typedef struct got {
    size_t n;
    tnode *node[256];
    char *path[256];
} got;

static void got_free(got *g)
{
    for (size_t k = 0; k < g->n; k++) {
        dom_free(g->node[k]);
        free(g->path[k]);
    }
    g->n = 0;
}

/* Does the nodelist match one expected alternative (values and paths)? */
static bool matches(const got *g, jdoc_value values, jdoc_value paths)
{
    if (jdoc_count(values) != g->n)
        return false;
    jdoc_iter iv, ip;
    jdoc_value v, p;
    jdoc_iter_init(values, &iv);
    bool have_paths = jdoc_exists(paths) && jdoc_iter_init(paths, &ip) == JDOC_OK;
    for (size_t k = 0; k < g->n; k++) {
        jdoc_iter_next(&iv, &v);
        tnode *want = dom_build(v);
        bool ok = dom_eq(want, g->node[k]);
        dom_free(want);
        if (!ok)
            return false;
        if (have_paths) {
            jdoc_iter_next(&ip, &p);
            const char *s;
            size_t n;
            if (jdoc_get_string(p, &s, &n) != JDOC_OK || n != strlen(g->path[k]) || memcmp(s, g->path[k], n))
                return false;
        }
    }
    return true;
}

static void show(const got *g)
{
    for (size_t k = 0; k < g->n && k < 8; k++)
        fprintf(stderr, "      %s\n", g->path[k]);
}

Test(jsonpath, compliance_suite, .timeout = 60)
{
    size_t len;
    char *json = tu_read(CTS, &len);
    if (!json)
        cr_skip_test("%s is absent: the JSONPath compliance suite was not run", CTS);
    jdoc_parser *p = jdoc_parser_new(NULL), *pd = jdoc_parser_new(NULL);
    jdoc_doc *d;
    cr_assert_eq(jdoc_parse(p, json, len, &d), JDOC_OK);
    jdoc_value tests = ptr(jdoc_root(d), "/tests");
    cr_assert_eq(jdoc_typeof(tests), JDOC_ARRAY);
    jdoc_iter it;
    jdoc_value t;
    jdoc_iter_init(tests, &it);
    size_t total = 0, failed = 0, invalid = 0;
    got g = { 0 };
    while (jdoc_iter_next(&it, &t)) {
        total++;
        size_t nl, sl;
        char *name = str_of(ptr(t, "/name"), &nl), *sel = str_of(ptr(t, "/selector"), &sl);
        cr_assert(name && sel);
        jdoc_value inv = ptr(t, "/invalid_selector");
        bool want_invalid = false;
        if (jdoc_exists(inv))
            jdoc_get_bool(inv, &want_invalid);
        jdoc_error err;
        jdoc_query *q = jdoc_query_compile(sel, sl, NULL, &err);
        const char *why = NULL;
        if (want_invalid) {
            invalid++;
            if (q)
                why = "accepted an invalid query";
            else if (err.code != JDOC_ERR_PATH || err.offset > sl || !err.message)
                why = "bad error for an invalid query";
        } else if (!q) {
            fprintf(stderr, "    error at %zu: %s\n", err.offset, err.message);
            why = "rejected a valid query";
        } else {
            const char *raw;
            size_t rl;
            cr_assert_eq(jdoc_get_raw(ptr(t, "/document"), &raw, &rl), JDOC_OK);
            jdoc_doc *dd;
            cr_assert_eq(jdoc_parse(pd, raw, rl, &dd), JDOC_OK);
            jdoc_status st;
            jdoc_query_iter *qi = jdoc_query_iter_new(q, jdoc_root(dd), &st);
            cr_assert(qi);
            jdoc_value v;
            while (jdoc_query_iter_next(qi, &v)) {
                cr_assert(g.n < 256);
                char buf[512];
                size_t pl = jdoc_query_iter_path(qi, buf, sizeof buf);
                cr_assert(pl < sizeof buf);
                g.node[g.n] = dom_build(v);
                g.path[g.n++] = strdup(buf);
            }
            cr_assert_eq(jdoc_query_iter_status(qi), JDOC_OK, "%s", name);
            jdoc_query_iter_free(qi);
            jdoc_value one = ptr(t, "/result");
            bool ok = false;
            if (jdoc_exists(one)) {
                ok = matches(&g, one, ptr(t, "/result_paths"));
            } else {
                jdoc_value alts = ptr(t, "/results"), altp = ptr(t, "/results_paths");
                jdoc_iter ia, ib;
                jdoc_value a, b;
                jdoc_iter_init(alts, &ia);
                jdoc_iter_init(altp, &ib);
                while (!ok && jdoc_iter_next(&ia, &a) && jdoc_iter_next(&ib, &b))
                    ok = matches(&g, a, b);
            }
            if (!ok) {
                why = "wrong nodelist";
                show(&g);
            }
            got_free(&g);
        }
        if (why) {
            failed++;
            fprintf(stderr, "  FAIL %s: %s: %s\n", name, sel, why);
        }
        jdoc_query_free(q);
        free(name);
        free(sel);
    }
    fprintf(stderr, "jsonpath compliance suite: %zu cases (%zu invalid queries), %zu failed\n", total, invalid, failed);
    cr_expect_eq(total, 687);
    cr_expect_eq(failed, 0, "%zu of %zu compliance cases failed", failed, total);
    jdoc_parser_free(p);
    jdoc_parser_free(pd);
    free(json);
}

/* ---- hand-written cases ---- */

static jdoc_parser *P;
static jdoc_doc *D;

static void load(const char *json)
{
    if (!P)
        P = jdoc_parser_new(NULL);
    cr_assert_eq(jdoc_parse(P, json, strlen(json), &D), JDOC_OK);
}

static void fini(void)
{
    jdoc_parser_free(P);
    P = NULL;
}

static uint32_t last_scans, last_scans_ok;   /* the last run's scans (jdoc__query_iter_scans) */

/* The nodes of q over D as "path=value" lines, and the iterator's status;
 * with `frames`, q evaluated without its one-walk descendant path. */
static char *run_status(const char *query, bool frames, jdoc_status *st)
{
    jdoc_error err;
    jdoc_query *q = jdoc_query_compile(query, strlen(query), NULL, &err);
    cr_assert(q, "%s: %s at %zu", query, err.message, err.offset);
    if (frames)
        jdoc__query_frames_only(q);
    jdoc_query_iter *it = jdoc_query_iter_new(q, jdoc_root(D), NULL);
    static char out[8192];
    uint32_t scanned, failed;
    size_t o = 0;
    jdoc_value v;
    out[0] = 0;
    while (jdoc_query_iter_next(it, &v) && o < sizeof out - 1536) {
        char path[256], val[1024];
        jdoc_query_iter_path(it, path, sizeof path);
        jdoc_dump(v, val, sizeof val);
        o += (size_t)snprintf(out + o, sizeof out - o, "%s%s=%s", o ? " " : "", path, val);
    }
    *st = jdoc_query_iter_status(it);
    jdoc__query_iter_scans(it, &scanned, &failed);
    last_scans = scanned, last_scans_ok = scanned - failed;
    jdoc_query_iter_free(it);
    jdoc_query_free(q);
    return out;
}

static char *run(const char *query)
{
    jdoc_status st;
    return run_status(query, false, &st);
}

static const char *docker =
    "[{\"Id\":\"8dfa\",\"Names\":[\"/web-1\"],\"State\":\"running\",\"Mounts\":[{\"Type\":\"bind\",\"Source\":\"/srv\"},"
    "{\"Type\":\"volume\",\"Source\":\"/var/lib\"}],\"NetworkSettings\":{\"Networks\":{\"front\":{\"IPAddress\":\"172.18.0.2\"},"
    "\"back\":{\"IPAddress\":\"172.19.0.2\"}}}},"
    "{\"Id\":\"4c01\",\"Names\":[\"/db-1\"],\"State\":\"exited\",\"Mounts\":[],\"NetworkSettings\":{\"Networks\":{}}}]";

Test(jsonpath, docker_queries, .fini = fini)
{
    load(docker);
    cr_assert_str_eq(run("$[*].Id"), "$[0]['Id']=\"8dfa\" $[1]['Id']=\"4c01\"");
    cr_assert_str_eq(run("$[?@.State == 'running'].Names[0]"), "$[0]['Names'][0]=\"/web-1\"");
    cr_assert_str_eq(run("$..Mounts[?@.Type == 'bind'].Source"), "$[0]['Mounts'][0]['Source']=\"/srv\"");
    cr_assert_str_eq(run("$[0].NetworkSettings.Networks.*.IPAddress"),
                     "$[0]['NetworkSettings']['Networks']['front']['IPAddress']=\"172.18.0.2\" "
                     "$[0]['NetworkSettings']['Networks']['back']['IPAddress']=\"172.19.0.2\"");
    cr_assert_str_eq(run("$..IPAddress"),
                     "$[0]['NetworkSettings']['Networks']['front']['IPAddress']=\"172.18.0.2\" "
                     "$[0]['NetworkSettings']['Networks']['back']['IPAddress']=\"172.19.0.2\"");
    cr_assert_str_eq(run("$[-1].Id"), "$[1]['Id']=\"4c01\"");
    cr_assert_str_eq(run("$[*]['Id','State']"),
                     "$[0]['Id']=\"8dfa\" $[0]['State']=\"running\" $[1]['Id']=\"4c01\" $[1]['State']=\"exited\"");
    cr_assert_str_eq(run("$[?count(@.Mounts[*]) > 1].Id"), "$[0]['Id']=\"8dfa\"");
    cr_assert_str_eq(run("$[?match(@.Names[0], '/[a-z]+-1')].Id"), "$[0]['Id']=\"8dfa\" $[1]['Id']=\"4c01\"");
    cr_assert_str_eq(run("$[?search(@.State, 'xit')].Id"), "$[1]['Id']=\"4c01\"");
    cr_assert_str_eq(run("$[?length(@.Mounts) == 0].Id"), "$[1]['Id']=\"4c01\"");
    cr_assert_str_eq(run("$.nothing"), "");
    cr_assert_str_eq(run("$"), "$=" "[{\"Id\":\"8dfa\",\"Names\":[\"/web-1\"],\"State\":\"running\",\"Mounts\":[{\"Type\":\"bind\",\"Source\":\"/srv\"},{\"Type\":\"volume\",\"Source\":\"/var/lib\"}],\"NetworkSettings\":{\"Networks\":{\"front\":{\"IPAddress\":\"172.18.0.2\"},\"back\":{\"IPAddress\":\"172.19.0.2\"}}}},{\"Id\":\"4c01\",\"Names\":[\"/db-1\"],\"State\":\"exited\",\"Mounts\":[],\"NetworkSettings\":{\"Networks\":{}}}]");
}

Test(jsonpath, values_and_order, .fini = fini)
{
    load("{\"a\":[0,1,2,3,4,5,6],\"n\":[1,1.0,10e-1,\"1\",true,null,{\"x\":1},[1]],\"k\\u0065y\":\"esc\",\"q'\\\\\\n\\u0001\":7}");
    cr_assert_str_eq(run("$.a[1:6:2]"), "$['a'][1]=1 $['a'][3]=3 $['a'][5]=5");
    cr_assert_str_eq(run("$.a[::-3]"), "$['a'][6]=6 $['a'][3]=3 $['a'][0]=0");
    cr_assert_str_eq(run("$.a[-2:]"), "$['a'][5]=5 $['a'][6]=6");
    cr_assert_str_eq(run("$.a[5:1:-2]"), "$['a'][5]=5 $['a'][3]=3");
    cr_assert_str_eq(run("$.a[0,0,-1]"), "$['a'][0]=0 $['a'][0]=0 $['a'][6]=6");
    cr_assert_str_eq(run("$.a[::0]"), "");
    /* numbers by value, not by text; other types never equal a number */
    cr_assert_str_eq(run("$.n[?@ == 1]"), "$['n'][0]=1 $['n'][1]=1.0 $['n'][2]=10e-1");
    cr_assert_str_eq(run("$.n[?@ == $.n[6]]"), "$['n'][6]={\"x\":1}");
    cr_assert_str_eq(run("$.key"), "$['key']=\"esc\"");
    /* several names: selector order, the first member of a name, escaped keys */
    load("{\"Id\":1,\"I\\u0064\":2,\"\\u0049mage\":3,\"Image2\":4,\"\":5}");
    cr_assert_str_eq(run("$['Image','Id','nope','Id','']"), "$['Image']=3 $['Id']=1 $['Id']=1 $['']=5");
    cr_assert_str_eq(run("$.Image"), "$['Image']=3");
    cr_assert_str_eq(run("$[?@ == 2]"), "$['Id']=2");
    load("{\"a\":[0,1,2,3,4,5,6],\"n\":[1,1.0,10e-1,\"1\",true,null,{\"x\":1},[1]],\"k\\u0065y\":\"esc\",\"q'\\\\\\n\\u0001\":7}");
    /* normalized paths escape quotes, backslashes and controls */
    cr_assert_str_eq(run("$[?@ == 7]"), "$['q\\'\\\\\\n\\u0001']=7");
}

Test(jsonpath, compile_errors)
{
    static const struct { const char *q; size_t off; } bad[] = {
        { "", 0 }, { " $", 0 }, { "$ ", 1 }, { "$[", 2 }, { "$['a'", 1 }, { "$[1", 1 },
        { "$.a[?@.b == 'x'", 3 }, { "$['\\q']", 3 }, { "$[9007199254740992]", 2 }, { "$[-0]", 2 },
        { "$[01]", 2 }, { "$..", 1 }, { "$.a.", 3 }, { "$[?@.a == @.*]", 10 }, { "$[?length(@.*)]", 10 },
        { "$[?length(@.a)]", 3 }, { "$[?match(@.a, 'x') == true]", 3 }, { "$[?foo(@)]", 3 }, { "$[?1]", 3 },
        { "$[?@.a == 1 == 1]", 11 }, { "$[?!@.a == 1]", 8 }, { "$[?(@.a]", 7 }, { "$.\xff", 2 },
        { "$['\\ud800']", 3 }, { "$[?@ == {\"x\":1}]", 8 }, { "$[?@ == [1]]", 8 },
    };
    for (size_t k = 0; k < sizeof bad / sizeof *bad; k++) {
        jdoc_error err;
        jdoc_query *q = jdoc_query_compile(bad[k].q, strlen(bad[k].q), NULL, &err);
        cr_expect_null(q, "%s accepted", bad[k].q);
        jdoc_query_free(q);
        cr_expect_eq(err.code, JDOC_ERR_PATH, "%s", bad[k].q);
        cr_expect_eq(err.offset, bad[k].off, "%s: error at %zu (%s), want %zu", bad[k].q, err.offset, err.message,
                     bad[k].off);
        cr_expect(err.message && *err.message);
    }
    /* filters nested beyond the limit: an error, never a crash */
    char deep[4096];
    size_t o = 0;
    o += (size_t)snprintf(deep + o, sizeof deep - o, "$");
    for (int k = 0; k < 200; k++)
        o += (size_t)snprintf(deep + o, sizeof deep - o, "[?@");
    for (int k = 0; k < 200; k++)
        deep[o++] = ']';
    deep[o] = 0;
    jdoc_error err;
    cr_expect_null(jdoc_query_compile(deep, o, NULL, &err));
    cr_expect_str_eq(err.message, "nesting too deep");
    memset(deep, '(', 3000);
    memcpy(deep, "$[?", 3);
    cr_expect_null(jdoc_query_compile(deep, 3000, NULL, &err));
    cr_expect_null(jdoc_query_compile(NULL, 1, NULL, &err));
    cr_expect_eq(err.code, JDOC_ERR_ARG);
}

Test(jsonpath, iterator_reuse_and_stale, .fini = fini)
{
    load("[[1,2],[3]]");
    jdoc_query *q = jdoc_query_compile("$[*][*]", 7, NULL, NULL);
    jdoc_status st;
    jdoc_query_iter *it = jdoc_query_iter_new(q, jdoc_root(D), &st);
    cr_assert_eq(st, JDOC_OK);
    int64_t sum = 0, x;
    jdoc_value v;
    char path[8];
    cr_assert_eq(jdoc_query_iter_path(it, path, sizeof path), 0);   /* no current node yet */
    while (jdoc_query_iter_next(it, &v)) {
        jdoc_get_int64(v, &x);
        sum += x;
    }
    cr_assert_eq(sum, 6);
    /* from another value: $ is that value */
    jdoc_value second;
    jdoc_pointer(jdoc_root(D), "/0", 2, &second);
    jdoc_query *q2 = jdoc_query_compile("$[1]", 4, NULL, NULL);
    jdoc_query_iter *it2 = jdoc_query_iter_new(q2, second, NULL);
    cr_assert(jdoc_query_iter_next(it2, &v));
    jdoc_get_int64(v, &x);
    cr_assert_eq(x, 2);
    cr_assert_eq(jdoc_query_iter_path(it2, path, 3), 4);   /* truncated like snprintf */
    cr_assert_str_eq(path, "$[");
    /* reset, then the document is replaced: refused */
    cr_assert_eq(jdoc_query_iter_reset(it, jdoc_root(D)), JDOC_OK);
    cr_assert(jdoc_query_iter_next(it, &v));
    load("[5]");
    cr_assert_eq(jdoc_query_iter_path(it, path, sizeof path), 0);   /* the node's document is gone */
    cr_assert(!jdoc_query_iter_next(it, &v));
    cr_assert_eq(jdoc_query_iter_status(it), JDOC_ERR_ARG);
    jdoc_query_iter_free(it);
    jdoc_query_iter_free(it2);
    jdoc_query_free(q);
    jdoc_query_free(q2);
}

static int count_cb(const jdoc_query_iter *it, jdoc_value v, void *ud)
{
    (void)it;
    (void)v;
    return ++*(int *)ud == 2;
}

Test(jsonpath, each_and_malformed, .fini = fini)
{
    load("[1,2,3]");
    jdoc_query *q = jdoc_query_compile("$[*]", 4, NULL, NULL);
    int n = 0;
    cr_assert_eq(jdoc_query_each(q, jdoc_root(D), count_cb, &n), JDOC_OK);
    cr_assert_eq(n, 2);   /* stopped by the callback */
    /* stage 1 checks brackets only: the walk reports the rest */
    load("[1 2]");
    jdoc_query_iter *it = jdoc_query_iter_new(q, jdoc_root(D), NULL);
    jdoc_value v;
    while (jdoc_query_iter_next(it, &v))
        ;
    cr_assert_eq(jdoc_query_iter_status(it), JDOC_ERR_SYNTAX);
    jdoc_query_iter_free(it);
    cr_assert_eq(jdoc_query_each(q, (jdoc_value){ 0 }, count_cb, &n), JDOC_ERR_ARG);
    jdoc_query_free(q);
}

Test(jsonpath, regex_no_blowup, .fini = fini, .timeout = 10)
{
    /* (a*)*b over 30000 a's: exponential for a backtracker, linear here */
    static char doc[40000];
    size_t o = 0;
    doc[o++] = '[';
    doc[o++] = '"';
    for (int k = 0; k < 30000; k++)
        doc[o++] = 'a';
    doc[o++] = '"';
    doc[o++] = ']';
    doc[o] = 0;
    load(doc);
    cr_assert_str_eq(run("$[?match(@, '(a*)*b')]"), "");
    cr_assert_str_eq(run("$[?search(@, '(a|aa)*c')]"), "");
    jdoc_query *q = jdoc_query_compile("$[?length(@) == 30000 && match(@, '(a{2,5})*')]", 47, NULL, NULL);
    cr_assert(q);
    jdoc_query_iter *it = jdoc_query_iter_new(q, jdoc_root(D), NULL);
    cr_assert(jdoc_query_iter_next(it, NULL));
    jdoc_query_iter_free(it);
    jdoc_query_free(q);
}

/* Descendant names over a large document: subtrees without the name's bytes
 * are skipped, so a name written with an escape, and backslashes in values
 * (which do not count), must not fool the skipping. */
Test(jsonpath, descendant_skipping, .fini = fini)
{
    static char doc[200000];
    size_t o = 0;
    o += (size_t)snprintf(doc + o, sizeof doc - o, "[");
    for (int k = 0; k < 400; k++)
        o += (size_t)snprintf(doc + o, sizeof doc - o, "{\"pad\":\"a\\\\b\\\"c\",\"v\":{\"w\":[%d,{\"x\":1}]}},", k);
    o += (size_t)snprintf(doc + o, sizeof doc - o,
                          "{\"deep\":[{\"\\u0049PAddress\":7}]},{\"n\":{\"IPAddress\":8,\"m\":{\"IPAddress\":9}}},"
                          "{\"IPAddress \":0,\"s\":\"IPAddress\"},{\"esc\\\"aped\":{\"IPAddress\":10}}]");
    load(doc);
    cr_assert_str_eq(run("$..IPAddress"), "$[400]['deep'][0]['IPAddress']=7 $[401]['n']['IPAddress']=8 "
                                          "$[401]['n']['m']['IPAddress']=9 $[403]['esc\"aped']['IPAddress']=10");
    jdoc_query *q = jdoc_query_compile("$..x", 4, NULL, NULL);
    jdoc_query_iter *it = jdoc_query_iter_new(q, jdoc_root(D), NULL);
    int n = 0;
    while (jdoc_query_iter_next(it, NULL))
        n++;
    cr_assert_eq(n, 400);
    jdoc_query_iter_free(it);
    jdoc_query_free(q);
    /* a filter's own descendant query is not skipped by the outer one's names */
    o = 0;
    o += (size_t)snprintf(doc + o, sizeof doc - o, "[");
    for (int k = 0; k < 400; k++)
        o += (size_t)snprintf(doc + o, sizeof doc - o, "{\"p\":[%d,{\"z\":1}]},", k);
    o += (size_t)snprintf(doc + o, sizeof doc - o, "{\"q\":{\"x\":{\"y\":{\"b\":1}},\"n\":[0");
    for (int k = 0; k < 2000; k++)   /* a span large enough to be scanned on its own */
        o += (size_t)snprintf(doc + o, sizeof doc - o, ",%d", k);
    o += (size_t)snprintf(doc + o, sizeof doc - o, "]}},{\"r\":{\"q\":{\"b\":2}}}]");
    load(doc);
    cr_assert_str_eq(run("$..q[?@..b]"), "$[400]['q']['x']={\"y\":{\"b\":1}}");
    /* and a second descendant segment does not replace the first one's scan */
    cr_assert_str_eq(run("$..q..b"), "$[400]['q']['x']['y']['b']=1 $[401]['r']['q']['b']=2");
}

/* A descendant segment of one name walks each container once, the frames
 * twice (a selector walk, then a descent walk). Both must give the same
 * nodes, paths and status on any document: a malformed one (stage 1 checks
 * brackets, not what is between them: a byte of the document dropped or
 * replaced by a separator), where the nodes before the damage come first,
 * and keys with whitespace before the ':', escapes or other lengths. */
static jdoc_kernel_id desc_kernels[] = { JDOC_KERNEL_SCALAR, JDOC_KERNEL_SSE42, JDOC_KERNEL_AVX2, JDOC_KERNEL_AVX512,
                                          JDOC_KERNEL_NEON, JDOC_KERNEL_NEON_NOPMULL };
ParameterizedTestParameters(jsonpath, descendant_one_name_as_two)
{
    return cr_make_param_array(jdoc_kernel_id, desc_kernels, sizeof desc_kernels / sizeof *desc_kernels);
}

/* ... on every kernel: on a SIMD one the one walk is most often one scan of
 * the whole document (the kernel's keys), which must accept exactly what
 * the walk would and give the same nodes in the same order. */
ParameterizedTest(jdoc_kernel_id *kid, jsonpath, descendant_one_name_as_two, .fini = fini)
{
    if (!jdoc_kernel_supported(*kid))
        cr_skip_test("kernel %s: not on this CPU or build", jdoc_kernel_id_name(*kid));
    P = tu_parser(*kid);
    uint64_t seed = 7;
    char doc[2048];
    int compared = 0, damaged = 0, scanned = 0;
    for (int round = 0; round < 3000; round++) {
        size_t o = 0;
        doc[o++] = '[';
        kd_gen_value(&seed, doc, &o, sizeof doc - 2, 0);
        doc[o++] = ']';
        if (round % 3) {   /* damage: a byte replaced by ',' ':' or a digit, or dropped */
            size_t at = 1 + tu_rand(&seed) % (o - 2);
            uint64_t how = tu_rand(&seed) % 4;
            if (how == 3) {
                memmove(doc + at, doc + at + 1, o - at - 1);
                o--;
            } else if (doc[at] != '[' && doc[at] != ']' && doc[at] != '{' && doc[at] != '}' && doc[at] != '"') {
                doc[at] = ",:1"[how];
            }
        }
        doc[o] = 0;
        if (!P)
            P = jdoc_parser_new(NULL);
        if (jdoc_parse(P, doc, o, &D) != JDOC_OK)
            continue;   /* a string or a bracket cut: stage 1 refuses it */
        jdoc_status s1, s2;
        char a[8192];
        const char *query = round % 4 == 3 ? "$..x[0]" : "$..x";
        snprintf(a, sizeof a, "%s", run_status(query, false, &s1));
        const char *b = run_status(query, true, &s2);
        cr_assert_str_eq(a, b, "%s %s", query, doc);
        cr_assert_eq(s1, s2, "%s: %s against %s", doc, jdoc_status_str(s1), jdoc_status_str(s2));
        /* the scan accepts what the walk accepts (nothing lost, only slower, else) */
        if (s1 == JDOC_OK && round % 3 == 0 && query[4] == 0 && jdoc_doc_index_size(D) >= 40 && *kid != JDOC_KERNEL_SCALAR) {
            run_status(query, false, &s1);
            cr_assert(last_scans == 1 && last_scans_ok == 1, "%s: %u scans, %u ok", doc, last_scans, last_scans_ok);
            scanned++;
        }
        compared++;
        damaged += s1 != JDOC_OK;
    }
    cr_assert(compared > 1500 && damaged > 200 && damaged < compared - 500, "%d compared, %d damaged", compared,
              damaged);
    cr_assert(*kid == JDOC_KERNEL_SCALAR || scanned > 100, "%d scanned", scanned);
    /* and against the scalar kernel's walk */
    jdoc_parser *ps = tu_parser(JDOC_KERNEL_SCALAR);
    char why[512] = "";
    cr_assert(keys_generated(ps, P, why, sizeof why), "%s", why);
    jdoc_parser_free(ps);
    /* and answers known by heart: whitespace before the ':', a damaged
     * object without the name (its own walk fails first), one with it
     * before the damage (the member, the containers before the damage, then
     * the error) */
    static const struct { const char *doc, *nodes; jdoc_status st; } c[] = {
        { "{\"x\" :1,\"y\":{\"x\"\t:2,\"xx\" :3}}", "$['x']=1 $['y']['x']=2", JDOC_OK },
        { "{\"a\":{\"x\":1},\"b\" 2}", "", JDOC_ERR_SYNTAX },
        { "{\"x\":0,\"a\":{\"x\":1},\"b\" 2,\"c\":{\"x\":3}}", "$['x']=0 $['a']['x']=1", JDOC_ERR_SYNTAX },
        { "[{\"x\":1},2 3,{\"x\":4}]", "$[0]['x']=1", JDOC_ERR_SYNTAX },
        /* long enough to be scanned: an object's member comes before its
         * descendants' even when written after them, a name given twice is
         * its first member, keys in arrays or without their value are errors */
        { "{\"a\":{\"x\":1,\"b\":[{\"x\":2}]},\"x\":3,\"x\":4,\"p\":[0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15]}",
          "$['x']=3 $['a']['x']=1 $['a']['b'][0]['x']=2", JDOC_OK },
        { "[[0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17],{\"x\":1},[0,\"x\":2]]", "$[1]['x']=1", JDOC_ERR_SYNTAX },
        { "[[0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17],{\"x\":1},{\"y\":0,\"x\"}]", "$[1]['x']=1",
          JDOC_ERR_SYNTAX },
        { "[[0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17],{\"x\":[1,\"x\"]},{\"x\":{\"x\" :5}}]",
          "$[1]['x']=[1,\"x\"] $[2]['x']={\"x\":5} $[2]['x']['x']=5", JDOC_OK },
    };
    /* 300 levels of objects with the name at each, written before the
     * nested object or after it (the nodes then come in the reverse of the
     * text's order): the scan's stack and lists grow, and agree with the frames */
    for (int after = 0; after < 2; after++) {
        static char deep[16384];
        size_t o = 0;
        for (int l = 0; l < 300; l++)
            o += (size_t)snprintf(deep + o, sizeof deep - o, after ? "{\"a\":" : "{\"x\":%d,\"a\":", l);
        o += (size_t)snprintf(deep + o, sizeof deep - o, "0");
        for (int l = 299; l >= 0; l--)
            o += (size_t)snprintf(deep + o, sizeof deep - o, after ? ",\"x\":%d}" : "}", l);
        load(deep);
        jdoc_status s1, s2;
        static char a[8192];
        snprintf(a, sizeof a, "%s", run_status("$..x", false, &s1));
        cr_assert(*kid == JDOC_KERNEL_SCALAR || (last_scans == 1 && last_scans_ok == 1));
        cr_assert_str_eq(a, run_status("$..x", true, &s2));
        cr_assert(s1 == JDOC_OK && s2 == JDOC_OK);
        cr_assert(!strncmp(a, "$['x']=0 $['a']['x']=1 $['a']['a']['x']=2 ", 42), "%.80s", a);
    }
    /* one key with whitespace before its ':' in a long compact document,
     * at every member and 8 alignments: the scan's pass over the bytes for
     * such a ':' (256 bytes a step on avx512, then 64, then byte by byte)
     * must see it wherever it is, or the scan would lose that member */
    for (int pad = 0; pad < 8; pad++)
        for (int j = 0; j < 70; j++) {
            static char doc2[4096];
            size_t o = (size_t)snprintf(doc2, sizeof doc2, "[\"%.*s\"", pad, "........");
            for (int i = 0; i < 70; i++)
                o += (size_t)snprintf(doc2 + o, sizeof doc2 - o, i == j ? ",{\"x\"%c:%d}" : ",{\"x\":%d}",
                                      i == j ? " \t\n\r"[j % 4] : i, i);
            snprintf(doc2 + o, sizeof doc2 - o, "]");
            load(doc2);
            jdoc_status s1, s2;
            static char a[8192], want[32];
            snprintf(a, sizeof a, "%s ", run_status("$..x", false, &s1));   /* a space after each node */
            cr_assert(*kid == JDOC_KERNEL_SCALAR || (last_scans == 1 && last_scans_ok == 1), "pad %d, key %d", pad, j);
            const char *b = run_status("$..x", true, &s2);
            cr_assert(strlen(b) + 1 == strlen(a) && !strncmp(a, b, strlen(b)), "pad %d, key %d", pad, j);
            snprintf(want, sizeof want, "$[%d]['x']=%d ", j + 1, j);
            cr_assert(s1 == JDOC_OK && strstr(a, want), "pad %d, key %d: %.200s", pad, j, a);
        }
    /* a name holding a quote is never written without a backslash: the
     * bytes after a shorter key's quote, whitespace before its ':', are not it */
    load("[[0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17],{\"ab\" :1,\"ab\\\"\":2}]");
    for (int frames = 0; frames < 2; frames++) {
        jdoc_status st;
        cr_assert_str_eq(run_status("$..['ab\"']", frames, &st), "$[1]['ab\"']=2", "frames %d", frames);
        cr_assert_eq(st, JDOC_OK);
    }
    for (size_t k = 0; k < sizeof c / sizeof *c; k++) {
        load(c[k].doc);
        for (int frames = 0; frames < 2; frames++) {
            jdoc_status st;
            cr_assert_str_eq(run_status("$..x", frames, &st), c[k].nodes, "%s (frames %d)", c[k].doc, frames);
            cr_assert_eq(st, c[k].st, "%s (frames %d): %s", c[k].doc, frames, jdoc_status_str(st));
        }
    }
    /* steps with leaf containers and no key of the name (the scan takes
     * the leaves without its stack there), then the name in an object that
     * encloses leaves and in one after them: each candidate's object, and
     * so the first of the duplicate names, comes from that stack */
    static char lv[8192];
    size_t o = (size_t)snprintf(lv, sizeof lv, "[");
    for (int i = 0; i < 30; i++)
        o += (size_t)snprintf(lv + o, sizeof lv - o, "{\"p\":[1],\"q\":{\"r\":[2,{}]},\"s\":[]},");
    snprintf(lv + o, sizeof lv - o, "{\"a\":{\"b\":[1]},\"x\":1,\"y\":{\"x\":2,\"z\":[3]},\"x\":4},{\"x\":5}]");
    load(lv);
    for (int frames = 0; frames < 2; frames++) {
        jdoc_status st;
        cr_assert_str_eq(run_status("$..x", frames, &st), "$[30]['x']=1 $[30]['y']['x']=2 $[31]['x']=5", "frames %d",
                         frames);
        cr_assert(st == JDOC_OK);
        cr_assert(frames || *kid == JDOC_KERNEL_SCALAR || (last_scans == 1 && last_scans_ok == 1));
    }
}

/* No recursion whatever the depth: descendants and deep equality of a
 * document 200000 levels deep. */
Test(jsonpath, deep_document, .timeout = 30)
{
    enum { DEPTH = 200000 };
    size_t n;
    jdoc_parser *p;
    char *doc = tu_deep_nest(DEPTH, &n, DEPTH + 1, &p);
    jdoc_doc *d;
    cr_assert_eq(jdoc_parse(p, doc, n, &d), JDOC_OK);
    static const struct { const char *q; int nodes; } cases[] = {
        { "$..*", DEPTH }, { "$..[0]", DEPTH }, { "$[?@ == $[0]]", 1 }, { "$..[?@ == 1]", 1 }, { "$[?count(@..*) > 5]", 1 },
    };
    for (size_t k = 0; k < sizeof cases / sizeof *cases; k++) {
        jdoc_query *q = jdoc_query_compile(cases[k].q, strlen(cases[k].q), NULL, NULL);
        jdoc_query_iter *it = jdoc_query_iter_new(q, jdoc_root(d), NULL);
        int c = 0;
        while (jdoc_query_iter_next(it, NULL)) {
            if (++c == DEPTH) {   /* a path as long as the document: truncated, counted */
                char path[64];
                size_t pl = jdoc_query_iter_path(it, path, sizeof path);
                cr_expect(pl >= 3 * (size_t)c && !strncmp(path, "$[0][0]", 7), "%s: %zu", path, pl);
            }
        }
        cr_expect_eq(c, cases[k].nodes, "%s: %d nodes", cases[k].q, c);
        cr_expect_eq(jdoc_query_iter_status(it), JDOC_OK);
        jdoc_query_iter_free(it);
        jdoc_query_free(q);
    }
    jdoc_parser_free(p);
    free(doc);
}
