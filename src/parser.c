/* SPDX-License-Identifier: MIT */
/* Public entry points of the parser: creation, options, allocation, errors, status names. */
#include <stdlib.h>
#include "internal.h"

const char *jdoc_version(void) { return JDOC_VERSION_STRING; }

static const char *const status_names[JDOC_STATUS_COUNT] = {
    [JDOC_OK] = "ok",
    [JDOC_ERR_SYNTAX] = "syntax error",
    [JDOC_ERR_UTF8] = "invalid UTF-8",
    [JDOC_ERR_DEPTH] = "nesting too deep",
    [JDOC_ERR_CAPACITY] = "document too large",
    [JDOC_ERR_NOMEM] = "out of memory",
    [JDOC_ERR_ARG] = "invalid argument",
    [JDOC_ERR_UNSUPPORTED] = "kernel not supported",
    [JDOC_ERR_NOT_FOUND] = "not found",
    [JDOC_ERR_TYPE] = "wrong type",
    [JDOC_ERR_RANGE] = "number out of range",
    [JDOC_ERR_PATH] = "malformed path",
    [JDOC_ERR_NUMBER] = "malformed number",
    [JDOC_ERR_STRING] = "malformed string",
};

const char *jdoc_status_str(jdoc_status s)
{
    return (unsigned)s < JDOC_STATUS_COUNT ? status_names[s] : "unknown status";
}

static void *std_malloc(void *ud, size_t n) { (void)ud; return malloc(n); }
static void *std_realloc(void *ud, void *p, size_t n) { (void)ud; return realloc(p, n); }
static void std_free(void *ud, void *p) { (void)ud; free(p); }

void *jdoc__alloc(jdoc_parser *p, size_t size) { return p->a.malloc(p->a.ud, size); }
void jdoc__free(jdoc_parser *p, void *ptr)
{
    if (ptr)
        p->a.free(p->a.ud, ptr);
}

jdoc_status jdoc__reserve(jdoc_parser *p, void **buf, size_t *cap, size_t need, size_t elem)
{
    if (JDOC_LIKELY(need <= *cap))
        return JDOC_OK;
    size_t ncap = *cap + *cap / 2;
    if (ncap < need)
        ncap = need;
    if (ncap < 256)
        ncap = 256;
    if (ncap > SIZE_MAX / elem)
        return JDOC_ERR_NOMEM;
    void *nb = *buf ? p->a.realloc(p->a.ud, *buf, ncap * elem) : p->a.malloc(p->a.ud, ncap * elem);
    if (!nb)
        return JDOC_ERR_NOMEM;
    *buf = nb;
    *cap = ncap;
    return JDOC_OK;
}

/* An opening bracket's offset: back from the first entry after it that is
 * not an opening bracket, over whitespace and the opening brackets between. */
uint32_t jdoc__open_off(const char *json, const uint32_t *index, const uint8_t *tape, uint32_t e)
{
    uint32_t f = e + 1;
    while (jdoc__is_open(tape[f]))
        f++;
    uint32_t off = index[f], k = f - e;
    while (k) {
        off--;
        if (!jdoc__is_ws((unsigned char)json[off]))
            k--;
    }
    return off;
}

jdoc_status jdoc__fail(jdoc_parser *p, jdoc_status code, size_t offset, const char *msg)
{
    p->err.code = code;
    p->err.offset = offset;
    p->err.message = msg ? msg : jdoc_status_str(code);
    p->err.path = "";
    return code;
}

jdoc_parser *jdoc_parser_new_ex(const jdoc_options *opt, jdoc_status *st)
{
    jdoc_options o = { 0 };
    jdoc_status dummy;
    if (!st)
        st = &dummy;
    if (opt)
        o = *opt;
    const jdoc_allocator *a = o.allocator;
    if (a && (!a->malloc || !a->realloc || !a->free)) {
        *st = JDOC_ERR_ARG;
        return NULL;
    }
    jdoc_kernel_id id = o.kernel;
    if (id == JDOC_KERNEL_AUTO) {
        const char *env = getenv("JDOC_KERNEL");
        if (env && *env && strcmp(env, "auto") != 0) {
            id = jdoc_kernel_from_name(env);
            if (id == JDOC_KERNEL_COUNT) {
                *st = JDOC_ERR_UNSUPPORTED;
                return NULL;
            }
        }
    }
    if ((unsigned)id >= JDOC_KERNEL_COUNT) {
        *st = JDOC_ERR_ARG;
        return NULL;
    }
    const jdoc_kernel *k = id == JDOC_KERNEL_AUTO ? jdoc__kernel_best() : jdoc__kernel_get(id);
    if (!k) {
        *st = JDOC_ERR_UNSUPPORTED;
        return NULL;
    }
    jdoc_allocator al = a ? *a : (jdoc_allocator){ std_malloc, std_realloc, std_free, NULL };
    jdoc_parser *p = al.malloc(al.ud, sizeof *p);
    if (!p) {
        *st = JDOC_ERR_NOMEM;
        return NULL;
    }
    memset(p, 0, sizeof *p);
    p->a = al;
    p->k = k;
    p->max_depth = o.max_depth ? o.max_depth : JDOC_DEFAULT_MAX_DEPTH;
    p->trust_utf8 = o.trust_utf8;
    p->err.message = "ok";
    p->err.path = "";
    *st = JDOC_OK;
    return p;
}

jdoc_parser *jdoc_parser_new(const jdoc_options *opt) { return jdoc_parser_new_ex(opt, NULL); }

void jdoc_parser_free(jdoc_parser *p)
{
    if (!p)
        return;
    jdoc__free(p, p->ixmem);
    jdoc__free(p, p->scratch);
    jdoc__free(p, p->memo);
    jdoc__free(p, p->vstack);
    jdoc__stream_free(p);
    jdoc_allocator a = p->a;
    a.free(a.ud, p);
}

jdoc_status jdoc_parse(jdoc_parser *p, const char *json, size_t len, jdoc_doc **doc)
{
    if (doc)
        *doc = NULL;
    if (!p)
        return JDOC_ERR_ARG;
    jdoc__new_doc(p);
    p->pm.active = false;
    if (!doc || (!json && len))
        return jdoc__fail(p, JDOC_ERR_ARG, 0, "NULL argument");
    if ((uint64_t)len > UINT32_MAX)
        return jdoc__fail(p, JDOC_ERR_CAPACITY, 0, "document of 4 GiB or more");
    if (!json)
        json = "";
    jdoc_status st = jdoc__stage1(p, p->k, json, len);
    if (st != JDOC_OK)
        return st;
    p->err = (jdoc_error){ JDOC_OK, 0, "ok", "" };
    p->has_doc = true;
    *doc = &p->doc;
    return JDOC_OK;
}

const jdoc_error *jdoc_last_error(const jdoc_parser *p)
{
    static const jdoc_error none = { JDOC_ERR_ARG, 0, "NULL parser", "" };
    return p ? &p->err : &none;
}

const char *jdoc_kernel_name(const jdoc_parser *p) { return p ? p->k->name : NULL; }

jdoc_parser *jdoc_doc_parser(const jdoc_doc *d) { return d ? d->parser : NULL; }

const char *jdoc_doc_input(const jdoc_doc *d, size_t *len)
{
    if (len)
        *len = d ? d->len : 0;
    return d ? d->json : NULL;
}

size_t jdoc_doc_index_size(const jdoc_doc *d) { return d ? d->n : 0; }
