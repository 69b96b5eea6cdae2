/* SPDX-License-Identifier: MIT */
/*
 * arm64 differential test, run under qemu-aarch64 by `make check-arm64`
 * (Criterion's runner does not finish under qemu-user, so this is plain C).
 * Every NEON kernel against the scalar reference: generated inputs of every
 * length 0..300 at every alignment 0..63, exhaustive UTF-8 byte pairs across
 * a block boundary, inputs ending before an unreadable page, and the corpus;
 * and the scalar kernel against its byte-at-a-time former self
 * (tests/scalar_diff.h) on generated inputs and the corpus; and each NEON
 * kernel's stream pair check and depth scan against their references
 * (tests/pairs_diff.h) and its array skip against the scalar kernel's walk
 * (tests/elems_diff.h).
 * Ends with the line "N passed, N failed".
 */
#include <sys/mman.h>
#include <unistd.h>
#include "../stage1_diff.h"
#include "../scalar_diff.h"
#include "../pairs_diff.h"
#include "../elems_diff.h"
#include "../keys_diff.h"
#include "../lines_diff.h"

static int passed, failed;

static void check(bool ok, const char *what, const char *detail)
{
    if (ok) {
        passed++;
    } else {
        failed++;
        printf("FAIL %s: %s\n", what, detail);
    }
}

static void random_inputs(jdoc_parser *ps, jdoc_parser *pk)
{
    uint64_t seed = 0x243f6a8885a308d3ull;
    char src[300], why[256], what[96];
    bool ok = true;
    for (size_t len = 0; len <= 300 && ok; len++)
        for (size_t align = 0; align < 64 && ok; align++) {
            gen(&seed, src, len, (int)((len + align) % 4 / 2 + (len + align) % 4 / 3));
            char *buf = malloc(align + len + 1);
            memcpy(buf + align, src, len);
            ok = same(ps, pk, buf + align, len, why, sizeof why);
            if (!ok)
                snprintf(what, sizeof what, "%s random len %zu align %zu", pk->k->name, len, align);
            free(buf);
        }
    snprintf(what, sizeof what, "%s random inputs", pk->k->name);
    check(ok, what, why);
}

static void utf8_pairs(jdoc_parser *ps, jdoc_parser *pk)
{
    char buf[80], why[128] = "", what[64];
    uint32_t n, nb;
    bool ok = true;
    for (int pos = 0; pos < 4 && ok; pos++)
        for (unsigned a = 0x20; a < 0x100 && ok; a++)
            for (unsigned b = 0x20; b < 0x100 && ok; b++) {
                if (a == '"' || b == '"' || a == '\\' || b == '\\')
                    continue;
                memset(buf, ' ', sizeof buf);
                buf[0] = pos < 2 ? '"' : '[';       /* inside a string, then outside */
                buf[pos & 1 ? 63 : 20] = (char)a;
                buf[pos & 1 ? 64 : 21] = (char)b;
                buf[pos & 1 ? 65 : 22] = (char)0x80;
                buf[78] = pos < 2 ? '"' : ']';
                jdoc_status s1 = jdoc__stage1_kernel_only(ps, ps->k, buf, 79, &n, &nb);
                jdoc_status s2 = jdoc__stage1_kernel_only(pk, pk->k, buf, 79, &n, &nb);
                if ((s1 == JDOC_OK) != (s2 == JDOC_OK)) {
                    ok = false;
                    snprintf(why, sizeof why, "bytes %02x %02x 80: scalar %d, kernel %d", a, b, s1, s2);
                }
            }
    snprintf(what, sizeof what, "%s UTF-8 pairs", pk->k->name);
    check(ok, what, why);
}

static void page_end(jdoc_parser *pk)
{
    long pg = sysconf(_SC_PAGESIZE);
    char *m = mmap(NULL, (size_t)pg * 2, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    mprotect(m + pg, (size_t)pg, PROT_NONE);
    bool ok = true;
    char why[64] = "", what[64];
    for (size_t len = 1; len < 200 && ok; len++) {
        char *in = m + pg - len;
        memset(in, ' ', len);
        in[len - 1] = '1';
        jdoc_doc *d;
        if (jdoc_parse(pk, in, len, &d) != JDOC_OK) {
            ok = false;
            snprintf(why, sizeof why, "len %zu", len);
        }
    }
    munmap(m, (size_t)pg * 2);
    snprintf(what, sizeof what, "%s input before an unreadable page", pk->k->name);
    check(ok, what, why);
}

static void corpus(jdoc_parser *ps, jdoc_parser *pk, const char *dir)
{
    char **list = tu_list(dir);
    if (!list) {
        printf("skip: %s not present\n", dir);
        return;
    }
    char why[256], what[300];
    for (char **f = list; *f; f++) {
        size_t len;
        char *b = tu_read(*f, &len);
        if (!b)
            continue;
        snprintf(what, sizeof what, "%s %s", pk->k->name, *f);
        check(same(ps, pk, b, len, why, sizeof why), what, why);
        free(b);
    }
    tu_free_list(list);
}

/* The scalar kernel against tests/ref_stage1.h, chunk by chunk. */
static void scalar_ref_generated(void)
{
    sd_guard g;
    if (!sd_guard_init(&g, 1024)) {
        check(false, "scalar vs ref: guard pages", "mmap");
        return;
    }
    uint64_t seed = 0x510e527fade682d1ull;
    char src[300], why[512] = "", what[96] = "scalar vs ref generated inputs";
    size_t cuts[400];
    bool ok = true;
    for (int round = 0; round < 4 && ok; round++)
        for (size_t len = 0; len <= 300 && ok; len++) {
            if (round == 3)
                gen_clean(&seed, src, len);
            else
                gen(&seed, src, len, round);
            for (int mode = 0; mode < 4 && ok; mode++) {
                size_t nc = sd_cuts(&seed, len, mode, cuts, 400);
                for (int utf8 = 0; utf8 < 2 && ok; utf8++)
                    if (!sd_compare(&g, (const uint8_t *)src, len, cuts, nc, utf8, true, why, sizeof why))
                        ok = false, snprintf(what, sizeof what, "scalar vs ref len %zu chunking %d utf8 %d", len, mode,
                                             utf8);
            }
        }
    check(ok, what, why);
    sd_guard_free(&g);
}

static void scalar_ref_corpus(const char *dir)
{
    char **list = tu_list(dir);
    if (!list) {
        printf("skip: %s not present\n", dir);
        return;
    }
    sd_guard g;
    if (!sd_guard_init(&g, 65536)) {
        check(false, "scalar vs ref: guard pages", "mmap");
        tu_free_list(list);
        return;
    }
    static size_t cuts[4096];
    char why[512] = "", what[300];
    for (char **f = list; *f; f++) {
        size_t len;
        char *b = tu_read(*f, &len);
        if (!b)
            continue;
        size_t nc = 0;
        for (size_t p = 65536; p < len && nc < 4096; p += 65536)
            cuts[nc++] = p;
        snprintf(what, sizeof what, "scalar vs ref %s", *f);
        check(sd_compare(&g, (const uint8_t *)b, len, cuts, nc, true, true, why, sizeof why), what, why);
        free(b);
    }
    sd_guard_free(&g);
    tu_free_list(list);
}

int main(void)
{
    jdoc_kernel_id ids[] = { JDOC_KERNEL_NEON, JDOC_KERNEL_NEON_NOPMULL };
    jdoc_parser *ps = tu_parser(JDOC_KERNEL_SCALAR);
    for (size_t i = 0; i < sizeof ids / sizeof *ids; i++) {
        if (!jdoc_kernel_supported(ids[i])) {
            printf("skip: kernel %s not supported here\n", jdoc_kernel_id_name(ids[i]));
            continue;
        }
        jdoc_parser *pk = tu_parser(ids[i]);
        random_inputs(ps, pk);
        utf8_pairs(ps, pk);
        page_end(pk);
        corpus(ps, pk, CORPUS "/standard");
        corpus(ps, pk, CORPUS "/docker");
        corpus(ps, pk, CORPUS "/conformance/jsontestsuite");
        corpus(ps, pk, CORPUS "/conformance/jsonchecker");
        pairs_count pc = { 0 };
        check(pairs_corpus_and_random(pk->k, pk, CORPUS "/docker", &pc), "pair check and depth scan against the references", pc.why);
        char why[512] = "";
        check(elems_generated(ps, pk, why, sizeof why), "array indices against the scalar kernel", why);
        check(elems_canada(ps, pk, why, sizeof why), "canada.json indices against the scalar kernel", why);
        check(keys_generated(ps, pk, why, sizeof why), "descendant names against the scalar kernel", why);
        check(lines_generated(pk->k, why, sizeof why), "line count against memchr, before an unreadable page", why);
        jdoc_parser_free(pk);
    }
    scalar_ref_generated();
    scalar_ref_corpus(CORPUS "/standard");
    scalar_ref_corpus(CORPUS "/docker");
    scalar_ref_corpus(CORPUS "/conformance/jsontestsuite");
    jdoc_parser *pa = jdoc_parser_new(NULL);
    printf("auto kernel: %s\n", jdoc_kernel_name(pa));
    check(pa && strcmp(jdoc_kernel_name(pa), "neon") == 0, "auto picks neon", jdoc_kernel_name(pa));
    jdoc_parser_free(pa);
    jdoc_parser_free(ps);
    printf("%d passed, %d failed\n", passed, failed);
    return failed != 0;
}
