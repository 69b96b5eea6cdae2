/* SPDX-License-Identifier: MIT */
/* fuzz_kernels: every stage-1 kernel this CPU runs against the scalar one, as
 * tests/stage1_diff.h compares them: the same raw index and bracket entries, the
 * same jdoc_parse status, offset, message and jump table, and the same stream.
 * And the scalar kernel itself against its byte-at-a-time reference
 * (tests/ref_stage1.h, as tests/scalar_diff.h compares them), the input cut
 * into chunks as the driver and the stream code cut it, each chunk between
 * unreadable pages. */
#include "internal.h"
#include "fuzz_util.h"
#include "../tests/scalar_diff.h"

#define CHUNK (64u * 1024u)   /* stage 1's chunk (src/stage1/stage1.c) */

static const jdoc_kernel_id simd_ids[] = { JDOC_KERNEL_SSE42, JDOC_KERNEL_AVX2, JDOC_KERNEL_AVX512,
                                           JDOC_KERNEL_NEON, JDOC_KERNEL_NEON_NOPMULL };
#define NSIMD (sizeof simd_ids / sizeof *simd_ids)

/* Per configuration: the scalar parser and one per SIMD kernel (NULL if not runnable). */
typedef struct cfg {
    uint32_t max_depth;
    bool trust_utf8;
    jdoc_parser *scalar, *simd[NSIMD];
} cfg;
static cfg cfgs[] = { { 0, false, NULL, { NULL } }, { 2, true, NULL, { NULL } } };
#define NCFG (sizeof cfgs / sizeof *cfgs)

typedef struct result {
    jdoc_status kcode, status;
    size_t offset;
    const char *message;
    uint32_t n, nb, dn;
    uint32_t *index, *jump;
    uint8_t *tape;
} result;

static void run(jdoc_parser *p, const char *in, size_t len, result *r)
{
    memset(r, 0, sizeof *r);
    r->kcode = jdoc__stage1_kernel_only(p, p->k, in, len, &r->n, &r->nb);
    FZ_CHECK(r->kcode != JDOC_ERR_NOMEM, "out of memory");
    if (r->kcode == JDOC_OK) {   /* after an error the index is the kernel's business */
        r->index = (uint32_t *)(void *)fz_copy(p->index, (size_t)r->n * 4);
        r->tape = (uint8_t *)fz_copy(p->tape, (size_t)r->n);
    }
    jdoc_doc *d;
    r->status = jdoc_parse(p, in, len, &d);
    r->offset = jdoc_last_error(p)->offset;
    r->message = jdoc_last_error(p)->message;
    if (r->status == JDOC_OK) {
        r->dn = d->n;
        r->jump = calloc((size_t)d->n + 1, 4);
        for (uint32_t i = 0; i < d->n; i++)   /* defined at opening brackets only */
            if (d->tape[i] == '[' || d->tape[i] == '{')
                r->jump[i] = d->index[i];   /* the closing entry, over the offset */
    }
}

static void drop(result *r)
{
    free(r->index);
    free(r->tape);
    free(r->jump);
}

/* Kernel k's result b against the scalar result a. */
static void compare(const result *a, jdoc_parser *pk, const char *in, size_t len)
{
    result b;
    run(pk, in, len, &b);
    const char *k = pk->k->name;
    FZ_CHECK((a->kcode == JDOC_OK) == (b.kcode == JDOC_OK), "%s: kernel error flag: scalar %d, %s %d\n  input %s", k,
             a->kcode, k, b.kcode, fz_show(in, len));
    if (a->kcode == JDOC_OK) {
        FZ_CHECK(a->n == b.n && a->nb == b.nb, "%s: entries: scalar %u/%u, %s %u/%u\n  input %s", k, a->n, a->nb, k,
                 b.n, b.nb, fz_show(in, len));
        FZ_CHECK(memcmp(a->index, b.index, (size_t)a->n * 4) == 0, "%s: index differs\n  input %s", k,
                 fz_show(in, len));
        FZ_CHECK(memcmp(a->tape, b.tape, (size_t)a->n) == 0, "%s: tape differs\n  input %s", k, fz_show(in, len));
    }
    FZ_CHECK(a->status == b.status && a->offset == b.offset && strcmp(a->message, b.message) == 0,
             "parse: scalar %s@%zu (%s), %s %s@%zu (%s)\n  input %s", jdoc_status_str(a->status), a->offset,
             a->message, k, jdoc_status_str(b.status), b.offset, b.message, fz_show(in, len));
    if (a->status == JDOC_OK)
        FZ_CHECK(a->dn == b.dn && memcmp(a->jump, b.jump, (size_t)a->dn * 4) == 0, "%s: jump table differs", k);
    drop(&b);
}

/* The stream API: the same documents (offset, entries, status, error offset and message). */
#define MAX_DOCS 4096
typedef struct sdoc {
    jdoc_status st;
    size_t off, err, n;
    const char *msg;
} sdoc;

static size_t stream(jdoc_parser *p, const char *in, size_t len, size_t window, sdoc *out)
{
    size_t k = 0;
    p->st.window = window;   /* small indexing windows: window ends everywhere */
    FZ_CHECK(jdoc_stream_begin(p, in, len) == JDOC_OK, "stream_begin");
    jdoc_doc *d;
    jdoc_status st;
    while (k < MAX_DOCS && jdoc_stream_next(p, &d, &st)) {
        FZ_CHECK(st < JDOC_STATUS_COUNT && (st == JDOC_OK) == (d != NULL), "stream_next status %d", st);
        out[k++] = (sdoc){ st, jdoc_stream_offset(p), jdoc_last_error(p)->offset, d ? jdoc_doc_index_size(d) : 0,
                           jdoc_last_error(p)->message };
    }
    FZ_CHECK(k < MAX_DOCS || len >= MAX_DOCS, "runaway stream: %zu documents from %zu bytes", k, len);
    return k;
}

static void compare_stream(jdoc_parser *ps, jdoc_parser *pk, const char *in, size_t len, size_t window)
{
    static sdoc a[MAX_DOCS], b[MAX_DOCS];
    size_t na = stream(ps, in, len, window, a), nb = stream(pk, in, len, window, b);
    FZ_CHECK(na == nb, "stream (window %zu): scalar %zu documents, %s %zu\n  input %s", window, na, pk->k->name, nb,
             fz_show(in, len));
    for (size_t i = 0; i < na; i++)
        FZ_CHECK(a[i].st == b[i].st && a[i].off == b[i].off && a[i].n == b[i].n &&
                     (a[i].st == JDOC_OK || (a[i].err == b[i].err && strcmp(a[i].msg, b[i].msg) == 0)),
                 "stream document %zu: scalar %s at %zu (%zu entries, error at %zu: %s), %s %s at %zu (%zu entries, "
                 "error at %zu: %s)\n  input %s",
                 i + 1, jdoc_status_str(a[i].st), a[i].off, a[i].n, a[i].err, a[i].msg, pk->k->name,
                 jdoc_status_str(b[i].st), b[i].off, b[i].n, b[i].err, b[i].msg, fz_show(in, len));
}

/* The scalar kernel against the reference, UTF-8 checked and trusted, in the
 * chunking the hash picks (none, 64-byte multiples, 1..40 bytes, every byte). */
static sd_guard guard;
#define REF_MAX (128u * 1024u)
static void compare_ref(const char *in, size_t len, uint64_t h)
{
    static size_t cuts[REF_MAX];
    if (len > REF_MAX)
        return;
    uint64_t seed = h | 1;
    int mode = (int)((h >> 28) % 4);
    if (mode == 3 && len > 4096)
        mode = 2;
    size_t nc = sd_cuts(&seed, len, mode, cuts, REF_MAX);
    char why[256];
    for (int u = 0; u < 2; u++)
        FZ_CHECK(sd_compare(&guard, (const uint8_t *)in, len, cuts, nc, u == 0, true, why, sizeof why),
                 "scalar against its reference (chunking %d, utf8 %s): %s\n  input %s", mode, u ? "trusted" : "checked",
                 why, fz_show(in, len));
}

static void init(void)
{
    FZ_CHECK(sd_guard_init(&guard, REF_MAX), "guard pages");
    for (size_t c = 0; c < NCFG; c++) {
        jdoc_options o = { .kernel = JDOC_KERNEL_SCALAR, .max_depth = cfgs[c].max_depth,
                           .trust_utf8 = cfgs[c].trust_utf8 };
        FZ_CHECK((cfgs[c].scalar = jdoc_parser_new(&o)) != NULL, "scalar parser");
        for (size_t k = 0; k < NSIMD; k++) {
            if (!jdoc_kernel_supported(simd_ids[k]))
                continue;
            o.kernel = simd_ids[k];
            FZ_CHECK((cfgs[c].simd[k] = jdoc_parser_new(&o)) != NULL, "kernel %s supported but parser_new fails",
                     jdoc_kernel_id_name(simd_ids[k]));
        }
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (!cfgs[0].scalar)
        init();
    /* Leading spaces change nothing but where the input sits: its start
     * alignment (0..63), or, for one input in sixteen, across the 64 KiB chunk
     * boundary. The copy still ends exactly at the end of its allocation. */
    uint64_t h = fz_hash(data, size);
    size_t lead = (h >> 8) & 63;
    if ((h & 15) == 0)
        lead = CHUNK - (size_t)((h >> 16) % (size + 1));
    char *in = malloc(lead + size ? lead + size : 1);
    FZ_CHECK(in != NULL, "malloc");
    memset(in, ' ', lead);
    if (size)
        memcpy(in + lead, data, size);
    size_t len = lead + size;
    compare_ref(in, len, h);
    for (size_t c = 0; c < NCFG; c++) {
        result a;
        run(cfgs[c].scalar, in, len, &a);
        for (size_t k = 0; k < NSIMD; k++) {
            if (!cfgs[c].simd[k])
                continue;
            compare(&a, cfgs[c].simd[k], in, len);
            if (c == 0 && len <= 16384)
                compare_stream(cfgs[c].scalar, cfgs[c].simd[k], in, len, (size_t)64 << ((h >> 20) % 5));
        }
        drop(&a);
    }
    free(in);
    return 0;
}
