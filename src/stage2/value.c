/* SPDX-License-Identifier: MIT */
/* Values: type, typed getters, raw text, decoded strings. Converts only the
 * value asked for, when it is asked for. */
#include "number.h"
#include "stage2.h"
#include "strdec.h"

static const char *const type_names[] = { "null", "bool", "int", "uint", "double",
                                          "string", "array", "object", "invalid" };

const char *jdoc_type_name(jdoc_type t)
{
    return (unsigned)t <= JDOC_INVALID ? type_names[t] : "invalid";
}

jdoc_value jdoc_root(const jdoc_doc *d)
{
    if (!d || !d->parser->has_doc || d != &d->parser->doc)
        return (jdoc_value){ 0 };
    return jdoc__value(d, 0);
}

#define valid jdoc__valid

static inline const char *at(jdoc_value v) { return v.doc->json + jdoc__off(v.doc, v.idx); }
static inline size_t avail(jdoc_value v) { return v.doc->len - jdoc__off(v.doc, v.idx); }

static bool is_delim(char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == ',' || c == ']' || c == '}' || c == ':' ||
           c == '"' || c == '[' || c == '{';
}

/* 1 true, 0 false, -1 null, -2 not a literal */
static int literal(jdoc_value v)
{
    const char *s = at(v);
    size_t n = avail(v);
    static const char *const lit[3] = { "null", "false", "true" };
    static const size_t ll[3] = { 4, 5, 4 };
    for (int i = 0; i < 3; i++)
        if (n >= ll[i] && memcmp(s, lit[i], ll[i]) == 0 && (n == ll[i] || is_delim(s[ll[i]])))
            return i - 1;
    return -2;
}

jdoc_type jdoc_typeof(jdoc_value v)
{
    if (!valid(v))
        return JDOC_INVALID;
    char c = jdoc__ch(v.doc, v.idx);   /* a bracket's offset costs a walk over the brackets after it */
    if (c == '{' || c == '[')
        return c == '{' ? JDOC_OBJECT : JDOC_ARRAY;
    c = *at(v);
    switch (c) {
    case '{': return JDOC_OBJECT;
    case '[': return JDOC_ARRAY;
    case '"': return JDOC_STRING;
    case 't': case 'f': return literal(v) >= 0 ? JDOC_BOOL : JDOC_INVALID;
    case 'n': return literal(v) == -1 ? JDOC_NULL : JDOC_INVALID;
    default: break;
    }
    jdoc_num num;
    if ((c == '-' || (c >= '0' && c <= '9')) && jdoc__num_classify(at(v), avail(v), &num, NULL) == JDOC_OK)
        return num.type;
    return JDOC_INVALID;
}

jdoc_status jdoc_get_bool(jdoc_value v, bool *out)
{
    if (!valid(v) || !out)
        return JDOC_ERR_ARG;
    {   /* "true" with a delimiter after it, in one compare */
        const jdoc_doc *d = v.doc;
        uint32_t o = d->index[v.idx];
        if (d->tape[v.idx] == 't' && d->len - o >= 4 && memcmp(d->json + o, "true", 4) == 0 &&
            (d->len - o == 4 || is_delim(d->json[o + 4]))) {
            *out = true;
            return JDOC_OK;
        }
    }
    int l = literal(v);
    if (l >= 0) {
        *out = l == 1;
        return JDOC_OK;
    }
    return jdoc_typeof(v) == JDOC_INVALID ? JDOC_ERR_SYNTAX : JDOC_ERR_TYPE;
}

/* Parse the number at v; JDOC_ERR_TYPE when v is not a number at all. */
/* For the integer getters: an integer too big for 64 bits is out of range;
 * a number with a fraction or an exponent is of another type. */
static jdoc_status not_integer(jdoc_value v, const jdoc_num *num)
{
    const char *s = at(v);
    for (size_t i = 0; i < num->len; i++)
        if (s[i] == '.' || s[i] == 'e' || s[i] == 'E')
            return JDOC_ERR_TYPE;
    return JDOC_ERR_RANGE;
}

static jdoc_status number(jdoc_value v, jdoc_num *num, bool convert)
{
    if (!valid(v))
        return JDOC_ERR_ARG;
    char c = *at(v);
    if (c != '-' && (c < '0' || c > '9'))   /* `.5`, `+1`, `abc`: not a number, and not another value */
        return jdoc_typeof(v) == JDOC_INVALID ? JDOC_ERR_NUMBER : JDOC_ERR_TYPE;
    return convert ? jdoc__num_parse(at(v), avail(v), num, NULL) : jdoc__num_classify(at(v), avail(v), num, NULL);
}

/* The common case in a few instructions: at most 18 digits, an optional
 * minus, no leading zero (but "0" itself), then a delimiter or the end.
 * false: the full parser decides. */
static inline bool small_int(jdoc_value v, int64_t *out)
{
    const jdoc_doc *d = v.doc;
    uint8_t c = d->tape[v.idx];
    if (c != '-' && (c < '0' || c > '9'))
        return false;
    const char *s = d->json + d->index[v.idx];
    size_t n = d->len - d->index[v.idx], i = s[0] == '-';
    if (i >= n || s[i] < '0' || s[i] > '9' || (s[i] == '0' && i + 1 < n && s[i + 1] >= '0' && s[i + 1] <= '9'))
        return false;
    uint64_t x = 0;
    size_t end = n - i > 18 ? i + 18 : n;
    size_t k = i;
    for (; k < end && s[k] >= '0' && s[k] <= '9'; k++)
        x = x * 10 + (uint64_t)(s[k] - '0');
    if (k < n && (s[k] == '.' || s[k] == 'e' || s[k] == 'E' || (s[k] >= '0' && s[k] <= '9') || !is_delim(s[k])))
        return false;
    *out = i ? -(int64_t)x : (int64_t)x;
    return true;
}

jdoc_status jdoc_get_int64(jdoc_value v, int64_t *out)
{
    jdoc_num num;
    if (!out)
        return JDOC_ERR_ARG;
    if (JDOC_LIKELY(valid(v)) && small_int(v, out))
        return JDOC_OK;
    jdoc_status st = number(v, &num, false);
    if (st != JDOC_OK)
        return st;
    if (num.type == JDOC_INT) {
        *out = num.i;
        return JDOC_OK;
    }
    return num.type == JDOC_UINT ? JDOC_ERR_RANGE : not_integer(v, &num);
}

jdoc_status jdoc_get_uint64(jdoc_value v, uint64_t *out)
{
    jdoc_num num;
    int64_t i;
    if (!out)
        return JDOC_ERR_ARG;
    if (JDOC_LIKELY(valid(v)) && small_int(v, &i) && i >= 0) {
        *out = (uint64_t)i;
        return JDOC_OK;
    }
    jdoc_status st = number(v, &num, false);
    if (st != JDOC_OK)
        return st;
    if ((num.type == JDOC_INT && num.i >= 0) || num.type == JDOC_UINT) {
        *out = num.type == JDOC_INT ? (uint64_t)num.i : num.u;
        return JDOC_OK;
    }
    return num.type == JDOC_INT ? JDOC_ERR_RANGE : not_integer(v, &num);
}

jdoc_status jdoc_get_double(jdoc_value v, double *out)
{
    jdoc_num num;
    if (!out)
        return JDOC_ERR_ARG;
    jdoc_status st = number(v, &num, true);
    if (st != JDOC_OK)
        return st;
    if (num.inf)
        return JDOC_ERR_RANGE;
    *out = num.d;
    return JDOC_OK;
}

jdoc_status jdoc__string_at(const jdoc_doc *d, uint32_t e, const char **s, size_t *len)
{
    uint32_t b = d->index[e] + 1, end = jdoc__string_end(d, e);
    const char *raw = d->json + b;
    if (!jdoc__str_escaped(d, e)) {   /* stage 1 marks strings with a backslash */
        *s = raw;
        *len = end - b;
        return JDOC_OK;
    }
    jdoc_parser *p = d->parser;
    if (!p->memo_ready) {
        if (jdoc__reserve(p, (void **)&p->memo, &p->memo_cap, d->n, sizeof *p->memo) ||
            jdoc__reserve(p, (void **)&p->scratch, &p->scratch_cap, (size_t)(d->len - jdoc__off(d, 0)) + 1, 1))
            return JDOC_ERR_NOMEM;
        memset(p->memo, 0, d->n * sizeof *p->memo);
        p->scratch_len = 0;
        p->memo_ready = true;
    }
    uint64_t m = p->memo[e];
    if (m) {
        *s = p->scratch + (m >> 32) - 1;
        *len = (uint32_t)m;
        return JDOC_OK;
    }
    size_t dl, eo;
    char *dst = p->scratch + p->scratch_len;
    if (jdoc__str_decode(raw, end - b, dst, &dl, &eo) != JDOC_OK)
        return JDOC_ERR_STRING;
    p->memo[e] = (uint64_t)(p->scratch_len + 1) << 32 | dl;
    p->scratch_len += dl;
    *s = dst;
    *len = dl;
    return JDOC_OK;
}

/* The cases jdoc_get_string's own code leaves: apart, so that the common
 * one calls nothing and saves no registers. */
static __attribute__((noinline)) jdoc_status get_string_other(jdoc_value v, const char **s, size_t *len)
{
    if (v.doc->tape[v.idx] == '"') {   /* no backslash, before an opening bracket (malformed) */
        uint32_t b = v.doc->index[v.idx] + 1;
        *s = v.doc->json + b;
        *len = jdoc__string_end(v.doc, v.idx) - b;
        return JDOC_OK;
    }
    if (*at(v) != '"')
        return jdoc_typeof(v) == JDOC_INVALID ? JDOC_ERR_SYNTAX : JDOC_ERR_TYPE;
    return jdoc__string_at(v.doc, v.idx, s, len);
}

jdoc_status jdoc_get_string(jdoc_value v, const char **s, size_t *len)
{
    if (!valid(v) || !s || !len)
        return JDOC_ERR_ARG;
    const jdoc_doc *d = v.doc;
    const uint8_t *tape = d->tape;
    if (JDOC_LIKELY(tape[v.idx] == '"' && !jdoc__is_open(tape[v.idx + 1]))) {
        /* no backslash: the bytes as they are (jdoc__string_end, with the
         * next entry's offset read straight from the index: not an opener) */
        uint32_t b = d->index[v.idx];
        *s = d->json + b + 1;
        *len = jdoc__quote_before(d->json, b, d->index[v.idx + 1]) - b - 1;
        return JDOC_OK;
    }
    return get_string_other(v, s, len);
}

jdoc_status jdoc_iter_key(const jdoc_iter *it, const char **key, size_t *len)
{
    if (!it || !key || !len || !it->doc || it->gen != it->doc->parser->gen || !it->doc->parser->has_doc)
        return JDOC_ERR_ARG;
    if (!it->object)
        return JDOC_ERR_TYPE;
    if (it->key == UINT32_MAX)
        return JDOC_ERR_NOT_FOUND;
    return jdoc__string_at(it->doc, it->key, key, len);
}

jdoc_status jdoc_iter_key_raw(const jdoc_iter *it, const char **key, size_t *len)
{
    if (!it || !key || !len || !it->doc || it->gen != it->doc->parser->gen || !it->doc->parser->has_doc)
        return JDOC_ERR_ARG;
    if (!it->object)
        return JDOC_ERR_TYPE;
    if (it->key == UINT32_MAX)
        return JDOC_ERR_NOT_FOUND;
    *key = it->doc->json + jdoc__off(it->doc, it->key);
    *len = jdoc__string_end(it->doc, it->key) + 1 - jdoc__off(it->doc, it->key);
    return JDOC_OK;
}

jdoc_status jdoc_get_raw(jdoc_value v, const char **s, size_t *len)
{
    if (!valid(v) || !s || !len)
        return JDOC_ERR_ARG;
    const jdoc_doc *d = v.doc;
    uint32_t b = jdoc__off(d, v.idx), e;
    char c = d->json[b];
    if (c == '{' || c == '[') {
        e = jdoc__off(d, jdoc__close(d, v.idx)) + 1;
    } else if (c == '"') {
        e = jdoc__string_end(d, v.idx) + 1;
    } else {
        /* a scalar runs to the next entry, less the whitespace before it */
        e = jdoc__off(d, v.idx + 1);
        while (e > b && jdoc__is_ws((unsigned char)d->json[e - 1]))
            e--;
    }
    *s = d->json + b;
    *len = e - b;
    return JDOC_OK;
}

size_t jdoc_offset(jdoc_value v) { return valid(v) ? jdoc__off(v.doc, v.idx) : 0; }
