/* SPDX-License-Identifier: MIT */
/* Output formats of the jdoc tool: compact (jdoc_dump), canonical (typed
 * getters) and pretty (source text, indented). Walks are iterative: an
 * explicit stack of iterators, one per open container. */
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"

/*
 * The canonical number format for doubles:
 *   - the fewest significant digits (1 to 17) that read back as the same double;
 *   - positional when the decimal exponent x (d.ddd x 10^x) is in -7..15, always
 *     with a fraction part so the text stays a double: 1.0, 0.5, 0.0000001,
 *     1000000000000000.0;
 *   - otherwise d[.ddd]e+x / d[.ddd]e-x with the fewest exponent digits:
 *     1e+16, 1e+22, 1.5e-8, 5e-324, 1.7976931348623157e+308;
 *   - zero is 0.0, negative zero -0.0.
 * Integers (int/uint) are not doubles and never come here.
 */
size_t format_double(char out[32], double d)
{
    if (d == 0)
        return (size_t)snprintf(out, 32, "%s", signbit(d) ? "-0.0" : "0.0");
    char tmp[40];
    for (int prec = 1; prec <= 17; prec++) {
        snprintf(tmp, sizeof tmp, "%.*e", prec - 1, d);
        if (prec == 17 || strtod(tmp, NULL) == d)
            break;
    }
    /* tmp is [-]d[.ddd]e(+|-)xx: split it into sign, digits and exponent */
    const char *s = tmp;
    bool neg = *s == '-';
    if (neg)
        s++;
    char digits[20];
    int nd = 0;
    for (; *s && *s != 'e'; s++)
        if (*s != '.')
            digits[nd++] = *s;
    int x = atoi(s + 1);
    while (nd > 1 && digits[nd - 1] == '0')
        nd--;
    char *o = out;
    if (neg)
        *o++ = '-';
    if (x >= -7 && x <= 15) {
        if (x >= 0) {
            for (int i = 0; i <= x; i++)
                *o++ = i < nd ? digits[i] : '0';
            *o++ = '.';
            if (nd > x + 1)
                for (int i = x + 1; i < nd; i++)
                    *o++ = digits[i];
            else
                *o++ = '0';
        } else {
            *o++ = '0';
            *o++ = '.';
            for (int i = 0; i < -x - 1; i++)
                *o++ = '0';
            for (int i = 0; i < nd; i++)
                *o++ = digits[i];
        }
        *o = 0;
    } else {
        *o++ = digits[0];
        if (nd > 1) {
            *o++ = '.';
            for (int i = 1; i < nd; i++)
                *o++ = digits[i];
        }
        o += snprintf(o, 8, "e%c%d", x < 0 ? '-' : '+', x < 0 ? -x : x);
    }
    return (size_t)(o - out);
}

void put_json_string(sbuf *b, const char *s, size_t n)
{
    static const char hex[] = "0123456789abcdef";
    sb_reserve(b, n + 2);
    sb_putc(b, '"');
    size_t run = 0;   /* bytes copied as they are, in one go */
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c >= 0x20 && c != '"' && c != '\\')
            continue;
        sb_put(b, s + run, i - run);
        run = i + 1;
        char e = 0;
        switch (c) {
        case '"': e = '"'; break;
        case '\\': e = '\\'; break;
        case '\b': e = 'b'; break;
        case '\f': e = 'f'; break;
        case '\n': e = 'n'; break;
        case '\r': e = 'r'; break;
        case '\t': e = 't'; break;
        default: break;
        }
        if (e) {
            char esc[2] = { '\\', e };
            sb_put(b, esc, 2);
        } else {
            char esc[6] = { '\\', 'u', '0', '0', hex[c >> 4], hex[c & 15] };
            sb_put(b, esc, 6);
        }
    }
    sb_put(b, s + run, n - run);
    sb_putc(b, '"');
}

static jdoc_status fail(walk_err *err, jdoc_status st, size_t off, const char *msg)
{
    if (err) {
        err->st = st;
        err->offset = off;
        err->message = msg ? msg : jdoc_status_str(st);
    }
    return st;
}

jdoc_status emit_compact(sbuf *b, jdoc_value v)
{
    const char *raw;
    size_t len;
    jdoc_status st = jdoc_get_raw(v, &raw, &len);
    if (st != JDOC_OK)
        return st;
    if (*raw != '{' && *raw != '[') {
        sb_put(b, raw, len);
        return JDOC_OK;
    }
    /* minified text is never longer than the source text: one call suffices */
    sb_reserve(b, len + 1);
    size_t n = jdoc_dump(v, b->p + b->len, b->cap - b->len);
    if (n >= b->cap - b->len) {   /* cannot happen if jdoc_dump keeps its word */
        sb_reserve(b, n + 1);
        n = jdoc_dump(v, b->p + b->len, b->cap - b->len);
    }
    b->len += n;
    return JDOC_OK;
}

/* Why a scalar is not a value: for the error message. */
static jdoc_status bad_scalar(jdoc_value v, walk_err *err)
{
    const char *raw;
    size_t len;
    size_t off = jdoc_offset(v);
    if (jdoc_get_raw(v, &raw, &len) == JDOC_OK && (*raw == '-' || (*raw >= '0' && *raw <= '9')))
        return fail(err, JDOC_ERR_NUMBER, off, "malformed number");
    return fail(err, JDOC_ERR_SYNTAX, off, "expected a value");
}

static jdoc_status canonical_scalar(sbuf *b, jdoc_value v, bool *inexact, walk_err *err)
{
    jdoc_status st = JDOC_OK;
    char num[32];
    switch (jdoc_typeof(v)) {
    case JDOC_NULL:
        sb_put(b, "null", 4);
        return JDOC_OK;
    case JDOC_BOOL: {
        bool x = false;
        if ((st = jdoc_get_bool(v, &x)) == JDOC_OK)
            sb_puts(b, x ? "true" : "false");
        break;
    }
    case JDOC_INT: {
        int64_t x = 0;
        if ((st = jdoc_get_int64(v, &x)) == JDOC_OK)
            sb_put(b, num, (size_t)snprintf(num, sizeof num, "%" PRId64, x));
        break;
    }
    case JDOC_UINT: {
        uint64_t x = 0;
        if ((st = jdoc_get_uint64(v, &x)) == JDOC_OK)
            sb_put(b, num, (size_t)snprintf(num, sizeof num, "%" PRIu64, x));
        break;
    }
    case JDOC_DOUBLE: {
        double x = 0;
        st = jdoc_get_double(v, &x);
        if (st == JDOC_OK) {
            sb_put(b, num, format_double(num, x));
        } else if (st == JDOC_ERR_RANGE) {
            /* beyond double range (1e400): no double to print; keep the source text */
            const char *raw;
            size_t len;
            if ((st = jdoc_get_raw(v, &raw, &len)) == JDOC_OK)
                sb_put(b, raw, len);
            *inexact = true;
        }
        break;
    }
    case JDOC_STRING: {
        const char *s;
        size_t len;
        if ((st = jdoc_get_string(v, &s, &len)) == JDOC_OK)
            put_json_string(b, s, len);
        break;
    }
    default:
        return bad_scalar(v, err);
    }
    return st == JDOC_OK ? JDOC_OK : fail(err, st, jdoc_offset(v), NULL);
}

/* The key before the member value at byte `voff`, as in the source, quotes
 * included. Back over whitespace, ':' and whitespace to the closing quote,
 * then to the first earlier quote not escaped (an even number of backslashes
 * before it): a key holds no unescaped quote. */
static bool is_ws(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; }

static bool source_key(const char *json, size_t voff, const char **key, size_t *len)
{
    size_t i = voff;
    while (i > 0 && is_ws(json[i - 1]))
        i--;
    if (i == 0 || json[i - 1] != ':')
        return false;
    i--;
    while (i > 0 && is_ws(json[i - 1]))
        i--;
    if (i < 2 || json[i - 1] != '"')
        return false;
    size_t end = i;
    for (size_t j = end - 1; j-- > 0;) {
        if (json[j] != '"')
            continue;
        size_t bs = 0;
        while (bs < j && json[j - 1 - bs] == '\\')
            bs++;
        if (bs % 2 == 0) {
            *key = json + j;
            *len = end - j;
            return true;
        }
        j -= bs;   /* skip the backslashes just counted */
    }
    return false;
}

static void indent(sbuf *b, size_t depth)
{
    sb_reserve(b, 1 + 2 * depth);
    b->p[b->len++] = '\n';
    memset(b->p + b->len, ' ', 2 * depth);
    b->len += 2 * depth;
}

enum { PRETTY, CANONICAL };

static jdoc_status walk(sbuf *b, jdoc_value root, int mode, bool stream, bool *inexact, walk_err *err)
{
    jdoc_iter *stack = NULL;
    size_t depth = 0, cap = 0;
    const char *json = jdoc_doc_input(root.doc, NULL);
    jdoc_status st = JDOC_OK;
    jdoc_value v = root;
    for (;;) {
        /* emit v: a scalar in full, a container's opening bracket */
        const char *raw;
        size_t len;
        if ((st = jdoc_get_raw(v, &raw, &len)) != JDOC_OK) {
            fail(err, st, jdoc_offset(v), NULL);
            break;
        }
        if (*raw == '{' || *raw == '[') {
            if (depth == cap) {
                cap = cap ? 2 * cap : 64;
                stack = xrealloc(stack, cap * sizeof *stack);
            }
            jdoc_iter_init(v, &stack[depth++]);
            sb_putc(b, *raw);
        } else if (mode == PRETTY) {
            sb_put(b, raw, len);
        } else if ((st = canonical_scalar(b, v, inexact, err)) != JDOC_OK) {
            break;
        }
        if (stream && b->len >= (1u << 20))
            sb_flush(b);

        /* the next value: close finished containers on the way */
        bool more = false;
        while (depth > 0) {
            jdoc_iter *it = &stack[depth - 1];
            if (jdoc_iter_next(it, &v)) {
                more = true;
                break;
            }
            if (it->status != JDOC_OK) {
                st = fail(err, it->status, jdoc_offset(v), "malformed container");
                break;
            }
            if (mode == PRETTY && it->n > 0)
                indent(b, depth - 1);
            sb_putc(b, it->object ? '}' : ']');
            depth--;
            if (stream && b->len >= (1u << 20))   /* deep nesting closes in long lines */
                sb_flush(b);
        }
        if (!more)
            break;
        jdoc_iter *it = &stack[depth - 1];
        if (it->n > 1)
            sb_putc(b, ',');
        if (mode == PRETTY)
            indent(b, depth);
        if (it->object) {
            const char *k;
            size_t klen;
            if (mode == PRETTY && source_key(json, jdoc_offset(v), &k, &klen)) {
                sb_put(b, k, klen);
            } else if ((st = jdoc_iter_key(it, &k, &klen)) == JDOC_OK) {
                put_json_string(b, k, klen);
            } else {
                fail(err, st, jdoc_offset(v), "malformed key");
                break;
            }
            if (mode == PRETTY)
                sb_put(b, ": ", 2);
            else
                sb_putc(b, ':');
        }
    }
    free(stack);
    return st;
}

jdoc_status emit_canonical(sbuf *b, jdoc_value v, bool stream, bool *inexact, walk_err *err)
{
    *inexact = false;
    return walk(b, v, CANONICAL, stream, inexact, err);
}

jdoc_status emit_pretty(sbuf *b, jdoc_value v, bool stream, walk_err *err)
{
    bool unused = false;
    return walk(b, v, PRETTY, stream, &unused, err);
}
