/* SPDX-License-Identifier: MIT */
/* Stage 2: fetch by Oj path and JSON Pointer, typed values, iteration,
 * compiled paths, fetch_many; on every kernel this CPU runs. */
#include <criterion/criterion.h>
#include <math.h>
#include "testutil.h"
#include "elems_diff.h"

static jdoc_parser *P;
static jdoc_doc *D;
static char *BUF;

/* Parse an exact-size copy of s (freed at the next call or in fini). */
static jdoc_value doc(const char *s)
{
    free(BUF);
    size_t n = strlen(s);
    BUF = malloc(n ? n : 1);
    memcpy(BUF, s, n);
    if (!P)
        P = jdoc_parser_new(NULL);
    jdoc_status st = jdoc_parse(P, BUF, n, &D);
    cr_assert_eq(st, JDOC_OK, "%s: %s at %zu", s, jdoc_last_error(P)->message, jdoc_last_error(P)->offset);
    return jdoc_root(D);
}
static void fini(void)
{
    jdoc_parser_free(P);
    P = NULL;
    free(BUF);
    BUF = NULL;
}
TestSuite(fetch, .fini = fini);

static jdoc_status F(jdoc_value from, const char *path, jdoc_value *out) { return jdoc_fetch(from, path, out); }
static jdoc_status PTR(jdoc_value from, const char *ptr, jdoc_value *out)
{
    return jdoc_pointer(from, ptr, strlen(ptr), out);
}
static void expect_raw(jdoc_value v, const char *want)
{
    const char *s;
    size_t n;
    cr_assert_eq(jdoc_get_raw(v, &s, &n), JDOC_OK);
    cr_expect(n == strlen(want) && memcmp(s, want, n) == 0, "raw '%.*s', expected '%s'", (int)n, s, want);
}
static void expect_str(jdoc_value v, const char *want, size_t wl)
{
    const char *s;
    size_t n;
    cr_assert_eq(jdoc_get_string(v, &s, &n), JDOC_OK);
    cr_expect(n == wl && memcmp(s, want, n) == 0, "string '%.*s', expected '%.*s'", (int)n, s, (int)wl, want);
}

static const char *SAMPLE = "{\"a\": {\"b\": [10, {\"c\": \"x\"}, [true, false, null]]},"
                            " \"k\\u0065y\": 1, \"d/e\": 2, \"m~n\": 3, \"\": 4, \"7\": \"seven\","
                            " \"dup\": 1, \"dup\": 2, \"s\": \"a\\nb\\u00e9\\ud83d\\ude00\"}";

Test(fetch, oj_paths)
{
    jdoc_value r = doc(SAMPLE), v;
    cr_assert_eq(F(r, "/a/b/1", &v), JDOC_OK);
    expect_raw(v, "10");
    cr_assert_eq(F(r, "/a/b/2/c", &v), JDOC_OK);
    expect_raw(v, "\"x\"");
    cr_assert_eq(F(r, "/a/b/3/2", &v), JDOC_OK);
    expect_raw(v, "false");
    cr_expect_eq(F(r, "/a/b/4", &v), JDOC_ERR_NOT_FOUND);
    cr_expect_eq(F(r, "/a/b/0", &v), JDOC_ERR_NOT_FOUND);   /* Oj indices start at 1 */
    cr_expect_eq(F(r, "/a/x", &v), JDOC_ERR_NOT_FOUND);
    cr_expect_eq(F(r, "/a/b/1/c", &v), JDOC_ERR_NOT_FOUND);  /* through a scalar */
    cr_assert_eq(F(r, "/", &v), JDOC_OK);
    cr_expect_eq(v.idx, 0);
    cr_assert_eq(F(r, "/7", &v), JDOC_OK);                   /* digits are a key in an object */
    expect_raw(v, "\"seven\"");
    cr_assert_eq(F(r, "/d\\/e", &v), JDOC_OK);               /* \/ is a slash in a key */
    expect_raw(v, "2");
    cr_assert_eq(F(r, "/key", &v), JDOC_OK);                 /* keys match on their decoded value */
    expect_raw(v, "1");
    cr_assert_eq(F(r, "/dup", &v), JDOC_OK);                 /* the first of duplicate keys wins */
    expect_raw(v, "1");
    cr_assert_eq(F(r, "/a/b/", &v), JDOC_OK);                /* a trailing '/' adds nothing */
    cr_expect_eq(jdoc_typeof(v), JDOC_ARRAY);
    /* relative paths and '..' */
    jdoc_value a;
    cr_assert_eq(F(r, "/a", &a), JDOC_OK);
    cr_assert_eq(F(a, "b/2/c", &v), JDOC_OK);
    expect_raw(v, "\"x\"");
    cr_assert_eq(F(a, "b/2/../1", &v), JDOC_OK);
    expect_raw(v, "10");
    cr_assert_eq(F(a, "..", &v), JDOC_OK);                   /* above the start: found through the root */
    cr_expect_eq(v.idx, 0);
    cr_expect_eq(F(r, "..", &v), JDOC_ERR_NOT_FOUND);
    cr_assert_eq(F(a, "/m~n", &v), JDOC_OK);                 /* absolute from anywhere */
    expect_raw(v, "3");
}

Test(fetch, json_pointer)
{
    jdoc_value r = doc(SAMPLE), v;
    cr_assert_eq(PTR(r, "/a/b/0", &v), JDOC_OK);
    expect_raw(v, "10");
    cr_assert_eq(PTR(r, "/a/b/2/1", &v), JDOC_OK);
    expect_raw(v, "false");
    cr_assert_eq(PTR(r, "", &v), JDOC_OK);
    cr_expect_eq(v.idx, 0);
    cr_assert_eq(PTR(r, "/", &v), JDOC_OK);                  /* the empty key */
    expect_raw(v, "4");
    cr_assert_eq(PTR(r, "/d~1e", &v), JDOC_OK);
    expect_raw(v, "2");
    cr_assert_eq(PTR(r, "/m~0n", &v), JDOC_OK);
    expect_raw(v, "3");
    cr_expect_eq(PTR(r, "/a/b/-", &v), JDOC_ERR_NOT_FOUND);
    cr_expect_eq(PTR(r, "/a/b/01", &v), JDOC_ERR_NOT_FOUND); /* no leading zeros */
    cr_expect_eq(PTR(r, "/a/b/3", &v), JDOC_ERR_NOT_FOUND);
    cr_expect_eq(PTR(r, "a", &v), JDOC_ERR_PATH);
    cr_expect_eq(PTR(r, "/m~2n", &v), JDOC_ERR_PATH);
    cr_expect_eq(PTR(r, "/m~", &v), JDOC_ERR_PATH);
    cr_expect_eq(jdoc_pointer(r, "/a/bXX", 4, &v), JDOC_OK); /* length, not NUL, ends it */
    /* evaluated from any value */
    jdoc_value a;
    cr_assert_eq(PTR(r, "/a/b", &a), JDOC_OK);
    cr_assert_eq(PTR(a, "/1/c", &v), JDOC_OK);
    expect_raw(v, "\"x\"");
}

Test(fetch, missing_null_and_type_are_distinct)
{
    jdoc_value r = doc("{\"n\": null, \"i\": 5, \"s\": \"x\", \"b\": true, \"f\": 1.5, \"big\": 18446744073709551616,"
                       " \"u\": 18446744073709551615, \"neg\": -9223372036854775808, \"bad\": 01}"),
               v;
    int64_t i;
    uint64_t u;
    double dd;
    bool b;
    cr_expect_eq(F(r, "/none", &v), JDOC_ERR_NOT_FOUND);
    cr_expect(!jdoc_exists(v));
    cr_assert_eq(F(r, "/n", &v), JDOC_OK);
    cr_expect_eq(jdoc_typeof(v), JDOC_NULL);
    cr_expect_eq(jdoc_get_int64(v, &i), JDOC_ERR_TYPE);
    cr_assert_eq(F(r, "/s", &v), JDOC_OK);
    cr_expect_eq(jdoc_get_int64(v, &i), JDOC_ERR_TYPE);
    cr_expect_eq(jdoc_get_bool(v, &b), JDOC_ERR_TYPE);
    cr_assert_eq(F(r, "/i", &v), JDOC_OK);
    cr_expect_eq(jdoc_typeof(v), JDOC_INT);
    cr_expect_eq(jdoc_get_int64(v, &i), JDOC_OK);
    cr_expect_eq(i, 5);
    cr_expect_eq(jdoc_get_double(v, &dd), JDOC_OK);
    cr_expect_eq(dd, 5.0);
    const char *s;
    size_t n;
    cr_expect_eq(jdoc_get_string(v, &s, &n), JDOC_ERR_TYPE);
    cr_assert_eq(F(r, "/b", &v), JDOC_OK);
    cr_expect_eq(jdoc_get_bool(v, &b), JDOC_OK);
    cr_expect(b);
    cr_assert_eq(F(r, "/f", &v), JDOC_OK);
    cr_expect_eq(jdoc_typeof(v), JDOC_DOUBLE);
    cr_expect_eq(jdoc_get_int64(v, &i), JDOC_ERR_TYPE);
    cr_expect_eq(jdoc_get_double(v, &dd), JDOC_OK);
    cr_expect_eq(dd, 1.5);
    cr_assert_eq(F(r, "/big", &v), JDOC_OK);
    cr_expect_eq(jdoc_typeof(v), JDOC_DOUBLE);
    cr_expect_eq(jdoc_get_uint64(v, &u), JDOC_ERR_RANGE);
    cr_expect_eq(jdoc_get_int64(v, &i), JDOC_ERR_RANGE);
    cr_expect_eq(jdoc_get_double(v, &dd), JDOC_OK);
    cr_expect_eq(dd, 18446744073709551616.0);
    cr_assert_eq(F(r, "/u", &v), JDOC_OK);
    cr_expect_eq(jdoc_typeof(v), JDOC_UINT);
    cr_expect_eq(jdoc_get_uint64(v, &u), JDOC_OK);
    cr_expect_eq(u, UINT64_MAX);
    cr_expect_eq(jdoc_get_int64(v, &i), JDOC_ERR_RANGE);
    cr_assert_eq(F(r, "/neg", &v), JDOC_OK);
    cr_expect_eq(jdoc_get_int64(v, &i), JDOC_OK);
    cr_expect_eq(i, INT64_MIN);
    cr_expect_eq(jdoc_get_uint64(v, &u), JDOC_ERR_RANGE);
    cr_assert_eq(F(r, "/bad", &v), JDOC_OK);                 /* found; malformed when read */
    cr_expect_eq(jdoc_typeof(v), JDOC_INVALID);
    cr_expect_eq(jdoc_get_int64(v, &i), JDOC_ERR_NUMBER);
    cr_expect_eq(jdoc_get_double(v, &dd), JDOC_ERR_NUMBER);
}

Test(fetch, numbers_follow_the_grammar)
{
    const char *bad[] = { "[01]", "[1.]", "[.5]", "[+1]", "[1e]", "[-]", "[1e+]", "[0x1]", "[1.5.3]", "[--1]" };
    for (size_t k = 0; k < sizeof bad / sizeof *bad; k++) {
        jdoc_value r = doc(bad[k]), v;
        double dd;
        cr_assert_eq(PTR(r, "/0", &v), JDOC_OK, "%s", bad[k]);
        cr_expect_eq(jdoc_get_double(v, &dd), JDOC_ERR_NUMBER, "%s", bad[k]);
        cr_expect_neq(jdoc_validate(D), JDOC_OK, "%s", bad[k]);
    }
    jdoc_value r = doc("[1e400, -1e400, 1e-400, 0.1, 2.2250738585072011e-308]"), v;
    double dd;
    cr_assert_eq(PTR(r, "/0", &v), JDOC_OK);
    cr_expect_eq(jdoc_get_double(v, &dd), JDOC_ERR_RANGE);
    cr_assert_eq(PTR(r, "/1", &v), JDOC_OK);
    cr_expect_eq(jdoc_get_double(v, &dd), JDOC_ERR_RANGE);
    cr_assert_eq(PTR(r, "/2", &v), JDOC_OK);
    cr_expect_eq(jdoc_get_double(v, &dd), JDOC_OK);
    cr_expect_eq(dd, 0.0);
    cr_assert_eq(PTR(r, "/3", &v), JDOC_OK);
    cr_expect_eq(jdoc_get_double(v, &dd), JDOC_OK);
    cr_expect_eq(dd, 0.1);
    cr_assert_eq(PTR(r, "/4", &v), JDOC_OK);
    cr_expect_eq(jdoc_get_double(v, &dd), JDOC_OK);
    cr_expect_eq(dd, strtod("2.2250738585072011e-308", NULL));
}

Test(fetch, strings)
{
    jdoc_value r = doc(SAMPLE), v;
    cr_assert_eq(F(r, "/s", &v), JDOC_OK);
    expect_str(v, "a\nb\xc3\xa9\xf0\x9f\x98\x80", 9);
    const char *s1, *s2;
    size_t n;
    cr_assert_eq(jdoc_get_string(v, &s1, &n), JDOC_OK);
    cr_assert_eq(jdoc_get_string(v, &s2, &n), JDOC_OK);
    cr_expect_eq(s1, s2, "an escaped string is decoded once");
    cr_assert_eq(F(r, "/a/b/2/c", &v), JDOC_OK);
    cr_assert_eq(jdoc_get_string(v, &s1, &n), JDOC_OK);
    cr_expect(s1 > BUF && s1 < BUF + strlen(SAMPLE), "no copy without escapes");
    jdoc_value z = doc("[\"a\\u0000b\", \"\\ud800\", \"\\x\", \"\\udc00\\ud800\"]");
    cr_assert_eq(PTR(z, "/0", &v), JDOC_OK);
    expect_str(v, "a\0b", 3);
    cr_assert_eq(PTR(z, "/1", &v), JDOC_OK);
    cr_expect_eq(jdoc_get_string(v, &s1, &n), JDOC_ERR_STRING);
    cr_assert_eq(PTR(z, "/2", &v), JDOC_OK);
    cr_expect_eq(jdoc_get_string(v, &s1, &n), JDOC_ERR_STRING);
    cr_assert_eq(PTR(z, "/3", &v), JDOC_OK);
    cr_expect_eq(jdoc_get_string(v, &s1, &n), JDOC_ERR_STRING);
    cr_expect_eq(jdoc_validate(D), JDOC_ERR_STRING);
    cr_expect_eq(jdoc_last_error(P)->offset, 14);   /* the backslash of \ud800 */
}

/* A string reads as its own bytes: up to its closing quote when whitespace
 * comes before the next entry, and right before an opening bracket
 * (malformed: stage 1 checks only brackets) never as far as that container's
 * entry says, wherever the string starts. */
Test(fetch, string_end_past_whitespace_and_before_an_opening_bracket)
{
    static char far[300];
    snprintf(far, sizeof far, "[%200s\"ab\"{\"x\":1}]", "");
    const char *docs[] = { "[\"ab\"{\"x\":1}]", "[\"ab\" [1,2,3]]", "{\"k\":\"ab\"{\"x\":[1]}}",
                           "[\"ab\"\n\t[[[\"cdefghijklmnop\"]]]]", far, "[\"ab\" , 1]", "[\"ab\"\r\n]",
                           "{\"k\":\"ab\"\t}" };
    for (size_t i = 0; i < sizeof docs / sizeof *docs; i++) {
        jdoc_value r = doc(docs[i]), v;
        cr_assert_eq(F(r, docs[i][0] == '{' ? "/k" : "/1", &v), JDOC_OK, "%s", docs[i]);
        expect_str(v, "ab", 2);
    }
}

Test(fetch, raw_text)
{
    jdoc_value r = doc(" {\"a\" : [ 1 , {\"b\":2} ] , \"c\":\"x\\\"y\" , \"d\": -1.5e3 } "), v;
    expect_raw(r, "{\"a\" : [ 1 , {\"b\":2} ] , \"c\":\"x\\\"y\" , \"d\": -1.5e3 }");
    cr_assert_eq(F(r, "/a", &v), JDOC_OK);
    expect_raw(v, "[ 1 , {\"b\":2} ]");
    cr_assert_eq(F(r, "/c", &v), JDOC_OK);
    expect_raw(v, "\"x\\\"y\"");
    cr_assert_eq(F(r, "/d", &v), JDOC_OK);
    expect_raw(v, "-1.5e3");
    cr_expect_eq(jdoc_offset(v), strlen(" {\"a\" : [ 1 , {\"b\":2} ] , \"c\":\"x\\\"y\" , \"d\": "));
}

Test(fetch, iteration_and_count)
{
    jdoc_value r = doc(SAMPLE), v;
    cr_expect_eq(jdoc_count(r), 9);
    jdoc_iter it;
    cr_assert_eq(jdoc_iter_init(r, &it), JDOC_OK);
    const char *keys[] = { "a", "key", "d/e", "m~n", "", "7", "dup", "dup", "s" };
    int k = 0;
    while (jdoc_iter_next(&it, &v)) {
        const char *key;
        size_t n;
        cr_assert_eq(jdoc_iter_key(&it, &key, &n), JDOC_OK);
        cr_expect(n == strlen(keys[k]) && memcmp(key, keys[k], n) == 0, "key %d: %.*s", k, (int)n, key);
        k++;
    }
    cr_expect_eq(k, 9);
    cr_expect_eq(it.status, JDOC_OK);
    cr_assert_eq(F(r, "/a/b", &v), JDOC_OK);
    cr_expect_eq(jdoc_count(v), 3);
    cr_assert_eq(jdoc_iter_init(v, &it), JDOC_OK);
    const char *key;
    size_t n;
    jdoc_value e;
    cr_assert(jdoc_iter_next(&it, &e));
    cr_expect_eq(jdoc_iter_key(&it, &key, &n), JDOC_ERR_TYPE);
    cr_assert_eq(F(r, "/a/b/1", &v), JDOC_OK);
    cr_expect_eq(jdoc_iter_init(v, &it), JDOC_ERR_TYPE);
    cr_expect_eq(jdoc_count(v), 0);
    jdoc_value em = doc("[[], {}]");
    cr_assert_eq(PTR(em, "/0", &v), JDOC_OK);
    cr_expect_eq(jdoc_count(v), 0);
    cr_assert_eq(PTR(em, "/1", &v), JDOC_OK);
    cr_expect_eq(jdoc_count(v), 0);
}

Test(fetch, malformed_containers_are_errors_not_crashes)
{
    /* stage 1 checks brackets only; the rest is found when walked */
    const char *docs[] = { "[1,]", "[,1]", "[1 2]", "{\"a\" 1}", "{\"a\":}", "{1:2}", "{\"a\":1,}", "[:]", "{,}",
                           "{\"a\":1 \"b\":2}", "[1,,2]" };
    for (size_t k = 0; k < sizeof docs / sizeof *docs; k++) {
        jdoc_value r = doc(docs[k]), v;
        jdoc_iter it;
        jdoc_status st = F(r, "/b", &v);
        cr_expect(st == JDOC_ERR_SYNTAX || st == JDOC_ERR_NOT_FOUND, "%s: %s", docs[k], jdoc_status_str(st));
        st = F(r, "/3", &v);
        cr_expect(st == JDOC_ERR_SYNTAX || st == JDOC_ERR_NOT_FOUND, "%s: %s", docs[k], jdoc_status_str(st));
        cr_assert_eq(jdoc_iter_init(r, &it), JDOC_OK);
        int guard = 0;
        while (jdoc_iter_next(&it, &v) && guard < 10)
            guard++;
        cr_expect_lt(guard, 10);
        cr_expect_eq(jdoc_validate(D), JDOC_ERR_SYNTAX, "%s validated", docs[k]);
    }
}

Test(fetch, compiled_paths_and_fetch_many)
{
    jdoc_value r = doc("[{\"Id\":\"a1\",\"Names\":[\"/web\"],\"Image\":\"nginx\",\"State\":\"running\","
                       "\"Labels\":{\"com.docker.compose.service\":\"web\"}},"
                       "{\"Id\":\"b2\",\"Names\":[\"/db\"],\"State\":\"exited\",\"Labels\":{}}]");
    const char *exprs[] = { "Id", "Names/1", "Image", "State", "Labels/com.docker.compose.service", "/1/Id" };
    jdoc_path *paths[6];
    for (int i = 0; i < 6; i++) {
        jdoc_status st;
        paths[i] = jdoc_path_compile(exprs[i], strlen(exprs[i]), JDOC_SYNTAX_OJ, &st);
        cr_assert_not_null(paths[i], "%s", exprs[i]);
    }
    jdoc_iter it;
    jdoc_value c, out[6];
    jdoc_status each[6];
    cr_assert_eq(jdoc_iter_init(r, &it), JDOC_OK);
    cr_assert(jdoc_iter_next(&it, &c));
    cr_expect_eq(jdoc_fetch_many(c, (const jdoc_path *const *)paths, 6, out, each), JDOC_OK);
    expect_str(out[0], "a1", 2);
    expect_str(out[1], "/web", 4);
    expect_str(out[2], "nginx", 5);
    expect_str(out[3], "running", 7);
    expect_str(out[4], "web", 3);
    expect_str(out[5], "a1", 2);
    cr_assert(jdoc_iter_next(&it, &c));
    cr_expect_eq(jdoc_fetch_many(c, (const jdoc_path *const *)paths, 6, out, each), JDOC_ERR_NOT_FOUND);
    cr_expect_eq(each[0], JDOC_OK);
    cr_expect_eq(each[2], JDOC_ERR_NOT_FOUND);
    cr_expect_eq(each[4], JDOC_ERR_NOT_FOUND);
    cr_expect(!jdoc_exists(out[2]));
    expect_str(out[3], "exited", 6);
    jdoc_value v;
    cr_assert_eq(jdoc_fetch_path(c, paths[1], &v), JDOC_OK);
    expect_str(v, "/db", 3);
    for (int i = 0; i < 6; i++)
        jdoc_path_free(paths[i]);
    jdoc_status st;
    cr_expect_null(jdoc_path_compile("a~", 2, JDOC_SYNTAX_POINTER, &st));
    cr_expect_eq(st, JDOC_ERR_PATH);
    cr_expect_null(jdoc_path_compile("a", 1, JDOC_SYNTAX_POINTER, &st));
    cr_expect_eq(st, JDOC_ERR_PATH);
    jdoc_path *pp = jdoc_path_compile("/0/Names/0", 10, JDOC_SYNTAX_POINTER, &st);
    cr_assert_eq(jdoc_fetch_path(r, pp, &v), JDOC_OK);
    expect_str(v, "/web", 4);
    jdoc_path_free(pp);
}

Test(fetch, long_paths_and_keys)
{
    /* a path longer than the on-stack limit still works */
    char json[5000], path[5000];
    size_t j = 0, q = 0;
    for (int i = 0; i < 100; i++) {
        j += (size_t)sprintf(json + j, "{\"k%d\":", i);
        q += (size_t)sprintf(path + q, "/k%d", i);
    }
    j += (size_t)sprintf(json + j, "42");
    for (int i = 0; i < 100; i++)
        json[j++] = '}';
    json[j] = 0;
    jdoc_value r = doc(json), v;
    cr_assert_eq(F(r, path, &v), JDOC_OK);
    expect_raw(v, "42");
}

struct one_node {
    int n;
    jdoc_value v;
};
static int take_node(const jdoc_query_iter *it, jdoc_value v, void *ud)
{
    (void)it;
    struct one_node *o = ud;
    if (o->n++ == 0)
        o->v = v;
    return 0;
}

/* Answer: a key matches only itself: for keys of 1..40 bytes, a member
 * whose key differs in any one byte (first, middle, last; raw or escaped in
 * the document) comes first and is passed over, by jdoc_fetch, a compiled
 * path, jdoc_fetch_many and the cursor. */
Test(fetch, keys_differing_in_one_byte)
{
    char key[48], other[48], json[256], path[64];
    for (size_t n = 1; n <= 40; n++) {
        for (size_t i = 0; i < n; i++)
            key[i] = (char)('a' + (i * 7) % 26);
        key[n] = 0;
        size_t pos[3] = { 0, n / 2, n - 1 };
        for (int k = 0; k < 3; k++) {
            memcpy(other, key, n + 1);
            other[pos[k]] = other[pos[k]] == 'z' ? 'y' : (char)(other[pos[k]] + 1);
            for (int esc = 0; esc < 3; esc++) {
                /* esc 1: the other key's changed byte written as \u00XX;
                 * esc 2: the key's own byte at that place */
                if (esc == 1)
                    snprintf(json, sizeof json, "{\"%.*s\\u00%02x%s\":1,\"%s\":2}", (int)pos[k], other,
                             (unsigned char)other[pos[k]], other + pos[k] + 1, key);
                else if (esc == 2)
                    snprintf(json, sizeof json, "{\"%s\":1,\"%.*s\\u00%02x%s\":2}", other, (int)pos[k], key,
                             (unsigned char)key[pos[k]], key + pos[k] + 1);
                else
                    snprintf(json, sizeof json, "{\"%s\":1,\"%s\":2}", other, key);
                jdoc_value r = doc(json), v;
                snprintf(path, sizeof path, "/%s", key);
                cr_assert_eq(F(r, path, &v), JDOC_OK, "%s", json);
                expect_raw(v, "2");
                jdoc_path *cp = jdoc_path_compile(key, n, JDOC_SYNTAX_OJ, NULL);
                const jdoc_path *many[1] = { cp };
                jdoc_value mv;
                cr_expect_eq(jdoc_fetch_many(r, many, 1, &mv, NULL), JDOC_OK, "%s", json);
                expect_raw(mv, "2");
                cr_expect_eq(jdoc_fetch_path(r, cp, &mv), JDOC_OK);
                expect_raw(mv, "2");
                jdoc_path_free(cp);
                jdoc_cursor *c = jdoc_cursor_new(D);
                cr_expect_eq(jdoc_cursor_move(c, path), JDOC_OK, "%s", json);
                expect_raw(jdoc_cursor_value(c), "2");
                jdoc_cursor_free(c);
                /* and the other key finds only its own member */
                snprintf(path, sizeof path, "/%s", other);
                cr_assert_eq(F(r, path, &v), JDOC_OK, "%s", json);
                expect_raw(v, "1");
                /* the same as a JSONPath name, compared bytewise */
                char q[80];
                snprintf(q, sizeof q, "$['%s']", key);
                jdoc_query *jq = jdoc_query_compile(q, strlen(q), NULL, NULL);
                cr_assert(jq, "%s", q);
                struct one_node got = { 0 };
                cr_expect_eq(jdoc_query_each(jq, r, take_node, &got), JDOC_OK);
                cr_expect_eq(got.n, 1, "%s on %s: %d nodes", q, json, got.n);
                expect_raw(got.v, "2");
                jdoc_query_free(jq);
            }
            /* the other key alone, at the document's end: fewer than 8
             * bytes after a short key, so no word compare there */
            snprintf(json, sizeof json, "{\"%s\":1}", other);
            jdoc_value r = doc(json), v;
            snprintf(path, sizeof path, "/%s", key);
            cr_expect_eq(F(r, path, &v), JDOC_ERR_NOT_FOUND, "%s in %s", path, json);
        }
    }
}

/* Answer: fetch_many on an empty object finds nothing; keys followed by
 * whitespace before their ':' match; iter_key before the first member and
 * on an array say JDOC_ERR_NOT_FOUND and JDOC_ERR_TYPE, raw or decoded. */
Test(fetch, fetch_many_and_keys_edges)
{
    const char *exprs[] = { "a", "b", "c" };
    jdoc_path *paths[3];
    for (int i = 0; i < 3; i++)
        paths[i] = jdoc_path_compile(exprs[i], 1, JDOC_SYNTAX_OJ, NULL);
    jdoc_value v[3];
    jdoc_status st[3];
    jdoc_value r = doc("{}");
    cr_expect_eq(jdoc_fetch_many(r, (const jdoc_path *const *)paths, 3, v, st), JDOC_ERR_NOT_FOUND);
    cr_expect(st[0] == JDOC_ERR_NOT_FOUND && st[1] == JDOC_ERR_NOT_FOUND && st[2] == JDOC_ERR_NOT_FOUND);
    r = doc("{\"a\" : 1 ,\"b\"\t\n:[2] , \"c\"\r: \"x\" }");
    cr_expect_eq(jdoc_fetch_many(r, (const jdoc_path *const *)paths, 3, v, st), JDOC_OK);
    expect_raw(v[0], "1");
    expect_raw(v[1], "[2]");
    expect_raw(v[2], "\"x\"");
    for (int i = 0; i < 3; i++)
        jdoc_path_free(paths[i]);
    jdoc_iter it;
    const char *k;
    size_t kl;
    cr_assert_eq(jdoc_iter_init(r, &it), JDOC_OK);
    cr_expect_eq(jdoc_iter_key(&it, &k, &kl), JDOC_ERR_NOT_FOUND);
    cr_expect_eq(jdoc_iter_key_raw(&it, &k, &kl), JDOC_ERR_NOT_FOUND);
    cr_assert(jdoc_iter_next(&it, NULL));
    cr_expect_eq(jdoc_iter_key_raw(&it, &k, &kl), JDOC_OK);
    cr_expect(kl == 3 && memcmp(k, "\"a\"", 3) == 0);
    cr_assert_eq(jdoc_fetch(r, "/b", &v[0]), JDOC_OK);
    cr_assert_eq(jdoc_iter_init(v[0], &it), JDOC_OK);
    cr_assert(jdoc_iter_next(&it, NULL));
    cr_expect_eq(jdoc_iter_key(&it, &k, &kl), JDOC_ERR_TYPE);
    cr_expect_eq(jdoc_iter_key_raw(&it, &k, &kl), JDOC_ERR_TYPE);
}

Test(fetch, bad_arguments)
{
    jdoc_value r = doc("[1]"), v;
    cr_expect_eq(jdoc_fetch(r, "/1", NULL), JDOC_ERR_ARG);
    cr_expect_eq(jdoc_fetch((jdoc_value){ 0 }, "/1", &v), JDOC_ERR_ARG);
    cr_expect_eq(jdoc_typeof((jdoc_value){ 0 }), JDOC_INVALID);
    cr_expect_eq(jdoc_count((jdoc_value){ 0 }), 0);
    cr_expect_eq(jdoc_validate(NULL), JDOC_ERR_ARG);
    jdoc_iter it;
    cr_expect_eq(jdoc_iter_init((jdoc_value){ 0 }, &it), JDOC_ERR_ARG);
    cr_expect(!jdoc_iter_next(&it, &v));
    /* a value of a document that was replaced by a failed parse */
    jdoc_doc *d;
    cr_expect_neq(jdoc_parse(P, "[", 1, &d), JDOC_OK);
    cr_expect_eq(jdoc_fetch(r, "/1", &v), JDOC_ERR_ARG);
}

/* Every kernel gives the same answers on the Docker corpus. */
Test(fetch, docker_corpus_every_kernel)
{
    TU_REQUIRE_CORPUS();
    size_t len;
    char *b = tu_read(CORPUS "/docker/containers_list.json", &len);
    cr_assert(b);
    for (int k = JDOC_KERNEL_SCALAR; k < JDOC_KERNEL_COUNT; k++) {
        if (!jdoc_kernel_supported((jdoc_kernel_id)k)) {
            tu_note_kernel_skip((jdoc_kernel_id)k);
            continue;
        }
        jdoc_parser *p = tu_parser((jdoc_kernel_id)k);
        jdoc_doc *d;
        cr_assert_eq(jdoc_parse(p, b, len, &d), JDOC_OK);
        jdoc_value r = jdoc_root(d), v;
        cr_expect_eq(jdoc_count(r), 6);
        cr_assert_eq(jdoc_fetch(r, "/1/Id", &v), JDOC_OK);
        expect_str(v, "c301b928faceb1a18fe379f6bc178727ef920bb30b0f9b8592b32b36255a0eca", 64);
        cr_assert_eq(jdoc_fetch(r, "/1/Names/1", &v), JDOC_OK);
        expect_str(v, "/dockersd_node_1", 16);
        cr_assert_eq(jdoc_fetch(r, "/1/Labels/com.docker.compose.service", &v), JDOC_OK);
        expect_str(v, "node", 4);
        int64_t i;
        cr_assert_eq(jdoc_pointer(r, "/0/Created", 10, &v), JDOC_OK);
        cr_expect_eq(jdoc_get_int64(v, &i), JDOC_OK);
        cr_expect_eq(i, 1616273136);
        cr_assert_eq(jdoc_pointer(r, "/0/Ports/0/PrivatePort", 22, &v), JDOC_OK);
        cr_expect_eq(jdoc_get_int64(v, &i), JDOC_OK);
        cr_expect_eq(i, 9100);
        cr_expect_eq(jdoc_validate(d), JDOC_OK);
        jdoc_parser_free(p);
    }
    free(b);
}

/* Oj paths count from the end with negative indices (-1 is the last element);
 * JSON Pointers have none: "-1" is only a key there. */
Test(fetch, oj_negative_index)
{
    jdoc_value r = doc("{\"a\":[10,20,30],\"o\":{\"-1\":\"key\"}}"), v;
    cr_assert_eq(F(r, "/a/-1", &v), JDOC_OK);
    expect_raw(v, "30");
    cr_assert_eq(F(r, "/a/-3", &v), JDOC_OK);
    expect_raw(v, "10");
    cr_assert_eq(F(r, "/a/-4", &v), JDOC_ERR_NOT_FOUND);
    cr_assert_eq(F(r, "/a/-0", &v), JDOC_ERR_NOT_FOUND);
    cr_assert_eq(F(r, "/o/-1", &v), JDOC_OK);
    expect_raw(v, "\"key\"");
    cr_assert_eq(PTR(r, "/a/-1", &v), JDOC_ERR_NOT_FOUND);
    cr_assert_eq(PTR(r, "/o/-1", &v), JDOC_OK);
    jdoc_path *p = jdoc_path_compile("a/-2", 4, JDOC_SYNTAX_OJ, NULL);
    cr_assert_eq(jdoc_fetch_path(r, p, &v), JDOC_OK);
    expect_raw(v, "20");
    jdoc_path_free(p);
    jdoc_cursor *c = jdoc_cursor_new(D);
    cr_assert_eq(jdoc_cursor_move(c, "/a/-1"), JDOC_OK);
    char where[32];
    jdoc_cursor_where(c, where, sizeof where);
    cr_assert_str_eq(where, "/a/3");
    jdoc_cursor_free(c);
}

/* Answer: jdoc_fetch_many with every member key of an object at once (up
 * to 64 a call, so that keys share the hash buckets of its member loop),
 * and keys of the same length and first byte that no member has, finds for
 * each path what jdoc_fetch_path finds: every root object and every object
 * one level down of the Docker corpus, then a document with an empty key
 * and escaped keys. */
static void many_against_one(jdoc_value obj, const char *what)
{
    jdoc_iter it;
    cr_assert_eq(jdoc_iter_init(obj, &it), JDOC_OK);
    jdoc_path *paths[64];
    int n = 0;
    while (n < 62 && jdoc_iter_next(&it, NULL)) {
        const char *k;
        size_t kl;
        cr_assert_eq(jdoc_iter_key(&it, &k, &kl), JDOC_OK);
        char ptr[256];
        if (kl + 2 > sizeof ptr || memchr(k, '/', kl) || memchr(k, '~', kl))
            continue;   /* pointers to keys that need no escape */
        ptr[0] = '/';
        memcpy(ptr + 1, k, kl);
        paths[n++] = jdoc_path_compile(ptr, kl + 1, JDOC_SYNTAX_POINTER, NULL);
        if (kl && n < 62) {   /* same length (and first byte, for keys of 2 or more), no such member (most likely) */
            ptr[kl] = ptr[kl] == '#' ? '%' : '#';
            paths[n++] = jdoc_path_compile(ptr, kl + 1, JDOC_SYNTAX_POINTER, NULL);
        }
    }
    if (!n)
        return;
    jdoc_value got[64], want;
    jdoc_status st[64];
    jdoc_fetch_many(obj, (const jdoc_path *const *)paths, (size_t)n, got, st);
    for (int i = 0; i < n; i++) {
        cr_assert_not_null(paths[i]);
        jdoc_status ws = jdoc_fetch_path(obj, paths[i], &want);
        cr_expect_eq(st[i], ws, "%s: path %d: %d against %d", what, i, st[i], ws);
        if (ws == JDOC_OK)
            cr_expect(got[i].idx == want.idx, "%s: path %d: entry %u against %u", what, i, got[i].idx, want.idx);
        jdoc_path_free(paths[i]);
    }
}

Test(fetch, fetch_many_every_key_at_once)
{
    TU_REQUIRE_CORPUS();
    char **files = tu_list(CORPUS "/docker");
    int objects = 0;
    for (char **f = files; *f; f++) {
        if (!strstr(*f, ".json"))
            continue;
        size_t len;
        char *buf = tu_read(*f, &len);
        jdoc_parser *p = jdoc_parser_new(NULL);
        jdoc_doc *d;
        cr_assert_eq(jdoc_parse(p, buf, len, &d), JDOC_OK, "%s", *f);
        jdoc_value r = jdoc_root(d), v;
        if (jdoc_typeof(r) == JDOC_OBJECT) {
            many_against_one(r, *f);
            objects++;
        }
        jdoc_iter it;
        if (jdoc_iter_init(r, &it) == JDOC_OK)
            while (jdoc_iter_next(&it, &v))
                if (jdoc_typeof(v) == JDOC_OBJECT) {
                    many_against_one(v, *f);
                    objects++;
                }
        jdoc_parser_free(p);
        free(buf);
    }
    tu_free_list(files);
    cr_expect_gt(objects, 50, "objects tried: %d", objects);
    const char *edge = "{\"\":0,\"a\\u0062\":1,\"ab\":2,\"\\u0061b\":3,\"b\":4,\"a\":5}";
    jdoc_value r = doc(edge);
    many_against_one(r, edge);
}

/* Answer: an index far into an array (where a SIMD kernel skips whole steps
 * of plain elements, k->elems) finds what the scalar kernel's walk finds,
 * value or error (tests/elems_diff.h: generated arrays, clean and damaged;
 * the skip alone on clean ones); and indices into every array of canada.json. */
Test(fetch, array_index_every_kernel)
{
    jdoc_parser *ps = tu_parser(JDOC_KERNEL_SCALAR);
    for (int k = JDOC_KERNEL_SSE42; k < JDOC_KERNEL_COUNT; k++) {
        if (!jdoc_kernel_supported((jdoc_kernel_id)k)) {
            tu_note_kernel_skip((jdoc_kernel_id)k);
            continue;
        }
        jdoc_parser *pk = tu_parser((jdoc_kernel_id)k);
        char why[300] = "";
        cr_assert(elems_generated(ps, pk, why, sizeof why), "%s", why);
        if (tu_corpus_present())
            cr_assert(elems_canada(ps, pk, why, sizeof why), "%s", why);
        jdoc_parser_free(pk);
    }
    jdoc_parser_free(ps);
}
