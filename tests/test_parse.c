/* SPDX-License-Identifier: MIT */
/* jdoc_parse by hand: edge cases and errors with their offsets on every kernel,
 * kernel choice, limits, allocation reuse and failure. */
#include <criterion/criterion.h>
#include <stdlib.h>
#include "internal.h"
#include "testutil.h"

/* Parse `json` (exact-size copy) with every kernel this CPU runs and check
 * the status and offset are the expected ones. */
static void expect_all(const char *json, size_t len, jdoc_status st, size_t off)
{
    for (int k = JDOC_KERNEL_SCALAR; k < JDOC_KERNEL_COUNT; k++) {
        if (!jdoc_kernel_supported((jdoc_kernel_id)k)) {
            tu_note_kernel_skip((jdoc_kernel_id)k);
            continue;
        }
        jdoc_parser *p = tu_parser((jdoc_kernel_id)k);
        char *b = malloc(len ? len : 1);
        memcpy(b, json, len);
        jdoc_doc *d;
        jdoc_status got = jdoc_parse(p, b, len, &d);
        const jdoc_error *e = jdoc_last_error(p);
        cr_expect_eq(got, st, "[%s] %.40s: status %s, expected %s (%s at %zu)", jdoc_kernel_name(p), json,
                     jdoc_status_str(got), jdoc_status_str(st), e->message, e->offset);
        if (st != JDOC_OK) {
            cr_expect_eq(e->offset, off, "[%s] %.40s: offset %zu, expected %zu (%s)", jdoc_kernel_name(p), json,
                         e->offset, off, e->message);
            cr_expect_null(d);
        } else {
            cr_expect_not_null(d);
        }
        free(b);
        jdoc_parser_free(p);
    }
}
#define OK(s) expect_all(s, sizeof(s) - 1, JDOC_OK, 0)
#define ERR(s, st, off) expect_all(s, sizeof(s) - 1, st, off)

Test(parse, empty_and_whitespace)
{
    ERR("", JDOC_ERR_SYNTAX, 0);
    ERR("   \n\t\r ", JDOC_ERR_SYNTAX, 7);
    OK(" [] ");
    OK("0");
    OK("\"\"");
    OK("{}");
}

Test(parse, unterminated_and_control)
{
    ERR("\"abc", JDOC_ERR_SYNTAX, 0);
    ERR("[\"a\", \"b]", JDOC_ERR_SYNTAX, 6);
    ERR("[\"a\\\"]", JDOC_ERR_SYNTAX, 1);
    ERR("[\"a\x01\"]", JDOC_ERR_SYNTAX, 3);
    ERR("[\"a\tb\"]", JDOC_ERR_SYNTAX, 3);
    ERR("[\"a\\\n\"]", JDOC_ERR_SYNTAX, 4);
    OK("[\"a\\\\\"]");
    /* every byte below 0x20 in a string is an error at its offset, on every
     * kernel, in short strings and in long ones (whole SIMD blocks); 0x20 and
     * 0x7F are not */
    for (int c = 0; c <= 0x7F; c++) {
        if (c > 0x20 && c != 0x7F)
            continue;
        char doc[160];
        for (size_t at = 2; at < sizeof doc - 2; at += 67) {
            memset(doc, 'x', sizeof doc);
            doc[0] = '[';
            doc[1] = '"';
            doc[at] = (char)c;
            doc[sizeof doc - 2] = '"';
            doc[sizeof doc - 1] = ']';
            if (c < 0x20)
                expect_all(doc, sizeof doc, JDOC_ERR_SYNTAX, at);
            else
                expect_all(doc, sizeof doc, JDOC_OK, 0);
        }
    }
}

Test(parse, brackets)
{
    ERR("[1}", JDOC_ERR_SYNTAX, 2);
    ERR("{\"a\":1]", JDOC_ERR_SYNTAX, 6);
    ERR("[1", JDOC_ERR_SYNTAX, 2);
    ERR("[[1]", JDOC_ERR_SYNTAX, 4);
    ERR("]", JDOC_ERR_SYNTAX, 0);
    ERR(",1", JDOC_ERR_SYNTAX, 0);
    ERR("[1]]", JDOC_ERR_SYNTAX, 3);
    ERR("{} {}", JDOC_ERR_SYNTAX, 3);
    ERR("[] x", JDOC_ERR_SYNTAX, 3);
    ERR("1 2", JDOC_ERR_SYNTAX, 2);
    ERR("\"a\" \"b\"", JDOC_ERR_SYNTAX, 4);
    ERR("[\"]\"}", JDOC_ERR_SYNTAX, 4);
    OK("[\"]\", \"}\", \"{\", \"[\"]");
}

Test(parse, html_and_plain_text)
{
    ERR("<html><body><h1>502 Bad Gateway</h1></body></html>", JDOC_ERR_SYNTAX, 0);
    ERR("<!DOCTYPE html>\n<html>{\"a\":1}</html>", JDOC_ERR_SYNTAX, 0);
    ERR("Internal Server Error", JDOC_ERR_SYNTAX, 0);
    ERR("nothing", JDOC_ERR_SYNTAX, 0);
    ERR("nullx", JDOC_ERR_SYNTAX, 4);
    ERR("502 Bad Gateway", JDOC_ERR_SYNTAX, 4);
    ERR("404", JDOC_OK, 0);
    ERR("truex", JDOC_ERR_SYNTAX, 4);
    ERR("01", JDOC_ERR_NUMBER, 1);
    ERR("-", JDOC_ERR_NUMBER, 1);
    OK("true");
    OK(" null ");
    OK("-1.5e3");
}

Test(parse, depth)
{
    size_t n = 1025;
    char *b = malloc(2 * n);
    memset(b, '[', n);
    memset(b + n, ']', n);
    expect_all(b + 1, 2 * n - 2, JDOC_OK, 0);     /* 1024 deep: fine */
    expect_all(b, 2 * n, JDOC_ERR_DEPTH, 1024);   /* 1025: the 1025th '[' */
    free(b);

    jdoc_options o = { .max_depth = 3 };
    jdoc_parser *p = jdoc_parser_new(&o);
    jdoc_doc *d;
    cr_expect_eq(jdoc_parse(p, "[[[1]]]", 7, &d), JDOC_OK);
    cr_expect_eq(jdoc_parse(p, "[[{\"a\":[1]}]]", 13, &d), JDOC_ERR_DEPTH);
    cr_expect_eq(jdoc_last_error(p)->offset, 7);
    jdoc_parser_free(p);
}

Test(parse, million_brackets_fail_fast, .timeout = 10)
{
    size_t n = 1000000;
    char *b = malloc(n);
    memset(b, '[', n);
    expect_all(b, n, JDOC_ERR_DEPTH, 1024);
    memset(b, '{', n);
    expect_all(b, n, JDOC_ERR_DEPTH, 1024);
    free(b);
}

Test(parse, invalid_utf8_classes)
{
    ERR("[\"\xc0\xaf\"]", JDOC_ERR_UTF8, 2);            /* overlong 2-byte */
    ERR("[\"\xe0\x80\xaf\"]", JDOC_ERR_UTF8, 2);        /* overlong 3-byte */
    ERR("[\"\xf0\x80\x80\xaf\"]", JDOC_ERR_UTF8, 2);    /* overlong 4-byte */
    ERR("[\"\xed\xa0\x80\"]", JDOC_ERR_UTF8, 2);        /* surrogate U+D800 */
    ERR("[\"\xed\xbf\xbf\"]", JDOC_ERR_UTF8, 2);        /* surrogate U+DFFF */
    ERR("[\"\xf4\x90\x80\x80\"]", JDOC_ERR_UTF8, 2);    /* U+110000 */
    ERR("[\"\xf5\x80\x80\x80\"]", JDOC_ERR_UTF8, 2);    /* F5 lead */
    ERR("[\"\xe2\x82\"]", JDOC_ERR_UTF8, 2);            /* truncated */
    ERR("[\"ab\x80\"]", JDOC_ERR_UTF8, 4);              /* stray continuation */
    ERR("[\"\xff\"]", JDOC_ERR_UTF8, 2);
    ERR("\"\xe2\x82", JDOC_ERR_UTF8, 1);                /* truncated at the end of input */
    ERR("[1, \xc3]", JDOC_ERR_UTF8, 4);                 /* outside strings too */
    ERR("\xef\x29\xbb\xbf", JDOC_ERR_UTF8, 0);           /* a truncated sequence before scalar bytes */
    ERR("[\xe2\x82" "a]", JDOC_ERR_UTF8, 1);
    ERR("[\xe2 1]", JDOC_ERR_UTF8, 1);                   /* ... before whitespace */
    OK("[\"\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80\xf4\x8f\xbf\xbf\xed\x9f\xbf\xee\x80\x80\"]");
}

Test(parse, utf8_and_escapes_across_blocks)
{
    /* a multi-byte character, an escape run and a quote at every position
     * around the 64- and 128-byte block boundaries */
    for (size_t at = 50; at < 140; at++) {
        char b[200];
        memset(b, 'x', sizeof b);
        b[0] = '[';
        b[1] = '"';
        memcpy(b + at, "\xf0\x9f\x98\x80\\\\\\\"\\\\\"", 12);   /* 😀 \\ \" \\ then the closing quote */
        b[at + 12] = ']';
        expect_all(b, at + 13, JDOC_OK, 0);
        b[at + 10] = 'y';                                       /* now \" escapes the last quote */
        b[at + 11] = '\\';
        expect_all(b, at + 13, JDOC_ERR_SYNTAX, 1);
    }
}

Test(parse, quote_at_block_edges)
{
    for (size_t q = 60; q < 70; q++) {
        char b[140];
        memset(b, ' ', sizeof b);
        b[0] = '[';
        b[q] = '"';
        b[q + 1] = 'a';
        b[q + 2] = '"';
        b[q + 3] = ']';
        expect_all(b, q + 4, JDOC_OK, 0);
        b[q + 2] = ' ';
        expect_all(b, q + 4, JDOC_ERR_SYNTAX, q);
    }
}

/* ---- allocation: counting and failing allocators ---- */

typedef struct counting {
    long calls, live, fail_at; /* fail the fail_at-th call (1-based), 0 = never */
} counting;

static void *c_malloc(void *ud, size_t n)
{
    counting *c = ud;
    if (++c->calls == c->fail_at)
        return NULL;
    void *p = malloc(n);
    c->live += p != NULL;
    return p;
}
static void *c_realloc(void *ud, void *p, size_t n)
{
    counting *c = ud;
    if (++c->calls == c->fail_at)
        return NULL;
    void *q = realloc(p, n);
    c->live += p == NULL && q != NULL;
    return q;
}
static void c_free(void *ud, void *p)
{
    counting *c = ud;
    c->live -= p != NULL;
    free(p);
}

Test(parse, capacity_without_allocating)
{
    counting c = { 0 };
    jdoc_allocator a = { c_malloc, c_realloc, c_free, &c };
    jdoc_options o = { .allocator = &a };
    jdoc_parser *p = jdoc_parser_new(&o);
    long before = c.calls;
    jdoc_doc *d;
    /* a fake length: nothing may be read or allocated */
    cr_expect_eq(jdoc_parse(p, "[]", (size_t)1 << 32, &d), JDOC_ERR_CAPACITY);
    cr_expect_eq(jdoc_parse(p, "[]", SIZE_MAX, &d), JDOC_ERR_CAPACITY);
    cr_expect_eq(c.calls, before);
    cr_expect_eq(jdoc_parse(p, "[]", 2, &d), JDOC_OK);
    jdoc_parser_free(p);
    cr_expect_eq(c.live, 0);
}

/* A valid document of about `kib` KiB: an array of objects with strings,
 * escapes, numbers and nested arrays; `pad` spaces at the end. */
static char *gen_doc(size_t kib, size_t pad, size_t *len)
{
    size_t cap = kib * 1024 + pad + 256, n = 0;
    char *b = malloc(cap);
    n += (size_t)snprintf(b + n, cap - n, "[");
    for (int i = 0; n < kib * 1024; i++)
        n += (size_t)snprintf(b + n, cap - n, "%s{\"id\":%d,\"name\":\"c\\u00e9-%d\",\"v\":[1.5,-2,[true,null]]}",
                              i ? "," : "", i, i);
    n += (size_t)snprintf(b + n, cap - n, "]");
    memset(b + n, ' ', pad);
    *len = n + pad;
    return b;
}

/* After a parser has parsed a document, parsing documents no larger than the
 * largest it has seen allocates nothing; a larger one may grow its buffers,
 * once. Every parse must succeed (a failing parse proves nothing). */
Test(parse, reuse_allocates_nothing_after_warmup)
{
    counting c = { 0 };
    jdoc_allocator a = { c_malloc, c_realloc, c_free, &c };
    jdoc_options o = { .allocator = &a };
    jdoc_parser *p = jdoc_parser_new(&o);
    cr_assert_not_null(p);
    size_t big_len, small_len, larger_len;
    char *big = gen_doc(256, 0, &big_len), *small = gen_doc(64, 0, &small_len);
    char *larger = gen_doc(1024, 0, &larger_len);
    jdoc_doc *d;
    cr_assert_eq(jdoc_parse(p, big, big_len, &d), JDOC_OK);
    long warm = c.calls;
    cr_expect_gt(warm, 0);
    cr_expect_leq(warm, 16, "%ld allocations for the first document", warm);
    /* similar and smaller sizes, all valid: 249..256 KiB with trailing
     * spaces, and a quarter of the size */
    for (int i = 0; i < 100; i++) {
        size_t l;
        char *t = gen_doc(249 + (size_t)(i % 7), (size_t)(i % 5), &l);
        cr_assert_leq(l, big_len);
        cr_assert_eq(jdoc_parse(p, t, l, &d), JDOC_OK, "round %d", i);
        cr_assert_eq(jdoc_parse(p, small, small_len, &d), JDOC_OK);
        free(t);
    }
    cr_expect_eq(c.calls, warm, "allocations after warm-up: %ld", c.calls - warm);
    /* a larger document grows the buffers, then nothing again */
    cr_assert_eq(jdoc_parse(p, larger, larger_len, &d), JDOC_OK);
    long grown = c.calls;
    cr_expect_gt(grown, warm, "a 4x larger document allocated nothing: the buffers were oversized");
    for (int i = 0; i < 20; i++) {
        cr_assert_eq(jdoc_parse(p, larger, larger_len, &d), JDOC_OK);
        cr_assert_eq(jdoc_parse(p, big, big_len, &d), JDOC_OK);
    }
    cr_expect_eq(c.calls, grown, "allocations after growing: %ld", c.calls - grown);
    jdoc_parser_free(p);
    cr_expect_eq(c.live, 0);
    free(big);
    free(small);
    free(larger);
}

Test(parse, every_allocation_failing)
{
    const char *json = "{\"a\":[1,2,{\"b\":\"c\"}],\"d\":\"\xe2\x82\xac\"}";
    size_t len = strlen(json);
    int failures = 0;
    for (long n = 1; n < 50; n++) {
        counting c = { .fail_at = n };
        jdoc_allocator a = { c_malloc, c_realloc, c_free, &c };
        jdoc_options o = { .allocator = &a };
        jdoc_status st;
        jdoc_parser *p = jdoc_parser_new_ex(&o, &st);
        if (!p) {
            cr_expect_eq(st, JDOC_ERR_NOMEM);
            cr_expect_eq(c.live, 0);
            failures++;
            continue;
        }
        jdoc_doc *d;
        st = jdoc_parse(p, json, len, &d);
        if (st != JDOC_OK) {
            cr_expect_eq(st, JDOC_ERR_NOMEM, "call %ld: %s", n, jdoc_status_str(st));
            failures++;
            /* the parser still works once memory is back */
            cr_expect_eq(jdoc_parse(p, json, len, &d), JDOC_OK);
        }
        jdoc_parser_free(p);
        cr_expect_eq(c.live, 0, "leak when call %ld fails", n);
    }
    cr_expect_geq(failures, 2);   /* the parser, the index block */
}

Test(parse, bad_allocator_and_args)
{
    jdoc_allocator a = { c_malloc, NULL, c_free, NULL };
    jdoc_options o = { .allocator = &a };
    jdoc_status st;
    cr_expect_null(jdoc_parser_new_ex(&o, &st));
    cr_expect_eq(st, JDOC_ERR_ARG);
    jdoc_doc *d;
    cr_expect_eq(jdoc_parse(NULL, "1", 1, &d), JDOC_ERR_ARG);
    jdoc_parser *p = jdoc_parser_new(NULL);
    cr_expect_eq(jdoc_parse(p, NULL, 1, &d), JDOC_ERR_ARG);
    cr_expect_eq(jdoc_parse(p, "1", 1, NULL), JDOC_ERR_ARG);
    cr_expect_eq(jdoc_parse(p, NULL, 0, &d), JDOC_ERR_SYNTAX);
    jdoc_parser_free(p);
    jdoc_parser_free(NULL);
    cr_expect_str_eq(jdoc_status_str(JDOC_ERR_DEPTH), "nesting too deep");
    cr_expect_str_eq(jdoc_status_str((jdoc_status)999), "unknown status");
}

/* ---- kernels ---- */

Test(kernels, forced_kernel_is_used)
{
    for (int k = JDOC_KERNEL_SCALAR; k < JDOC_KERNEL_COUNT; k++) {
        jdoc_options o = { .kernel = (jdoc_kernel_id)k };
        jdoc_status st;
        jdoc_parser *p = jdoc_parser_new_ex(&o, &st);
        if (jdoc_kernel_supported((jdoc_kernel_id)k)) {
            cr_assert_not_null(p);
            cr_expect_str_eq(jdoc_kernel_name(p), jdoc_kernel_id_name((jdoc_kernel_id)k));
        } else {
            cr_expect_null(p);
            cr_expect_eq(st, JDOC_ERR_UNSUPPORTED, "%s", jdoc_kernel_id_name((jdoc_kernel_id)k));
        }
        jdoc_parser_free(p);
    }
    jdoc_options bad = { .kernel = (jdoc_kernel_id)77 };
    jdoc_status st;
    cr_expect_null(jdoc_parser_new_ex(&bad, &st));
    cr_expect_eq(st, JDOC_ERR_ARG);
}

Test(kernels, environment_variable)
{
    setenv("JDOC_KERNEL", "scalar", 1);
    jdoc_parser *p = jdoc_parser_new(NULL);
    cr_expect_str_eq(jdoc_kernel_name(p), "scalar");
    jdoc_parser_free(p);
    /* an explicit option wins over the environment */
    jdoc_options o = { .kernel = JDOC_KERNEL_SCALAR };
    setenv("JDOC_KERNEL", "no-such-kernel", 1);
    p = jdoc_parser_new(&o);
    cr_expect_not_null(p);
    jdoc_parser_free(p);
    jdoc_status st;
    cr_expect_null(jdoc_parser_new_ex(NULL, &st));
    cr_expect_eq(st, JDOC_ERR_UNSUPPORTED);
    unsetenv("JDOC_KERNEL");
    p = jdoc_parser_new(NULL);
    cr_expect_not_null(p);
    jdoc_parser_free(p);
}

Test(kernels, names_and_best)
{
    cr_expect_eq(jdoc_kernel_from_name("avx2"), JDOC_KERNEL_AVX2);
    cr_expect_eq(jdoc_kernel_from_name("nope"), JDOC_KERNEL_COUNT);
    cr_expect_null(jdoc_kernel_id_name(JDOC_KERNEL_COUNT));
    cr_expect(jdoc_kernel_supported(JDOC_KERNEL_SCALAR));
    jdoc_parser *p = jdoc_parser_new(NULL);
    /* auto picks the first supported kernel in preference order */
    static const jdoc_kernel_id pref[] = { JDOC_KERNEL_AVX512, JDOC_KERNEL_AVX2, JDOC_KERNEL_SSE42,
                                           JDOC_KERNEL_NEON, JDOC_KERNEL_NEON_NOPMULL, JDOC_KERNEL_SCALAR };
    for (size_t i = 0; i < sizeof pref / sizeof *pref; i++)
        if (jdoc_kernel_supported(pref[i])) {
            cr_expect_str_eq(jdoc_kernel_name(p), jdoc_kernel_id_name(pref[i]));
            break;
        }
    jdoc_parser_free(p);
}
