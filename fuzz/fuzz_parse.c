/* SPDX-License-Identifier: MIT */
/* fuzz_parse: jdoc_parse + jdoc_validate on any bytes: no crash, no read outside
 * the input, no UB, and "OK" exactly when the reference validator (ref.h) says
 * the text is JSON, at the default depth limit, a small one, and with trust_utf8. */
#include "fuzz_util.h"
#include "ref.h"

#define MAX_ITER_DEPTH ((int)JDOC_DEFAULT_MAX_DEPTH + 2)

typedef struct cfg {
    jdoc_options o;
    uint32_t depth;   /* the limit the reference mirrors */
    jdoc_parser *p;
} cfg;

static cfg cfgs[] = {
    { { .kernel = JDOC_KERNEL_AUTO }, JDOC_DEFAULT_MAX_DEPTH, NULL },
    { { .kernel = JDOC_KERNEL_SCALAR, .max_depth = 3 }, 3, NULL },
    { { .kernel = JDOC_KERNEL_AUTO, .trust_utf8 = true }, JDOC_DEFAULT_MAX_DEPTH, NULL },
};
#define NCFG (sizeof cfgs / sizeof *cfgs)

/* Every value of a valid document, with an explicit stack of iterators: each
 * scalar has a type, each string and key decodes, counts agree. */
static void walk_all(jdoc_value root, const char *in, size_t n)
{
    static jdoc_iter st[MAX_ITER_DEPTH];
    int top = -1;
    jdoc_value v = root;
    for (;;) {
        jdoc_type t = jdoc_typeof(v);
        FZ_CHECK(t != JDOC_INVALID, "invalid value at %zu in a valid document: %s", jdoc_offset(v), fz_show(in, n));
        if (t == JDOC_STRING) {
            const char *s;
            size_t l;
            FZ_CHECK(jdoc_get_string(v, &s, &l) == JDOC_OK, "string at %zu does not decode", jdoc_offset(v));
        }
        if (t == JDOC_ARRAY || t == JDOC_OBJECT) {
            FZ_CHECK(top + 1 < MAX_ITER_DEPTH, "deeper than the depth limit");
            FZ_CHECK(jdoc_iter_init(v, &st[++top]) == JDOC_OK, "iter_init");
        }
        /* next value: the next element of the innermost open container */
        for (;;) {
            if (top < 0)
                return;
            if (jdoc_iter_next(&st[top], &v)) {
                if (st[top].object) {
                    const char *k;
                    size_t kl;
                    FZ_CHECK(jdoc_iter_key(&st[top], &k, &kl) == JDOC_OK, "key does not decode");
                }
                break;
            }
            FZ_CHECK(st[top].status == JDOC_OK, "iteration stopped by %s in a valid document",
                     jdoc_status_str(st[top].status));
            top--;
        }
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (!cfgs[0].p)
        for (size_t k = 0; k < NCFG; k++)
            FZ_CHECK((cfgs[k].p = jdoc_parser_new(&cfgs[k].o)) != NULL, "parser_new");
    char *in = fz_copy(data, size);
    for (size_t k = 0; k < NCFG; k++) {
        jdoc_parser *p = cfgs[k].p;
        jdoc_doc *d = (jdoc_doc *)1;
        jdoc_status st = jdoc_parse(p, in, size, &d);
        const jdoc_error *e = jdoc_last_error(p);
        FZ_CHECK(st < JDOC_STATUS_COUNT, "status %d", st);
        FZ_CHECK((st == JDOC_OK) == (d != NULL), "doc %p with status %s", (void *)d, jdoc_status_str(st));
        FZ_CHECK(e->code == st && e->message && e->path, "last_error does not match");
        FZ_CHECK(e->offset <= size, "error offset %zu > length %zu", e->offset, size);
        FZ_CHECK(st == JDOC_OK || st == JDOC_ERR_SYNTAX || st == JDOC_ERR_UTF8 || st == JDOC_ERR_DEPTH ||
                     st == JDOC_ERR_NUMBER,
                 "parse gave %s", jdoc_status_str(st));
        if (st == JDOC_OK && !cfgs[k].o.trust_utf8)
            FZ_CHECK(ref_utf8_valid((const uint8_t *)in, size), "config %zu: parse OK on invalid UTF-8: %s", k,
                     fz_show(in, size));
        jdoc_status vs = st;
        if (st == JDOC_OK) {
            vs = jdoc_validate(d);
            e = jdoc_last_error(p);
            FZ_CHECK(vs < JDOC_STATUS_COUNT && e->code == vs && e->offset <= size, "validate %d offset %zu", vs,
                     e->offset);
            FZ_CHECK(vs != JDOC_ERR_NOMEM && vs != JDOC_ERR_ARG, "validate gave %s", jdoc_status_str(vs));
        }
        size_t rcount = 0;
        int ref = ref_validate((const uint8_t *)in, size, cfgs[k].depth, &rcount);
        FZ_CHECK((vs == JDOC_OK) == (ref == REF_OK),
                 "config %zu: jdoc says %s (parse %s, at %zu: %s), reference says %s\n  input: %s", k,
                 jdoc_status_str(vs), jdoc_status_str(st), e->offset, e->message, ref_names[ref], fz_show(in, size));
        /* only the reference knows the text is UTF-8 clean; jdoc must not say UTF-8 otherwise */
        if (ref == REF_OK)
            continue;
        if (vs != JDOC_OK && !cfgs[k].o.trust_utf8 && ref_utf8_valid((const uint8_t *)in, size))
            FZ_CHECK(vs != JDOC_ERR_UTF8, "UTF-8 error on valid UTF-8 at %zu: %s", e->offset, fz_show(in, size));
    }
    /* a valid document: its dump, its root count and every value */
    jdoc_doc *d;
    size_t rcount = 0;
    if (jdoc_parse(cfgs[0].p, in, size, &d) == JDOC_OK &&
        ref_validate((const uint8_t *)in, size, JDOC_DEFAULT_MAX_DEPTH, &rcount) == REF_OK) {
        jdoc_value root = jdoc_root(d);
        FZ_CHECK(jdoc_count(root) == rcount, "count %zu, reference %zu", jdoc_count(root), rcount);
        char *want = malloc(size + 1), *got = malloc(size + 1);
        size_t wl = ref_compact((const uint8_t *)in, size, (uint8_t *)want);
        size_t gl = jdoc_dump(root, got, size + 1);
        FZ_CHECK(gl == wl && memcmp(got, want, wl) == 0, "dump differs:\n  got  %s", fz_show(got, gl));
        free(want);
        free(got);
        walk_all(root, in, size);
    }
    free(in);
    return 0;
}
