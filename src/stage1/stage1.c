/* SPDX-License-Identifier: MIT */
/*
 * Stage 1 driver: feeds the input to a kernel in chunks (so the index grows
 * with the document, not with a worst-case bound), falls back to the scalar
 * kernel to locate an error exactly, then checks brackets, depth and the root
 * over the bracket entries only, recording each container's closing entry.
 */
#include "internal.h"
#include "stage2/number.h"

#define CHUNK (64u * 1024u)   /* a multiple of 64 */

extern const jdoc_kernel jdoc__kernel_scalar;

static jdoc_status run_kernel(jdoc_parser *p, const jdoc_kernel *k, const char *json, size_t len, jdoc_s1 *s)
{
    memset(s, 0, offsetof(jdoc_s1, prev));
    memset(s->prev, 0, sizeof s->prev);
    s->check_utf8 = !p->trust_utf8;
    size_t pos = 0;
    do {
        size_t chunk = len - pos < CHUNK ? len - pos : CHUNK;
        /* room for every byte of the chunk being an entry, 64 of slack for
         * the unrolled writes, and the sentinel */
        if (jdoc__reserve(p, (void **)&p->index, &p->index_cap, (size_t)s->n + chunk + 65, 4) ||
            jdoc__reserve(p, (void **)&p->brackets, &p->brackets_cap, (size_t)s->nb + chunk + 65, 4))
            return JDOC_ERR_NOMEM;
        s->index = p->index;
        s->brackets = p->brackets;
        s->base = pos;
        k->stage1(s, (const uint8_t *)json + pos, chunk, pos + chunk == len);
        pos += chunk;
    } while (pos < len && s->code == JDOC_OK);
    return JDOC_OK;
}

jdoc_status jdoc__stage1_kernel_only(jdoc_parser *p, const jdoc_kernel *k, const char *json, size_t len,
                                     uint32_t *n, uint32_t *nb)
{
    jdoc_s1 s;
    if (run_kernel(p, k, json, len, &s))
        return JDOC_ERR_NOMEM;
    *n = s.n;
    *nb = s.nb;
    return s.code;
}

static bool is_scalar_start(char c)
{
    return c != '{' && c != '}' && c != '[' && c != ']' && c != ':' && c != ',' && c != '"';
}

/* A root scalar must be a literal or a number in full: this is what rejects
 * plain-text bodies such as "Internal Server Error" or "nothing". */
static jdoc_status check_root_scalar(jdoc_parser *p, const char *json, size_t len, size_t at)
{
    static const char *const lit[3] = { "true", "false", "null" };
    for (int i = 0; i < 3; i++) {
        size_t l = strlen(lit[i]);
        if (len - at >= l && memcmp(json + at, lit[i], l) == 0) {
            if (len - at == l || jdoc__is_ws((unsigned char)json[at + l]))
                return JDOC_OK;
            return jdoc__fail(p, JDOC_ERR_SYNTAX, at + l, "unexpected text after a literal");
        }
    }
    char c = json[at];
    if (c == '-' || (c >= '0' && c <= '9')) {
        jdoc_num num;
        size_t e = 0;
        if (jdoc__num_classify(json + at, len - at, &num, &e) != JDOC_OK)
            return jdoc__fail(p, JDOC_ERR_NUMBER, at + e, "malformed number");
        return JDOC_OK;
    }
    return jdoc__fail(p, JDOC_ERR_SYNTAX, at, "not JSON: expected a value");
}

/*
 * Match brackets over the bracket entries only. The open containers form a
 * stack threaded through jump[]: while a container is open, jump[its entry]
 * holds the entry of the container around it; when it closes, its closing
 * entry. No memory beyond jump[] is needed, and depth is a counter.
 */
static jdoc_status match_brackets(jdoc_parser *p, const char *json, size_t len, uint32_t n, uint32_t nb)
{
    const uint32_t *idx = p->index, *br = p->brackets;
    uint32_t *jump = p->jump;
    char c0 = json[idx[0]];

    if (c0 == ']' || c0 == '}' || c0 == ':' || c0 == ',')
        return jdoc__fail(p, JDOC_ERR_SYNTAX, idx[0], "expected a value");
    if (c0 != '[' && c0 != '{') {
        /* scalar or string root: it must be the only entry */
        if (is_scalar_start(c0)) {
            jdoc_status st = check_root_scalar(p, json, len, idx[0]);
            if (st != JDOC_OK)
                return st;
        }
        if (n > 1)
            return jdoc__fail(p, JDOC_ERR_SYNTAX, idx[1], "text after the root value");
        return JDOC_OK;
    }

    uint32_t top = UINT32_MAX, depth = 0, max = p->max_depth;
    for (uint32_t k = 0; k < nb; k++) {
        uint32_t e = br[k];
        char c = json[idx[e]];
        if (c == '[' || c == '{') {
            if (JDOC_UNLIKELY(++depth > max))
                return jdoc__fail(p, JDOC_ERR_DEPTH, idx[e], "nesting too deep");
            jump[e] = top;
            top = e;
            continue;
        }
        if (JDOC_UNLIKELY(top == UINT32_MAX))
            return jdoc__fail(p, JDOC_ERR_SYNTAX, idx[e], "unmatched closing bracket");
        char o = json[idx[top]];
        if (JDOC_UNLIKELY((o == '[') != (c == ']')))
            return jdoc__fail(p, JDOC_ERR_SYNTAX, idx[e], c == ']' ? "expected '}' before ']'" : "expected ']' before '}'");
        uint32_t up = jump[top];
        jump[top] = e;
        top = up;
        depth--;
        if (top == UINT32_MAX && e + 1 < n)
            return jdoc__fail(p, JDOC_ERR_SYNTAX, idx[e + 1], "text after the root value");
    }
    if (top != UINT32_MAX)
        return jdoc__fail(p, JDOC_ERR_SYNTAX, len, json[idx[top]] == '[' ? "unclosed '['" : "unclosed '{'");
    return JDOC_OK;
}

jdoc_status jdoc__stage1(jdoc_parser *p, const jdoc_kernel *k, const char *json, size_t len)
{
    jdoc_s1 s;
    if (run_kernel(p, k, json, len, &s))
        return jdoc__fail(p, JDOC_ERR_NOMEM, 0, "out of memory");
    if (s.code != JDOC_OK && k != &jdoc__kernel_scalar) {
        /* SIMD kernels detect errors by block; the scalar kernel says which came first */
        if (run_kernel(p, &jdoc__kernel_scalar, json, len, &s))
            return jdoc__fail(p, JDOC_ERR_NOMEM, 0, "out of memory");
    }
    if (s.code != JDOC_OK)
        return jdoc__fail(p, s.code, s.offset, s.message);
    if (s.n == 0)
        return jdoc__fail(p, JDOC_ERR_SYNTAX, len, len ? "no value: only whitespace" : "no value: empty input");
    if (jdoc__reserve(p, (void **)&p->jump, &p->jump_cap, (size_t)s.n + 1, 4))
        return jdoc__fail(p, JDOC_ERR_NOMEM, 0, "out of memory");
    jdoc_status st = match_brackets(p, json, len, s.n, s.nb);
    if (st != JDOC_OK)
        return st;
    p->index[s.n] = (uint32_t)len;
    p->doc.parser = p;
    p->doc.json = json;
    p->doc.len = (uint32_t)len;
    p->doc.n = s.n;
    p->doc.index = p->index;
    p->doc.jump = p->jump;
    return JDOC_OK;
}
