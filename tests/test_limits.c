/* SPDX-License-Identifier: MIT */
/* Limits, each test with its documented answer: nesting without recursion,
 * sizes at the edges, NUL bytes, huge strings, keys, objects and numbers. */
#include "limits.h"

/* ======================================================================== */
/* Nesting                                                                  */
/* ======================================================================== */

/* Answer: 1,000,000 '[' is JDOC_ERR_DEPTH at the 1025th bracket, in well
 * under a second, with every kernel. */
Test(nesting, million_brackets_are_a_depth_error)
{
    size_t n = 1000000;
    char *b = malloc(n);
    memset(b, '[', n);
    for (int k = JDOC_KERNEL_SCALAR; k < JDOC_KERNEL_COUNT; k++) {
        if (!jdoc_kernel_supported((jdoc_kernel_id)k)) {
            tu_note_kernel_skip((jdoc_kernel_id)k);
            continue;
        }
        jdoc_parser *p = parser_k((jdoc_kernel_id)k, 0, false);
        jdoc_doc *d;
        double t = now();
        cr_expect_eq(jdoc_parse(p, b, n, &d), JDOC_ERR_DEPTH, "[%s]", jdoc_kernel_name(p));
        t = now() - t;
        cr_expect_eq(jdoc_last_error(p)->offset, 1024, "the 1025th bracket");
        cr_expect_lt(t, slow_env() ? 10.0 : 1.0, "[%s] %.3f s", jdoc_kernel_name(p), t);
        jdoc_parser_free(p);
    }
    /* a limit above the nesting: the brackets never close, an error, no recursion */
    jdoc_parser *p = parser_k(JDOC_KERNEL_AUTO, 2000000, false);
    jdoc_doc *d;
    cr_expect_eq(jdoc_parse(p, b, n, &d), JDOC_ERR_SYNTAX);
    cr_expect_str_eq(jdoc_last_error(p)->message, "unclosed '['");
    jdoc_parser_free(p);
    free(b);
}

/* The deep-document checks run on a thread with a 256 KiB stack: a recursion
 * over 100,000 levels would overflow it. Failures are collected, then asserted. */
#define DEEP 100000
typedef struct deep_job {
    const char *json;
    size_t len;
    const char *step_oj, *step_ptr;   /* one level of path */
    char fail[256];
} deep_job;

#define DCHECK(j, cond, ...)                                                    \
    do {                                                                        \
        if (!(cond) && !(j)->fail[0])                                           \
            snprintf((j)->fail, sizeof (j)->fail, __VA_ARGS__);                 \
    } while (0)

typedef struct leafinfo {
    size_t n, depth;
    jdoc_value v;
} leafinfo;

static int leaf_cb(jdoc_cursor *c, void *ud)
{
    leafinfo *li = ud;
    li->n++;
    li->depth = jdoc_cursor_depth(c);
    li->v = jdoc_cursor_value(c);
    return 0;
}

static void *deep_run(void *arg)
{
    deep_job *j = arg;
    jdoc_parser *p = NULL;
    jdoc_options o = { .max_depth = DEEP - 1 };
    jdoc_doc *d;
    p = jdoc_parser_new(&o);
    DCHECK(j, jdoc_parse(p, j->json, j->len, &d) == JDOC_ERR_DEPTH, "max_depth %u: not a depth error", DEEP - 1);
    jdoc_parser_free(p);
    o.max_depth = DEEP;
    p = jdoc_parser_new(&o);
    if (jdoc_parse(p, j->json, j->len, &d) != JDOC_OK) {
        DCHECK(j, false, "parse: %s", jdoc_last_error(p)->message);
        jdoc_parser_free(p);
        return NULL;
    }
    DCHECK(j, jdoc_validate(d) == JDOC_OK, "validate: %s", jdoc_last_error(p)->message);
    jdoc_value root = jdoc_root(d);
    char *dump = malloc(j->len + 1);
    DCHECK(j, jdoc_dump(root, dump, j->len + 1) == j->len && memcmp(dump, j->json, j->len) == 0, "dump");
    free(dump);
    DCHECK(j, jdoc_count(root) == 1, "count");
    /* iteration down to the leaf */
    jdoc_value v = root;
    size_t depth = 0;
    for (;;) {
        jdoc_iter it;
        if (jdoc_iter_init(v, &it) != JDOC_OK)
            break;
        DCHECK(j, jdoc_iter_next(&it, &v), "iter_next at depth %zu", depth);
        depth++;
    }
    DCHECK(j, depth == DEEP && jdoc_typeof(v) == JDOC_INT, "leaf at depth %zu", depth);
    /* the cursor: each_leaf, where, move */
    jdoc_cursor *c = jdoc_cursor_new(d);
    DCHECK(j, c != NULL, "cursor_new");
    if (c) {
        leafinfo li = { 0 };
        DCHECK(j, jdoc_cursor_each_leaf(c, leaf_cb, &li) == JDOC_OK, "each_leaf");
        DCHECK(j, li.n == 1 && li.depth == DEEP && li.v.idx == v.idx, "each_leaf: %zu leaves, depth %zu", li.n,
               li.depth);
        DCHECK(j, jdoc_cursor_depth(c) == 0, "each_leaf moved the cursor");
    }
    /* long paths: the leaf's path in both syntaxes, fetched back */
    size_t ol = strlen(j->step_oj) * DEEP, pl = strlen(j->step_ptr) * DEEP;
    char *oj = malloc(ol + 1), *ptr = malloc(pl + 1), *buf = malloc(ol + pl + 2);
    for (size_t i = 0; i < DEEP; i++) {
        memcpy(oj + i * strlen(j->step_oj), j->step_oj, strlen(j->step_oj));
        memcpy(ptr + i * strlen(j->step_ptr), j->step_ptr, strlen(j->step_ptr));
    }
    oj[ol] = ptr[pl] = 0;
    DCHECK(j, jdoc_path_of(v, JDOC_SYNTAX_OJ, buf, ol + 1) == ol && strcmp(buf, oj) == 0, "path_of (Oj)");
    DCHECK(j, jdoc_path_of(v, JDOC_SYNTAX_POINTER, buf, pl + 1) == pl && strcmp(buf, ptr) == 0, "path_of (pointer)");
    jdoc_value w;
    DCHECK(j, jdoc_fetch(root, oj, &w) == JDOC_OK && w.idx == v.idx, "fetch of a %zu-step path", (size_t)DEEP);
    DCHECK(j, jdoc_pointer(root, ptr, pl, &w) == JDOC_OK && w.idx == v.idx, "pointer of a %zu-step path",
           (size_t)DEEP);
    DCHECK(j, jdoc_fetch(v, "..", &w) == JDOC_OK && jdoc_count(w) == 1, "'..' from the leaf");
    jdoc_error err;
    char where[64];
    DCHECK(j, jdoc_explain(root, ptr, pl, JDOC_SYNTAX_POINTER, &err, where, sizeof where) == JDOC_OK, "explain");
    if (c) {
        DCHECK(j, jdoc_cursor_move(c, oj) == JDOC_OK && jdoc_cursor_depth(c) == DEEP, "cursor_move");
        DCHECK(j, jdoc_cursor_where(c, buf, ol + 1) == ol && strcmp(buf, oj) == 0, "cursor_where");
        DCHECK(j, jdoc_cursor_fetch(c, "..", &w) == JDOC_OK, "cursor_fetch ..");
        jdoc_cursor_free(c);
    }
    free(oj);
    free(ptr);
    free(buf);
    jdoc_parser_free(p);
    return NULL;
}

static void deep(const char *open, const char *leaf, const char *close, const char *step_oj, const char *step_ptr)
{
    size_t lo, lc;
    char *o = repeat(open, DEEP, &lo), *c = repeat(close, DEEP, &lc);
    size_t ll = strlen(leaf);
    deep_job j = { .len = lo + ll + lc, .step_oj = step_oj, .step_ptr = step_ptr };
    char *json = malloc(j.len);
    memcpy(json, o, lo);
    memcpy(json + lo, leaf, ll);
    memcpy(json + lo + ll, c, lc);
    j.json = json;
    pthread_attr_t a;
    pthread_attr_init(&a);
    cr_assert_eq(pthread_attr_setstacksize(&a, 256 * 1024), 0);
    pthread_t t;
    cr_assert_eq(pthread_create(&t, &a, deep_run, &j), 0);
    pthread_join(t, NULL);
    pthread_attr_destroy(&a);
    cr_expect_str_empty(j.fail, "%s", j.fail);
    free(json);
    free(o);
    free(c);
}

/* Answer: with max_depth = 100,000 a document nested that deep parses,
 * validates, dumps, iterates, is walked by each_leaf and fetched by
 * 100,000-step paths, all on a 256 KiB stack; max_depth = 99,999 refuses it. */
Test(nesting, deep_arrays_without_recursion) { deep("[", "1", "]", "/1", "/0"); }
Test(nesting, deep_objects_without_recursion) { deep("{\"k\":", "1", "}", "/k", "/k"); }

/* ======================================================================== */
/* Sizes                                                                    */
/* ======================================================================== */

typedef struct tiny {
    const char *text;
    jdoc_status parse;
    size_t offset;        /* of the error */
    int stream_ok, stream_bad;
} tiny;

/* Answer: 0 and 1-byte inputs ending at an unreadable page: "" and " " are
 * "no value" (JDOC_ERR_SYNTAX at the end), "1" is the integer 1, "[" is an
 * unclosed bracket (at the end), "\"" an unterminated string (at 0); streams
 * find nothing, one document or one damaged document. Every kernel, with and
 * without UTF-8 checking. */
Test(size, empty_and_one_byte_at_a_page_end)
{
    static const tiny cases[] = {
        { "", JDOC_ERR_SYNTAX, 0, 0, 0 },  { "1", JDOC_OK, 0, 1, 0 },          { " ", JDOC_ERR_SYNTAX, 1, 0, 0 },
        { "[", JDOC_ERR_SYNTAX, 1, 0, 1 }, { "\"", JDOC_ERR_SYNTAX, 0, 0, 1 },
    };
    for (int k = JDOC_KERNEL_SCALAR; k < JDOC_KERNEL_COUNT; k++) {
        if (!jdoc_kernel_supported((jdoc_kernel_id)k)) {
            tu_note_kernel_skip((jdoc_kernel_id)k);
            continue;
        }
        for (int trust = 0; trust < 2; trust++) {
            jdoc_parser *p = parser_k((jdoc_kernel_id)k, 0, trust);
            for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
                const tiny *t = &cases[i];
                pagebuf pb;
                size_t n = strlen(t->text);
                const char *in = page_end(&pb, t->text, n);
                jdoc_doc *d;
                jdoc_status st = jdoc_parse(p, in, n, &d);
                cr_expect_eq(st, t->parse, "[%s] \"%s\": %s", jdoc_kernel_name(p), t->text, jdoc_status_str(st));
                if (st == JDOC_OK) {
                    int64_t v = 0;
                    cr_expect_eq(jdoc_validate(d), JDOC_OK);
                    cr_expect_eq(jdoc_get_int64(jdoc_root(d), &v), JDOC_OK);
                    cr_expect_eq(v, 1);
                } else {
                    cr_expect_eq(jdoc_last_error(p)->offset, t->offset, "\"%s\": error at %zu", t->text,
                                 jdoc_last_error(p)->offset);
                }
                cr_assert_eq(jdoc_stream_begin(p, in, n), JDOC_OK);
                int ok = 0, bad = 0;
                while (jdoc_stream_next(p, &d, &st))
                    st == JDOC_OK ? ok++ : bad++;
                cr_expect(ok == t->stream_ok && bad == t->stream_bad, "[%s] stream \"%s\": %d ok, %d damaged",
                          jdoc_kernel_name(p), t->text, ok, bad);
                page_free(&pb);
            }
            jdoc_parser_free(p);
        }
    }
}

/* Answer: a length of 4 GiB or more is JDOC_ERR_CAPACITY at offset 0, for
 * jdoc_parse and jdoc_stream_begin, without reading the input or calling the
 * allocator (the input here is 2 bytes long: nothing past them is touched). */
Test(size, four_gib_is_capacity_without_allocating)
{
    counting c = { 0 };
    jdoc_allocator a = { c_malloc, c_realloc, c_free, &c };
    jdoc_options o = { .allocator = &a };
    jdoc_parser *p = jdoc_parser_new(&o);
    cr_assert_not_null(p);
    long before = c.calls;
    jdoc_doc *d;
    const size_t lens[] = { (size_t)1 << 32, ((size_t)1 << 32) + 1, SIZE_MAX };
    for (size_t i = 0; i < 3; i++) {
        cr_expect_eq(jdoc_parse(p, "[]", lens[i], &d), JDOC_ERR_CAPACITY);
        cr_expect(jdoc_last_error(p)->code == JDOC_ERR_CAPACITY && jdoc_last_error(p)->offset == 0);
        cr_expect_null(d);
        cr_expect_eq(jdoc_stream_begin(p, "[]", lens[i]), JDOC_ERR_CAPACITY);
        jdoc_status st;
        cr_expect_not(jdoc_stream_next(p, &d, &st), "no stream after a refused begin");
    }
    cr_expect_eq(c.calls, before, "%ld allocator calls", c.calls - before);
    jdoc_parser_free(p);
    cr_expect_eq(c.live, 0);
}

/* Answer: the largest document, 4 GiB - 1 bytes, parses and streams: its
 * value at offset 4 GiB - 2 is found and read. The 4 GiB of input are one
 * 1 MiB page set mapped 4096 times, so this needs little memory. */
Test(size, largest_document_is_4_gib_minus_1)
{
    /* natively about 2 s; under ASan over 10 s, under valgrind minutes */
    if (slow_env())
        cr_skip_test("scans 4 GiB: native builds only");
    const size_t mib = 1u << 20, total = (size_t)1 << 32;
    int fd_sp = memfd_create("spaces", 0), fd_end = memfd_create("end", 0);
    if (fd_sp < 0 || fd_end < 0)
        cr_skip_test("memfd_create: %s", strerror(errno));
    char *chunk = malloc(mib);
    memset(chunk, ' ', mib);
    cr_assert_eq(write(fd_sp, chunk, mib), (ssize_t)mib);
    chunk[mib - 2] = '1';   /* the last readable byte (offset 4 GiB - 1) stays a space */
    cr_assert_eq(write(fd_end, chunk, mib), (ssize_t)mib);
    free(chunk);
    char *base = mmap(NULL, total, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (base == MAP_FAILED)
        cr_skip_test("cannot reserve 4 GiB of address space");
    for (size_t off = 0; off < total; off += mib) {
        void *m = mmap(base + off, mib, PROT_READ, MAP_SHARED | MAP_FIXED, off + mib == total ? fd_end : fd_sp, 0);
        cr_assert(m != MAP_FAILED, "mmap at %zu: %s", off, strerror(errno));
    }
    jdoc_parser *p = jdoc_parser_new(NULL);
    jdoc_doc *d;
    double t = now();
    cr_assert_eq(jdoc_parse(p, base, total - 1, &d), JDOC_OK, "%s", jdoc_last_error(p)->message);
    t = now() - t;
    int64_t v = 0;
    cr_expect_eq(jdoc_offset(jdoc_root(d)), total - 2);
    cr_expect_eq(jdoc_get_int64(jdoc_root(d), &v), JDOC_OK);
    cr_expect_eq(v, 1);
    cr_expect_eq(jdoc_parse(p, base, total, &d), JDOC_ERR_CAPACITY);
    cr_assert_eq(jdoc_stream_begin(p, base, total - 1), JDOC_OK);
    jdoc_status st;
    cr_assert(jdoc_stream_next(p, &d, &st) && st == JDOC_OK);
    cr_expect_eq(jdoc_stream_offset(p), total - 2);
    cr_expect_not(jdoc_stream_next(p, &d, &st));
    fprintf(stderr, "limits: 4 GiB - 1 byte document parsed in %.2f s (%s)\n", t, jdoc_kernel_name(p));
    jdoc_parser_free(p);
    munmap(base, total);
    close(fd_sp);
    close(fd_end);
}

/* Answer: a stream costs time linear in its size, damaged documents included:
 * 40,000 lines that are each a damaged document (a stray ']', or a control
 * character in a string) are reported in well under a second. */
Test(size, stream_of_damaged_documents_is_linear)
{
    static const char *const lines[] = { "]\n", "\"\x01\"\n", "{\"a\":1]\n" };
    size_t reps = 40000;
    for (size_t i = 0; i < sizeof lines / sizeof *lines; i++) {
        size_t n;
        char *b = repeat(lines[i], reps, &n);
        jdoc_parser *p = jdoc_parser_new(NULL);
        jdoc_doc *d;
        jdoc_status st;
        size_t bad = 0, ok = 0;
        double t = now();
        cr_assert_eq(jdoc_stream_begin(p, b, n), JDOC_OK);
        while (jdoc_stream_next(p, &d, &st))
            st == JDOC_OK ? ok++ : bad++;
        t = now() - t;
        cr_expect(bad == reps && ok == 0, "line %zu: %zu damaged, %zu ok", i, bad, ok);
        fprintf(stderr, "limits: %zu damaged documents (%zu KB) streamed in %.3f s\n", reps, n / 1000, t);
        cr_expect_lt(t, slow_env() ? 10.0 : 0.5, "%zu damaged documents of %zu bytes each: %.2f s", reps,
                     strlen(lines[i]), t);
        jdoc_parser_free(p);
        free(b);
    }
}

/* ======================================================================== */
/* NUL bytes                                                                */
/* ======================================================================== */

/* Answer: "\u0000" decodes to a NUL byte counted in the length, in values
 * and keys (found by a pointer with its length); a raw NUL inside a string is
 * a control character (JDOC_ERR_SYNTAX at its offset, at parse); a raw NUL
 * outside strings is a syntax error at parse or at validate. */
Test(nul, escaped_and_raw_nul_bytes)
{
    jdoc_parser *p = jdoc_parser_new(NULL);
    jdoc_doc *d;
    const char *s;
    size_t n;
    jdoc_value v;
    const char esc[] = "{\"a\\u0000b\":\"x\\u0000y\\u0000\"}";
    cr_assert_eq(jdoc_parse(p, esc, sizeof esc - 1, &d), JDOC_OK);
    cr_expect_eq(jdoc_validate(d), JDOC_OK);
    cr_assert_eq(jdoc_pointer(jdoc_root(d), "/a\0b", 4, &v), JDOC_OK);
    cr_assert_eq(jdoc_get_string(v, &s, &n), JDOC_OK);
    cr_expect(n == 4 && memcmp(s, "x\0y\0", 4) == 0, "length %zu", n);
    cr_expect_eq(jdoc_pointer(jdoc_root(d), "/a", 2, &v), JDOC_ERR_NOT_FOUND, "the key is not cut at its NUL");
    jdoc_iter it;
    jdoc_iter_init(jdoc_root(d), &it);
    jdoc_iter_next(&it, NULL);
    cr_assert_eq(jdoc_iter_key(&it, &s, &n), JDOC_OK);
    cr_expect(n == 3 && memcmp(s, "a\0b", 3) == 0);

    /* raw NUL in a string: at parse, at its offset, with every kernel */
    static const struct {
        const char *t;
        size_t len, off;
    } in_str[] = { { "[\"a\0b\"]", 7, 3 }, { "\"\0\"", 3, 1 }, { "{\"k\0\":1}", 8, 3 } };
    for (int k = JDOC_KERNEL_SCALAR; k < JDOC_KERNEL_COUNT; k++) {
        if (!jdoc_kernel_supported((jdoc_kernel_id)k)) {
            tu_note_kernel_skip((jdoc_kernel_id)k);
            continue;
        }
        jdoc_parser *pk = parser_k((jdoc_kernel_id)k, 0, false);
        for (size_t i = 0; i < sizeof in_str / sizeof *in_str; i++) {
            char *b = malloc(in_str[i].len);
            memcpy(b, in_str[i].t, in_str[i].len);
            cr_expect_eq(jdoc_parse(pk, b, in_str[i].len, &d), JDOC_ERR_SYNTAX, "[%s] case %zu", jdoc_kernel_name(pk), i);
            cr_expect_eq(jdoc_last_error(pk)->offset, in_str[i].off, "[%s] case %zu: offset %zu",
                         jdoc_kernel_name(pk), i, jdoc_last_error(pk)->offset);
            free(b);
        }
        jdoc_parser_free(pk);
    }

    /* raw NUL outside strings: refused by parse or by validate */
    static const struct {
        const char *t;
        size_t len;
    } outside[] = { { "\0", 1 },         { "[1,\0]", 5 },    { "[\0]", 3 },      { "[1]\0", 4 },  { "\0[1]", 4 },
                    { "[true\0]", 7 },   { "[null\0]", 7 },  { "[false\0]", 8 }, { "[1\0]", 4 },  { "{\"a\":1\0}", 9 },
                    { "{\"a\"\0:1}", 9 }, { "[\"a\"\0]", 6 }, { "true\0", 5 },    { "0\0", 2 } };
    for (size_t i = 0; i < sizeof outside / sizeof *outside; i++) {
        char *b = malloc(outside[i].len);
        memcpy(b, outside[i].t, outside[i].len);
        jdoc_status st = jdoc_parse(p, b, outside[i].len, &d);
        if (st == JDOC_OK)
            st = jdoc_validate(d);
        cr_expect_neq(st, JDOC_OK, "raw NUL outside strings accepted: case %zu", i);
        free(b);
    }
    jdoc_parser_free(p);
}

/* ======================================================================== */
/* Big strings, keys, objects, numbers                                      */
/* ======================================================================== */

/* A string of n bytes: '"' + n-2 body bytes (with "\\n" every 1000 bytes when
 * escaped) + '"'. Returns the parse + get_string time; checks the result. */
static double big_string(size_t n, bool escaped)
{
    char *b = malloc(n);
    cr_assert_not_null(b);
    b[0] = '"';
    memset(b + 1, 'a', n - 2);
    size_t esc = 0;
    if (escaped)
        for (size_t i = 1000; i + 2 < n - 1; i += 1000, esc++)
            b[i] = '\\', b[i + 1] = 'n';
    b[n - 1] = '"';
    jdoc_parser *p = jdoc_parser_new(NULL);
    jdoc_doc *d;
    const char *s;
    size_t l;
    double t = now();
    cr_assert_eq(jdoc_parse(p, b, n, &d), JDOC_OK);
    cr_assert_eq(jdoc_get_string(jdoc_root(d), &s, &l), JDOC_OK);
    t = now() - t;
    cr_expect_eq(l, n - 2 - esc);
    if (!escaped)
        cr_expect_eq(s, b + 1, "an escape-free string is a pointer into the input");
    else
        cr_expect(s[999] == '\n' && s[998] == 'a' && s[1000] == 'a');
    jdoc_parser_free(p);
    free(b);
    return t;
}

/* Answer: a 100 MB string parses and decodes correctly, in time roughly
 * linear in its size (printed, not asserted: 10 MB vs 100 MB). */
Test(big, long_strings)
{
    size_t small = slow_env() ? 1000000 : 10000000, large = small * 10;
    double t1 = big_string(small, false), t2 = big_string(large, false);
    double e1 = big_string(small, true), e2 = big_string(large, true);
    fprintf(stderr, "limits: %zu MB string %.3f s, %zu MB %.3f s (x%.1f); escaped: %.3f s, %.3f s (x%.1f)\n",
            small / 1000000, t1, large / 1000000, t2, t2 / (t1 > 0 ? t1 : 1e-9), e1, e2, e2 / (e1 > 0 ? e1 : 1e-9));
}

/* Answer: a 1 MB key is found by jdoc_fetch (Oj), jdoc_pointer and a
 * compiled path; also when the document escapes it. */
Test(big, long_key)
{
    size_t kl = 1000000;
    char *key = malloc(kl + 2);
    key[0] = '/';
    for (size_t i = 0; i < kl; i++)
        key[1 + i] = (char)('a' + i % 26);
    key[kl + 1] = 0;
    size_t n = kl + 32;
    char *json = malloc(n);
    /* the same key twice: plain, then with its last letter escaped */
    int len = snprintf(json, n, "{\"x\":0,\"%.*s\":1}", (int)kl, key + 1);
    jdoc_parser *p = jdoc_parser_new(NULL);
    jdoc_doc *d;
    jdoc_value v;
    int64_t x = 0;
    cr_assert_eq(jdoc_parse(p, json, (size_t)len, &d), JDOC_OK);
    cr_assert_eq(jdoc_fetch(jdoc_root(d), key, &v), JDOC_OK);
    cr_expect(jdoc_get_int64(v, &x) == JDOC_OK && x == 1);
    cr_assert_eq(jdoc_pointer(jdoc_root(d), key, kl + 1, &v), JDOC_OK);
    jdoc_path *cp = jdoc_path_compile(key, kl + 1, JDOC_SYNTAX_OJ, NULL);
    cr_assert_eq(jdoc_fetch_path(jdoc_root(d), cp, &v), JDOC_OK);
    jdoc_path_free(cp);
    char last = key[kl];
    key[kl] = 'A';
    cr_expect_eq(jdoc_fetch(jdoc_root(d), key, &v), JDOC_ERR_NOT_FOUND);
    key[kl] = last;
    /* escaped in the document: "...\u00XX" */
    char *json2 = malloc(n + 8);
    len = snprintf(json2, n + 8, "{\"%.*s\\u00%02x\":2}", (int)kl - 1, key + 1, (unsigned char)last);
    cr_assert_eq(jdoc_parse(p, json2, (size_t)len, &d), JDOC_OK);
    cr_assert_eq(jdoc_fetch(jdoc_root(d), key, &v), JDOC_OK);
    cr_expect(jdoc_get_int64(v, &x) == JDOC_OK && x == 2);
    jdoc_parser_free(p);
    free(json);
    free(json2);
    free(key);
}

/* Answer: an object of 1,000,000 members counts 1,000,000 and its last
 * member is found by jdoc_fetch, a pointer and jdoc_fetch_many. */
Test(big, million_members)
{
    size_t members = 1000000, cap = members * 20 + 2, n = 0;
    char *json = malloc(cap);
    json[n++] = '{';
    for (size_t i = 0; i < members; i++)
        n += (size_t)snprintf(json + n, cap - n, "%s\"k%zu\":%zu", i ? "," : "", i, i);
    json[n++] = '}';
    jdoc_parser *p = jdoc_parser_new(NULL);
    jdoc_doc *d;
    jdoc_value v;
    int64_t x = 0;
    double t = now();
    cr_assert_eq(jdoc_parse(p, json, n, &d), JDOC_OK);
    cr_expect_eq(jdoc_count(jdoc_root(d)), members);
    cr_assert_eq(jdoc_fetch(jdoc_root(d), "/k999999", &v), JDOC_OK);
    cr_expect(jdoc_get_int64(v, &x) == JDOC_OK && x == 999999);
    cr_assert_eq(jdoc_pointer(jdoc_root(d), "/k999998", 8, &v), JDOC_OK);
    cr_expect(jdoc_get_int64(v, &x) == JDOC_OK && x == 999998);
    cr_expect_eq(jdoc_fetch(jdoc_root(d), "/k1000000", &v), JDOC_ERR_NOT_FOUND);
    jdoc_path *paths[3] = { jdoc_path_compile("k999999", 7, JDOC_SYNTAX_OJ, NULL),
                            jdoc_path_compile("k0", 2, JDOC_SYNTAX_OJ, NULL),
                            jdoc_path_compile("k500000", 7, JDOC_SYNTAX_OJ, NULL) };
    jdoc_value out[3];
    cr_assert_eq(jdoc_fetch_many(jdoc_root(d), (const jdoc_path *const *)paths, 3, out, NULL), JDOC_OK);
    cr_expect(jdoc_get_int64(out[0], &x) == JDOC_OK && x == 999999);
    cr_expect(jdoc_get_int64(out[2], &x) == JDOC_OK && x == 500000);
    t = now() - t;
    fprintf(stderr, "limits: 1,000,000 members (%zu MB): parse, count and fetches %.3f s\n", n / 1000000, t);
    for (int i = 0; i < 3; i++)
        jdoc_path_free(paths[i]);
    jdoc_parser_free(p);
    free(json);
}

static void big_number(const char *text, bool integer)
{
    size_t n = strlen(text);
    char *json = malloc(n + 2);
    json[0] = '[';
    memcpy(json + 1, text, n);
    json[n + 1] = ']';
    jdoc_parser *p = jdoc_parser_new(NULL);
    jdoc_doc *d;
    jdoc_value v;
    cr_assert_eq(jdoc_parse(p, json, n + 2, &d), JDOC_OK);
    cr_assert_eq(jdoc_validate(d), JDOC_OK);
    cr_assert_eq(jdoc_pointer(jdoc_root(d), "/0", 2, &v), JDOC_OK);
    cr_expect_eq(jdoc_typeof(v), JDOC_DOUBLE);
    double got = 0, want = strtod(text, NULL);
    jdoc_status st = jdoc_get_double(v, &got);
    if (isinf(want)) {
        cr_expect_eq(st, JDOC_ERR_RANGE);
    } else {
        cr_expect_eq(st, JDOC_OK);
        cr_expect(memcmp(&got, &want, sizeof got) == 0, "%.20s...: %.17g, strtod %.17g", text, got, want);
    }
    int64_t i;
    uint64_t u;
    cr_expect_eq(jdoc_get_int64(v, &i), integer ? JDOC_ERR_RANGE : JDOC_ERR_TYPE);
    cr_expect_eq(jdoc_get_uint64(v, &u), integer ? JDOC_ERR_RANGE : JDOC_ERR_TYPE);
    jdoc_parser_free(p);
    free(json);
}

/* Answer: numbers of 10,000 digits read as the same double as strtod
 * (correctly rounded); the integer getters say JDOC_ERR_RANGE for such an
 * integer and JDOC_ERR_TYPE when it has a fraction or an exponent. */
Test(big, ten_thousand_digit_numbers)
{
    size_t n;
    char *digits = repeat("1234567890", 1000, &n);
    big_number(digits, true);
    char *buf = malloc(n + 64);
    snprintf(buf, n + 64, "-%s", digits);
    big_number(buf, true);
    snprintf(buf, n + 64, "0.%s", digits);
    big_number(buf, false);
    snprintf(buf, n + 64, "%se-10322", digits);   /* a subnormal */
    big_number(buf, false);
    snprintf(buf, n + 64, "%se300", digits);      /* beyond double range */
    big_number(buf, false);
    /* just above a halfway point, decided by the last of 10,000 digits */
    memset(buf, '0', n + 64);
    memcpy(buf, "9007199254740993.", 17);
    buf[9998] = '1';
    buf[9999] = 0;
    big_number(buf, false);
    free(buf);
    free(digits);
}
