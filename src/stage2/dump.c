/* SPDX-License-Identifier: MIT */
/* Compact JSON of a value, the path of a value, and explained fetches. */
#include <stdio.h>
#include "number.h"
#include "stage2.h"
#include "strdec.h"

#define J(d, e) jdoc__ch((d), (e))

#define valid jdoc__valid

static void put(char *buf, size_t cap, size_t *len, const char *s, size_t n)
{
    if (*len < cap) {
        size_t k = cap - *len < n ? cap - *len : n;
        memcpy(buf + *len, s, k);
    }
    *len += n;
}

/* End (exclusive) of the token at entry e: strings to their closing quote,
 * scalars to the next entry less whitespace, operators one byte. */
static uint32_t token_end(const jdoc_doc *d, uint32_t e)
{
    char c = J(d, e);
    if (c == '"')
        return jdoc__string_end(d, e) + 1;
    if (c == '{' || c == '}' || c == '[' || c == ']' || c == ',' || c == ':')
        return jdoc__off(d, e) + 1;
    uint32_t end = jdoc__off(d, e + 1);
    while (end > jdoc__off(d, e) && jdoc__is_ws((unsigned char)d->json[end - 1]))
        end--;
    return end;
}

size_t jdoc_dump(jdoc_value v, char *buf, size_t cap)
{
    size_t len = 0;
    if (!valid(v)) {
        if (cap)
            buf[0] = 0;
        return 0;
    }
    const jdoc_doc *d = v.doc;
    char c = J(d, v.idx);
    uint32_t last = (c == '{' || c == '[') ? jdoc__close(d, v.idx) : v.idx;
    for (uint32_t e = v.idx; e <= last; e++) {
        uint32_t b = jdoc__off(d, e);
        put(buf, cap ? cap - 1 : 0, &len, d->json + b, token_end(d, e) - b);
    }
    if (cap)
        buf[len < cap ? len : cap - 1] = 0;
    return len;
}

/* Append one step of a path in `syntax` for the member with key entry k (or
 * the element at 0-based position pos when k == UINT32_MAX). */
static void put_step(const jdoc_doc *d, jdoc_syntax syntax, uint32_t k, uint64_t pos, char *buf, size_t cap,
                     size_t *len)
{
    put(buf, cap, len, "/", 1);
    if (k == UINT32_MAX) {
        char num[24];
        int n = snprintf(num, sizeof num, "%llu", (unsigned long long)(syntax == JDOC_SYNTAX_OJ ? pos + 1 : pos));
        put(buf, cap, len, num, (size_t)n);
        return;
    }
    const char *s;
    size_t n;
    if (jdoc__string_at(d, k, &s, &n) != JDOC_OK) {
        s = d->json + jdoc__off(d, k) + 1;
        n = jdoc__string_end(d, k) - jdoc__off(d, k) - 1;
    }
    for (size_t i = 0; i < n; i++) {
        if (syntax == JDOC_SYNTAX_POINTER && (s[i] == '~' || s[i] == '/'))
            put(buf, cap, len, s[i] == '~' ? "~0" : "~1", 2);
        else if (syntax == JDOC_SYNTAX_OJ && (s[i] == '/' || s[i] == '\\'))
            put(buf, cap, len, s[i] == '/' ? "\\/" : "\\\\", 2);
        else
            put(buf, cap, len, s + i, 1);
    }
}


size_t jdoc_path_of(jdoc_value v, jdoc_syntax syntax, char *buf, size_t cap)
{
    size_t len = 0, room = cap ? cap - 1 : 0;
    if (!valid(v)) {
        if (cap)
            buf[0] = 0;
        return 0;
    }
    const jdoc_doc *d = v.doc;
    uint32_t c = 0, e = v.idx;
    if (e == 0 && syntax == JDOC_SYNTAX_OJ)
        put(buf, room, &len, "/", 1);
    /* descend from the root, choosing the child whose span holds e */
    while (c != e) {
        char o = J(d, c);
        if ((o != '{' && o != '[') || e > jdoc__close(d, c))
            break;
        uint32_t i = c + 1, found = UINT32_MAX;
        uint64_t pos = 0;
        while (i < jdoc__close(d, c)) {
            uint32_t val = o == '{' ? i + 2 : i, next = jdoc__skip(d, val);
            if (next == UINT32_MAX)
                break;
            if (e >= val && e < next) {
                found = val;
                put_step(d, syntax, o == '{' ? i : UINT32_MAX, pos, buf, room, &len);
                break;
            }
            i = next + 1;
            pos++;
        }
        if (found == UINT32_MAX)
            break;
        c = found;
    }
    if (cap)
        buf[len < cap ? len : cap - 1] = 0;
    return len;
}

jdoc_status jdoc_explain(jdoc_value from, const char *path, size_t len, jdoc_syntax syntax, jdoc_error *err,
                         char *where, size_t cap)
{
    jdoc_error dummy;
    if (!err)
        err = &dummy;
    *err = (jdoc_error){ JDOC_ERR_ARG, 0, "invalid argument", "" };
    if (cap)
        where[0] = 0;
    if (!valid(from) || (!path && len))
        return JDOC_ERR_ARG;
    jdoc_status st;
    jdoc_path *p = jdoc_path_compile_ex(path ? path : "", len, syntax, &from.doc->parser->a, &st);
    if (!p) {
        *err = (jdoc_error){ st, 0, st == JDOC_ERR_PATH ? "malformed path" : jdoc_status_str(st), "" };
        return st;
    }
    const jdoc_doc *d = from.doc;
    uint32_t at = p->absolute ? 0 : from.idx;
    const char *msg = "ok";
    st = JDOC_OK;
    for (uint32_t k = 0; k < p->n && st == JDOC_OK; k++) {
        uint32_t next;
        st = jdoc__walk(d, at, &p->steps[k], 1, &next);
        if (st == JDOC_OK) {
            at = next;
            continue;
        }
        char c = J(d, at);
        if (st == JDOC_ERR_SYNTAX)
            msg = "malformed container on the path";
        else if (p->steps[k].kind == STEP_UP)
            msg = "'..' above the root";
        else if (c == '{')
            msg = "no such member";
        else if (c == '[')
            msg = p->steps[k].index == NO_INDEX ? "not an index into an array" : "index out of range";
        else
            msg = "not a container";
    }
    size_t off = jdoc__off(d, at);
    if (st == JDOC_OK) {
        /* landed: check the scalar in full */
        char c = J(d, at);
        size_t eo = 0;
        if (c == '"') {
            uint32_t end = jdoc__string_end(d, at);
            if (jdoc__str_check(d->json + off + 1, end - off - 1, &eo) != JDOC_OK) {
                st = JDOC_ERR_STRING;
                off += 1 + eo;
                msg = "bad escape in string";
            }
        } else if (c != '{' && c != '[') {
            jdoc_value v = jdoc__value(d, at);
            jdoc_type t = jdoc_typeof(v);
            if (t == JDOC_INVALID) {
                jdoc_num num;
                if ((c == '-' || (c >= '0' && c <= '9')) &&
                    jdoc__num_classify(d->json + off, d->len - off, &num, &eo) != JDOC_OK) {
                    st = JDOC_ERR_NUMBER;
                    off += eo;
                    msg = "malformed number";
                } else {
                    st = JDOC_ERR_SYNTAX;
                    msg = "not a JSON value";
                }
            }
        }
    }
    jdoc_path_of(jdoc__value(d, at), syntax, where, cap);
    *err = (jdoc_error){ st, off, msg, cap ? where : "" };
    jdoc_path_free(p);
    return st;
}
