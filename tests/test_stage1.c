/* SPDX-License-Identifier: MIT */
/* Differential tests: every SIMD kernel this CPU runs against the scalar reference. */
#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <sys/mman.h>
#include <unistd.h>
#include "internal.h"
#include "testutil.h"
#include "stage1_diff.h"
#include "pairs_diff.h"
#include "lines_diff.h"

/* The SIMD kernels each differential test runs on; one this CPU cannot run is skipped, with why. */
#define SIMD_KERNELS(test)                                                                            \
    ParameterizedTestParameters(stage1, test)                                                        \
    {                                                                                                \
        static jdoc_kernel_id ids[] = { JDOC_KERNEL_SSE42, JDOC_KERNEL_AVX2, JDOC_KERNEL_AVX512 };  \
        return cr_make_param_array(jdoc_kernel_id, ids, sizeof ids / sizeof *ids);                  \
    }
static void need_kernel(jdoc_kernel_id id)
{
    if (!jdoc_kernel_supported(id))
        cr_skip_test("kernel %s: %s", jdoc_kernel_id_name(id),
                     jdoc_kernel_compiled(id) ? "not supported by this CPU/OS" : "not compiled in");
}

SIMD_KERNELS(random_vs_scalar)

ParameterizedTest(jdoc_kernel_id *id, stage1, random_vs_scalar)
{
    need_kernel(*id);
    jdoc_parser *ps = tu_parser(JDOC_KERNEL_SCALAR), *pk = tu_parser(*id);
    cr_assert(ps && pk);
    uint64_t seed = 0x9e3779b97f4a7c15ull ^ (uint64_t)*id;
    char why[256];
    char src[300];
    long cases = 0, errors = 0;
    for (size_t len = 0; len <= 300; len++) {
        for (size_t align = 0; align < 64; align++) {
            gen(&seed, src, len, (int)((len + align) % 4 / 2 + (len + align) % 4 / 3));
            /* the input ends exactly at the end of its allocation */
            char *buf = malloc(align + len + 1);
            char *in = buf + align;
            memcpy(in, src, len);
            char *exact = malloc(len ? len : 1);
            memcpy(exact, in, len);
            bool ok = same(ps, pk, exact, len, why, sizeof why);
            if (!ok) {
                char hex[700] = "";
                for (size_t k = 0; k < len && k < 200; k++)
                    snprintf(hex + strlen(hex), sizeof hex - strlen(hex), "%02x", (unsigned char)in[k]);
                cr_assert_fail("len %zu align %zu: %s\ninput %s", len, align, why, hex);
            }
            uint32_t n, nb;
            errors += jdoc__stage1_kernel_only(ps, ps->k, exact, len, &n, &nb) != JDOC_OK;
            cases++;
            free(exact);
            free(buf);
            if (!ok)
                goto done;
        }
    }
done:
    cr_log_info("%s: %ld cases, %ld with errors", jdoc_kernel_id_name(*id), cases, errors);
    cr_expect(errors > cases / 10 && errors < cases * 9 / 10, "the generator should give inputs with and without string/UTF-8 errors");
    jdoc_parser_free(ps);
    jdoc_parser_free(pk);
}

/* Every byte value in every kind of place, at every position in a block:
 * outside strings (between tokens, inside a scalar, as the whole input),
 * inside strings and after a backslash. The class lookups must agree with
 * the scalar kernel on all 256 (0x0C and 0x1A look like ',' and ':' to a
 * nibble lookup of the byte with bit 5 set). */
SIMD_KERNELS(every_byte_everywhere)
ParameterizedTest(jdoc_kernel_id *id, stage1, every_byte_everywhere)
{
    need_kernel(*id);
    static const char *const ctx[] = { "[X]", "[1X2]", "{\"a\":X}", "X", "[\"aXb\"]", "[1 ,X, 2]", "[\"\\X\"]", "X1" };
    jdoc_parser *ps = tu_parser(JDOC_KERNEL_SCALAR), *pk = tu_parser(*id);
    cr_assert(ps && pk);
    char why[256], buf[96];
    for (size_t c = 0; c < sizeof ctx / sizeof *ctx; c++)
        for (int b = 0; b < 256; b++)
            for (size_t pad = 0; pad < 64; pad += 1 + (pad >= 8) * 6) {
                size_t n = pad;
                memset(buf, ' ', pad);
                for (const char *t = ctx[c]; *t; t++)
                    buf[n++] = *t == 'X' ? (char)b : *t;
                if (!same(ps, pk, buf, n, why, sizeof why))
                    cr_assert_fail("byte 0x%02x in %s after %zu spaces: %s", b, ctx[c], pad, why);
            }
    jdoc_parser_free(ps);
    jdoc_parser_free(pk);
}

/* Inputs without stage-1 errors, in quantity: the kernels' index, tape and
 * jump table are compared on every one (the random inputs above are mostly
 * errors, where only the error is compared). */
SIMD_KERNELS(clean_vs_scalar)
ParameterizedTest(jdoc_kernel_id *id, stage1, clean_vs_scalar)
{
    need_kernel(*id);
    jdoc_parser *ps = tu_parser(JDOC_KERNEL_SCALAR), *pk = tu_parser(*id);
    cr_assert(ps && pk);
    uint64_t seed = 0x51ed270b27a3c2f1ull ^ (uint64_t)*id;
    char why[256];
    long cases = 0, clean = 0, parsed = 0;
    for (int round = 0; round < 6; round++) {
        for (size_t len = 1; len <= 700; len += 1 + (size_t)round * 3) {
            char *in = malloc(len);
            gen_clean(&seed, in, len);
            bool ok = same(ps, pk, in, len, why, sizeof why);
            uint32_t n;
            clean += jdoc__stage1_kernel_only(ps, ps->k, in, len, &n, NULL) == JDOC_OK;
            jdoc_doc *d;
            parsed += jdoc_parse(ps, in, len, &d) == JDOC_OK;
            cases++;
            if (!ok) {
                char show[1600] = "";
                for (size_t k = 0; k < len && k < 700; k++)
                    snprintf(show + strlen(show), sizeof show - strlen(show), "%c",
                             in[k] >= 0x20 && in[k] < 0x7f ? in[k] : '.');
                cr_assert_fail("len %zu: %s\ninput %s", len, why, show);
            }
            free(in);
        }
    }
    cr_log_info("%s: %ld clean inputs, %ld parsed", jdoc_kernel_id_name(*id), clean, parsed);
    cr_expect_eq(clean, cases, "the clean generator should give no kernel error");
    cr_expect_gt(cases, 1000);
    jdoc_parser_free(ps);
    jdoc_parser_free(pk);
}

/* Valid 2-, 3- and 4-byte sequences (first and last of each range, and the
 * bounds the overlong, surrogate and U+10FFFF checks sit on) at every
 * position of a 128-byte string, inside and outside strings: no kernel may
 * flag them, and the index must match scalar's. */
ParameterizedTestParameters(stage1, utf8_valid_everywhere)
{
    static jdoc_kernel_id ids[] = { JDOC_KERNEL_SCALAR, JDOC_KERNEL_SSE42, JDOC_KERNEL_AVX2, JDOC_KERNEL_AVX512 };
    return cr_make_param_array(jdoc_kernel_id, ids, sizeof ids / sizeof *ids);
}
ParameterizedTest(jdoc_kernel_id *id, stage1, utf8_valid_everywhere)
{
    need_kernel(*id);
    static const char *const seqs[] = {
        "\xc2\x80", "\xdf\xbf", "\xc3\xa9",                                     /* 2 bytes */
        "\xe0\xa0\x80", "\xe0\xbf\xbf", "\xe1\x80\x80", "\xec\xbf\xbf", "\xed\x80\x80", "\xed\x9f\xbf",
        "\xee\x80\x80", "\xef\xbf\xbf", "\xe2\x82\xac",                         /* 3 bytes */
        "\xf0\x90\x80\x80", "\xf0\xbf\xbf\xbf", "\xf1\x80\x80\x80", "\xf3\xbf\xbf\xbf", "\xf4\x80\x80\x80",
        "\xf4\x8f\xbf\xbf", "\xf0\x9f\x98\x80",                                 /* 4 bytes */
    };
    jdoc_parser *ps = tu_parser(JDOC_KERNEL_SCALAR), *pk = tu_parser(*id);
    char buf[140], why[256];
    long checked = 0;
    for (int in_string = 0; in_string < 2; in_string++)
        for (size_t k = 0; k < sizeof seqs / sizeof *seqs; k++)
            for (size_t at = 1; at + strlen(seqs[k]) < 130; at++) {
                memset(buf, in_string ? 'x' : ' ', sizeof buf);
                buf[0] = in_string ? '"' : '[';
                memcpy(buf + at, seqs[k], strlen(seqs[k]));
                buf[131] = in_string ? '"' : ']';
                jdoc_doc *d;
                jdoc_status st = jdoc_parse(pk, buf, 132, &d);
                uint32_t n;
                cr_assert_eq(jdoc__stage1_kernel_only(pk, pk->k, buf, 132, &n, NULL), JDOC_OK,
                             "%s: sequence %zu at %zu flagged", pk->k->name, k, at);
                cr_assert(same(ps, pk, buf, 132, why, sizeof why), "sequence %zu at %zu: %s", k, at, why);
                if (in_string)
                    cr_assert_eq(st, JDOC_OK, "sequence %zu at %zu: %s", k, at, jdoc_last_error(pk)->message);
                checked++;
            }
    cr_assert_gt(checked, 4000);
    jdoc_parser_free(ps);
    jdoc_parser_free(pk);
}

/* Input at every alignment inside a buffer: the same structure must come out,
 * shifted; covers block boundaries for the in-string and escape carries. */
ParameterizedTestParameters(stage1, alignment_shift)
{
    static jdoc_kernel_id ids[] = { JDOC_KERNEL_SCALAR, JDOC_KERNEL_SSE42, JDOC_KERNEL_AVX2, JDOC_KERNEL_AVX512 };
    return cr_make_param_array(jdoc_kernel_id, ids, sizeof ids / sizeof *ids);
}
ParameterizedTest(jdoc_kernel_id *id, stage1, alignment_shift)
{
    need_kernel(*id);
    jdoc_parser *p = tu_parser(*id);
    const char *body = "{\"a\\\\\":[1,\"x\\\"]\",{\"\\u00e9\":null}],\"b\":\"\xe2\x82\xac\"}";
    size_t bl = strlen(body);
    uint32_t ref[64];
    uint32_t refn = 0;
    for (size_t pad = 0; pad < 130; pad++) {
        size_t len = pad + bl;
        char *b = malloc(len);
        memset(b, ' ', pad);
        memcpy(b + pad, body, bl);
        jdoc_doc *d;
        cr_assert_eq(jdoc_parse(p, b, len, &d), JDOC_OK, "pad %zu: %s", pad, jdoc_last_error(p)->message);
        if (pad == 0) {
            refn = d->n;
            for (uint32_t i = 0; i < refn; i++)
                ref[i] = jdoc__off(d, i);
        }
        cr_assert_eq(d->n, refn);
        for (uint32_t i = 0; i < refn; i++)
            cr_assert_eq(jdoc__off(d, i), ref[i] + pad, "pad %zu entry %u", pad, i);
        free(b);
    }
    jdoc_parser_free(p);
}

static void corpus_dir(jdoc_kernel_id id, const char *dir, int *files)
{
    char **list = tu_list(dir);
    cr_assert(list, "cannot list %s", dir);
    jdoc_parser *ps = tu_parser(JDOC_KERNEL_SCALAR), *pk = tu_parser(id);
    char why[256];
    for (char **f = list; *f; f++) {
        size_t len;
        char *b = tu_read(*f, &len);
        if (!b)
            continue;
        cr_expect(same(ps, pk, b, len, why, sizeof why), "%s: %s", *f, why);
        free(b);
        (*files)++;
    }
    jdoc_parser_free(ps);
    jdoc_parser_free(pk);
    tu_free_list(list);
}

SIMD_KERNELS(corpus_vs_scalar)
ParameterizedTest(jdoc_kernel_id *id, stage1, corpus_vs_scalar)
{
    if (!tu_corpus_present())
        cr_skip_test("../shared/corpus not present: corpus tests skipped");
    need_kernel(*id);
    int files = 0;
    corpus_dir(*id, CORPUS "/standard", &files);
    corpus_dir(*id, CORPUS "/docker", &files);
    corpus_dir(*id, CORPUS "/conformance/jsontestsuite", &files);
    corpus_dir(*id, CORPUS "/conformance/jsonchecker", &files);
    cr_assert_gt(files, 400);
}

/* A kernel error far into a document (a 200 KB array of Docker-like
 * objects, the damage in a string, a key or between tokens at 60 places,
 * several in the same chunk and block): the parse says what the scalar
 * kernel says. A SIMD kernel's error is made exact by the scalar kernel from
 * the last string before it, which these inputs put far from the start (one
 * object a line: a scan started inside that string would take a newline for
 * a control character in a string). */
SIMD_KERNELS(errors_far_into_a_document)

ParameterizedTest(jdoc_kernel_id *id, stage1, errors_far_into_a_document, .timeout = 60)
{
    need_kernel(*id);
    static const char *const damage[] = {
        "a\x01b", "ab\xff", "ab\xe2\x82", "\x80", "\xc0\xaf", "\xed\xa0\x80", "\xf0\x9f\x98", "t\tab",
        "\\\"\x1f", "\xe2\x82\xac\xf0", "\\\\\x02",
        "\xe2\x82", "\xc3",   /* before a quote (every third place): a sequence cut by a string's opening quote */
    };
    size_t len;
    char *base = tu_object_lines(220u << 10, &len);
    jdoc_parser *ps = tu_parser(JDOC_KERNEL_SCALAR), *pk = tu_parser(*id);
    char *doc = malloc(len + 64), why[256];
    int cases = 0;
    uint64_t seed = 11;
    for (size_t k = 0; k < sizeof damage / sizeof *damage; k++)
        for (int at = 0; at < 60; at++) {
            /* a place in the second half: inside a value string, in a key, or right after a ':' */
            size_t pos = len / 2 + (size_t)(tu_rand(&seed) % (len / 2 - 64));
            const char *q = memchr(base + pos, '"', len - pos);
            cr_assert_not_null(q);
            size_t ins = (size_t)(q - base) + (at % 3 == 2 ? 0 : 1);
            size_t dl = strlen(damage[k]);
            memcpy(doc, base, ins);
            memcpy(doc + ins, damage[k], dl);
            memcpy(doc + ins + dl, base + ins, len - ins);
            char *exact = malloc(len + dl);
            memcpy(exact, doc, len + dl);
            bool ok = same(ps, pk, exact, len + dl, why, sizeof why);
            free(exact);
            cr_assert(ok, "damage %zu at byte %zu: %s", k, ins, why);
            cases++;
        }
    cr_log_info("%s: %d damaged documents of %zu bytes", jdoc_kernel_id_name(*id), cases, len);
    jdoc_parser_free(ps);
    jdoc_parser_free(pk);
    free(doc);
    free(base);
}

/* Inputs that end at the last byte of a readable page followed by an
 * unreadable one: no kernel may touch the next page. */
ParameterizedTestParameters(stage1, page_end)
{
    static jdoc_kernel_id ids[] = { JDOC_KERNEL_SCALAR, JDOC_KERNEL_SSE42, JDOC_KERNEL_AVX2, JDOC_KERNEL_AVX512 };
    return cr_make_param_array(jdoc_kernel_id, ids, sizeof ids / sizeof *ids);
}
ParameterizedTest(jdoc_kernel_id *id, stage1, page_end)
{
    need_kernel(*id);
    long pg = sysconf(_SC_PAGESIZE);
    char *m = mmap(NULL, (size_t)pg * 3, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    cr_assert(m != MAP_FAILED);
    cr_assert_eq(mprotect(m + 2 * pg, (size_t)pg, PROT_NONE), 0);
    char *end = m + 2 * pg;
    jdoc_parser *p = tu_parser(*id);
    const char *docs[] = { "[1,2,3]", "{\"a\":\"\xe2\x82\xac\"}", "\"abc", "123", "[\"\\\\\"]", "{\"x\":[true]}",
                           "\xe2\x82" };
    for (size_t k = 0; k < sizeof docs / sizeof *docs; k++) {
        size_t dl = strlen(docs[k]);
        for (size_t len = dl; len < dl + 140; len++) {
            char *in = end - len;
            memset(in, ' ', len - dl);
            memcpy(end - dl, docs[k], dl);
            jdoc_doc *d;
            jdoc_status st = jdoc_parse(p, in, len, &d);
            if (k == 2 || k == 6)
                cr_assert_neq(st, JDOC_OK);
            else
                cr_assert_eq(st, JDOC_OK, "%s len %zu: %s", docs[k], len, jdoc_last_error(p)->message);
        }
    }
    jdoc_parser_free(p);
    munmap(m, (size_t)pg * 3);
}

/* Every pair of bytes, and every lead/continuation/any triple, inside a
 * string that straddles a 64-byte block boundary and inside one that does
 * not: every kernel flags exactly the inputs the scalar kernel flags. */
SIMD_KERNELS(utf8_exhaustive)
ParameterizedTest(jdoc_kernel_id *id, stage1, utf8_exhaustive)
{
    need_kernel(*id);
    jdoc_parser *ps = tu_parser(JDOC_KERNEL_SCALAR), *pk = tu_parser(*id);
    char buf[80];
    uint32_t n, nb;
    long bad = 0;
    for (int pos = 0; pos < 4; pos++) {
        size_t at = pos & 1 ? 62 : 20;    /* bytes at 62,63,64: across the boundary */
        bool in_string = pos < 2;         /* then the same outside strings, as scalar bytes */
        for (unsigned a = 0x20; a < 0x100; a++)
            for (unsigned b = 0x20; b < 0x100; b++)
                for (unsigned c = 0; c < (a >= 0xE0 && a <= 0xF4 && b >= 0x80 && b < 0xC0 ? 0x100u : 1u); c++) {
                    memset(buf, ' ', sizeof buf);
                    buf[0] = in_string ? '"' : '[';
                    buf[at] = (char)a;
                    buf[at + 1] = (char)b;
                    buf[at + 2] = (char)(c ? c : ' ');
                    buf[at + 3] = (char)(c ? 0x80 : ' ');  /* a 4th byte for F0..F4 */
                    buf[78] = in_string ? '"' : ']';
                    if (a == '"' || b == '"' || c == '"' || a == '\\' || b == '\\' || c == '\\')
                        continue;
                    jdoc_status s1 = jdoc__stage1_kernel_only(ps, ps->k, buf, 79, &n, &nb);
                    jdoc_status s2 = jdoc__stage1_kernel_only(pk, pk->k, buf, 79, &n, &nb);
                    bad += s1 != JDOC_OK;
                    if ((s1 == JDOC_OK) != (s2 == JDOC_OK))
                        cr_assert_fail("bytes %02x %02x %02x at %zu: scalar %d, %s %d", a, b, c, at, s1,
                                       pk->k->name, s2);
                }
    }
    cr_assert_gt(bad, 1000);
    jdoc_parser_free(ps);
    jdoc_parser_free(pk);
}

/* The stream code's pair check and depth scan of each kernel against their
 * references (tests/pairs_diff.h): the tapes of the Docker corpus (no bad
 * pair), each with one entry changed to every class in turn, random tapes
 * of class bytes, and deep runs of brackets. */
SIMD_KERNELS(pairs_vs_reference)
ParameterizedTest(jdoc_kernel_id *id, stage1, pairs_vs_reference)
{
    TU_REQUIRE_CORPUS();
    need_kernel(*id);
    const jdoc_kernel *k = jdoc__kernel_get(*id);
    cr_assert(k && k->pairs && k->depth);
    jdoc_parser *p = tu_parser(*id);
    pairs_count c = { 0 };
    bool ok = pairs_corpus_and_random(k, p, CORPUS "/docker", &c);
    jdoc_parser_free(p);
    cr_assert(ok, "%s", c.why);
    cr_expect(c.bad > c.cases / 10 && c.bad < c.cases - c.cases / 10, "%ld of %ld ranges bad: both outcomes", c.bad,
              c.cases);
    cr_expect(c.depth_seen[0] > c.depth_cases / 50 && c.depth_seen[1] > c.depth_cases / 50 &&
                  c.depth_seen[2] > c.depth_cases / 50,
              "depth scans: %ld too deep, %ld ran out, %ld closed of %ld: every outcome", c.depth_seen[0],
              c.depth_seen[1], c.depth_seen[2], c.depth_cases);
}

/* The bracket pass matches a step's innermost containers without its stack
 * when the outermost one stays open through the step: brackets put after
 * 0..150 entries inside one or two containers, closed or not, matched or
 * not, each kernel against scalar (index, jump and error). */
SIMD_KERNELS(brackets_after_entries)
ParameterizedTest(jdoc_kernel_id *id, stage1, brackets_after_entries)
{
    need_kernel(*id);
    static const char *const inner[] = {
        "[]", "{}", "[1}", "{\"a\":1]", "[[}]", "[{]}", "{\"a\":[1,2}}", "[[],{},[1],{\"b\":2}]",
        "[[]", "{\"a\":{}", "]", "}", "[1]]", "{}}",
    };
    static const char *const around[][2] = { { "[", "]" }, { "{\"k\":[", "]}" }, { "[", "" }, { "[[", "]]" } };
    jdoc_parser *ps = tu_parser(JDOC_KERNEL_SCALAR), *pk = tu_parser(*id);
    cr_assert(ps && pk);
    char buf[1024], why[256];
    long cases = 0, errors = 0;
    for (size_t a = 0; a < sizeof around / sizeof *around; a++)
        for (size_t i = 0; i < sizeof inner / sizeof *inner; i++)
            for (int k = 0; k <= 75; k++) {
                int len = snprintf(buf, sizeof buf, "%s", around[a][0]);
                for (int j = 0; j < k; j++)
                    len += snprintf(buf + len, sizeof buf - (size_t)len, "0,");
                len += snprintf(buf + len, sizeof buf - (size_t)len, "%s%s", inner[i], around[a][1]);
                cr_assert(same(ps, pk, buf, (size_t)len, why, sizeof why), "%s on %s", why, buf);
                jdoc_doc *d;
                errors += jdoc_parse(ps, buf, (size_t)len, &d) != JDOC_OK;
                cases++;
            }
    cr_expect(errors > cases / 10 && errors < cases - cases / 10, "%ld of %ld errors: both outcomes", errors, cases);
    jdoc_parser_free(ps);
    jdoc_parser_free(pk);
}

/* The stream's line count (k->lines) against memchr's, at every length and
 * start, ending before an unreadable page. */
SIMD_KERNELS(lines_vs_reference)
ParameterizedTest(jdoc_kernel_id *id, stage1, lines_vs_reference)
{
    need_kernel(*id);
    const jdoc_kernel *k = jdoc__kernel_get(*id);
    cr_assert(k && k->lines);
    char why[160] = "";
    cr_assert(lines_generated(k, why, sizeof why), "%s", why);
}
