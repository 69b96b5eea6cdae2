/* SPDX-License-Identifier: MIT */
/* Faults, each test with its documented answer: every allocation failing in
 * turn, and API misuse (NULL arguments, bad allocators, stale and foreign values). */
#include "internal.h"
#include "limits.h"

/* ======================================================================== */
/* Every allocation failing in turn                                         */
/* ======================================================================== */

/* Run `expr` (a jdoc_status). When it met the injected failure it must say
 * JDOC_ERR_NOMEM; then memory comes back and the same call must succeed. */
#define STEP(c, what, expr)                                                                              \
    do {                                                                                                 \
        bool was_ = (c)->failed;                                                                         \
        jdoc_status s_ = (expr);                                                                         \
        if (!was_ && (c)->failed) {                                                                      \
            cr_assert_eq(s_, JDOC_ERR_NOMEM, "%s, allocation %ld failing: %s", what, (c)->fail_at,       \
                         jdoc_status_str(s_));                                                           \
            (c)->fail_at = 0;                                                                            \
            s_ = (expr);                                                                                 \
        }                                                                                                \
        cr_assert_eq(s_, JDOC_OK, "%s: %s", what, jdoc_status_str(s_));                                  \
    } while (0)

static jdoc_status parser_status(jdoc_parser **p, const jdoc_options *o)
{
    jdoc_status st;
    *p = jdoc_parser_new_ex(o, &st);
    return st;
}

static jdoc_status parse_status(jdoc_parser *p, const char *json, jdoc_doc **d)
{
    jdoc_status st = jdoc_parse(p, json, strlen(json), d);
    if (st != JDOC_OK)
        cr_assert_eq(jdoc_last_error(p)->code, st);
    return st;
}

/* Iterate an object, decoding every key. */
static jdoc_status iterate_keys(jdoc_value obj, size_t *n)
{
    jdoc_iter it;
    jdoc_status st = jdoc_iter_init(obj, &it);
    *n = 0;
    while (st == JDOC_OK && jdoc_iter_next(&it, NULL)) {
        const char *k;
        size_t kl;
        st = jdoc_iter_key(&it, &k, &kl);
        ++*n;
    }
    return st;
}

static jdoc_status compiled_fetch(jdoc_value root, const char *expr, const jdoc_allocator *a, jdoc_value *out)
{
    jdoc_status st;
    jdoc_path *p = jdoc_path_compile_ex(expr, strlen(expr), JDOC_SYNTAX_OJ, a, &st);
    if (!p)
        return st;
    const jdoc_path *many[2] = { p, p };
    jdoc_value v[2];
    st = jdoc_fetch_path(root, p, out);
    if (st == JDOC_OK)
        st = jdoc_fetch_many(root, many, 2, v, NULL);
    jdoc_path_free(p);
    return st;
}

static jdoc_status cursor_status(jdoc_cursor **c, const jdoc_doc *d)
{
    *c = jdoc_cursor_new(d);
    return *c ? JDOC_OK : JDOC_ERR_NOMEM;
}


static jdoc_status stream_all(jdoc_parser *p, const char *buf, int *ok, int *bad)
{
    jdoc_status st = jdoc_stream_begin(p, buf, strlen(buf));
    jdoc_doc *d;
    *ok = *bad = 0;
    while (st == JDOC_OK && jdoc_stream_next(p, &d, &st)) {
        if (st == JDOC_OK)
            ++*ok;
        else if (st != JDOC_ERR_NOMEM)
            ++*bad, st = JDOC_OK;
    }
    return st;
}

/* One run of everything that allocates, with c->fail_at failing. */
static void alloc_scenario(counting *c, const char *small, const char *big, const char *deep_oj,
                           const char *deep_ptr, const char *ndjson)
{
    jdoc_allocator a = { c_malloc, c_realloc, c_free, c };
    jdoc_options o = { .allocator = &a };
    jdoc_parser *p = NULL;
    jdoc_doc *d = NULL;
    jdoc_value v;
    const char *s;
    size_t n;
    STEP(c, "parser_new", parser_status(&p, &o));
    STEP(c, "parse", parse_status(p, small, &d));
    jdoc_value root = jdoc_root(d);
    STEP(c, "validate", jdoc_validate(d));
    STEP(c, "fetch", jdoc_fetch(root, "/s", &v));
    STEP(c, "get_string (escaped)", jdoc_get_string(v, &s, &n));
    cr_assert(n == 4 && memcmp(s, "x\xc3\xa9y", 4) == 0);
    STEP(c, "iteration and keys", iterate_keys(root, &n));
    cr_assert_eq(n, 4);
    STEP(c, "fetch (71 steps)", jdoc_fetch(root, deep_oj, &v));
    STEP(c, "pointer (71 steps)", jdoc_pointer(root, deep_ptr, strlen(deep_ptr), &v));
    STEP(c, "compiled path", compiled_fetch(root, deep_oj, &a, &v));
    jdoc_cursor *cur = NULL;
    STEP(c, "cursor_new", cursor_status(&cur, d));
    STEP(c, "cursor_move (71 steps)", jdoc_cursor_move(cur, deep_oj));
    STEP(c, "cursor_fetch", jdoc_cursor_fetch(cur, "/a/3/b", &v));
    jdoc_cursor_home(cur);
    size_t leaves = 0;
    STEP(c, "each_leaf", jdoc_cursor_each_leaf(cur, count_cb, &leaves));
    cr_assert_eq(leaves, 6);
    uint64_t idx;
    STEP(c, "cursor_move", jdoc_cursor_move(cur, "/key"));
    STEP(c, "local_key", jdoc_cursor_local_key(cur, &s, &n, &idx));
    jdoc_cursor_free(cur);
    jdoc_error err;
    char where[32];
    STEP(c, "explain", jdoc_explain(root, deep_ptr, strlen(deep_ptr), JDOC_SYNTAX_POINTER, &err, where, sizeof where));
    int ok, bad;
    STEP(c, "stream", stream_all(p, ndjson, &ok, &bad));
    cr_assert(ok == 3 && bad == 1, "%d ok, %d damaged", ok, bad);
    STEP(c, "parse (bigger: buffers grow)", parse_status(p, big, &d));
    STEP(c, "fetch", jdoc_fetch(jdoc_root(d), "/20000", &v));
    STEP(c, "get_string (escaped, memo grows)", jdoc_get_string(v, &s, &n));
    cr_assert(n == 1 && s[0] == '\n');
    STEP(c, "validate", jdoc_validate(d));
    jdoc_parser_free(p);
    cr_assert_eq(c->live, 0, "allocation %ld failing: %ld blocks leaked", c->fail_at, c->live);
}

/* Answer: whichever allocation fails (the 1st, the 2nd, ... until a run
 * needs no more), the call that needed it returns JDOC_ERR_NOMEM (or NULL
 * for parser_new/cursor_new/path_compile), nothing leaks, and the same call
 * succeeds on the same parser once memory is back. */
Test(alloc, every_allocation_failing_in_turn)
{
    char deep_oj[256] = "/deep", deep_ptr[256] = "/deep";
    char small[512] = "{\"a\":[1,2,{\"b\":\"c\\n\"}],\"k\\u0065y\":\"v\\t\",\"deep\":";
    for (int i = 0; i < 70; i++) {
        strcat(small, "[");
        strcat(deep_oj, "/1");
        strcat(deep_ptr, "/0");
    }
    strcat(small, "true");
    for (int i = 0; i < 70; i++)
        strcat(small, "]");
    strcat(small, ",\"s\":\"x\\u00e9y\"}");
    size_t bl;
    char *items = repeat("\"\\n\",", 20000, &bl);
    char *big = malloc(bl + 8);
    snprintf(big, bl + 8, "[%s0]", items);
    free(items);
    const char *ndjson = "{\"a\":1}\n[1,2,3]\n{\"b\":]\n\"x\\u00e9\"\n";
    long runs = 0;
    for (long fail_at = 1;; fail_at++) {
        counting c = { .fail_at = fail_at };
        alloc_scenario(&c, small, big, deep_oj, deep_ptr, ndjson);
        runs++;
        if (!c.failed)
            break;   /* every allocation of the scenario has failed once */
        cr_assert_lt(fail_at, 1000, "runaway");
    }
    cr_expect_geq(runs, 15, "only %ld allocations", runs);
    fprintf(stderr, "limits: %ld allocations failed in turn\n", runs - 1);
    free(big);
}

/* Answer (jdoc.h, Threads): jdoc_fetch and jdoc_pointer allocate nothing for
 * paths of up to 64 steps and 1 KiB; a longer path is compiled with the
 * parser's allocator and freed; a compiled path (jdoc_fetch_path,
 * jdoc_fetch_many) never allocates; matching escaped keys allocates nothing. */
Test(alloc, which_fetches_allocate)
{
    counting c = { 0 };
    jdoc_allocator a = { c_malloc, c_realloc, c_free, &c };
    jdoc_options o = { .allocator = &a };
    jdoc_parser *p = jdoc_parser_new(&o);
    char json[1024] = "{\"k\\u0065y\":", oj[1024] = "/key", ptr[1024] = "/key";
    for (int i = 0; i < 70; i++) {
        strcat(json, "[");
        strcat(oj, "/1");
        strcat(ptr, "/0");
    }
    strcat(json, "7");
    for (int i = 0; i < 70; i++)
        strcat(json, "]");
    strcat(json, "}");
    jdoc_doc *d;
    cr_assert_eq(jdoc_parse(p, json, strlen(json), &d), JDOC_OK);
    jdoc_value r = jdoc_root(d), v;
    char short_oj[1024];
    memcpy(short_oj, oj, 4 + 2 * 60);   /* 61 steps */
    short_oj[4 + 2 * 60] = 0;
    long before = c.calls;
    jdoc_status st = jdoc_fetch(r, short_oj, &v);
    cr_assert_eq(st, JDOC_OK, "%s", jdoc_status_str(st));
    cr_assert_eq(jdoc_pointer(r, "/key/0", 6, &v), JDOC_OK);
    cr_expect_eq(c.calls, before, "a short path allocated");
    long live = c.live;
    cr_assert_eq(jdoc_fetch(r, oj, &v), JDOC_OK);
    cr_expect_gt(c.calls, before, "a 71-step path allocated nothing: the header says it does");
    cr_expect_eq(c.live, live, "the long path's memory was not freed");
    jdoc_path *cp = jdoc_path_compile(oj, strlen(oj), JDOC_SYNTAX_OJ, NULL);
    const jdoc_path *many[1] = { cp };
    before = c.calls;
    cr_assert_eq(jdoc_fetch_path(r, cp, &v), JDOC_OK);
    cr_assert_eq(jdoc_fetch_many(r, many, 1, &v, NULL), JDOC_OK);
    cr_expect_eq(c.calls, before, "a compiled path allocated");
    jdoc_path_free(cp);
    jdoc_parser_free(p);
    cr_expect_eq(c.live, 0);
}

/* All documents of a stream: ok and damaged ones counted, NOMEM reported. */
static jdoc_status stream_count(jdoc_parser *p, const char *buf, size_t len, int *ok, int *bad)
{
    jdoc_status st = jdoc_stream_begin(p, buf, len), first = JDOC_OK;
    jdoc_doc *d;
    *ok = *bad = 0;
    if (st != JDOC_OK)
        return st;   /* the stream's own state may need memory up front */
    while (st == JDOC_OK && jdoc_stream_next(p, &d, &st)) {
        if (st == JDOC_ERR_NOMEM) {
            cr_expect_null(d);
            cr_expect_eq(jdoc_last_error(p)->code, JDOC_ERR_NOMEM);
            first = st;
            st = JDOC_OK;   /* the stream ends there: the next call says so */
            continue;
        }
        if (st == JDOC_OK)
            ++*ok;
        else
            ++*bad;
        st = JDOC_OK;
    }
    return first;
}

/* Answer: a stream read by a fresh parser (its buffers grow while it reads,
 * window after window) with any one allocation failing reports
 * JDOC_ERR_NOMEM from jdoc_stream_next, ends, leaks nothing, and reads the
 * whole stream again once memory is back. */
Test(alloc, stream_allocation_failing_in_turn)
{
    /* small documents first, then bigger ones: every window needs more index */
    char *buf = malloc(64 * 1024);
    size_t len = 0;
    int want_ok = 0, want_bad = 0;
    for (int i = 0; i < 60; i++) {
        if (i == 30) {
            len += (size_t)sprintf(buf + len, "{\"a\":[1,2}\n");   /* damaged */
            want_bad++;
        }
        len += (size_t)sprintf(buf + len, "[");
        for (int k = 0; k < i * 4; k++)
            len += (size_t)sprintf(buf + len, "%d,", k);
        len += (size_t)sprintf(buf + len, "{\"k\":\"v\\n\"}]\n");
        want_ok++;
    }
    long runs = 0;
    for (long fail_at = 1;; fail_at++) {
        counting c = { .fail_at = fail_at };
        jdoc_allocator a = { c_malloc, c_realloc, c_free, &c };
        jdoc_options o = { .allocator = &a };
        jdoc_parser *p = jdoc_parser_new(&o);
        if (!p) {
            cr_assert(c.failed);
            cr_assert_eq(c.live, 0);
            continue;
        }
        p->st.window = 512;   /* many windows: the index grows during the stream */
        int ok, bad;
        jdoc_status st = stream_count(p, buf, len, &ok, &bad);
        if (c.failed) {
            cr_expect_eq(st, JDOC_ERR_NOMEM, "allocation %ld failing: %s", fail_at, jdoc_status_str(st));
            cr_expect_leq(ok + bad, want_ok + want_bad);
            c.fail_at = 0;
        } else {
            cr_expect_eq(st, JDOC_OK);
        }
        st = stream_count(p, buf, len, &ok, &bad);
        cr_expect_eq(st, JDOC_OK, "after allocation %ld failed: %s", fail_at, jdoc_status_str(st));
        cr_expect(ok == want_ok && bad == want_bad, "after allocation %ld failed: %d ok, %d damaged", fail_at, ok,
                  bad);
        jdoc_parser_free(p);
        cr_assert_eq(c.live, 0, "allocation %ld failing: %ld blocks leaked", fail_at, c.live);
        runs++;
        if (fail_at > 1 && !c.failed)
            break;
        cr_assert_lt(fail_at, 1000, "runaway");
    }
    cr_expect_geq(runs, 3, "only %ld allocations", runs);   /* the index block, a growth, then none failing */
    free(buf);
}

/* ======================================================================== */
/* API misuse                                                               */
/* ======================================================================== */

static int stop_cb(jdoc_cursor *c, void *ud)
{
    (void)c;
    (void)ud;
    return 1;
}

/* Answer: every public function takes NULLs without crashing: JDOC_ERR_ARG,
 * NULL, 0, false or the zero value, except these documented answers: a NULL
 * path with length 0 is the empty path (the starting value); a NULL output
 * of jdoc_iter_next or jdoc_stream_next's status is allowed; a NULL buffer
 * with cap 0 gets the length from dump/path_of/where. */
Test(misuse, null_arguments)
{
    jdoc_parser *p = jdoc_parser_new(NULL);
    jdoc_doc *d;
    cr_assert_eq(jdoc_parse(p, "{\"a\":[1,\"x\"]}", 13, &d), JDOC_OK);
    jdoc_value root = jdoc_root(d), none = { 0 }, v;
    jdoc_status st;
    const char *s;
    size_t n;
    bool b;
    int64_t i;
    uint64_t u;
    double f;
    char buf[16];

    cr_expect_not_null(jdoc_version());
    cr_expect_not_null(jdoc_status_str((jdoc_status)-1));
    cr_expect_eq(jdoc_last_error(NULL)->code, JDOC_ERR_ARG);
    cr_expect_null(jdoc_kernel_name(NULL));
    cr_expect_null(jdoc_kernel_id_name(JDOC_KERNEL_COUNT));
    cr_expect_eq(jdoc_kernel_from_name(NULL), JDOC_KERNEL_COUNT);
    cr_expect_not(jdoc_kernel_compiled((jdoc_kernel_id)99));
    cr_expect_not(jdoc_kernel_supported((jdoc_kernel_id)-1));
    jdoc_options bad = { .kernel = (jdoc_kernel_id)99 };
    cr_expect_null(jdoc_parser_new_ex(&bad, &st));
    cr_expect_eq(st, JDOC_ERR_ARG);
    cr_expect_null(jdoc_parser_new_ex(&bad, NULL));
    jdoc_parser_free(NULL);

    cr_expect_eq(jdoc_parse(NULL, "1", 1, &d), JDOC_ERR_ARG);
    cr_expect_eq(jdoc_parse(p, "1", 1, NULL), JDOC_ERR_ARG);
    cr_expect_eq(jdoc_parse(p, NULL, 1, &d), JDOC_ERR_ARG);
    cr_expect_eq(jdoc_parse(p, NULL, 0, &d), JDOC_ERR_SYNTAX, "NULL, 0 is the empty input");
    cr_assert_eq(jdoc_parse(p, "{\"a\":[1,\"x\"]}", 13, &d), JDOC_OK);
    root = jdoc_root(d);
    cr_expect_null(jdoc_doc_parser(NULL));
    cr_expect_null(jdoc_doc_input(NULL, NULL));
    n = 9;
    cr_expect(jdoc_doc_input(NULL, &n) == NULL && n == 0);
    cr_expect_eq(jdoc_doc_index_size(NULL), 0);
    cr_expect_str_eq(jdoc_type_name((jdoc_type)99), "invalid");
    cr_expect_null(jdoc_root(NULL).doc);
    cr_expect_eq(jdoc_validate(NULL), JDOC_ERR_ARG);

    cr_expect_eq(jdoc_fetch(none, "/", &v), JDOC_ERR_ARG);
    cr_expect_eq(jdoc_fetch(root, "/a", NULL), JDOC_ERR_ARG);
    cr_expect(jdoc_fetch(root, NULL, &v) == JDOC_OK && v.idx == root.idx, "NULL path: the starting value");
    cr_expect_eq(jdoc_pointer(none, "", 0, &v), JDOC_ERR_ARG);
    cr_expect_eq(jdoc_pointer(root, NULL, 3, &v), JDOC_ERR_ARG);
    cr_expect(jdoc_pointer(root, NULL, 0, &v) == JDOC_OK && v.idx == root.idx);
    cr_expect_eq(jdoc_pointer(root, "/a", 2, NULL), JDOC_ERR_ARG);
    cr_expect_eq(jdoc_typeof(none), JDOC_INVALID);
    cr_expect_eq(jdoc_get_bool(none, &b), JDOC_ERR_ARG);
    cr_expect_eq(jdoc_get_bool(root, NULL), JDOC_ERR_ARG);
    cr_expect_eq(jdoc_get_int64(none, &i), JDOC_ERR_ARG);
    cr_expect_eq(jdoc_get_int64(root, NULL), JDOC_ERR_ARG);
    cr_expect_eq(jdoc_get_uint64(none, &u), JDOC_ERR_ARG);
    cr_expect_eq(jdoc_get_uint64(root, NULL), JDOC_ERR_ARG);
    cr_expect_eq(jdoc_get_double(none, &f), JDOC_ERR_ARG);
    cr_expect_eq(jdoc_get_double(root, NULL), JDOC_ERR_ARG);
    cr_expect_eq(jdoc_get_string(none, &s, &n), JDOC_ERR_ARG);
    cr_expect_eq(jdoc_get_string(root, NULL, &n), JDOC_ERR_ARG);
    cr_expect_eq(jdoc_get_string(root, &s, NULL), JDOC_ERR_ARG);
    cr_expect_eq(jdoc_get_raw(none, &s, &n), JDOC_ERR_ARG);
    cr_expect_eq(jdoc_get_raw(root, NULL, &n), JDOC_ERR_ARG);
    cr_expect_eq(jdoc_get_raw(root, &s, NULL), JDOC_ERR_ARG);
    cr_expect_eq(jdoc_count(none), 0);
    cr_expect_eq(jdoc_offset(none), 0);
    cr_expect_not(jdoc_exists(none));

    jdoc_iter it, zero = { 0 };
    cr_expect_eq(jdoc_iter_init(none, &it), JDOC_ERR_ARG);
    cr_expect_eq(jdoc_iter_init(root, NULL), JDOC_ERR_ARG);
    cr_expect_not(jdoc_iter_next(NULL, &v));
    cr_expect_not(jdoc_iter_next(&zero, &v));
    cr_expect_eq(jdoc_iter_key(NULL, &s, &n), JDOC_ERR_ARG);
    cr_expect_eq(jdoc_iter_key(&zero, &s, &n), JDOC_ERR_ARG);
    cr_assert_eq(jdoc_iter_init(root, &it), JDOC_OK);
    cr_expect(jdoc_iter_next(&it, NULL), "a NULL value output is allowed");
    cr_expect_eq(jdoc_iter_key(&it, NULL, &n), JDOC_ERR_ARG);
    cr_expect_eq(jdoc_iter_key(&it, &s, NULL), JDOC_ERR_ARG);
    cr_expect_eq(jdoc_iter_key_raw(NULL, &s, &n), JDOC_ERR_ARG);
    cr_expect_eq(jdoc_iter_key_raw(&zero, &s, &n), JDOC_ERR_ARG);
    cr_expect_eq(jdoc_iter_key_raw(&it, NULL, &n), JDOC_ERR_ARG);
    cr_expect_eq(jdoc_iter_key_raw(&it, &s, NULL), JDOC_ERR_ARG);
    cr_expect(jdoc_iter_key_raw(&it, &s, &n) == JDOC_OK && n == 3 && memcmp(s, "\"a\"", 3) == 0, "with its quotes");

    jdoc_path *cp = jdoc_path_compile(NULL, 0, JDOC_SYNTAX_OJ, &st);
    cr_expect(cp && st == JDOC_OK, "NULL, 0 compiles to the empty path");
    jdoc_path_free(cp);
    cr_expect_null(jdoc_path_compile(NULL, 4, JDOC_SYNTAX_OJ, &st));
    cr_expect_eq(st, JDOC_ERR_ARG);
    cr_expect_null(jdoc_path_compile("/a", 2, (jdoc_syntax)7, &st));
    cr_expect_eq(st, JDOC_ERR_ARG);
    cr_expect_null(jdoc_path_compile_ex(NULL, 4, JDOC_SYNTAX_OJ, NULL, NULL));
    jdoc_path_free(NULL);
    cp = jdoc_path_compile("a/1", 3, JDOC_SYNTAX_OJ, NULL);
    cr_expect_eq(jdoc_fetch_path(none, cp, &v), JDOC_ERR_ARG);
    cr_expect_eq(jdoc_fetch_path(root, NULL, &v), JDOC_ERR_ARG);
    cr_expect_eq(jdoc_fetch_path(root, cp, NULL), JDOC_ERR_ARG);
    const jdoc_path *many[2] = { cp, NULL };
    jdoc_value out[2];
    jdoc_status each[2];
    cr_expect_eq(jdoc_fetch_many(root, NULL, 0, out, NULL), JDOC_OK, "no paths: nothing to do");
    cr_expect_eq(jdoc_fetch_many(root, NULL, 2, out, each), JDOC_ERR_ARG);
    cr_expect_eq(jdoc_fetch_many(root, many, 2, NULL, each), JDOC_ERR_ARG);
    cr_expect_eq(jdoc_fetch_many(root, many, 2, out, each), JDOC_ERR_ARG, "a NULL path among them");
    cr_expect(each[0] == JDOC_OK && each[1] == JDOC_ERR_ARG);
    cr_expect_eq(jdoc_fetch_many(none, many, 1, out, NULL), JDOC_ERR_ARG);
    jdoc_path_free(cp);

    cr_expect_eq(jdoc_path_of(none, JDOC_SYNTAX_OJ, buf, sizeof buf), 0);
    cr_expect_str_empty(buf);
    cr_expect_eq(jdoc_path_of(root, JDOC_SYNTAX_OJ, NULL, 0), 1, "the length of \"/\"");
    cr_expect_eq(jdoc_dump(none, buf, sizeof buf), 0);
    cr_expect_eq(jdoc_dump(root, NULL, 0), 13);
    jdoc_error err;
    cr_expect_eq(jdoc_explain(none, "/", 1, JDOC_SYNTAX_OJ, &err, buf, sizeof buf), JDOC_ERR_ARG);
    cr_expect_eq(jdoc_explain(root, NULL, 3, JDOC_SYNTAX_OJ, &err, buf, sizeof buf), JDOC_ERR_ARG);
    cr_expect_eq(jdoc_explain(root, "/a", 2, JDOC_SYNTAX_OJ, NULL, NULL, 0), JDOC_OK);
    cr_expect_eq(jdoc_explain(root, "/a", 2, (jdoc_syntax)9, &err, buf, sizeof buf), JDOC_ERR_ARG);

    cr_expect_null(jdoc_cursor_new(NULL));
    jdoc_cursor_free(NULL);
    jdoc_cursor_home(NULL);
    cr_expect_null(jdoc_cursor_value(NULL).doc);
    cr_expect_eq(jdoc_cursor_depth(NULL), 0);
    cr_expect_eq(jdoc_cursor_move(NULL, "/"), JDOC_ERR_ARG);
    cr_expect_eq(jdoc_cursor_fetch(NULL, "/", &v), JDOC_ERR_ARG);
    strcpy(buf, "x");
    cr_expect_eq(jdoc_cursor_where(NULL, buf, sizeof buf), 0);
    cr_expect_str_empty(buf);
    cr_expect_eq(jdoc_cursor_local_key(NULL, &s, &n, &u), JDOC_ERR_ARG);
    cr_expect_eq(jdoc_cursor_first_child(NULL), JDOC_ERR_ARG);
    cr_expect_eq(jdoc_cursor_next_sibling(NULL), JDOC_ERR_ARG);
    cr_expect_eq(jdoc_cursor_up(NULL), JDOC_ERR_ARG);
    cr_expect_eq(jdoc_cursor_each_child(NULL, stop_cb, NULL), JDOC_ERR_ARG);
    cr_expect_eq(jdoc_cursor_each_leaf(NULL, stop_cb, NULL), JDOC_ERR_ARG);
    jdoc_cursor *c = jdoc_cursor_new(d);
    cr_assert_not_null(c);
    cr_expect_eq(jdoc_cursor_move(c, NULL), JDOC_ERR_ARG);
    cr_expect(jdoc_cursor_fetch(c, NULL, &v) == JDOC_OK && v.idx == root.idx, "NULL: the cursor's value");
    cr_expect_eq(jdoc_cursor_fetch(c, "/a", NULL), JDOC_ERR_ARG);
    cr_expect_eq(jdoc_cursor_where(c, NULL, 0), 1);
    cr_expect_eq(jdoc_cursor_local_key(c, NULL, &n, &u), JDOC_ERR_ARG);
    cr_expect_eq(jdoc_cursor_local_key(c, &s, NULL, &u), JDOC_ERR_ARG);
    cr_expect_eq(jdoc_cursor_local_key(c, &s, &n, NULL), JDOC_ERR_ARG);
    cr_expect_eq(jdoc_cursor_each_child(c, NULL, NULL), JDOC_ERR_ARG);
    cr_expect_eq(jdoc_cursor_each_leaf(c, NULL, NULL), JDOC_ERR_ARG);
    jdoc_cursor_free(c);

    cr_expect_eq(jdoc_stream_begin(NULL, "1", 1), JDOC_ERR_ARG);
    cr_expect_eq(jdoc_stream_begin(p, NULL, 1), JDOC_ERR_ARG);
    cr_expect_not(jdoc_stream_next(NULL, &d, &st));
    cr_expect_eq(st, JDOC_ERR_ARG);
    cr_expect_not(jdoc_stream_next(p, &d, &st), "no stream begun");
    cr_expect_eq(st, JDOC_ERR_ARG);
    cr_expect_eq(jdoc_stream_begin(p, NULL, 0), JDOC_OK, "NULL, 0: the empty stream");
    cr_expect_not(jdoc_stream_next(p, &d, NULL));
    cr_expect_eq(jdoc_stream_begin(p, "1 2", 3), JDOC_OK);
    cr_expect_not(jdoc_stream_next(p, NULL, &st));
    cr_expect_eq(st, JDOC_ERR_ARG);
    cr_expect(jdoc_stream_next(p, &d, NULL), "a NULL status is allowed");
    cr_expect_eq(jdoc_stream_count(NULL), 0);
    cr_expect_eq(jdoc_stream_offset(NULL), 0);
    jdoc_parser_free(p);
}

/* Answer: jdoc_path_compile_ex with an allocator missing a function is
 * refused (NULL, JDOC_ERR_ARG), as jdoc_parser_new refuses one. */
Test(misuse, allocator_without_functions)
{
    jdoc_allocator none = { 0 };
    jdoc_status st = JDOC_OK;
    cr_expect_null(jdoc_path_compile_ex("/a", 2, JDOC_SYNTAX_OJ, &none, &st));
    cr_expect_eq(st, JDOC_ERR_ARG);
    jdoc_options o = { .allocator = &none };
    cr_expect_null(jdoc_parser_new_ex(&o, &st));
    cr_expect_eq(st, JDOC_ERR_ARG);
}

/* Answer: any max_depth is safe: jdoc_validate and a cursor work on a valid
 * document whatever the limit (their stacks are sized by the smaller of the
 * limit and the document's entry count: no overflow, no huge allocation). */
Test(misuse, huge_max_depth)
{
    const uint32_t limits[] = { UINT32_MAX - 1, UINT32_MAX };
    for (size_t k = 0; k < 2; k++) {
        jdoc_parser *p = parser_k(JDOC_KERNEL_AUTO, limits[k], false);
        jdoc_doc *d;
        cr_assert_eq(jdoc_parse(p, "[[1]]", 5, &d), JDOC_OK);
        cr_expect_eq(jdoc_validate(d), JDOC_OK, "max_depth %u", limits[k]);
        jdoc_cursor *c = jdoc_cursor_new(d);
        cr_expect_not_null(c, "max_depth %u", limits[k]);
        if (c) {
            size_t leaves = 0;
            cr_expect_eq(jdoc_cursor_each_leaf(c, count_cb, &leaves), JDOC_OK, "max_depth %u", limits[k]);
            cr_expect_eq(leaves, 1, "max_depth %u", limits[k]);
            jdoc_cursor_free(c);
        }
        jdoc_parser_free(p);
    }
}

/* Every value function on handle v: no crash, defined answers. */
static void poke(jdoc_value v)
{
    bool b;
    int64_t i;
    uint64_t u;
    double f;
    const char *s;
    size_t n;
    char buf[64];
    jdoc_value w;
    jdoc_iter it;
    jdoc_error e;
    cr_expect_lt(jdoc_typeof(v), JDOC_INVALID + 1);
    cr_expect_lt(jdoc_get_bool(v, &b), JDOC_STATUS_COUNT);
    cr_expect_lt(jdoc_get_int64(v, &i), JDOC_STATUS_COUNT);
    cr_expect_lt(jdoc_get_uint64(v, &u), JDOC_STATUS_COUNT);
    cr_expect_lt(jdoc_get_double(v, &f), JDOC_STATUS_COUNT);
    cr_expect_lt(jdoc_get_string(v, &s, &n), JDOC_STATUS_COUNT);
    cr_expect_lt(jdoc_get_raw(v, &s, &n), JDOC_STATUS_COUNT);
    jdoc_count(v);
    jdoc_offset(v);
    jdoc_dump(v, buf, sizeof buf);
    jdoc_path_of(v, JDOC_SYNTAX_POINTER, buf, sizeof buf);
    cr_expect_lt(jdoc_fetch(v, "a/1/..", &w), JDOC_STATUS_COUNT);
    cr_expect_lt(jdoc_fetch(v, "..", &w), JDOC_STATUS_COUNT);
    cr_expect_lt(jdoc_pointer(v, "/0", 2, &w), JDOC_STATUS_COUNT);
    cr_expect_lt(jdoc_explain(v, "/a/1", 4, JDOC_SYNTAX_OJ, &e, buf, sizeof buf), JDOC_STATUS_COUNT);
    if (jdoc_iter_init(v, &it) == JDOC_OK)
        while (jdoc_iter_next(&it, &w))
            jdoc_iter_key(&it, &s, &n);
}

/* Answer: a value keeps working with its own parser's document whatever
 * other parsers do, and a forged handle (another document's index, any entry
 * of a document, a huge index, a wrong parse number) never crashes: an index
 * past the document or a wrong parse number is JDOC_ERR_ARG; an index inside
 * it designates that entry (a bracket, a comma: defined answers). */
Test(misuse, value_from_another_document)
{
    jdoc_parser *p1 = jdoc_parser_new(NULL), *p2 = jdoc_parser_new(NULL);
    const char *a = "{\"a\":[1,2,{\"b\":\"c\\u00e9\"}],\"d\":[[],{}],\"e\":\"\\n\"}", *b = "[true,{\"x\":null}]";
    jdoc_doc *da, *db;
    cr_assert_eq(jdoc_parse(p1, a, strlen(a), &da), JDOC_OK);
    jdoc_value va;
    cr_assert_eq(jdoc_fetch(jdoc_root(da), "/a/3/b", &va), JDOC_OK);
    cr_assert_eq(jdoc_parse(p2, b, strlen(b), &db), JDOC_OK);
    const char *s;
    size_t n;
    cr_expect(jdoc_get_string(va, &s, &n) == JDOC_OK && n == 3, "A's value still reads A");
    /* A's entry index and parse number with B's document; every entry index
     * of both (with their own parse numbers); a wrong parse number */
    uint32_t ga = jdoc_root(da).gen, gb = jdoc_root(db).gen;
    jdoc_value mixed = { db, va.idx, va.gen };
    poke(mixed);
    cr_expect_eq(jdoc_typeof(mixed), JDOC_INVALID);
    cr_expect_eq(jdoc_get_raw(mixed, &s, &n), JDOC_ERR_ARG, "past B's entries");
    for (uint32_t i = 0; i < jdoc_doc_index_size(da) + 2; i++)
        poke((jdoc_value){ da, i, ga });
    for (uint32_t i = 0; i < jdoc_doc_index_size(db) + 2; i++)
        poke((jdoc_value){ db, i, gb });
    poke((jdoc_value){ da, UINT32_MAX, ga });
    cr_expect_eq(jdoc_get_raw((jdoc_value){ da, UINT32_MAX, ga }, &s, &n), JDOC_ERR_ARG);
    cr_expect_eq(jdoc_get_raw((jdoc_value){ da, 0, ga + 1 }, &s, &n), JDOC_ERR_ARG, "a parse number not yet made");
    jdoc_parser_free(p1);
    jdoc_parser_free(p2);
}

/*
 * Answer, precisely: values, iterators and cursors carry the parse they come
 * from (a 32-bit count of the parser's parses, stream documents included).
 * After the parser's next jdoc_parse, jdoc_stream_begin or jdoc_stream_next
 * (failed or not) they are refused: JDOC_ERR_ARG, JDOC_INVALID, 0, false, the
 * zero value, an empty where. A jdoc_doc pointer is not checked that way: the
 * document lives inside its parser, so after a successful parse the old
 * pointer is the new document (jdoc_root, jdoc_validate, jdoc_cursor_new use
 * it); after a failed one they refuse it. Decoded strings are not checked:
 * they are valid until the next parse only.
 */
Test(misuse, use_after_reparse)
{
    jdoc_parser *p = jdoc_parser_new(NULL);
    const char *first = "[1,2,3,4,5,6,7,8,9,\"ten\",{\"k\":[true]}]", *second = "{\"a\":true}";
    jdoc_doc *d, *old;
    const char *s;
    size_t n;
    jdoc_value v;

    /* a failed parse: the values and the document pointer are refused */
    cr_assert_eq(jdoc_parse(p, first, strlen(first), &old), JDOC_OK);
    jdoc_value root = jdoc_root(old), last;
    cr_assert_eq(jdoc_fetch(root, "/10", &last), JDOC_OK);
    cr_expect_eq(jdoc_parse(p, "[1,", 3, &d), JDOC_ERR_SYNTAX);
    cr_expect_eq(jdoc_typeof(root), JDOC_INVALID);
    cr_expect_eq(jdoc_get_raw(root, &s, &n), JDOC_ERR_ARG);
    cr_expect_eq(jdoc_get_string(last, &s, &n), JDOC_ERR_ARG);
    cr_expect_eq(jdoc_fetch(root, "/1", &v), JDOC_ERR_ARG);
    cr_expect_eq(jdoc_count(root), 0);
    cr_expect_eq(jdoc_validate(old), JDOC_ERR_ARG);
    cr_expect_null(jdoc_root(old).doc);
    cr_expect_null(jdoc_cursor_new(old));

    /* a successful parse: values, iterators and cursors are refused */
    cr_assert_eq(jdoc_parse(p, first, strlen(first), &old), JDOC_OK);
    root = jdoc_root(old);
    cr_assert_eq(jdoc_fetch(root, "/10", &last), JDOC_OK);
    jdoc_iter it;
    cr_assert_eq(jdoc_iter_init(root, &it), JDOC_OK);
    cr_assert(jdoc_iter_next(&it, &v));
    jdoc_iter obj;
    jdoc_value o;
    cr_assert_eq(jdoc_fetch(root, "/11", &o), JDOC_OK);
    cr_assert_eq(jdoc_iter_init(o, &obj), JDOC_OK);
    cr_assert(jdoc_iter_next(&obj, NULL));
    jdoc_cursor *c = jdoc_cursor_new(old);
    cr_assert_not_null(c);
    cr_assert_eq(jdoc_cursor_move(c, "/11/k"), JDOC_OK);
    cr_assert_eq(jdoc_parse(p, second, strlen(second), &d), JDOC_OK);
    cr_expect(d == old, "the document lives in the parser: same address");
    cr_expect_eq(jdoc_typeof(root), JDOC_INVALID, "the old root is refused, not read as the new one");
    cr_expect_eq(jdoc_get_raw(root, &s, &n), JDOC_ERR_ARG);
    cr_expect_eq(jdoc_get_string(last, &s, &n), JDOC_ERR_ARG);
    cr_expect_eq(jdoc_fetch(root, "/a", &v), JDOC_ERR_ARG);
    cr_expect_not(jdoc_iter_next(&it, &v), "an old iterator stops");
    cr_expect_eq(it.status, JDOC_ERR_ARG);
    cr_expect_eq(jdoc_iter_init(root, &it), JDOC_ERR_ARG);
    cr_expect_eq(jdoc_iter_key(&obj, &s, &n), JDOC_ERR_ARG);
    cr_expect_eq(jdoc_iter_key_raw(&obj, &s, &n), JDOC_ERR_ARG);
    cr_expect_null(jdoc_cursor_value(c).doc);
    cr_expect_eq(jdoc_cursor_move(c, "/a"), JDOC_ERR_ARG);
    cr_expect_eq(jdoc_cursor_fetch(c, "..", &v), JDOC_ERR_ARG);
    char where[16] = "x";
    cr_expect_eq(jdoc_cursor_where(c, where, sizeof where), 0);
    cr_expect_str_empty(where);
    cr_expect_eq(jdoc_cursor_each_leaf(c, count_cb, &n), JDOC_ERR_ARG);
    jdoc_cursor_free(c);   /* freeing an old cursor is fine */
    cr_expect_eq(jdoc_validate(old), JDOC_OK, "the old pointer is the new document");
    cr_expect_eq(jdoc_typeof(jdoc_root(old)), JDOC_OBJECT);

    /* streams: each document ends the previous one's handles */
    cr_assert_eq(jdoc_stream_begin(p, "1 2", 3), JDOC_OK);
    cr_expect_eq(jdoc_typeof(jdoc_root(d)), JDOC_INVALID, "a stream ends the document");
    jdoc_status st;
    cr_assert(jdoc_stream_next(p, &d, &st) && st == JDOC_OK);
    jdoc_value one = jdoc_root(d);
    int64_t x = 0;
    cr_expect(jdoc_get_int64(one, &x) == JDOC_OK && x == 1);
    cr_assert(jdoc_stream_next(p, &d, &st) && st == JDOC_OK);
    cr_expect_eq(jdoc_get_int64(one, &x), JDOC_ERR_ARG, "the first document's value is refused");
    cr_expect(jdoc_get_int64(jdoc_root(d), &x) == JDOC_OK && x == 2);
    cr_expect_not(jdoc_stream_next(p, &d, &st));
    jdoc_parser_free(p);
}
