/* SPDX-License-Identifier: MIT */
/* Independent references for the fuzz targets, written from RFC 8259 and RFC 3629
 * and sharing no code with jdoc: a strict iterative validator with jdoc's depth
 * limit, UTF-8 and number grammar predicates, and a JSON string decoder. */
#ifndef JDOC_FUZZ_REF_H
#define JDOC_FUZZ_REF_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* Why a text is not JSON; only REF_OK is compared with jdoc, the rest is for messages. */
enum { REF_OK, REF_SYNTAX, REF_UTF8, REF_DEPTH, REF_NUMBER, REF_STRING };

static inline bool ref_ws(uint8_t c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }
static inline bool ref_digit(uint8_t c) { return c >= '0' && c <= '9'; }

/* Length of the well-formed UTF-8 sequence at s[0..n) (RFC 3629: shortest
 * form, no surrogates, at most U+10FFFF), 0 when there is none. */
static inline size_t ref_utf8_seq(const uint8_t *s, size_t n)
{
    uint8_t c = s[0];
    if (c < 0x80)
        return 1;
    size_t len;
    uint32_t cp, min;
    if (c >= 0xC2 && c <= 0xDF) {
        len = 2, cp = c & 0x1Fu, min = 0x80;
    } else if ((c & 0xF0) == 0xE0) {
        len = 3, cp = c & 0x0Fu, min = 0x800;
    } else if (c >= 0xF0 && c <= 0xF4) {
        len = 4, cp = c & 0x07u, min = 0x10000;
    } else {
        return 0;
    }
    if (n < len)
        return 0;
    for (size_t i = 1; i < len; i++) {
        if ((s[i] & 0xC0) != 0x80)
            return 0;
        cp = cp << 6 | (s[i] & 0x3Fu);
    }
    if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
        return 0;
    return len;
}

static inline bool ref_utf8_valid(const uint8_t *s, size_t n)
{
    for (size_t i = 0; i < n;) {
        size_t l = ref_utf8_seq(s + i, n - i);
        if (!l)
            return false;
        i += l;
    }
    return true;
}

static inline long ref_hex4(const uint8_t *s, size_t n, size_t i)
{
    if (n < 4 || i > n - 4)
        return -1;
    long v = 0;
    for (size_t k = i; k < i + 4; k++) {
        uint8_t c = s[k];
        int d = ref_digit(c) ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
        if (d < 0)
            return -1;
        v = v * 16 + d;
    }
    return v;
}

static inline size_t ref_put_utf8(uint8_t *o, uint32_t cp)
{
    if (cp < 0x80) {
        o[0] = (uint8_t)cp;
        return 1;
    }
    if (cp < 0x800) {
        o[0] = (uint8_t)(0xC0 | cp >> 6);
        o[1] = (uint8_t)(0x80 | (cp & 0x3F));
        return 2;
    }
    if (cp < 0x10000) {
        o[0] = (uint8_t)(0xE0 | cp >> 12);
        o[1] = (uint8_t)(0x80 | (cp >> 6 & 0x3F));
        o[2] = (uint8_t)(0x80 | (cp & 0x3F));
        return 3;
    }
    o[0] = (uint8_t)(0xF0 | cp >> 18);
    o[1] = (uint8_t)(0x80 | (cp >> 12 & 0x3F));
    o[2] = (uint8_t)(0x80 | (cp >> 6 & 0x3F));
    o[3] = (uint8_t)(0x80 | (cp & 0x3F));
    return 4;
}

/*
 * Decode the escape at s[i] == '\\' of a string body s[0..n). On success
 * returns REF_OK, the code point in *cp and the bytes used in *used. A high
 * surrogate must be followed at once by "\u" and a low one (jdoc rejects lone
 * surrogates: JDOC_ERR_STRING); the pair gives one code point.
 */
static inline int ref_escape(const uint8_t *s, size_t n, size_t i, uint32_t *cp, size_t *used)
{
    if (i + 1 >= n)
        return REF_STRING;
    switch (s[i + 1]) {
    case '"': *cp = '"'; break;
    case '\\': *cp = '\\'; break;
    case '/': *cp = '/'; break;
    case 'b': *cp = '\b'; break;
    case 'f': *cp = '\f'; break;
    case 'n': *cp = '\n'; break;
    case 'r': *cp = '\r'; break;
    case 't': *cp = '\t'; break;
    case 'u': {
        long u = ref_hex4(s, n, i + 2);
        if (u < 0 || (u >= 0xDC00 && u <= 0xDFFF))
            return REF_STRING;
        if (u >= 0xD800 && u <= 0xDBFF) {
            if (i + 12 > n || s[i + 6] != '\\' || s[i + 7] != 'u')
                return REF_STRING;
            long lo = ref_hex4(s, n, i + 8);
            if (lo < 0xDC00 || lo > 0xDFFF)
                return REF_STRING;
            *cp = 0x10000u + (((uint32_t)u - 0xD800u) << 10) + ((uint32_t)lo - 0xDC00u);
            *used = 12;
            return REF_OK;
        }
        *cp = (uint32_t)u;
        *used = 6;
        return REF_OK;
    }
    default:
        return REF_STRING;
    }
    *used = 2;
    return REF_OK;
}

/*
 * Decode a string body (the bytes between the quotes). out needs n bytes
 * (decoding never grows). REF_SYNTAX for a raw control byte or an unescaped
 * '"', REF_STRING for a bad escape or lone surrogate. Raw bytes >= 0x80 are
 * copied as they are (UTF-8 is checked separately).
 */
static inline int ref_decode(const uint8_t *s, size_t n, uint8_t *out, size_t *olen)
{
    size_t o = 0;
    for (size_t i = 0; i < n;) {
        uint8_t c = s[i];
        if (c < 0x20 || c == '"')
            return REF_SYNTAX;
        if (c != '\\') {
            out[o++] = c;
            i++;
            continue;
        }
        uint32_t cp;
        size_t used;
        int st = ref_escape(s, n, i, &cp, &used);
        if (st != REF_OK)
            return st;
        o += ref_put_utf8(out + o, cp);
        i += used;
    }
    *olen = o;
    return REF_OK;
}

/* The string that starts at s[*pi] == '"': on REF_OK *pi is past its closing quote. */
static inline int ref_string(const uint8_t *s, size_t n, size_t *pi)
{
    size_t i = *pi + 1;
    for (;;) {
        if (i >= n)
            return REF_SYNTAX;   /* unterminated */
        uint8_t c = s[i];
        if (c == '"') {
            *pi = i + 1;
            return REF_OK;
        }
        if (c < 0x20)
            return REF_SYNTAX;
        if (c == '\\') {
            if (i + 1 >= n)
                return REF_SYNTAX;
            uint32_t cp;
            size_t used;
            int st = ref_escape(s, n, i, &cp, &used);
            if (st != REF_OK)
                return st;
            i += used;
        } else if (c >= 0x80) {
            size_t l = ref_utf8_seq(s + i, n - i);
            if (!l)
                return REF_UTF8;
            i += l;
        } else {
            i++;
        }
    }
}

/* RFC 8259: number = [ minus ] int [ frac ] [ exp ]; int = zero / ( digit1-9 *DIGIT ).
 * On REF_OK *pi is past the longest match (what follows is the caller's business). */
static inline int ref_number(const uint8_t *s, size_t n, size_t *pi)
{
    size_t i = *pi;
    if (i < n && s[i] == '-')
        i++;
    if (i >= n || !ref_digit(s[i]))
        return REF_NUMBER;
    if (s[i] == '0')
        i++;
    else
        while (i < n && ref_digit(s[i]))
            i++;
    if (i < n && s[i] == '.') {
        i++;
        if (i >= n || !ref_digit(s[i]))
            return REF_NUMBER;
        while (i < n && ref_digit(s[i]))
            i++;
    }
    if (i < n && (s[i] == 'e' || s[i] == 'E')) {
        i++;
        if (i < n && (s[i] == '+' || s[i] == '-'))
            i++;
        if (i >= n || !ref_digit(s[i]))
            return REF_NUMBER;
        while (i < n && ref_digit(s[i]))
            i++;
    }
    *pi = i;
    return REF_OK;
}

/* Is s[0..n) exactly one number token? */
static inline bool ref_is_number(const uint8_t *s, size_t n)
{
    size_t i = 0;
    return ref_number(s, n, &i) == REF_OK && i == n;
}

/*
 * Is s[0..n) one JSON text (RFC 8259) nested at most max_depth deep (arrays
 * and objects each count one level, as jdoc_options.max_depth)? Iterative:
 * the open containers are a byte stack of max_depth entries. *root_count gets
 * the elements/members of a container root (0 for a scalar).
 */
static inline int ref_validate(const uint8_t *s, size_t n, uint32_t max_depth, size_t *root_count)
{
    uint8_t *stack = malloc((size_t)max_depth + 1);
    if (!stack)
        abort();
    size_t i = 0, depth = 0, count = 0;
    int st = REF_OK;
#define WS() while (i < n && ref_ws(s[i])) i++
#define FAIL(x) do { st = (x); goto out; } while (0)
value:
    WS();
    if (i >= n)
        FAIL(REF_SYNTAX);
    switch (s[i]) {
    case '[':
    case '{': {
        uint8_t c = s[i];
        if (depth == max_depth)
            FAIL(REF_DEPTH);
        stack[depth++] = c;
        i++;
        WS();
        if (i < n && s[i] == (c == '[' ? ']' : '}')) {
            depth--;
            i++;
            goto after;
        }
        if (depth == 1)
            count = 1;
        if (c == '{')
            goto key;
        goto value;
    }
    case '"':
        if ((st = ref_string(s, n, &i)) != REF_OK)
            goto out;
        goto after;
    case 't':
    case 'f':
    case 'n': {
        const char *lit = s[i] == 't' ? "true" : s[i] == 'f' ? "false" : "null";
        size_t l = strlen(lit);
        if (n - i < l || memcmp(s + i, lit, l) != 0)
            FAIL(REF_SYNTAX);
        i += l;
        goto after;
    }
    default:
        if (s[i] != '-' && !ref_digit(s[i]))
            FAIL(s[i] >= 0x80 && !ref_utf8_seq(s + i, n - i) ? REF_UTF8 : REF_SYNTAX);
        if ((st = ref_number(s, n, &i)) != REF_OK)
            goto out;
        goto after;
    }
key:
    WS();
    if (i >= n || s[i] != '"')
        FAIL(REF_SYNTAX);
    if ((st = ref_string(s, n, &i)) != REF_OK)
        goto out;
    WS();
    if (i >= n || s[i] != ':')
        FAIL(REF_SYNTAX);
    i++;
    goto value;
after:
    WS();
    if (depth == 0) {
        if (i != n)
            FAIL(REF_SYNTAX);
        goto out;
    }
    if (i >= n)
        FAIL(REF_SYNTAX);
    if (s[i] == ',') {
        i++;
        if (depth == 1)
            count++;
        if (stack[depth - 1] == '{')
            goto key;
        goto value;
    }
    if (s[i] == (stack[depth - 1] == '[' ? ']' : '}')) {
        depth--;
        i++;
        goto after;
    }
    FAIL(REF_SYNTAX);
out:
#undef WS
#undef FAIL
    free(stack);
    if (root_count)
        *root_count = count;
    return st;
}

/* The text without whitespace outside strings (what jdoc_dump must give for
 * the root of a valid document); out needs n bytes. Returns the length. */
static inline size_t ref_compact(const uint8_t *s, size_t n, uint8_t *out)
{
    size_t o = 0;
    bool str = false;
    for (size_t i = 0; i < n; i++) {
        uint8_t c = s[i];
        if (str) {
            out[o++] = c;
            if (c == '\\')
                out[o++] = s[++i];
            else if (c == '"')
                str = false;
        } else if (!ref_ws(c)) {
            out[o++] = c;
            str = c == '"';
        }
    }
    return o;
}

static const char *const ref_names[] = { "valid", "syntax", "utf8", "depth", "number", "string" };

#endif
