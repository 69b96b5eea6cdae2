/* SPDX-License-Identifier: MIT */
/* Memory of a parse: the peak heap per input byte on every corpus file, and
 * the growth rule (no allocation after warm-up for documents of a size seen,
 * at most one for one a little larger, none for one up to 1.5 times larger). */
#include <criterion/criterion.h>
#include <stdlib.h>
#include "internal.h"
#include "testutil.h"

typedef struct heap {
    size_t live, peak;
    long calls;
} heap;

static void *h_malloc(void *ud, size_t n)
{
    heap *h = ud;
    size_t *b = malloc(n + 16);
    if (!b)
        return NULL;
    b[0] = n;
    h->live += n;
    if (h->live > h->peak)
        h->peak = h->live;
    h->calls++;
    return b + 2;
}
static void h_free(void *ud, void *p)
{
    heap *h = ud;
    if (!p)
        return;
    size_t *b = (size_t *)p - 2;
    h->live -= b[0];
    free(b);
}
static void *h_realloc(void *ud, void *p, size_t n)
{
    heap *h = ud;
    void *q = h_malloc(ud, n);   /* old and new both live: what a real realloc may cost */
    if (q && p) {
        size_t *b = (size_t *)p - 2;
        memcpy(q, p, b[0] < n ? b[0] : n);
        h_free(ud, p);
    }
    h->calls += q != NULL;
    return q;
}

static jdoc_parser *counted(heap *h, jdoc_kernel_id k)
{
    static jdoc_allocator a;
    a = (jdoc_allocator){ h_malloc, h_realloc, h_free, NULL };
    a.ud = h;
    jdoc_options o = { .kernel = k, .allocator = &a };
    return jdoc_parser_new(&o);
}

static void peak_dir(const char *dir, int *files, double *worst, char *worst_name, size_t wl)
{
    char **list = tu_list(dir);
    cr_assert(list, "cannot list %s", dir);
    for (char **f = list; *f; f++) {
        size_t len;
        char *b = tu_read(*f, &len);
        if (!b)
            continue;
        heap h = { 0 };
        jdoc_parser *p = counted(&h, JDOC_KERNEL_AUTO);
        jdoc_doc *d;
        jdoc_status st = jdoc_parse(p, b, len, &d);
        if (st == JDOC_OK) {
            /* the whole heap of the parser, its struct included */
            cr_expect_leq(h.peak, 2 * len + 65536, "%s: peak heap %zu for %zu bytes (%.2f B/B, %u entries)", *f,
                          h.peak, len, (double)h.peak / (double)len, d->n);
            double r = (double)(h.peak > 65536 ? h.peak - 65536 : 0) / (double)len;
            if (r > *worst) {
                *worst = r;
                snprintf(worst_name, wl, "%s", *f);
            }
            (*files)++;
        }
        jdoc_parser_free(p);
        cr_expect_eq(h.live, 0);
        free(b);
    }
    tu_free_list(list);
}

Test(memory, peak_per_input_byte)
{
    if (!tu_corpus_present())
        cr_skip_test("../shared/corpus not present: corpus tests skipped");
    int files = 0;
    double worst = 0;
    char name[512] = "";
    peak_dir(CORPUS "/standard", &files, &worst, name, sizeof name);
    peak_dir(CORPUS "/docker", &files, &worst, name, sizeof name);
    cr_log_info("memory: %d corpus files, worst peak %.2f B/B (+64 KiB) on %s", files, worst, name);
    cr_assert_gt(files, 20);
}

/* A stream read whole (jdoc_stream_begin) is held to the same bound as a
 * parse: every NDJSON and concatenated file of the Docker corpus. */
Test(memory, stream_peak_per_input_byte)
{
    if (!tu_corpus_present())
        cr_skip_test("../shared/corpus not present: corpus tests skipped");
    static const char *const files[] = { CORPUS "/docker/events.ndjson", CORPUS "/docker/image_pull.ndjson",
                                         CORPUS "/docker/image_pull_concatenated.txt" };
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
        size_t len;
        char *b = tu_read(files[i], &len);
        cr_assert(b, "cannot read %s", files[i]);
        heap h = { 0 };
        jdoc_parser *p = counted(&h, JDOC_KERNEL_AUTO);
        jdoc_doc *d;
        jdoc_status st;
        size_t docs = 0;
        cr_assert_eq(jdoc_stream_begin(p, b, len), JDOC_OK);
        while (jdoc_stream_next(p, &d, &st))
            docs++;
        cr_expect_gt(docs, 1, "%s", files[i]);
        cr_expect_leq(h.peak, 2 * len + 65536, "%s: peak heap %zu for %zu bytes (%.2f B/B)", files[i], h.peak, len,
                      (double)h.peak / (double)len);
        jdoc_parser_free(p);
        cr_expect_eq(h.live, 0);
        free(b);
    }
}

/* "[" item "," item ... "]" with k items. */
static char *items(size_t k, size_t *len)
{
    static const char item[] = "{\"Id\":\"4f1c2a\",\"Names\":[\"/web-1\"],\"State\":\"running\",\"Ports\":[1,2,3]}";
    size_t il = sizeof item - 1;
    char *b = malloc(2 + k * (il + 1));
    size_t n = 0;
    b[n++] = '[';
    for (size_t i = 0; i < k; i++) {
        if (i)
            b[n++] = ',';
        memcpy(b + n, item, il);
        n += il;
    }
    b[n++] = ']';
    *len = n;
    return b;
}

static long allocs_for(jdoc_parser *p, heap *h, size_t k)
{
    size_t len;
    char *b = items(k, &len);
    long before = h->calls;
    jdoc_doc *d;
    cr_assert_eq(jdoc_parse(p, b, len, &d), JDOC_OK, "%s", jdoc_last_error(p)->message);
    free(b);
    return h->calls - before;
}

/* Small documents (up to 16 KiB) get room for one kernel call, with
 * headroom: a slightly larger response of the same kind allocates nothing. */
Test(memory, growth_rule_small)
{
    jdoc_kernel_id ids[] = { JDOC_KERNEL_SCALAR, JDOC_KERNEL_AUTO };
    for (size_t i = 0; i < 2; i++) {
        heap h = { 0 };
        jdoc_parser *p = counted(&h, ids[i]);
        allocs_for(p, &h, 40);   /* 2.9 KB */
        cr_expect_eq(allocs_for(p, &h, 40), 0, "the same size again allocates nothing");
        cr_expect_eq(allocs_for(p, &h, 55), 0, "a third larger: no allocation");
        cr_expect_eq(allocs_for(p, &h, 10), 0, "smaller: nothing");
        cr_expect_leq(allocs_for(p, &h, 200), 1, "a small document 5 times larger: at most one allocation");
        cr_expect_eq(allocs_for(p, &h, 200), 0);
        jdoc_parser_free(p);
        cr_expect_eq(h.live, 0);
    }
}

Test(memory, growth_rule)
{
    /* a dense document (0.26 entries a byte: denser than the first guess) and
     * every kernel: the rule is the driver's */
    jdoc_kernel_id ids[] = { JDOC_KERNEL_SCALAR, JDOC_KERNEL_AUTO };
    for (size_t i = 0; i < 2; i++) {
        heap h = { 0 };
        jdoc_parser *p = counted(&h, ids[i]);
        allocs_for(p, &h, 3000);
        cr_expect_eq(allocs_for(p, &h, 3000), 0, "the same size again allocates nothing");
        cr_expect_leq(allocs_for(p, &h, 3030), 1, "1%% larger: at most one allocation");
        cr_expect_eq(allocs_for(p, &h, 3030), 0);
        cr_expect_eq(allocs_for(p, &h, 4400), 0, "up to 1.5 times the size first seen: no allocation");
        cr_expect_eq(allocs_for(p, &h, 100), 0, "smaller: nothing");
        long grow = allocs_for(p, &h, 20000);
        cr_expect_leq(grow, 2, "a much larger document: %ld allocations", grow);
        cr_expect_eq(allocs_for(p, &h, 20000), 0);
        jdoc_parser_free(p);
        cr_expect_eq(h.live, 0);
    }
}
