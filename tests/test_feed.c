/* SPDX-License-Identifier: MIT */
/* Streams fed in pieces: every split gives the whole buffer's documents and
 * errors, on every kernel; NDJSON resync after every kind of damage. */
#include <criterion/criterion.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>
#include "internal.h"
#include "testutil.h"

/* What a stream said about one document. */
typedef struct rec {
    jdoc_status st;
    size_t count, line, offset;   /* jdoc_stream_count, _line, _offset */
    size_t err_off;               /* damaged: jdoc_last_error's offset */
    const char *msg;
    char *text;                   /* whole: jdoc_dump of the root */
} rec;

typedef struct recs {
    rec *v;
    size_t n, cap;
} recs;

static void recs_free(recs *r)
{
    for (size_t i = 0; i < r->n; i++)
        free(r->v[i].text);
    free(r->v);
    memset(r, 0, sizeof *r);
}

static void take(jdoc_parser *p, jdoc_doc *d, jdoc_status st, recs *r)
{
    if (r->n == r->cap) {
        r->cap = r->cap ? 2 * r->cap : 64;
        r->v = realloc(r->v, r->cap * sizeof *r->v);
    }
    rec *x = &r->v[r->n++];
    memset(x, 0, sizeof *x);
    x->st = st;
    x->count = jdoc_stream_count(p);
    x->line = jdoc_stream_line(p);
    x->offset = jdoc_stream_offset(p);
    if (st == JDOC_OK) {
        cr_assert_not_null(d);
        size_t l = jdoc_dump(jdoc_root(d), NULL, 0);
        x->text = malloc(l + 1);
        jdoc_dump(jdoc_root(d), x->text, l + 1);
    } else {
        cr_assert_null(d);
        x->err_off = jdoc_last_error(p)->offset;
        x->msg = jdoc_last_error(p)->message;
    }
    cr_assert_lt(r->n, 1000000, "runaway stream");
}

static void whole(jdoc_parser *p, const char *buf, size_t len, recs *r)
{
    jdoc_doc *d;
    jdoc_status st;
    cr_assert_eq(jdoc_stream_begin(p, buf, len), JDOC_OK);
    while (jdoc_stream_next(p, &d, &st))
        take(p, d, st, r);
}

/* Feed buf in pieces of the sizes sizes[0], sizes[1], ... (cycling), each
 * piece in its own exact-size allocation that is overwritten and freed as
 * soon as jdoc_feed_next asks for more: nothing may be read from it later. */
static void fed(jdoc_parser *p, const char *buf, size_t len, const size_t *sizes, size_t nsizes, recs *r,
                size_t *max_buffered)
{
    jdoc_doc *d;
    jdoc_status st;
    cr_assert_eq(jdoc_feed_begin(p), JDOC_OK);
    size_t pos = 0, k = 0;
    while (pos < len) {
        size_t n = sizes[k++ % nsizes];
        if (n > len - pos)
            n = len - pos;
        char *piece = malloc(n);
        memcpy(piece, buf + pos, n);
        cr_assert_eq(jdoc_feed(p, piece, n), JDOC_OK);
        while (jdoc_feed_next(p, &d, &st))
            take(p, d, st, r);
        if (max_buffered && jdoc_feed_buffered(p) > *max_buffered)
            *max_buffered = jdoc_feed_buffered(p);
        memset(piece, '#', n);
        free(piece);
        pos += n;
    }
    cr_assert_eq(jdoc_feed_close(p), JDOC_OK);
    while (jdoc_feed_next(p, &d, &st))
        take(p, d, st, r);
    cr_assert(!jdoc_feed_next(p, &d, &st), "a closed feed ends");
}

/* The same records, or a message saying where they differ. */
static bool same(const recs *a, const recs *b, char *why, size_t cap)
{
    for (size_t i = 0; i < a->n || i < b->n; i++) {
        if (i >= a->n || i >= b->n) {
            snprintf(why, cap, "%zu documents against %zu", a->n, b->n);
            return false;
        }
        const rec *x = &a->v[i], *y = &b->v[i];
        if (x->st != y->st || x->count != y->count || x->line != y->line || x->offset != y->offset ||
            x->err_off != y->err_off || (x->msg && strcmp(x->msg, y->msg) != 0) ||
            (x->text && strcmp(x->text, y->text) != 0)) {
            snprintf(why, cap,
                     "document %zu: status %d/%d count %zu/%zu line %zu/%zu offset %zu/%zu error at %zu/%zu (%s/%s) "
                     "%.40s/%.40s",
                     i + 1, x->st, y->st, x->count, y->count, x->line, y->line, x->offset, y->offset, x->err_off,
                     y->err_off, x->msg ? x->msg : "-", y->msg ? y->msg : "-", x->text ? x->text : "-",
                     y->text ? y->text : "-");
            return false;
        }
    }
    return true;
}

/* Feed with these piece sizes on kernel p and compare with the whole buffer. */
static bool check_split(jdoc_parser *p, const char *buf, size_t len, const recs *want, const size_t *sizes,
                        size_t nsizes, const char *what)
{
    recs got = { 0 };
    fed(p, buf, len, sizes, nsizes, &got, NULL);
    char why[512];
    bool ok = same(want, &got, why, sizeof why);
    if (!ok)
        cr_expect_fail("[%s] %s, pieces of %zu%s: %s", jdoc_kernel_name(p), what, sizes[0], nsizes > 1 ? "..." : "",
                       why);
    recs_free(&got);
    return ok;
}

#define FOR_KERNELS(p)                                                                  \
    for (int k_ = JDOC_KERNEL_SCALAR; k_ < JDOC_KERNEL_COUNT; k_++)                     \
        for (jdoc_parser *p = jdoc_kernel_supported((jdoc_kernel_id)k_) ? tu_parser((jdoc_kernel_id)k_) : NULL; p; \
             jdoc_parser_free(p), p = NULL)

/* Every piece size 1..max, and a cut in two at every byte (every `step`). */
static void all_splits(const char *buf, size_t len, size_t max, size_t step, const char *what)
{
    FOR_KERNELS(p) {
        recs want = { 0 };
        whole(p, buf, len, &want);
        int fails = 0;
        for (size_t n = 1; n <= max && n <= len && fails < 3; n++)
            fails += !check_split(p, buf, len, &want, &n, 1, what);
        for (size_t at = 1; at < len && fails < 3; at += step) {
            size_t two[2] = { at, len };
            fails += !check_split(p, buf, len, &want, two, 2, what);
        }
        recs_free(&want);
    }
}

Test(feed, small_streams_every_split, .timeout = 120)
{
    if (!tu_corpus_present())
        cr_skip_test("../shared/corpus not present");
    const char *files[] = { CORPUS "/docker/events.ndjson", CORPUS "/docker/image_pull_concatenated.txt" };
    for (int i = 0; i < 2; i++) {
        size_t len;
        char *b = tu_read(files[i], &len);
        cr_assert(b, "%s", files[i]);
        all_splits(b, len, 200, 1, files[i]);
        free(b);
    }
}

/* A larger stream: sampled sizes, among them pieces that end inside UTF-8
 * sequences, escapes, numbers and literals at every phase of 64. */
Test(feed, large_stream_sampled_splits, .timeout = 120)
{
    if (!tu_corpus_present())
        cr_skip_test("../shared/corpus not present");
    const char *files[] = { CORPUS "/docker/image_pull.ndjson", CORPUS "/standard/amazon_cellphones.ndjson" };
    for (int i = 0; i < 2; i++) {
        size_t len;
        char *b = tu_read(files[i], &len);
        cr_assert(b, "%s", files[i]);
        FOR_KERNELS(p) {
            recs want = { 0 };
            whole(p, b, len, &want);
            cr_assert_gt(want.n, 100);
            static const size_t fixed[] = { 1, 2, 3, 5, 63, 64, 65, 127, 128, 129, 1000, 4096, 65536, 1 << 20 };
            for (size_t j = 0; j < sizeof fixed / sizeof *fixed; j++)
                if (fixed[j] > 1 || len < 100000)
                    check_split(p, b, len, &want, &fixed[j], 1, files[i]);
            uint64_t seed = 7 + (uint64_t)i;
            for (int round = 0; round < 6; round++) {
                size_t sizes[64];
                for (int j = 0; j < 64; j++)
                    sizes[j] = 1 + tu_rand(&seed) % (round < 3 ? 300 : 9000);
                check_split(p, b, len, &want, sizes, 64, files[i]);
            }
            recs_free(&want);
        }
        free(b);
    }
}

/* Streams made to split at hard places: multi-byte UTF-8, escapes, numbers,
 * literals, strings and scalar roots of every length around 64. */
Test(feed, tricky_tokens_every_split, .timeout = 120)
{
    char buf[8192];
    size_t len = 0;
    for (int i = 0; i < 40; i++) {
        len += (size_t)snprintf(buf + len, sizeof buf - len,
                                "{\"k\":\"%.*s\\u00e9\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80\\\"\",\"n\":%d.%de-%d,\"t\":[true,false,null]}%s"
                                "%d \"s%.*s\" true%s",
                                i % 30, "abcdefghijklmnopqrstuvwxyz0123", -i * 7919, i, i % 3, i % 2 ? "\n" : "",
                                i * 31, i % 7, "\\\\\\\\\\\\\\", i % 3 ? "\n" : " ");
    }
    all_splits(buf, len, 130, 1, "tricky tokens");
}

/* A root token that is not JSON, then a string that invalid UTF-8 cuts short:
 * the first document is the bad token, damaged where it starts, whether the
 * invalid byte has been indexed or not (the whole buffer once said "invalid
 * UTF-8" for it, the string's error; found by fuzz_feed). */
Test(feed, bad_token_before_a_string_cut_by_bad_utf8)
{
    static const char *const streams[] = {
        "\\\"\xf0", "\\\"\xf0\n[1]\n", "x\"ab\xff", "tru\"\xe0\xa4", "\\\"\xc3", "1\"\xf0\x9f",
    };
    for (size_t i = 0; i < sizeof streams / sizeof *streams; i++)
        all_splits(streams[i], strlen(streams[i]), 8, 1, streams[i]);
}

/* A document cut short whose grammar breaks where the fast reading does not
 * look (a ':' in an array) before a kernel error further on (a string left
 * open at the end): the grammar's error comes first, fed or whole (found by
 * fuzz_feed). */
Test(feed, grammar_error_before_a_kernel_error)
{
    static const char s[] = "[{\"ags\":[\"reistry:latesgests\":[],\"eated\":1448082733,\"Sized\":\"5e\"},\"";
    all_splits(s, strlen(s), 70, 1, "':' in an array, then an open string");
}

/* A look at the bytes after the last whole block that fails (a run of
 * opening brackets cut by a byte that is not UTF-8) leaves the index as the
 * kernel left it: the document in progress is still found where it starts
 * when the piece goes (found by fuzz_feed: it was read before the carry). */
Test(feed, a_failed_look_after_the_last_block)
{
    char s[80];
    memcpy(s, "1 ", 2);
    memset(s + 2, '[', 63);
    memcpy(s + 65, "\xb4]", 3);   /* 67 bytes: the first block ends after 62 '[' */
    all_splits(s, 67, 70, 1, "'['s cut by \\xb4 after a block");
    s[0] = ' ';
    all_splits(s, 67, 70, 1, "the same with no document before");
}

/* Damage and resync. A stream of intact lines with damage at line `at`; the
 * damage is the text of one or more lines. */
#define CUT "document not closed at the end of its line"
#define NOTJSON "not JSON: expected a value"
static const char *const kinds[][3] = {
    { "cut in a string", "{\"status\":\"Downloading\",\"id\":\"a1b2", "control character in string" },
    { "cut outside a string", "{\"status\":\"Extracting\",\"progressDetail\":{\"current\":12", CUT },
    { "cut after a colon", "{\"status\":\"Pulling\",\"id\":", CUT },
    { "cut after a comma in an array", "{\"a\":[1,", CUT },
    { "missing comma", "{\"status\":\"Pulling\" \"id\":\"c3\"}", "expected ',' or '}'" },
    { "missing comma in an array", "[1 2]", "expected ',' or ']'" },
    { "html page", "<html>\n<head><title>502 Bad Gateway</title></head>\n<body>\n<center><h1>502 Bad Gateway</h1></center>\n</body>\n</html>", NOTJSON },
    { "invalid utf-8 in a string", "{\"status\":\"\xff\xfe\"}", "invalid UTF-8" },
    { "invalid utf-8 outside", "\xc0{\"a\":1}", "invalid UTF-8" },
    { "truncated utf-8", "{\"status\":\"\xe2\x82\"}", "invalid UTF-8" },
    { "bare word", "Internal", NOTJSON },
    { "bare words", "Internal Server Error", NOTJSON },
    { "cut literal", "tru", NOTJSON },
    { "brackets that never close", "{\"a\":[[[[{\"b\":[", CUT },
    { "unmatched close", "]}", "expected a value" },
    { "mismatched", "{\"a\":[1}", "expected ']' before '}'" },
    { "trailing comma", "{\"a\":1,}", "expected a key after ','" },
    { "number key", "{1:2}", "expected a string key" },
    { "control character", "{\"a\":\"x\ty\"}", "control character in string" },
};

static int kind_lines(const char *t)
{
    int n = 1;
    for (; *t; t++)
        n += *t == '\n';
    return n;
}

/* The line of intact document i: 1 + i, after the damage its lines more. */
static void damage_case(int kind, int at, int nlines, const char *const *sep)
{
    char buf[16384];
    size_t len = 0;
    char want_text[64][96];
    int dl = kind_lines(kinds[kind][1]);
    int intact = 0;
    for (int i = 0; i < nlines; i++) {
        if (i == at)
            len += (size_t)snprintf(buf + len, sizeof buf - len, "%s\n", kinds[kind][1]);
        int w = snprintf(want_text[intact], sizeof want_text[intact], "{\"status\":\"s%d\",\"id\":\"x%d\",\"n\":[%d,{}]}",
                         i, i * 3, i);
        len += (size_t)snprintf(buf + len, sizeof buf - len, "%s%s", want_text[intact], sep[i % 2]);
        (void)w;
        intact++;
    }
    if (at >= nlines)
        len += (size_t)snprintf(buf + len, sizeof buf - len, "%s", kinds[kind][1]);
    /* expected: intact documents in order, each damaged line of the damage
     * once (blank-free lines), at its number and line */
    FOR_KERNELS(p) {
        recs r = { 0 };
        whole(p, buf, len, &r);
        int got_ok = 0, got_bad = 0, fails = 0;
        for (size_t i = 0; i < r.n && fails < 3; i++) {
            rec *x = &r.v[i];
            if (x->count != i + 1) {
                cr_expect_fail("[%s] %s at %d: document %zu counted %zu", jdoc_kernel_name(p), kinds[kind][0], at,
                               i + 1, x->count);
                fails++;
            }
            if (x->st == JDOC_OK) {
                /* intact i sits on line 1 + i, or 1 + i + dl after the damage */
                size_t line = (size_t)(1 + got_ok + (got_ok >= at ? dl : 0));
                if (got_ok >= intact || strcmp(x->text, want_text[got_ok]) != 0 || x->line != line) {
                    cr_expect_fail("[%s] %s at %d: document %zu is %s on line %zu, want %s on line %zu",
                                   jdoc_kernel_name(p), kinds[kind][0], at, i + 1, x->text, x->line,
                                   got_ok < intact ? want_text[got_ok] : "nothing", line);
                    fails++;
                }
                got_ok++;
            } else {
                size_t line = (size_t)(1 + at + got_bad);
                /* the error lies on the damaged line, its newline included */
                const char *eol = memchr(buf + x->offset, '\n', len - x->offset);
                size_t line_end = eol ? (size_t)(eol - buf) : len;
                bool msg_ok = at >= nlines || strcmp(x->msg, kinds[kind][2]) == 0;
                if (got_ok != (at < nlines ? at : nlines) || x->line != line || x->err_off < x->offset ||
                    x->err_off > line_end || !msg_ok) {
                    cr_expect_fail("[%s] %s at %d: damaged document %zu on line %zu (want %zu), after %d intact, "
                                   "error at %zu: %s",
                                   jdoc_kernel_name(p), kinds[kind][0], at, i + 1, x->line, line, got_ok, x->err_off,
                                   x->msg);
                    fails++;
                }
                got_bad++;
            }
        }
        cr_expect_eq(got_ok, intact, "[%s] %s at %d: %d intact of %d", jdoc_kernel_name(p), kinds[kind][0], at,
                     got_ok, intact);
        cr_expect_eq(got_bad, dl, "[%s] %s at %d: %d damaged, want %d", jdoc_kernel_name(p), kinds[kind][0], at,
                     got_bad, dl);
        /* fed, the same */
        static const size_t sizes[] = { 1, 7, 64, 100 };
        for (size_t j = 0; j < 4; j++)
            check_split(p, buf, len, &r, &sizes[j], 1, kinds[kind][0]);
        recs_free(&r);
    }
}

Test(feed, resync_after_every_kind_of_damage, .timeout = 120)
{
    static const char *const nl[2] = { "\n", "\n" }, *const crlf[2] = { "\r\n", "\n" };
    for (int k = 0; k < (int)(sizeof kinds / sizeof *kinds); k++)
        for (int at = 0; at <= 12; at += (at < 3 ? 1 : 4)) {
            damage_case(k, at, 12, nl);
            damage_case(k, at, 12, crlf);
        }
}

/* Kernel errors of many kinds far from where indexing began (after 100 KB
 * of intact lines, then every few lines, sometimes on adjacent lines): each
 * SIMD kernel's documents, errors (offset, message), counts and lines are
 * the scalar kernel's, read whole and fed in pieces. The exact error is
 * found by the scalar kernel from the last string before the one the SIMD
 * kernel saw; these are the cases where that string is far from the start. */
static const char *const kernel_damage[] = {
    "\"image\":\"a\x01b\"",             /* a control character in a string */
    "\"image\":\"ab\xff\"",             /* a byte that is never UTF-8 */
    "\"image\":\"ab\xe2\x82\"",        /* a 3-byte sequence cut by the closing quote */
    "\"image\":\"\xe2\x82\xac\x80\"", /* a continuation byte with no lead */
    "\"image\":\"\xc0\xaf\"",          /* overlong */
    "\"image\":\"\xed\xa0\x80\"",      /* a surrogate */
    "\"k\xf0\x9f\x98\":1",              /* a key cut in a 4-byte sequence */
    "\"n\":\xff",                       /* invalid UTF-8 outside a string */
    "\"n\":\xe2\x82\"x\"",               /* a sequence cut by a string's opening quote */
    "\"image\":\"a\\\"b\x1f\"",       /* a control character after an escaped quote */
    "\"image\":\"tab\there\"",          /* a raw tab in a string */
    "\"image\":\"cut",                   /* a string cut by the end of its line */
};

static size_t event_line(char *b, size_t cap, uint64_t r, const char *damage)
{
    return (size_t)snprintf(b, cap,
                            "{\"status\":\"start\",\"id\":\"%016llx%016llx\",\"Type\":\"container\",\"Actor\":"
                            "{\"ID\":\"%016llx\",\"Attributes\":{\"name\":\"web-%u\",%s}},\"time\":%u}\n",
                            (unsigned long long)r, (unsigned long long)(r * 31), (unsigned long long)(r >> 7),
                            (unsigned)(r % 1000), damage ? damage : "\"image\":\"nginx\"", (unsigned)(r >> 40));
}

Test(feed, kernel_errors_far_from_where_indexing_began, .timeout = 120)
{
    size_t cap = 600u << 10, len = 0;
    char *b = malloc(cap);
    uint64_t seed = 7;
    int line = 0, kinds_used = 0;
    size_t nk = sizeof kernel_damage / sizeof *kernel_damage;
    while (len + 512 < cap) {
        uint64_t r = tu_rand(&seed);
        /* intact for the first 100 KB; then damage every 2..40 lines */
        bool dmg = len > (100u << 10) && (r % 20 == 0 || (line % 37 == 0));
        const char *d = dmg ? kernel_damage[(size_t)kinds_used++ % nk] : NULL;
        if (dmg && kinds_used % 5 == 0)   /* no string before the damage since the last document */
            len += (size_t)snprintf(b + len, cap - len, "[%u,2,\xff,3]\n", (unsigned)(r % 1000));
        else
            len += event_line(b + len, cap - len, r, d);
        line++;
    }
    cr_assert_gt(kinds_used, 200, "damaged lines: %d", kinds_used);
    jdoc_parser *ps = tu_parser(JDOC_KERNEL_SCALAR);
    recs want = { 0 };
    whole(ps, b, len, &want);
    size_t bad = 0;
    for (size_t i = 0; i < want.n; i++)
        bad += want.v[i].st != JDOC_OK;
    cr_expect_eq(bad, (size_t)kinds_used, "scalar: %zu damaged documents of %d", bad, kinds_used);
    for (int k = JDOC_KERNEL_SSE42; k < JDOC_KERNEL_COUNT; k++) {
        if (!jdoc_kernel_supported((jdoc_kernel_id)k)) {
            tu_note_kernel_skip((jdoc_kernel_id)k);
            continue;
        }
        jdoc_parser *p = tu_parser((jdoc_kernel_id)k);
        recs got = { 0 };
        whole(p, b, len, &got);
        char why[512];
        cr_expect(same(&want, &got, why, sizeof why), "[%s] whole buffer against scalar: %s", jdoc_kernel_name(p), why);
        recs_free(&got);
        static const size_t sizes[][2] = { { 4096, 4096 }, { 4093, 1000 }, { 65536, 65536 } };
        for (size_t j = 0; j < sizeof sizes / sizeof *sizes; j++)
            check_split(p, b, len, &want, sizes[j], 2, "damage far from the start, against scalar");
        jdoc_parser_free(p);
    }
    recs_free(&want);
    jdoc_parser_free(ps);
    free(b);
}

/* Pieces of one document: a document that arrives whole in a piece is not
 * copied; one spanning pieces is, and no more than it. */
Test(feed, copies_only_what_spans_pieces)
{
    const char *a = "{\"a\":1}\n{\"b\":2}\n", *b = "{\"c\":3";
    jdoc_parser *p = jdoc_parser_new(NULL);
    jdoc_doc *d;
    jdoc_status st;
    cr_assert_eq(jdoc_feed_begin(p), JDOC_OK);
    cr_assert_eq(jdoc_feed(p, a, strlen(a)), JDOC_OK);
    cr_assert(jdoc_feed_next(p, &d, &st));
    size_t l;
    cr_expect_eq(jdoc_doc_input(d, &l), a, "a whole document is read in place");
    cr_assert(jdoc_feed_next(p, &d, &st));
    cr_expect_eq(jdoc_doc_input(d, &l), a);
    cr_assert(!jdoc_feed_next(p, &d, &st));
    cr_expect_eq(jdoc_feed_buffered(p), 0);
    cr_assert_eq(jdoc_feed(p, b, strlen(b)), JDOC_OK);
    cr_assert(!jdoc_feed_next(p, &d, &st));
    cr_expect_eq(jdoc_feed_buffered(p), strlen(b), "the partial document, and nothing else");
    /* the rest of the document, then whole ones: those are read in place */
    char rest[1024];
    size_t rl = (size_t)snprintf(rest, sizeof rest, "}\n");
    for (int i = 0; i < 30; i++)
        rl += (size_t)snprintf(rest + rl, sizeof rest - rl, "{\"d\":%d}\n", i);
    cr_assert_eq(jdoc_feed(p, rest, rl), JDOC_OK);
    cr_assert(jdoc_feed_next(p, &d, &st));
    cr_assert_eq(st, JDOC_OK);
    cr_expect_neq(jdoc_doc_input(d, &l), rest, "a document spanning pieces is assembled");
    size_t c_count = jdoc_stream_count(p), c_line = jdoc_stream_line(p), c_off = jdoc_stream_offset(p);
    jdoc_value v;
    int64_t x;
    cr_assert_eq(jdoc_pointer(jdoc_root(d), "/c", 2, &v), JDOC_OK);
    cr_assert_eq(jdoc_get_int64(v, &x), JDOC_OK);
    cr_expect_eq(x, 3);
    for (int i = 0; i < 30; i++) {
        cr_assert(jdoc_feed_next(p, &d, &st));
        cr_assert_eq(jdoc_pointer(jdoc_root(d), "/d", 2, &v), JDOC_OK);
        cr_assert_eq(jdoc_get_int64(v, &x), JDOC_OK);
        cr_expect_eq(x, i);
        if (i >= 8)   /* past the bytes taken into carry to finish the first */
            cr_expect_eq(jdoc_doc_input(d, &l), rest, "document %d after the assembled one is read in place", i);
    }
    cr_assert(!jdoc_feed_next(p, &d, &st));
    cr_expect_eq(jdoc_feed_buffered(p), 0);
    cr_expect_eq(c_count, 3);
    cr_expect_eq(c_line, 3);
    cr_expect_eq(c_off, strlen(a));
    /* a document comes out as soon as its last byte is there, not a piece later */
    cr_assert_eq(jdoc_feed(p, "[1,2", 4), JDOC_OK);
    cr_assert(!jdoc_feed_next(p, &d, &st));
    cr_assert_eq(jdoc_feed(p, "]", 1), JDOC_OK);
    cr_expect(jdoc_feed_next(p, &d, &st), "the document ends with its bracket");
    cr_assert_eq(jdoc_feed(p, "\"x\"", 3), JDOC_OK);
    cr_expect(jdoc_feed_next(p, &d, &st), "a string root ends with its quote");
    cr_assert_eq(jdoc_feed(p, " 12", 3), JDOC_OK);
    cr_expect(!jdoc_feed_next(p, &d, &st), "a number may go on");
    cr_assert_eq(jdoc_feed(p, "3 ", 2), JDOC_OK);
    cr_assert(jdoc_feed_next(p, &d, &st), "a number ends with a space");
    cr_assert_eq(jdoc_get_int64(jdoc_root(d), &x), JDOC_OK);
    cr_expect_eq(x, 123);
    cr_assert_eq(jdoc_feed_close(p), JDOC_OK);
    cr_expect(!jdoc_feed_next(p, &d, &st));
    cr_expect_eq(jdoc_feed(p, "1", 1), JDOC_ERR_ARG, "no piece after close");
    jdoc_parser_free(p);
}

/* Memory stays bounded by the longest document, whatever the stream's length. */
Test(feed, memory_is_bounded, .timeout = 60)
{
    size_t cap = 4u << 20, len = 0;
    char *b = malloc(cap);
    uint64_t seed = 3;
    while (len + 600 < cap) {
        int k = (int)(tu_rand(&seed) % 40);
        len += (size_t)snprintf(b + len, cap - len, "{\"status\":\"Downloading\",\"id\":\"%d\",\"pad\":\"%.*s\"}\n", k,
                                k * 10, "................................................................................"
                                        "................................................................................"
                                        "................................................................................"
                                        "................................................................................"
                                        "................................................................................");
    }
    jdoc_parser *p = jdoc_parser_new(NULL);
    recs r = { 0 };
    size_t maxb = 0;
    static const size_t sizes[] = { 4096, 1500, 65536, 333 };
    fed(p, b, len, sizes, 4, &r, &maxb);
    cr_expect_gt(r.n, 5000);
    for (size_t i = 0; i < r.n; i++)
        cr_assert_eq(r.v[i].st, JDOC_OK);
    cr_expect_leq(maxb, 600, "%zu bytes kept", maxb);
    cr_expect_leq(p->ix_cap, 200000, "index of %zu entries for documents of 60", p->ix_cap);
    recs_free(&r);
    jdoc_parser_free(p);
    free(b);
}

/* A document spanning many pieces costs what it costs whole: the work per
 * piece does not grow with the part of it already held. */
Test(feed, a_long_document_in_small_pieces_takes_linear_time, .timeout = 120)
{
    const size_t n = 8u << 20;   /* elements: 16 MiB, 8 million entries */
    char *b = malloc(2 * n + 2);
    b[0] = '[';
    for (size_t i = 0; i < n; i++) {
        b[1 + 2 * i] = '1';
        b[2 + 2 * i] = ',';
    }
    b[2 * n] = ']';
    b[2 * n + 1] = '\n';
    size_t len = 2 * n + 2;
    jdoc_parser *p = jdoc_parser_new(NULL);
    double t[2];
    for (int way = 0; way < 2; way++) {
        static const size_t piece = 4096;
        recs r = { 0 };
        struct timespec t0, t1;
        clock_gettime(CLOCK_MONOTONIC, &t0);
        if (way == 0) {
            fed(p, b, len, &len, 1, &r, NULL);
        } else {
            fed(p, b, len, &piece, 1, &r, NULL);
        }
        clock_gettime(CLOCK_MONOTONIC, &t1);
        t[way] = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) * 1e-9;
        cr_assert_eq(r.n, 1);
        cr_assert_eq(r.v[0].st, JDOC_OK);
        recs_free(&r);
    }
    /* 4096 pieces: a pass over the entries held at each would be thousands of times one */
    cr_expect_lt(t[1], 4 * t[0] + 0.25, "in pieces of 4 KiB %.3f s, whole %.3f s", t[1], t[0]);
    jdoc_parser_free(p);
    free(b);
}

Test(feed, arguments)
{
    jdoc_parser *p = jdoc_parser_new(NULL);
    jdoc_doc *d;
    jdoc_status st;
    cr_expect_eq(jdoc_feed(p, "1", 1), JDOC_ERR_ARG, "no feed begun");
    cr_expect_eq(jdoc_feed_close(p), JDOC_ERR_ARG);
    cr_expect_eq(jdoc_feed(NULL, "1", 1), JDOC_ERR_ARG);
    cr_assert_eq(jdoc_feed_begin(p), JDOC_OK);
    cr_expect_eq(jdoc_feed(p, NULL, 1), JDOC_ERR_ARG);
    cr_expect_eq(jdoc_feed(p, NULL, 0), JDOC_OK);
    cr_expect(!jdoc_feed_next(p, &d, &st));
    /* fed again without reading: what is still needed is kept */
    cr_assert_eq(jdoc_feed(p, "[1] [", 5), JDOC_OK);
    char two[2] = { '2', ']' };
    cr_assert_eq(jdoc_feed(p, two, 2), JDOC_OK);
    cr_assert(jdoc_feed_next(p, &d, &st));
    cr_assert(jdoc_feed_next(p, &d, &st));
    two[0] = two[1] = 'x';
    int64_t x;
    jdoc_value v;
    cr_assert_eq(jdoc_pointer(jdoc_root(d), "/0", 2, &v), JDOC_OK);
    cr_assert_eq(jdoc_get_int64(v, &x), JDOC_OK);
    cr_expect_eq(x, 2);
    /* jdoc_parse ends a feed */
    cr_assert_eq(jdoc_parse(p, "1", 1, &d), JDOC_OK);
    cr_expect(!jdoc_feed_next(p, &d, &st));
    cr_expect_eq(st, JDOC_ERR_ARG);
    jdoc_parser_free(p);
}

/* A line cut short is reported as soon as the lines after it show it, not
 * when the stream ends: memory stays bounded on an endless stream. */
Test(feed, damage_is_reported_without_waiting)
{
    static const char *const cuts[] = { "{\"status\":\"Pulling\",\"id\":", "{\"a\":[1,", "{\"a\":[[[[{\"b\":[",
                                        "{\"a\":{\"b\":{\"c\":1}", "[{\"a\":1},", "{\"a\":1" };
    for (size_t c = 0; c < sizeof cuts / sizeof *cuts; c++) {
        FOR_KERNELS(p) {
            cr_assert_eq(jdoc_feed_begin(p), JDOC_OK);
            char line[128];
            int bad = 0, ok = 0;
            jdoc_doc *d;
            jdoc_status st;
            snprintf(line, sizeof line, "%s\n", cuts[c]);
            cr_assert_eq(jdoc_feed(p, line, strlen(line)), JDOC_OK);
            while (jdoc_feed_next(p, &d, &st))
                bad++;
            for (int i = 0; i < 40; i++) {
                snprintf(line, sizeof line, "{\"status\":\"s%d\",\"n\":[%d,{}]}\n", i, i);
                cr_assert_eq(jdoc_feed(p, line, strlen(line)), JDOC_OK);
                while (jdoc_feed_next(p, &d, &st)) {
                    if (st == JDOC_OK)
                        ok++;
                    else
                        bad++;
                }
            }
            cr_expect_eq(bad, 1, "[%s] %s: %d damaged before the end", jdoc_kernel_name(p), cuts[c], bad);
            cr_expect_eq(ok, 40, "[%s] %s: %d whole before the end", jdoc_kernel_name(p), cuts[c], ok);
            cr_expect_lt(jdoc_feed_buffered(p), 200, "[%s] %s: %zu bytes kept", jdoc_kernel_name(p), cuts[c],
                         jdoc_feed_buffered(p));
        }
    }
}

/* Every piece ends right before an unreadable page: nothing is read past it. */
Test(feed, pieces_end_before_an_unreadable_page, .timeout = 60)
{
    if (!tu_corpus_present())
        cr_skip_test("../shared/corpus not present");
    size_t len;
    char *b = tu_read(CORPUS "/docker/events.ndjson", &len);
    cr_assert(b);
    size_t dl;
    char *doc = tu_read(CORPUS "/docker/container_inspect.json", &dl);
    cr_assert(doc);
    long pg = sysconf(_SC_PAGESIZE);
    size_t big = len > dl ? len : dl;
    size_t span = ((big + (size_t)pg - 1) / (size_t)pg + 1) * (size_t)pg;
    char *m = mmap(NULL, span + (size_t)pg, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    cr_assert(m != MAP_FAILED);
    mprotect(m + span, (size_t)pg, PROT_NONE);
    char *guard = m + span;
    FOR_KERNELS(p) {
        recs want = { 0 };
        whole(p, b, len, &want);
        for (size_t n = 1; n <= 130; n += n < 70 ? 1 : 7) {
            recs got = { 0 };
            jdoc_doc *d;
            jdoc_status st;
            cr_assert_eq(jdoc_feed_begin(p), JDOC_OK);
            for (size_t pos = 0; pos < len; pos += n) {
                size_t k = len - pos < n ? len - pos : n;
                memcpy(guard - k, b + pos, k);
                cr_assert_eq(jdoc_feed(p, guard - k, k), JDOC_OK);
                while (jdoc_feed_next(p, &d, &st))
                    take(p, d, st, &got);
            }
            jdoc_feed_close(p);
            while (jdoc_feed_next(p, &d, &st))
                take(p, d, st, &got);
            char why[512];
            cr_expect(same(&want, &got, why, sizeof why), "[%s] pieces of %zu: %s", jdoc_kernel_name(p), n, why);
            recs_free(&got);
        }
        /* and one document, each time its buffer grew, before the page */
        jdoc_doc *ref;
        cr_assert_eq(jdoc_parse(p, doc, dl, &ref), JDOC_OK);
        size_t nref = jdoc_doc_index_size(ref);
        cr_assert_eq(jdoc_parse_begin(p), JDOC_OK);
        for (size_t have = 61; have < dl; have += 61) {
            memcpy(guard - have, doc, have);
            cr_assert_eq(jdoc_parse_more(p, guard - have, have), JDOC_OK);
        }
        memcpy(guard - dl, doc, dl);
        jdoc_doc *d;
        cr_expect_eq(jdoc_parse_end(p, guard - dl, dl, &d), JDOC_OK, "[%s]", jdoc_kernel_name(p));
        cr_expect_eq(jdoc_doc_index_size(d), nref);
        recs_free(&want);
    }
    munmap(m, span + (size_t)pg);
    free(doc);
    free(b);
}

/* Allocations that fail: JDOC_ERR_NOMEM, never a crash, nothing leaked. */
typedef struct failing {
    int left;
} failing;
static void *f_malloc(void *ud, size_t n)
{
    failing *f = ud;
    return f->left-- > 0 ? malloc(n) : NULL;
}
static void *f_realloc(void *ud, void *p, size_t n)
{
    failing *f = ud;
    return f->left-- > 0 ? realloc(p, n) : NULL;
}
static void f_free(void *ud, void *p)
{
    (void)ud;
    free(p);
}

Test(feed, allocation_failures)
{
    const char *text = "{\"a\":1}\n{\"b\":[1,2,3],\"c\":\"xyz\"}\n[1,{\"d\":null}]\n\"s\"\n42\n";
    size_t len = strlen(text);
    int nomem = 0;
    for (int k = 1; k < 40; k++) {
        failing f = { k };
        jdoc_allocator a = { f_malloc, f_realloc, f_free, &f };
        jdoc_options o = { .allocator = &a };
        jdoc_parser *p = jdoc_parser_new(&o);
        if (!p)
            continue;
        jdoc_doc *d;
        jdoc_status st;
        int docs = 0, errs = 0;
        if (jdoc_feed_begin(p) == JDOC_OK) {
            for (size_t pos = 0; pos < len; pos += 5) {
                if (jdoc_feed(p, text + pos, len - pos < 5 ? len - pos : 5) != JDOC_OK) {
                    errs++;
                    break;
                }
                while (jdoc_feed_next(p, &d, &st))
                    st == JDOC_OK ? docs++ : errs++;
            }
            jdoc_feed_close(p);
            while (jdoc_feed_next(p, &d, &st))
                st == JDOC_OK ? docs++ : errs++;
        } else {
            errs++;
        }
        cr_expect(docs == 5 || errs > 0, "allocation %d: %d documents, %d errors", k, docs, errs);
        nomem += errs > 0;
        jdoc_parser_free(p);
    }
    cr_expect_gt(nomem, 0, "some allocation failed");
}

/* Random streams: documents of every kind, separators or none, random damage
 * (bytes changed, inserted, removed), random pieces: the same as the whole
 * buffer, on every kernel. */
static size_t random_doc(uint64_t *seed, char *out, size_t cap)
{
    static const char *const parts[] = {
        "{\"a\":1,\"b\":[true,false,null],\"c\":{\"d\":\"e\"}}", "[1,-2.5e3,\"x\\\"y\",{}]", "\"caf\xc3\xa9 \\u00e9\"",
        "12345", "true", "null", "{\"k\":\"\xe2\x82\xac\xf0\x9f\x98\x80\",\"n\":[[[]]]}", "[]", "{}", "-0.5",
        "{\"status\":\"Downloading\",\"progressDetail\":{\"current\":1234,\"total\":9999},\"id\":\"a1b2c3\"}",
        "{\n  \"pretty\": [\n    1,\n    2\n  ]\n}",
    };
    const char *d = parts[tu_rand(seed) % (sizeof parts / sizeof *parts)];
    size_t l = strlen(d);
    if (l > cap)
        l = cap;
    memcpy(out, d, l);
    return l;
}

Test(feed, random_streams_and_splits, .timeout = 120)
{
    uint64_t seed = 12345;
    char *buf = malloc(1 << 16);
    int fails = 0;
    for (int round = 0; round < 150 && fails < 3; round++) {
        size_t len = 0;
        int ndocs = 5 + (int)(tu_rand(&seed) % 40);
        for (int i = 0; i < ndocs; i++) {
            len += random_doc(&seed, buf + len, 4000);
            static const char *const seps[] = { "\n", "\n", "\r\n", " ", "", "\n\n", "\t" };
            const char *sp = seps[tu_rand(&seed) % 7];
            memcpy(buf + len, sp, strlen(sp));
            len += strlen(sp);
        }
        int damage = (int)(tu_rand(&seed) % 4);
        for (int j = 0; j < damage && len > 2; j++) {
            size_t at = (size_t)(tu_rand(&seed) % len);
            static const char junk[] = { '{', '}', '[', ']', '"', ',', ':', '\\', '\n', 'x', '\xff', '\xc3', '\x01', '1' };
            switch (tu_rand(&seed) % 3) {
            case 0: buf[at] = junk[tu_rand(&seed) % sizeof junk]; break;
            case 1: memmove(buf + at + 1, buf + at, len - at); buf[at] = junk[tu_rand(&seed) % sizeof junk]; len++; break;
            default: memmove(buf + at, buf + at + 1, len - at - 1); len--; break;
            }
        }
        if (tu_rand(&seed) % 3 == 0)
            len -= (size_t)(tu_rand(&seed) % (len / 4 + 1));   /* cut short */
        FOR_KERNELS(p) {
            recs want = { 0 };
            whole(p, buf, len, &want);
            for (int s = 0; s < 4 && fails < 3; s++) {
                size_t sizes[16];
                for (int j = 0; j < 16; j++)
                    sizes[j] = 1 + tu_rand(&seed) % (s == 0 ? 8 : s == 1 ? 70 : s == 2 ? 300 : 2000);
                fails += !check_split(p, buf, len, &want, sizes, 16, "random stream");
            }
            recs_free(&want);
        }
    }
    free(buf);
}
