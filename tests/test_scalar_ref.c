/* SPDX-License-Identifier: MIT */
/* The scalar kernel against its byte-at-a-time former self (tests/ref_stage1.h):
 * the same entries, errors and carried state after every chunk, for every
 * chunking, with UTF-8 checked and trusted (see tests/scalar_diff.h). */
#include <criterion/criterion.h>
#include "scalar_diff.h"
#include "stage1_diff.h"

#define MAXCUTS 4096

static void show(const uint8_t *in, size_t len, char *out, size_t ol)
{
    out[0] = 0;
    for (size_t k = 0; k < len && k < 160; k++)
        snprintf(out + strlen(out), ol - strlen(out), "%02x", in[k]);
}

/* Compare on one input with every chunking, UTF-8 checked and trusted. */
static void check_all(sd_guard *g, uint64_t *seed, const uint8_t *in, size_t len, const char *what)
{
    static size_t cuts[MAXCUTS];
    char why[512], hex[400];
    for (int mode = 0; mode < 4; mode++) {
        if (mode == 3 && len > 400)
            continue;
        size_t nc = sd_cuts(seed, len, mode, cuts, MAXCUTS);
        for (int utf8 = 0; utf8 < 2; utf8++)
            if (!sd_compare(g, in, len, cuts, nc, utf8, mode != 2 || utf8, why, sizeof why)) {
                show(in, len, hex, sizeof hex);
                cr_assert_fail("%s (len %zu, chunking %d, utf8 %d): %s\ninput %s", what, len, mode, utf8, why, hex);
            }
    }
}

/* Generated inputs (those of the SIMD differential tests): valid and not,
 * every length up to 300, four chunkings each. */
Test(scalar_ref, generated)
{
    sd_guard g;
    cr_assert(sd_guard_init(&g, 1024));
    uint64_t seed = 0x6a09e667f3bcc908ull;
    char src[320];
    long errors = 0, cases = 0;
    for (int round = 0; round < 4; round++)
        for (size_t len = 0; len <= 300; len++) {
            if (round == 3)
                gen_clean(&seed, src, len);
            else
                gen(&seed, src, len, round);
            check_all(&g, &seed, (const uint8_t *)src, len, round == 3 ? "clean" : "random");
            jdoc_s1 s;
            memset(&s, 0, sizeof s);
            s.check_utf8 = true;
            uint32_t ix[320];
            uint8_t tp[320];
            s.index = ix;
            s.tape = tp;
            ref_kernel_scalar.stage1(&s, (const uint8_t *)src, len, true);
            errors += s.code != JDOC_OK;
            cases++;
        }
    cr_expect(errors > cases / 10 && errors < cases * 9 / 10, "%ld of %ld with errors", errors, cases);
    sd_guard_free(&g);
}

/* Two bytes of sd_bytes (every pair) after each context, 0..17 bytes of the
 * context's filler apart from it, so that the pair falls at every place in
 * a word and next to the end of a chunk; cut nowhere, and just before, in
 * and after the pair. */
Test(scalar_ref, byte_pairs_in_context)
{
    static const struct {
        const char *prefix;
        char fill;
    } ctx[] = {
        { "\"", 'a' }, { "\"\\", 'a' }, { "\"\xe2\x82", 'a' }, { "\"\xc3\xa9", '\xc3' }, { "[", ' ' },
        { "[1", '1' }, { "[\\", '1' }, { "[\xc3", '\n' }, { "[\"a\"", ' ' }, { "[true", 'e' }, { "{\"\\u00e9\":", ' ' },
    };
    sd_guard g;
    cr_assert(sd_guard_init(&g, 256));
    uint8_t in[64];
    char why[512], hex[400];
    long runs = 0;
    const size_t nb = sizeof sd_bytes;
    for (size_t c = 0; c < sizeof ctx / sizeof *ctx; c++)
        for (size_t k = 0; k < 18; k++)
            for (size_t a = 0; a < nb; a++)
                for (size_t b = 0; b < nb; b++) {
                    size_t pl = strlen(ctx[c].prefix), len = 0;
                    memcpy(in, ctx[c].prefix, pl);
                    len = pl;
                    memset(in + len, ctx[c].fill, k);
                    len += k;
                    size_t at = len;
                    in[len++] = sd_bytes[a];
                    in[len++] = sd_bytes[b];
                    memset(in + len, ctx[c].fill, 9);
                    len += 9;
                    in[len++] = '"';
                    size_t cuts[3][1] = { { at }, { at + 1 }, { at + 2 } };
                    for (int cut = -1; cut < 3; cut++)
                        for (int utf8 = 0; utf8 < 2; utf8++) {
                            if (!sd_compare(&g, in, len, cut < 0 ? NULL : cuts[cut], cut < 0 ? 0 : 1, utf8, true, why,
                                            sizeof why)) {
                                show(in, len, hex, sizeof hex);
                                cr_assert_fail("context %zu, %zu apart, cut %d, utf8 %d: %s\ninput %s", c, k, cut, utf8,
                                               why, hex);
                            }
                            runs++;
                        }
                }
    cr_log_info("%ld runs", runs);
    sd_guard_free(&g);
}

/* Every lead byte with every second byte, and for 3- and 4-byte leads with
 * a valid second byte every third one (the fourth 0x80), in a string and
 * outside, at four places in a word, whole and cut in the sequence. */
Test(scalar_ref, utf8_sequences)
{
    sd_guard g;
    cr_assert(sd_guard_init(&g, 256));
    uint8_t in[48];
    char why[512], hex[400];
    for (int ctx = 0; ctx < 2; ctx++)
        for (size_t k = 0; k < 4; k++)
            for (unsigned a = 0x80; a < 0x100; a++)
                for (unsigned b = 0; b < 0x100; b++) {
                    bool more = a >= 0xE0 && a <= 0xF4 && b >= 0x80 && b < 0xC0;
                    for (unsigned c = 0; c < (more ? 0x100u : 1u); c++) {
                        size_t len = 0;
                        in[len++] = ctx ? '[' : '"';
                        memset(in + len, ctx ? '1' : 'x', 3 + k);
                        len += 3 + k;
                        size_t at = len;
                        in[len++] = (uint8_t)a;
                        in[len++] = (uint8_t)b;
                        in[len++] = (uint8_t)(more ? c : 'y');
                        in[len++] = 0x80;
                        memset(in + len, 'z', 12);
                        len += 12;
                        in[len++] = ctx ? ']' : '"';
                        size_t cut[1] = { at + 1 + (a + b + c) % 3 };
                        for (int cutting = 0; cutting < 2; cutting++)
                            if (!sd_compare(&g, in, len, cut, (size_t)cutting, true, true, why, sizeof why)) {
                                show(in, len, hex, sizeof hex);
                                cr_assert_fail("%s, lead at %zu, cut %d: %s\ninput %s", ctx ? "outside" : "string", at,
                                               cutting, why, hex);
                            }
                    }
                }
    sd_guard_free(&g);
}

/* Runs of valid sequences of 1..4 bytes in a string (runs of 2-byte ones
 * above all, which go a word at a time), with one byte of the first 20 set
 * to each of the 256 values, the run starting at each place of a word, cut
 * nowhere or next to the changed byte. */
Test(scalar_ref, utf8_runs)
{
    static const char *const seqs[] = { "a", " ", "\xc2\x80", "\xdf\xbf", "\xd0\x9b", "\xc3\xa9", "\xd0\xb5",
                                        "\xe0\xa0\x80", "\xed\x9f\xbf", "\xe3\x81\x82", "\xef\xbf\xbf",
                                        "\xf0\x90\x80\x80", "\xf4\x8f\xbf\xbf" };
    sd_guard g;
    cr_assert(sd_guard_init(&g, 256));
    uint64_t seed = 0x3c6ef372fe94f82bull;
    uint8_t in[80];
    char why[512], hex[400];
    for (int run = 0; run < 48; run++) {
        size_t len = 0, pad = (size_t)run % 8;
        in[len++] = '"';
        memset(in + len, 'x', pad);
        len += pad;
        size_t start = len;
        while (len < 60) {   /* mostly 2-byte sequences, some others */
            uint64_t r = tu_rand(&seed);
            const char *q = seqs[r % 4 ? 2 + (r >> 8) % 5 : (r >> 8) % (sizeof seqs / sizeof *seqs)];
            memcpy(in + len, q, strlen(q));
            len += strlen(q);
        }
        in[len++] = '"';
        for (size_t at = start; at < start + 20; at++)
            for (unsigned v = 0; v < 0x100; v++) {
                uint8_t keep = in[at];
                in[at] = (uint8_t)v;
                size_t cut[1] = { at + (v % 3) };
                for (int cutting = 0; cutting < 2; cutting++)
                    for (int utf8 = 0; utf8 < 2; utf8++)
                        if (!sd_compare(&g, in, len, cut, (size_t)cutting, utf8, true, why, sizeof why)) {
                            show(in, len, hex, sizeof hex);
                            cr_assert_fail("byte %zu set to %02x, cut %d, utf8 %d: %s\ninput %s", at, v, cutting, utf8,
                                           why, hex);
                        }
                in[at] = keep;
            }
    }
    sd_guard_free(&g);
}

/* The corpus files as they are, chunked as the driver does (64 KiB) and
 * otherwise; then copies with a few bytes changed (those the kernels care
 * about), which end in an error more often than not. */
static void corpus_dir(sd_guard *g, uint64_t *seed, const char *dir, int *files, long *mutants)
{
    char **list = tu_list(dir);
    cr_assert(list, "cannot list %s", dir);
    static size_t cuts[MAXCUTS];
    char why[512], what[600];
    for (char **f = list; *f; f++) {
        size_t len;
        uint8_t *b = (uint8_t *)tu_read(*f, &len);
        if (!b)
            continue;
        (*files)++;
        size_t nc = 0;
        for (size_t p = 65536; p < len && nc < MAXCUTS; p += 65536)
            cuts[nc++] = p;
        for (int utf8 = 0; utf8 < 2; utf8++)
            cr_assert(sd_compare(g, b, len, cuts, nc, utf8, true, why, sizeof why), "%s, 64 KiB chunks: %s", *f, why);
        if (len <= 20000) {
            snprintf(what, sizeof what, "%s", *f);
            check_all(g, seed, b, len, what);
        }
        /* mutants: a window of at most 2000 bytes, 1..3 bytes changed in it */
        for (int m = 0; m < (len > 100000 ? 4 : 12) && len; m++) {
            size_t from = len > 2000 ? tu_rand(seed) % (len - 2000) : 0, wl = len - from < 2000 ? len - from : 2000;
            uint8_t *w = malloc(wl);
            memcpy(w, b + from, wl);
            for (int k = (int)(tu_rand(seed) % 3); k >= 0; k--)
                w[tu_rand(seed) % wl] = sd_bytes[tu_rand(seed) % sizeof sd_bytes];
            snprintf(what, sizeof what, "%s bytes %zu.. changed", *f, from);
            check_all(g, seed, w, wl, what);
            free(w);
            (*mutants)++;
        }
        free(b);
    }
    tu_free_list(list);
}

Test(scalar_ref, corpus)
{
    TU_REQUIRE_CORPUS();
    sd_guard g;
    cr_assert(sd_guard_init(&g, 65536));
    uint64_t seed = 0xbb67ae8584caa73bull;
    int files = 0;
    long mutants = 0;
    corpus_dir(&g, &seed, CORPUS "/standard", &files, &mutants);
    corpus_dir(&g, &seed, CORPUS "/docker", &files, &mutants);
    corpus_dir(&g, &seed, CORPUS "/conformance/jsontestsuite", &files, &mutants);
    corpus_dir(&g, &seed, CORPUS "/conformance/jsonchecker", &files, &mutants);
    cr_log_info("%d files, %ld mutants", files, mutants);
    cr_assert_gt(files, 400);
    sd_guard_free(&g);
}
