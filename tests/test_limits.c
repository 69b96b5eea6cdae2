/* SPDX-License-Identifier: MIT */
/* Limits and faults, each test with its documented answer: nesting without recursion,
 * sizes at the edges, every allocation failing in turn, inputs that end at an unreadable
 * page, NUL bytes, huge strings/keys/objects/numbers, and API misuse. */
#include <criterion/criterion.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <pthread.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "testutil.h"

/* No test here has a .timeout: Criterion 2.4's parallel runner leaks memory
 * (LeakSanitizer fails the sanitized run) when tests with timeouts overlap. */

/* ---- helpers ---- */

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* Under valgrind or a sanitizer everything runs several times slower: sizes
 * shrink and time limits grow there. */
static bool slow_env(void)
{
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
    return true;
#else
#ifdef __has_feature
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer) || __has_feature(memory_sanitizer)
    return true;
#endif
#endif
    const char *pre = getenv("LD_PRELOAD");
    return pre && strstr(pre, "vgpreload");
#endif
}

/* n bytes placed so that the last one is the last readable byte before a
 * PROT_NONE page; the input pages are read-only (jdoc never writes to input). */
typedef struct pagebuf {
    char *map;
    size_t maplen;
} pagebuf;

static const char *page_end(pagebuf *pb, const void *src, size_t n)
{
    size_t pg = (size_t)sysconf(_SC_PAGESIZE);
    size_t body = n ? (n + pg - 1) / pg * pg : pg;
    pb->maplen = body + pg;
    pb->map = mmap(NULL, pb->maplen, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    cr_assert(pb->map != MAP_FAILED);
    char *p = pb->map + body - n;
    if (n)
        memcpy(p, src, n);
    cr_assert_eq(mprotect(pb->map, body, PROT_READ), 0);
    cr_assert_eq(mprotect(pb->map + body, pg, PROT_NONE), 0);
    return p;
}

static void page_free(pagebuf *pb) { munmap(pb->map, pb->maplen); }

/* Counting allocator: calls, live blocks, and the call that fails (0 = none). */
typedef struct counting {
    long calls, live, fail_at;
    bool failed;   /* a failure was injected */
} counting;

static void *c_malloc(void *ud, size_t n)
{
    counting *c = ud;
    if (++c->calls == c->fail_at) {
        c->failed = true;
        return NULL;
    }
    void *p = malloc(n);
    c->live += p != NULL;
    return p;
}
static void *c_realloc(void *ud, void *p, size_t n)
{
    counting *c = ud;
    if (++c->calls == c->fail_at) {
        c->failed = true;
        return NULL;
    }
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

static jdoc_parser *parser_k(jdoc_kernel_id k, uint32_t max_depth, bool trust)
{
    jdoc_options o = { .kernel = k, .max_depth = max_depth, .trust_utf8 = trust };
    jdoc_parser *p = jdoc_parser_new(&o);
    cr_assert_not_null(p);
    return p;
}

/* A malloc'd string of `reps` copies of s. */
static char *repeat(const char *s, size_t reps, size_t *len)
{
    size_t l = strlen(s);
    char *b = malloc(l * reps + 1);
    cr_assert_not_null(b);
    for (size_t i = 0; i < reps; i++)
        memcpy(b + i * l, s, l);
    b[l * reps] = 0;
    *len = l * reps;
    return b;
}

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

static int count_cb(jdoc_cursor *c, void *ud)
{
    (void)c;
    ++*(size_t *)ud;
    return 0;
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

/* ======================================================================== */
/* Inputs that end at an unreadable page                                    */
/* ======================================================================== */

static void read_everything(jdoc_doc *d)
{
    char buf[256];
    jdoc_value root = jdoc_root(d);
    jdoc_validate(d);
    jdoc_dump(root, buf, sizeof buf);
    jdoc_iter it;
    jdoc_value vals[32];
    size_t n = 0;
    vals[n++] = root;
    if (jdoc_iter_init(root, &it) == JDOC_OK)
        while (n < 32 && jdoc_iter_next(&it, &vals[n]))
            n++;
    for (size_t i = 0; i < n; i++) {
        jdoc_value v = vals[i];
        bool b;
        int64_t x;
        uint64_t u;
        double f;
        const char *s;
        size_t l;
        jdoc_typeof(v);
        jdoc_get_bool(v, &b);
        jdoc_get_int64(v, &x);
        jdoc_get_uint64(v, &u);
        jdoc_get_double(v, &f);
        jdoc_get_string(v, &s, &l);
        jdoc_get_raw(v, &s, &l);
        jdoc_dump(v, buf, sizeof buf);
        jdoc_path_of(v, JDOC_SYNTAX_OJ, buf, sizeof buf);
        jdoc_error e;
        jdoc_explain(root, "/1", 2, JDOC_SYNTAX_OJ, &e, buf, sizeof buf);
    }
    jdoc_cursor *c = jdoc_cursor_new(d);
    size_t leaves = 0;
    jdoc_cursor_each_leaf(c, count_cb, &leaves);
    jdoc_cursor_free(c);
}

/* Answer: no entry point reads past the input: parse (every kernel, UTF-8
 * checked or trusted), validate, every getter, dump, path_of, explain, the
 * cursor, and streams, on documents and fragments that end right before a
 * PROT_NONE page, each preceded by 0..70 spaces (so every SIMD tail length). */
Test(page_end, every_entry_point_that_reads_input)
{
    static const char *docs[] = {
        "[1,\"a\\u00e9\",true,{\"k\":-2.5e3},null,\"\xe2\x82\xac\"]", "123", "-0.5e-7", "true", "null", "false",
        "\"str\\n\"", "\"\xf0\x9f\x98\x80\"", "{\"a\":\"\\\\\"}", "[1,2", "\"abc", "tru", "1e", "\"\xe2\x82",
        "{\"a\":", "[1, 12345678901234567890123", "\"\\u12", "[\"\\", "1 2", "{\"a\":1}{\"b\":2}",
    };
    int checked = 0;
    for (int k = JDOC_KERNEL_SCALAR; k < JDOC_KERNEL_COUNT; k++) {
        if (!jdoc_kernel_supported((jdoc_kernel_id)k)) {
            tu_note_kernel_skip((jdoc_kernel_id)k);
            continue;
        }
        for (int trust = 0; trust < 2; trust++) {
            jdoc_parser *p = parser_k((jdoc_kernel_id)k, 0, trust);
            for (size_t i = 0; i < sizeof docs / sizeof *docs; i++) {
                size_t dl = strlen(docs[i]);
                for (size_t pad = 0; pad <= 70; pad += slow_env() ? 7 : 1) {
                    char *src = malloc(pad + dl);
                    memset(src, ' ', pad);
                    memcpy(src + pad, docs[i], dl);
                    pagebuf pb;
                    const char *in = page_end(&pb, src, pad + dl);
                    jdoc_doc *d;
                    if (jdoc_parse(p, in, pad + dl, &d) == JDOC_OK)
                        read_everything(d);
                    jdoc_status st;
                    jdoc_stream_begin(p, in, pad + dl);
                    while (jdoc_stream_next(p, &d, &st))
                        if (st == JDOC_OK)
                            read_everything(d);
                    page_free(&pb);
                    free(src);
                    checked++;
                }
            }
            jdoc_parser_free(p);
        }
    }
    cr_expect_gt(checked, 100);
}

/* Run the CLI with argv; its stdout into out (NUL-terminated). Returns the exit status. */
static int run_cli(char *const argv[], char *out, size_t cap)
{
    int fds[2];
    cr_assert_eq(pipe(fds), 0);
    pid_t pid = fork();
    cr_assert_geq(pid, 0);
    if (pid == 0) {
        int null = open("/dev/null", O_WRONLY);
        dup2(fds[1], 1);
        dup2(null, 2);
        close(fds[0]);
        execv(argv[0], argv);
        _exit(127);
    }
    close(fds[1]);
    size_t n = 0;
    ssize_t r;
    while (n + 1 < cap && (r = read(fds[0], out + n, cap - 1 - n)) > 0)
        n += (size_t)r;
    out[n] = 0;
    close(fds[0]);
    int status;
    waitpid(pid, &status, 0);
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

/* A file of exactly `size` bytes: spaces, then `tail`. */
static void write_file(const char *path, size_t size, const char *tail)
{
    FILE *f = fopen(path, "wb");
    cr_assert_not_null(f);
    for (size_t i = strlen(tail); i < size; i++)
        fputc(' ', f);
    fputs(tail, f);
    fclose(f);
}

/* Answer: the CLI maps regular files; a file whose last byte ends a page is
 * read without touching the next one (the tool answers, exit 0; or reports
 * the damage, exit 1; never a signal). Skipped when build/jdoc (or $JDOC_CLI)
 * is not built. */
Test(page_end, cli_on_a_mapped_file)
{
    const char *cli = getenv("JDOC_CLI") ? getenv("JDOC_CLI") : "build/jdoc";
    if (access(cli, X_OK) != 0)
        cr_skip_test("%s not built", cli);
    char dir[] = "/tmp/jdoc_limits_XXXXXX";
    cr_assert_not_null(mkdtemp(dir));
    size_t pg = (size_t)sysconf(_SC_PAGESIZE);
    static const struct {
        size_t pages;
        const char *tail, *opt, *path, *out;
        int rc;
    } cases[] = {
        { 1, "{\"a\":[1,2,\"x\"]}", NULL, "/a/3", "\"x\"\n", 0 },
        { 1, "12345", NULL, "/", "12345\n", 0 },
        { 2, "{\"a\":[1,2,\"x\"]}", "--validate", NULL, "", 0 },
        { 1, "{\"a\":[1,2,\"x", "--validate", NULL, "", 1 },
        { 2, "\"\xe2\x82", "--validate", NULL, "", 1 },
        { 1, "1\n[2]\ntrue", "--ndjson", "/", "1\n[2]\ntrue\n", 0 },
        { 1, "{\"a\":tru", NULL, "/a", "", 1 },
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        char file[64], out[256];
        snprintf(file, sizeof file, "%s/f%zu.json", dir, i);
        write_file(file, cases[i].pages * pg, cases[i].tail);
        char *argv[6];
        int a = 0;
        argv[a++] = (char *)cli;
        if (cases[i].opt)
            argv[a++] = (char *)cases[i].opt;
        argv[a++] = file;
        if (cases[i].path)
            argv[a++] = (char *)cases[i].path;
        argv[a] = NULL;
        int rc = run_cli(argv, out, sizeof out);
        cr_expect_eq(rc, cases[i].rc, "case %zu (%s): exit %d", i, cases[i].tail, rc);
        cr_expect_str_eq(out, cases[i].out, "case %zu (%s)", i, cases[i].tail);
        unlink(file);
    }
    rmdir(dir);
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
