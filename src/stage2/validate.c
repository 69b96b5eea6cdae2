/* SPDX-License-Identifier: MIT */
/*
 * jdoc_validate: the full RFC 8259 check of what stage 1 left to stage 2.
 * One pass over the index with an explicit container stack (no recursion):
 * the grammar between entries, every literal and number, every string's
 * escapes, and UTF-8 when it was trusted at parse time.
 */
#include "number.h"
#include "stage2.h"
#include "strdec.h"

enum { WANT_VALUE, WANT_KEY, WANT_KEY_OR_END, WANT_COLON, WANT_COMMA_OR_END, WANT_VALUE_OR_END, WANT_NOTHING };

static jdoc_status fail(jdoc_parser *p, jdoc_status st, size_t off, const char *msg)
{
    return jdoc__fail(p, st, off, msg);
}

/* A scalar that starts at entry e: a literal or a number, then a delimiter. */
static jdoc_status scalar(const jdoc_doc *d, uint32_t e)
{
    jdoc_parser *p = d->parser;
    size_t b = jdoc__off(d, e), n = d->len - b;
    const char *s = d->json + b;
    static const char *const lit[3] = { "true", "false", "null" };
    for (int i = 0; i < 3; i++) {
        size_t l = strlen(lit[i]);
        if (n >= l && memcmp(s, lit[i], l) == 0) {
            if (n > l && !jdoc__is_ws((unsigned char)s[l]) && s[l] != ',' && s[l] != ']' && s[l] != '}' &&
                s[l] != ':' && s[l] != '"' && s[l] != '[' && s[l] != '{')
                return fail(p, JDOC_ERR_SYNTAX, b + l, "unexpected text after a literal");
            if (n > l && s[l] == '"')
                return fail(p, JDOC_ERR_SYNTAX, b + l, "expected ',' or a closing bracket");
            return JDOC_OK;
        }
    }
    if (*s == '-' || (*s >= '0' && *s <= '9')) {
        jdoc_num num;
        size_t eo = 0;
        if (jdoc__num_classify(s, n, &num, &eo) != JDOC_OK)
            return fail(p, JDOC_ERR_NUMBER, b + eo, "malformed number");
        return JDOC_OK;
    }
    return fail(p, JDOC_ERR_SYNTAX, b, "expected a value");
}

jdoc_status jdoc_validate(const jdoc_doc *d)
{
    if (!d || !d->parser->has_doc || d != &d->parser->doc)
        return JDOC_ERR_ARG;
    jdoc_parser *p = d->parser;
    size_t eo;
    if (p->trust_utf8 && !jdoc__utf8_check((const uint8_t *)d->json, d->len, &eo))
        return fail(p, JDOC_ERR_UTF8, eo, "invalid UTF-8");
    /* containers nest at most max_depth deep, and never deeper than the document has entries */
    size_t cap = (size_t)(p->max_depth < d->n ? p->max_depth : d->n) + 2;
    if (jdoc__reserve(p, (void **)&p->vstack, &p->vstack_cap, cap, 1))
        return fail(p, JDOC_ERR_NOMEM, 0, "out of memory");
    uint8_t *stack = p->vstack;
    uint32_t depth = 0;
    int want = WANT_VALUE;
    for (uint32_t e = 0; e < d->n; e++) {
        size_t off = jdoc__off(d, e);
        char c = jdoc__ch(d, e);
        switch (c) {
        case '{':
        case '[':
            if (want != WANT_VALUE && want != WANT_VALUE_OR_END)
                return fail(p, JDOC_ERR_SYNTAX, off, "unexpected bracket");
            stack[++depth] = (uint8_t)c;
            want = c == '{' ? WANT_KEY_OR_END : WANT_VALUE_OR_END;
            break;
        case '}':
        case ']':
            if (want != WANT_COMMA_OR_END && !(c == '}' && want == WANT_KEY_OR_END) &&
                !(c == ']' && want == WANT_VALUE_OR_END))
                return fail(p, JDOC_ERR_SYNTAX, off, want == WANT_KEY ? "trailing comma" : "expected a value");
            depth--;   /* stage 1 matched the brackets */
            want = depth ? WANT_COMMA_OR_END : WANT_NOTHING;
            break;
        case ',':
            if (want != WANT_COMMA_OR_END)
                return fail(p, JDOC_ERR_SYNTAX, off, "unexpected ','");
            want = stack[depth] == '{' ? WANT_KEY : WANT_VALUE;
            break;
        case ':':
            if (want != WANT_COLON)
                return fail(p, JDOC_ERR_SYNTAX, off, "unexpected ':'");
            want = WANT_VALUE;
            break;
        case '"': {
            bool key = want == WANT_KEY || want == WANT_KEY_OR_END;
            if (!key && want != WANT_VALUE && want != WANT_VALUE_OR_END)
                return fail(p, JDOC_ERR_SYNTAX, off, "expected ',' or a closing bracket");
            uint32_t end = jdoc__string_end(d, e);
            if (jdoc__str_check(d->json + off + 1, end - off - 1, &eo) != JDOC_OK)
                return fail(p, JDOC_ERR_STRING, off + 1 + eo, "bad escape in string");
            want = key ? WANT_COLON : (depth ? WANT_COMMA_OR_END : WANT_NOTHING);
            break;
        }
        default:
            if (want != WANT_VALUE && want != WANT_VALUE_OR_END)
                return fail(p, JDOC_ERR_SYNTAX, off,
                            want == WANT_COLON ? "expected ':'" : want == WANT_KEY || want == WANT_KEY_OR_END
                                                                      ? "expected a string key"
                                                                      : "expected ',' or a closing bracket");
            if (scalar(d, e) != JDOC_OK)
                return p->err.code;
            want = depth ? WANT_COMMA_OR_END : WANT_NOTHING;
            break;
        }
        if (want == WANT_NOTHING && e + 1 < d->n)
            return fail(p, JDOC_ERR_SYNTAX, jdoc__off(d, e + 1), "text after the root value");
    }
    p->err = (jdoc_error){ JDOC_OK, 0, "ok", "" };
    return JDOC_OK;
}
