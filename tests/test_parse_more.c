/* SPDX-License-Identifier: MIT */
/* One document indexed as it arrives: every split gives jdoc_parse's index,
 * values and errors, with the buffer moving between calls, on every kernel. */
#include <criterion/criterion.h>
#include "internal.h"
#include "testutil.h"

/* What jdoc_parse said: the error, or the index. */
typedef struct result {
    jdoc_status st;
    size_t off;
    const char *msg;
    uint32_t n;
    uint32_t *index, *jump;
    uint8_t *tape;
    char *text;
} result;

static void result_free(result *r)
{
    free(r->index);
    free(r->jump);
    free(r->tape);
    free(r->text);
    memset(r, 0, sizeof *r);
}

static void keep(jdoc_parser *p, jdoc_status st, jdoc_doc *d, result *r)
{
    memset(r, 0, sizeof *r);
    r->st = st;
    r->off = jdoc_last_error(p)->offset;
    r->msg = jdoc_last_error(p)->message;
    if (st != JDOC_OK)
        return;
    r->n = d->n;
    r->index = malloc(((size_t)d->n + 1) * 4);
    r->jump = calloc((size_t)d->n + 1, 4);
    r->tape = malloc((size_t)d->n + 1);
    memcpy(r->index, d->index, ((size_t)d->n + 1) * 4);
    memcpy(r->tape, d->tape, d->n);
    for (uint32_t e = 0; e < d->n; e++)
        if (d->tape[e] == '{' || d->tape[e] == '[')
            r->jump[e] = d->index[e];   /* the closing entry, over the offset */
    size_t l = jdoc_dump(jdoc_root(d), NULL, 0);
    r->text = malloc(l + 1);
    jdoc_dump(jdoc_root(d), r->text, l + 1);
}

static bool same(const result *a, const result *b, char *why, size_t cap)
{
    if (a->st != b->st || a->off != b->off || strcmp(a->msg, b->msg) != 0) {
        snprintf(why, cap, "status %d/%d at %zu/%zu: %s/%s", a->st, b->st, a->off, b->off, a->msg, b->msg);
        return false;
    }
    if (a->st != JDOC_OK)
        return true;
    if (a->n != b->n) {
        snprintf(why, cap, "%u/%u entries", a->n, b->n);
        return false;
    }
    for (uint32_t e = 0; e <= a->n; e++)
        if (a->index[e] != b->index[e] || (e < a->n && (a->tape[e] != b->tape[e] || a->jump[e] != b->jump[e]))) {
            snprintf(why, cap, "entry %u: offset %u/%u tape %c/%c jump %u/%u", e, a->index[e], b->index[e],
                     e < a->n ? a->tape[e] : '-', e < a->n ? b->tape[e] : '-', a->jump[e], b->jump[e]);
            return false;
        }
    if (strcmp(a->text, b->text) != 0) {
        snprintf(why, cap, "values differ");
        return false;
    }
    return true;
}

/* Pass the document in pieces of sizes[0], sizes[1], ... (cycling) through
 * two buffers in turn, so that it moves at every call; the bytes not yet
 * arrived are garbage, which nothing may read. */
static bool check_more(jdoc_parser *p, const char *json, size_t len, const result *want, const size_t *sizes,
                       size_t nsizes, const char *what)
{
    char *buf[2];
    for (int i = 0; i < 2; i++) {
        buf[i] = malloc(len + 64);
        for (size_t j = 0; j < len + 64; j++)
            buf[i][j] = j & 1 ? '"' : (char)0xff;
    }
    cr_assert_eq(jdoc_parse_begin(p), JDOC_OK);
    size_t have = 0, k = 0;
    int which = 0;
    jdoc_status early = JDOC_OK;
    size_t early_off = 0;
    while (have < len) {
        size_t n = sizes[k++ % nsizes];
        if (n > len - have)
            n = len - have;
        memcpy(buf[0] + have, json + have, n);
        memcpy(buf[1] + have, json + have, n);
        have += n;
        which ^= 1;
        jdoc_status st = jdoc_parse_more(p, buf[which], have);
        if (st != JDOC_OK && early == JDOC_OK) {
            early = st;
            early_off = jdoc_last_error(p)->offset;
        }
    }
    which ^= 1;
    jdoc_doc *d;
    jdoc_status st = jdoc_parse_end(p, buf[which], len, &d);
    result got;
    keep(p, st, d, &got);
    char why[256];
    bool ok = same(want, &got, why, sizeof why);
    if (ok && early != JDOC_OK && (early != want->st || early_off != want->off)) {
        snprintf(why, sizeof why, "jdoc_parse_more said %d at %zu, the parse %d at %zu", early, early_off, want->st,
                 want->off);
        ok = false;
    }
    if (ok && st == JDOC_OK && jdoc_doc_input(d, NULL) != buf[which]) {
        snprintf(why, sizeof why, "the document is not in the last buffer");
        ok = false;
    }
    if (!ok)
        cr_expect_fail("[%s] %s (%zu bytes), pieces of %zu%s: %s", jdoc_kernel_name(p), what, len, sizes[0],
                       nsizes > 1 ? "..." : "", why);
    result_free(&got);
    free(buf[0]);
    free(buf[1]);
    return ok;
}

static void parse_ref(jdoc_parser *p, const char *json, size_t len, result *r)
{
    char *c = malloc(len ? len : 1);
    memcpy(c, json, len);
    jdoc_doc *d;
    jdoc_status st = jdoc_parse(p, c, len, &d);
    keep(p, st, d, r);
    free(c);
}

#define FOR_KERNELS(p)                                                                  \
    for (int k_ = JDOC_KERNEL_SCALAR; k_ < JDOC_KERNEL_COUNT; k_++)                     \
        for (jdoc_parser *p = jdoc_kernel_supported((jdoc_kernel_id)k_) ? tu_parser((jdoc_kernel_id)k_) : NULL; p; \
             jdoc_parser_free(p), p = NULL)

/* Every piece size up to `max`, a cut in two every `step` bytes, and some
 * random sizes. */
static void splits(const char *json, size_t len, size_t max, size_t step, const char *what)
{
    FOR_KERNELS(p) {
        result want;
        parse_ref(p, json, len, &want);
        int fails = 0;
        for (size_t n = 1; n <= max && n <= len && fails < 3; n++)
            fails += !check_more(p, json, len, &want, &n, 1, what);
        for (size_t at = 1; at < len && step && fails < 3; at += step) {
            size_t two[2] = { at, len };
            fails += !check_more(p, json, len, &want, two, 2, what);
        }
        uint64_t seed = len;
        for (int round = 0; round < 3 && fails < 3; round++) {
            size_t sizes[32];
            for (int j = 0; j < 32; j++)
                sizes[j] = 1 + tu_rand(&seed) % (round == 0 ? 200 : round == 1 ? 5000 : 70000);
            fails += !check_more(p, json, len, &want, sizes, 32, what);
        }
        result_free(&want);
    }
}

static void dir_splits(const char *dir, size_t max, size_t step_div)
{
    char **files = tu_list(dir);
    cr_assert(files, "%s", dir);
    for (char **f = files; *f; f++) {
        size_t len;
        char *b = tu_read(*f, &len);
        cr_assert(b, "%s", *f);
        splits(b, len, max, len / step_div + 1, *f);
        free(b);
    }
    tu_free_list(files);
}

Test(parse_more, conformance_every_split, .timeout = 120)
{
    if (!tu_corpus_present())
        cr_skip_test("../shared/corpus not present");
    dir_splits(CORPUS "/conformance/jsontestsuite", 70, 40);
    dir_splits(CORPUS "/conformance/jsonchecker", 70, 40);
}

Test(parse_more, docker_every_split, .timeout = 120)
{
    if (!tu_corpus_present())
        cr_skip_test("../shared/corpus not present");
    dir_splits(CORPUS "/docker", 8, 60);
}

Test(parse_more, standard_sampled_splits, .timeout = 120)
{
    if (!tu_corpus_present())
        cr_skip_test("../shared/corpus not present");
    char **files = tu_list(CORPUS "/standard");
    cr_assert(files);
    for (char **f = files; *f; f++) {
        size_t len;
        char *b = tu_read(*f, &len);
        FOR_KERNELS(p) {
            result want;
            parse_ref(p, b, len, &want);
            static const size_t sizes[] = { 1, 63, 4093, 65536 };
            for (size_t j = 0; j < 4; j++)
                check_more(p, b, len, &want, &sizes[j], 1, *f);
            result_free(&want);
        }
        free(b);
    }
    tu_free_list(files);
}

/* Damage everywhere: each byte of a document replaced by each of a few bad
 * ones, in pieces of 1, 64 and 65 bytes. */
Test(parse_more, damaged_documents, .timeout = 60)
{
    const char *base = "{\"Id\":\"8dfafdbc3a40\",\"Names\":[\"/web-1\"],\"State\":\"r\xc3\xa9nning\\n\",\"N\":[1,2.5,-3e2,true,null]}";
    size_t len = strlen(base);
    static const char bad[] = { '\xff', '\x01', '"', '[', '}', '\\', ' ', '\xe2' };
    char *b = malloc(len);
    FOR_KERNELS(p) {
        int fails = 0;
        for (size_t i = 0; i < len && fails < 3; i++)
            for (size_t j = 0; j < sizeof bad && fails < 3; j++) {
                memcpy(b, base, len);
                b[i] = bad[j];
                result want;
                parse_ref(p, b, len, &want);
                static const size_t sizes[] = { 1, 64, 65 };
                for (size_t s = 0; s < 3; s++)
                    fails += !check_more(p, b, len, &want, &sizes[s], 1, "damaged");
                result_free(&want);
            }
        /* cut short anywhere */
        for (size_t l = 0; l <= len && fails < 3; l++) {
            result want;
            parse_ref(p, base, l, &want);
            static const size_t one = 3;
            fails += !check_more(p, base, l, &want, &one, 1, "cut short");
            result_free(&want);
        }
    }
    free(b);
}

/* A kernel error far into a document (100 KB of Docker-like objects before
 * it), fed in pieces: every kernel says what the scalar kernel's jdoc_parse
 * says, status, offset and message (the exact error is found from the last
 * string before the one the kernel saw, far from the document's start; one
 * object a line, so that a scan started inside that string would take a
 * newline for a control character in a string). */
Test(parse_more, errors_far_into_a_document, .timeout = 60)
{
    static const char *const damage[] = { "a\x01b", "ab\xff", "ab\xe2\x82", "\xc0\xaf", "\xe2\x82", "t\tab" };
    size_t len;
    char *base = tu_object_lines(140u << 10, &len);
    char *doc = malloc(len + 16);
    jdoc_parser *ps = tu_parser(JDOC_KERNEL_SCALAR);
    uint64_t seed = 5;
    int errors = 0;
    FOR_KERNELS(p) {
        int fails = 0;
        for (size_t k = 0; k < sizeof damage / sizeof *damage && fails < 3; k++)
            for (int at = 0; at < 6 && fails < 3; at++) {
                size_t pos = (100u << 10) + (size_t)(tu_rand(&seed) % (len - (100u << 10) - 64));
                const char *q = memchr(base + pos, '"', len - pos);
                size_t ins = (size_t)(q - base) + (at % 2), dl = strlen(damage[k]);
                memcpy(doc, base, ins);
                memcpy(doc + ins, damage[k], dl);
                memcpy(doc + ins + dl, base + ins, len - ins);
                result want;
                parse_ref(ps, doc, len + dl, &want);
                errors += want.st != JDOC_OK;   /* before a string's quote, "a\x01b" is a scalar: no stage-1 error */
                static const size_t sizes[] = { 4096, 65536 };
                for (size_t j = 0; j < 2; j++)
                    fails += !check_more(p, doc, len + dl, &want, &sizes[j], 1, "damaged far in");
                result_free(&want);
            }
    }
    cr_expect_gt(errors, 20, "damaged documents that fail to parse: %d", errors);
    jdoc_parser_free(ps);
    free(doc);
    free(base);
}

/* An error that is certain is said as soon as its bytes are indexed. */
Test(parse_more, early_error)
{
    char b[300];
    memset(b, ' ', sizeof b);
    b[0] = '[';
    b[10] = '"';
    b[11] = '\xff';
    b[12] = '"';
    FOR_KERNELS(p) {
        cr_assert_eq(jdoc_parse_begin(p), JDOC_OK);
        cr_expect_eq(jdoc_parse_more(p, b, 40), JDOC_OK, "not indexed yet: fewer than 64 bytes");
        cr_expect_eq(jdoc_parse_more(p, b, 200), JDOC_ERR_UTF8);
        cr_expect_eq(jdoc_last_error(p)->offset, 11);
        jdoc_doc *d;
        cr_expect_eq(jdoc_parse_end(p, b, 300, &d), JDOC_ERR_UTF8);
        cr_expect_eq(jdoc_last_error(p)->offset, 11);
        cr_expect_null(d);
    }
}

Test(parse_more, arguments)
{
    jdoc_parser *p = jdoc_parser_new(NULL);
    jdoc_doc *d;
    cr_expect_eq(jdoc_parse_more(p, "[]", 2), JDOC_ERR_ARG, "no jdoc_parse_begin");
    cr_expect_eq(jdoc_parse_end(p, "[]", 2, &d), JDOC_ERR_ARG);
    cr_expect_eq(jdoc_parse_begin(NULL), JDOC_ERR_ARG);
    char big[200];
    memset(big, ' ', sizeof big);
    big[0] = '[';
    big[199] = ']';
    cr_assert_eq(jdoc_parse_begin(p), JDOC_OK);
    cr_assert_eq(jdoc_parse_more(p, big, 150), JDOC_OK);
    cr_expect_eq(jdoc_parse_more(p, big, 100), JDOC_ERR_ARG, "shorter than before");
    cr_expect_eq(jdoc_parse_more(p, NULL, 160), JDOC_ERR_ARG);
    cr_assert_eq(jdoc_parse_end(p, big, 200, &d), JDOC_OK);
    cr_expect_eq(jdoc_count(jdoc_root(d)), 0);
    cr_expect_eq(jdoc_parse_end(p, big, 200, &d), JDOC_ERR_ARG, "ended");
    /* jdoc_parse ends a parse in progress; a parse in progress ends a stream */
    cr_assert_eq(jdoc_parse_begin(p), JDOC_OK);
    cr_assert_eq(jdoc_parse(p, "1", 1, &d), JDOC_OK);
    cr_expect_eq(jdoc_parse_more(p, "[]", 2), JDOC_ERR_ARG);
    cr_assert_eq(jdoc_stream_begin(p, "1 2", 3), JDOC_OK);
    cr_assert_eq(jdoc_parse_begin(p), JDOC_OK);
    jdoc_status st;
    cr_expect(!jdoc_stream_next(p, &d, &st));
    cr_assert_eq(jdoc_parse_end(p, "", 0, &d), JDOC_ERR_SYNTAX, "empty");
    jdoc_parser_free(p);
}
