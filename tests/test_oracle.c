/* SPDX-License-Identifier: MIT */
/* Stage 2 against an independent oracle (a recursive-descent JSON parser in this file):
 * every value of every corpus document by pointer, Oj path, type, typed value, raw text,
 * iteration and path_of, on every kernel; and adversarial numbers against strtod and int128. */
#include <criterion/criterion.h>
#include <float.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include "testutil.h"

__extension__ typedef unsigned __int128 u128;

#define NONE UINT32_MAX
#define ORACLE_MAX_DEPTH 2000
#define MAX_FAILS 20

/* ======================================================================== */
/* The oracle                                                               */
/* ======================================================================== */

/* What a number must read as: type by the int64/uint64 ranges (computed on
 * 128 bits), integer values, and the double strtod makes of the text. */
typedef struct onum {
    jdoc_type type;   /* JDOC_INT, JDOC_UINT or JDOC_DOUBLE */
    bool integer;     /* no fraction, no exponent */
    int64_t i;        /* JDOC_INT */
    uint64_t u;       /* JDOC_UINT (and JDOC_INT >= 0) */
    double d;         /* strtod of the text */
    bool inf;         /* strtod overflowed: jdoc_get_double must say JDOC_ERR_RANGE */
} onum;

/* Length of the RFC 8259 number at s[0..avail), 0 when there is none. */
static size_t onum_len(const char *s, size_t avail, bool *integer)
{
    size_t i = 0;
    *integer = true;
    if (i < avail && s[i] == '-')
        i++;
    if (i >= avail || s[i] < '0' || s[i] > '9')
        return 0;
    if (s[i] == '0')
        i++;
    else
        while (i < avail && s[i] >= '0' && s[i] <= '9')
            i++;
    if (i < avail && s[i] == '.') {
        *integer = false;
        i++;
        if (i >= avail || s[i] < '0' || s[i] > '9')
            return 0;
        while (i < avail && s[i] >= '0' && s[i] <= '9')
            i++;
    }
    if (i < avail && (s[i] == 'e' || s[i] == 'E')) {
        *integer = false;
        i++;
        if (i < avail && (s[i] == '+' || s[i] == '-'))
            i++;
        if (i >= avail || s[i] < '0' || s[i] > '9')
            return 0;
        while (i < avail && s[i] >= '0' && s[i] <= '9')
            i++;
    }
    return i;
}

/* Evaluate the number text s[0..len) (exactly one token); false if malformed. */
static bool onum_eval(const char *s, size_t len, onum *o)
{
    memset(o, 0, sizeof *o);
    bool integer;
    if (len == 0 || onum_len(s, len, &integer) != len)
        return false;
    o->integer = integer;
    o->type = JDOC_DOUBLE;
    if (integer) {
        bool neg = s[0] == '-';
        u128 mag = 0, cap = (u128)1 << 66;
        for (size_t i = neg; i < len; i++)
            if (mag <= cap)   /* beyond 2^66 it is a double whatever follows */
                mag = mag * 10 + (unsigned)(s[i] - '0');
        const u128 two63 = (u128)1 << 63;
        if (neg && mag <= two63) {
            o->type = JDOC_INT;
            o->i = mag == two63 ? INT64_MIN : -(int64_t)mag;
            o->u = (uint64_t)o->i;   /* only meaningful for -0 */
        } else if (!neg && mag < two63) {
            o->type = JDOC_INT;
            o->i = (int64_t)mag;
            o->u = (uint64_t)mag;
        } else if (!neg && mag <= (u128)UINT64_MAX) {
            o->type = JDOC_UINT;
            o->u = (uint64_t)mag;
        }
    }
    char stackbuf[128], *b = len < sizeof stackbuf ? stackbuf : malloc(len + 1);
    cr_assert_not_null(b);
    memcpy(b, s, len);
    b[len] = 0;
    char *end;
    o->d = strtod(b, &end);
    cr_assert_eq(end, b + len, "strtod stopped early in %s", b);
    o->inf = isinf(o->d);
    if (b != stackbuf)
        free(b);
    return true;
}

enum { O_NULL, O_BOOL, O_NUM, O_STR, O_ARR, O_OBJ };

typedef struct onode {
    uint32_t start, end;   /* exact source text [start, end) */
    uint32_t parent;       /* node id, NONE for the root */
    uint32_t first, next;  /* first child, next sibling */
    uint32_t count;        /* children */
    uint32_t pos;          /* 0-based position in the parent */
    uint32_t key, klen;    /* decoded member key, in the arena (object members) */
    uint32_t str, slen;    /* decoded string, in the arena */
    uint8_t kind;
    jdoc_type type;
    bool bval;
    bool str_ok;           /* false: lone surrogate, jdoc must say JDOC_ERR_STRING */
    bool dup;              /* a later duplicate key: not reachable by key ("first wins") */
    onum num;
} onode;

typedef struct oracle {
    const char *s;
    size_t len, pos;
    onode *n;              /* every value, in document order (the root is 0) */
    size_t nn, ncap;
    char *arena;           /* decoded keys and strings */
    size_t alen, acap;
    bool lone_surrogate;   /* in some string: jdoc_validate must say JDOC_ERR_STRING */
    const char *err;
    size_t err_at;
} oracle;

static uint32_t o_fail(oracle *o, const char *msg)
{
    if (!o->err) {
        o->err = msg;
        o->err_at = o->pos;
    }
    return NONE;
}

static void o_ws(oracle *o)
{
    while (o->pos < o->len && (o->s[o->pos] == ' ' || o->s[o->pos] == '\t' || o->s[o->pos] == '\n' ||
                               o->s[o->pos] == '\r'))
        o->pos++;
}

static void o_put(oracle *o, const void *p, size_t n)
{
    if (o->alen + n > o->acap) {
        while (o->alen + n > o->acap)
            o->acap = o->acap ? o->acap * 2 : 4096;
        o->arena = realloc(o->arena, o->acap);
        cr_assert_not_null(o->arena);
    }
    memcpy(o->arena + o->alen, p, n);
    o->alen += n;
}

static void o_put_utf8(oracle *o, uint32_t cp)
{
    unsigned char b[4];
    size_t n;
    if (cp < 0x80) {
        b[0] = (unsigned char)cp;
        n = 1;
    } else if (cp < 0x800) {
        b[0] = (unsigned char)(0xC0 | cp >> 6);
        b[1] = (unsigned char)(0x80 | (cp & 0x3F));
        n = 2;
    } else if (cp < 0x10000) {
        b[0] = (unsigned char)(0xE0 | cp >> 12);
        b[1] = (unsigned char)(0x80 | ((cp >> 6) & 0x3F));
        b[2] = (unsigned char)(0x80 | (cp & 0x3F));
        n = 3;
    } else {
        b[0] = (unsigned char)(0xF0 | cp >> 18);
        b[1] = (unsigned char)(0x80 | ((cp >> 12) & 0x3F));
        b[2] = (unsigned char)(0x80 | ((cp >> 6) & 0x3F));
        b[3] = (unsigned char)(0x80 | (cp & 0x3F));
        n = 4;
    }
    o_put(o, b, n);
}

static bool o_hex4(const oracle *o, size_t i, uint32_t *v)
{
    if (i + 4 > o->len)
        return false;
    *v = 0;
    for (size_t k = i; k < i + 4; k++) {
        char c = o->s[k];
        uint32_t h;
        if (c >= '0' && c <= '9')
            h = (uint32_t)(c - '0');
        else if (c >= 'a' && c <= 'f')
            h = (uint32_t)(c - 'a' + 10);
        else if (c >= 'A' && c <= 'F')
            h = (uint32_t)(c - 'A' + 10);
        else
            return false;
        *v = *v << 4 | h;
    }
    return true;
}

/* The string at o->pos (its opening quote), decoded into the arena. */
static bool o_string(oracle *o, uint32_t *off, uint32_t *len, bool *ok)
{
    size_t i = o->pos + 1, start = o->alen;
    *ok = true;
    for (;;) {
        if (i >= o->len)
            return o_fail(o, "unterminated string"), false;
        unsigned char c = (unsigned char)o->s[i];
        if (c == '"')
            break;
        if (c < 0x20)
            return o_fail(o, "control character in a string"), false;
        if (c != '\\') {
            size_t j = i + 1;   /* copy the run of plain bytes at once */
            while (j < o->len && o->s[j] != '"' && o->s[j] != '\\' && (unsigned char)o->s[j] >= 0x20)
                j++;
            o_put(o, o->s + i, j - i);
            i = j;
            continue;
        }
        if (i + 1 >= o->len)
            return o_fail(o, "unterminated escape"), false;
        char e = o->s[i + 1], ch;
        i += 2;
        switch (e) {
        case '"': ch = '"'; break;
        case '\\': ch = '\\'; break;
        case '/': ch = '/'; break;
        case 'b': ch = '\b'; break;
        case 'f': ch = '\f'; break;
        case 'n': ch = '\n'; break;
        case 'r': ch = '\r'; break;
        case 't': ch = '\t'; break;
        case 'u': {
            uint32_t cp, lo;
            if (!o_hex4(o, i, &cp))
                return o_fail(o, "bad \\u escape"), false;
            i += 4;
            if (cp >= 0xD800 && cp <= 0xDBFF) {
                if (i + 6 <= o->len && o->s[i] == '\\' && o->s[i + 1] == 'u' && o_hex4(o, i + 2, &lo) &&
                    lo >= 0xDC00 && lo <= 0xDFFF) {
                    cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
                    i += 6;
                } else {
                    *ok = false;
                }
            } else if (cp >= 0xDC00 && cp <= 0xDFFF) {
                *ok = false;
            }
            o_put_utf8(o, cp);
            continue;
        }
        default:
            return o_fail(o, "bad escape"), false;
        }
        o_put(o, &ch, 1);
    }
    o->pos = i + 1;
    *off = (uint32_t)start;
    *len = (uint32_t)(o->alen - start);
    return true;
}

static uint32_t o_new(oracle *o, uint8_t kind, jdoc_type type)
{
    if (o->nn == o->ncap) {
        o->ncap = o->ncap ? o->ncap * 2 : 1024;
        o->n = realloc(o->n, o->ncap * sizeof *o->n);
        cr_assert_not_null(o->n);
    }
    onode *n = &o->n[o->nn];
    memset(n, 0, sizeof *n);
    n->kind = kind;
    n->type = type;
    n->parent = n->first = n->next = NONE;
    n->start = (uint32_t)o->pos;
    return (uint32_t)o->nn++;
}

static uint32_t o_value(oracle *o, int depth);

/* Members of the object (or elements of the array) at node id; o->pos is past the bracket. */
static bool o_members(oracle *o, uint32_t id, bool obj, int depth)
{
    char close = obj ? '}' : ']';
    uint32_t prev = NONE, count = 0;
    o_ws(o);
    if (o->pos < o->len && o->s[o->pos] == close) {
        o->pos++;
        return true;
    }
    for (;;) {
        uint32_t koff = 0, klen = 0;
        if (obj) {
            bool ok;
            o_ws(o);
            if (o->pos >= o->len || o->s[o->pos] != '"')
                return o_fail(o, "key expected"), false;
            if (!o_string(o, &koff, &klen, &ok))
                return false;
            if (!ok)
                return o_fail(o, "key with a lone surrogate (not supported by the oracle)"), false;
            o_ws(o);
            if (o->pos >= o->len || o->s[o->pos] != ':')
                return o_fail(o, "':' expected"), false;
            o->pos++;
        }
        uint32_t ch = o_value(o, depth + 1);
        if (ch == NONE)
            return false;
        onode *c = &o->n[ch];
        c->parent = id;
        c->pos = count++;
        c->key = koff;
        c->klen = klen;
        if (prev == NONE)
            o->n[id].first = ch;
        else
            o->n[prev].next = ch;
        prev = ch;
        o_ws(o);
        if (o->pos >= o->len)
            return o_fail(o, "unterminated container"), false;
        char d = o->s[o->pos++];
        if (d == close)
            break;
        if (d != ',')
            return o_fail(o, "',' or a closing bracket expected"), false;
    }
    o->n[id].count = count;
    if (obj) {   /* first wins: every later member with an earlier member's key is a duplicate */
        for (uint32_t b = o->n[id].first; b != NONE; b = o->n[b].next)
            for (uint32_t a = o->n[id].first; a != b; a = o->n[a].next)
                if (o->n[a].klen == o->n[b].klen &&
                    memcmp(o->arena + o->n[a].key, o->arena + o->n[b].key, o->n[a].klen) == 0) {
                    o->n[b].dup = true;
                    break;
                }
    }
    return true;
}

static uint32_t o_value(oracle *o, int depth)
{
    if (depth > ORACLE_MAX_DEPTH)
        return o_fail(o, "nesting deeper than the oracle's guard");
    o_ws(o);
    if (o->pos >= o->len)
        return o_fail(o, "value expected");
    char c = o->s[o->pos];
    uint32_t id;
    if (c == '{' || c == '[') {
        id = o_new(o, c == '{' ? O_OBJ : O_ARR, c == '{' ? JDOC_OBJECT : JDOC_ARRAY);
        o->pos++;
        if (!o_members(o, id, c == '{', depth))
            return NONE;
    } else if (c == '"') {
        id = o_new(o, O_STR, JDOC_STRING);
        uint32_t off, len;
        bool ok;
        if (!o_string(o, &off, &len, &ok))
            return NONE;
        o->n[id].str = off;
        o->n[id].slen = len;
        o->n[id].str_ok = ok;
        o->lone_surrogate |= !ok;
    } else if (c == 't' || c == 'f' || c == 'n') {
        static const char *const lit[3] = { "true", "false", "null" };
        int k = c == 't' ? 0 : c == 'f' ? 1 : 2;
        size_t l = strlen(lit[k]);
        if (o->pos + l > o->len || memcmp(o->s + o->pos, lit[k], l) != 0)
            return o_fail(o, "bad literal");
        id = o_new(o, k == 2 ? O_NULL : O_BOOL, k == 2 ? JDOC_NULL : JDOC_BOOL);
        o->n[id].bval = k == 0;
        o->pos += l;
    } else {
        bool integer;
        size_t l = onum_len(o->s + o->pos, o->len - o->pos, &integer);
        if (!l)
            return o_fail(o, "bad number");
        id = o_new(o, O_NUM, JDOC_DOUBLE);
        onum num;
        cr_assert(onum_eval(o->s + o->pos, l, &num));
        o->n[id].num = num;
        o->n[id].type = num.type;
        o->pos += l;
    }
    o->n[id].end = (uint32_t)o->pos;
    return id;
}

static bool oracle_parse(oracle *o, const char *s, size_t len)
{
    memset(o, 0, sizeof *o);
    o->s = s;
    o->len = len;
    if (o_value(o, 0) == NONE)
        return false;
    o_ws(o);
    if (o->pos != o->len)
        return o_fail(o, "text after the root value"), false;
    return true;
}

static void oracle_free(oracle *o)
{
    free(o->n);
    free(o->arena);
    memset(o, 0, sizeof *o);
}

/* ======================================================================== */
/* Checking jdoc against the oracle                                         */
/* ======================================================================== */

typedef struct sbuf {
    char *s;
    size_t len, cap;
} sbuf;

static void sb_put(sbuf *b, const char *p, size_t n)
{
    if (b->len + n + 1 > b->cap) {
        while (b->len + n + 1 > b->cap)
            b->cap = b->cap ? b->cap * 2 : 256;
        b->s = realloc(b->s, b->cap);
        cr_assert_not_null(b->s);
    }
    memcpy(b->s + b->len, p, n);
    b->len += n;
    b->s[b->len] = 0;
}

static void sb_puts(sbuf *b, const char *s) { sb_put(b, s, strlen(s)); }

static void sb_reset(sbuf *b)
{
    b->len = 0;
    sb_put(b, "", 0);
}

/* RFC 6901: '~' is "~0", '/' is "~1". */
static void sb_ptr_key(sbuf *b, const char *k, size_t n)
{
    for (size_t i = 0; i < n; i++)
        sb_put(b, k[i] == '~' ? "~0" : k[i] == '/' ? "~1" : k + i, k[i] == '~' || k[i] == '/' ? 2 : 1);
}

/* Oj::Doc: '/' is "\/", '\' is "\\". */
static void sb_oj_key(sbuf *b, const char *k, size_t n)
{
    for (size_t i = 0; i < n; i++)
        sb_put(b, k[i] == '/' ? "\\/" : k[i] == '\\' ? "\\\\" : k + i, k[i] == '/' || k[i] == '\\' ? 2 : 1);
}

/* Keys an Oj path cannot name: "" (an empty last step is dropped), ".." (goes
 * up) and keys with a NUL byte (paths are NUL-terminated). */
static bool oj_nameable(const char *k, size_t n)
{
    return n > 0 && !(n == 2 && k[0] == '.' && k[1] == '.') && !memchr(k, 0, n);
}

static void sb_index(sbuf *b, uint64_t i)
{
    char t[24];
    int n = snprintf(t, sizeof t, "%" PRIu64, i);
    sb_put(b, t, (size_t)n);
}

/*
 * Cost: jdoc finds a member or an element by walking its container from the
 * start, so fetching a value from the root costs the sum of its ancestors'
 * positions. Fetching every element of a 74 000-element array that way is
 * quadratic (marine_ik.json alone would be about 13e9 index steps per kernel
 * for the four absolute lookups). So the absolute lookups (jdoc_pointer and
 * jdoc_fetch from the root, both jdoc_path_of) run on every value whose walk
 * costs at most ABS_COST_CAP steps, and on every ABS_SAMPLEth of the others
 * (with the corpus: all values of every file except canada, marine_ik, mesh
 * and numbers, and 42% to 71% of theirs). Every value is still reached through
 * its parent's iterator and checked there, and every container's first child
 * is fetched relative to it.
 */
#ifndef ABS_COST_CAP
#define ABS_COST_CAP 4096
#endif
#ifndef ABS_SAMPLE
#define ABS_SAMPLE 31
#endif
/* Kernels other than the scalar reference and the best one check every OTHER_SAMPLEth value
 * in full (all values are still iterated and compared with the reference kernel). */
#define OTHER_SAMPLE 7

typedef struct ctx {
    const char *file;       /* base name, for messages */
    const char *kname;
    const oracle *o;
    jdoc_doc *d;
    jdoc_value root;
    bool full;              /* check every value (else every OTHER_SAMPLEth) */
    uint32_t *ref_idx;      /* index entry of every value under the reference kernel */
    bool have_ref;
    sbuf ptr, oj, tmp, got; /* current JSON Pointer and Oj path (without the root's "/") */
    int fails;
    bool stop;
    size_t values, checked, absolute;
} ctx;

__attribute__((format(printf, 4, 5))) static void failed(ctx *c, int line, const char *cond, const char *fmt, ...)
{
    if (++c->fails >= MAX_FAILS)
        c->stop = true;   /* the rest of this file would mostly repeat it */
    if (c->fails > MAX_FAILS)
        return;
    char msg[600];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    cr_expect(false, "%s [%s] at pointer \"%.200s\": %s  (line %d: %s)", c->file, c->kname, c->ptr.s, msg, line,
              cond);
}
#define EXPECT(c, cond, ...)                           \
    do {                                               \
        if (!(cond))                                   \
            failed((c), __LINE__, #cond, __VA_ARGS__); \
    } while (0)

static bool same_double(double a, double b) { return memcmp(&a, &b, sizeof a) == 0; }

/* Type, typed getters, raw text and count of value v (node n). */
static void check_value(ctx *c, const onode *n, jdoc_value v)
{
    const char *src = c->o->s + n->start;
    size_t srclen = n->end - n->start;
    int show = srclen > 80 ? 80 : (int)srclen;
    jdoc_type t = jdoc_typeof(v);
    EXPECT(c, t == n->type, "jdoc_typeof is %s, expected %s for %.*s", jdoc_type_name(t), jdoc_type_name(n->type),
           show, src);

    const char *s;
    size_t len;
    jdoc_status st = jdoc_get_raw(v, &s, &len);
    EXPECT(c, st == JDOC_OK && len == srclen && memcmp(s, src, len) == 0,
           "jdoc_get_raw: %s, %zu bytes '%.*s', expected %zu bytes '%.*s'", jdoc_status_str(st), len,
           st == JDOC_OK ? (len > 80 ? 80 : (int)len) : 0, st == JDOC_OK ? s : "", srclen, show, src);

    bool b = false;
    st = jdoc_get_bool(v, &b);
    if (n->kind == O_BOOL)
        EXPECT(c, st == JDOC_OK && b == n->bval, "jdoc_get_bool: %s %d", jdoc_status_str(st), b);
    else
        EXPECT(c, st == JDOC_ERR_TYPE, "jdoc_get_bool on %s: %s", jdoc_type_name(n->type), jdoc_status_str(st));

    int64_t i = 0;
    uint64_t u = 0;
    double dv = 0;
    jdoc_status si = jdoc_get_int64(v, &i), su = jdoc_get_uint64(v, &u), sd = jdoc_get_double(v, &dv);
    if (n->kind == O_NUM) {
        const onum *e = &n->num;
        jdoc_status not_int = e->integer ? JDOC_ERR_RANGE : JDOC_ERR_TYPE;
        if (e->type == JDOC_INT)
            EXPECT(c, si == JDOC_OK && i == e->i, "jdoc_get_int64(%.*s): %s %" PRId64, show, src,
                   jdoc_status_str(si), i);
        else
            EXPECT(c, si == (e->type == JDOC_UINT ? JDOC_ERR_RANGE : not_int), "jdoc_get_int64(%.*s): %s", show,
                   src, jdoc_status_str(si));
        if (e->type == JDOC_UINT || (e->type == JDOC_INT && e->i >= 0))
            EXPECT(c, su == JDOC_OK && u == e->u, "jdoc_get_uint64(%.*s): %s %" PRIu64, show, src,
                   jdoc_status_str(su), u);
        else
            EXPECT(c, su == (e->type == JDOC_INT ? JDOC_ERR_RANGE : not_int), "jdoc_get_uint64(%.*s): %s", show,
                   src, jdoc_status_str(su));
        if (e->inf)
            EXPECT(c, sd == JDOC_ERR_RANGE, "jdoc_get_double(%.*s): %s, expected range error", show, src,
                   jdoc_status_str(sd));
        else
            EXPECT(c, sd == JDOC_OK && same_double(dv, e->d), "jdoc_get_double(%.*s): %s %a, strtod says %a", show,
                   src, jdoc_status_str(sd), dv, e->d);
    } else {
        EXPECT(c, si == JDOC_ERR_TYPE && su == JDOC_ERR_TYPE && sd == JDOC_ERR_TYPE,
               "number getters on %s: %s %s %s", jdoc_type_name(n->type), jdoc_status_str(si), jdoc_status_str(su),
               jdoc_status_str(sd));
    }

    st = jdoc_get_string(v, &s, &len);
    if (n->kind == O_STR) {
        const char *want = c->o->arena + n->str;
        if (n->str_ok)
            EXPECT(c, st == JDOC_OK && len == n->slen && memcmp(s, want, len) == 0,
                   "jdoc_get_string: %s, %zu bytes '%.*s', expected %u bytes '%.*s'", jdoc_status_str(st), len,
                   st == JDOC_OK ? (len > 80 ? 80 : (int)len) : 0, st == JDOC_OK ? s : "", n->slen,
                   n->slen > 80 ? 80 : (int)n->slen, want);
        else
            EXPECT(c, st == JDOC_ERR_STRING, "jdoc_get_string of a lone surrogate: %s", jdoc_status_str(st));
    } else {
        EXPECT(c, st == JDOC_ERR_TYPE, "jdoc_get_string on %s: %s", jdoc_type_name(n->type), jdoc_status_str(st));
    }

    bool container = n->kind == O_ARR || n->kind == O_OBJ;
    size_t cnt = jdoc_count(v);
    EXPECT(c, cnt == (container ? n->count : 0), "jdoc_count %zu, expected %u", cnt, container ? n->count : 0);
}

/* jdoc_path_of(v, syn) must be want[0..wlen). */
static void check_path_of(ctx *c, jdoc_value v, jdoc_syntax syn, const char *want, size_t wlen)
{
    sb_reset(&c->got);
    size_t n = jdoc_path_of(v, syn, c->got.s, c->got.cap);
    if (n + 1 > c->got.cap) {
        c->got.cap = n + 1;
        c->got.s = realloc(c->got.s, c->got.cap);
        cr_assert_not_null(c->got.s);
        n = jdoc_path_of(v, syn, c->got.s, c->got.cap);
    }
    EXPECT(c, n == wlen && memcmp(c->got.s, want, n) == 0, "jdoc_path_of(%s) is \"%.*s\", expected \"%.*s\"",
           syn == JDOC_SYNTAX_OJ ? "oj" : "pointer", n > 300 ? 300 : (int)n, c->got.s,
           wlen > 300 ? 300 : (int)wlen, want);
}

/* Absolute lookups of value v (node n) from the root by the current paths. */
static void check_absolute(ctx *c, const onode *n, jdoc_value v, bool oj_ok)
{
    jdoc_value a;
    jdoc_status st = jdoc_pointer(c->root, c->ptr.s, c->ptr.len, &a);
    EXPECT(c, st == JDOC_OK, "jdoc_pointer: %s", jdoc_status_str(st));
    if (st == JDOC_OK)
        EXPECT(c, jdoc_offset(a) == n->start && a.idx == v.idx, "jdoc_pointer landed at offset %zu, expected %u",
               jdoc_offset(a), n->start);
    const char *oj = c->oj.len ? c->oj.s : "/";
    if (oj_ok) {
        st = jdoc_fetch(c->root, oj, &a);
        EXPECT(c, st == JDOC_OK, "jdoc_fetch(\"%.300s\"): %s", oj, jdoc_status_str(st));
        if (st == JDOC_OK)
            EXPECT(c, jdoc_offset(a) == n->start && a.idx == v.idx,
                   "jdoc_fetch(\"%.300s\") landed at offset %zu, expected %u", oj, jdoc_offset(a), n->start);
    }
    check_path_of(c, v, JDOC_SYNTAX_POINTER, c->ptr.s, c->ptr.len);
    if (oj_ok)
        check_path_of(c, v, JDOC_SYNTAX_OJ, oj, strlen(oj));
    c->absolute++;
}

/* From container v (node n), its first child by a relative Oj path and pointer. */
static void check_first_child(ctx *c, const onode *n, jdoc_value v)
{
    const onode *f = &c->o->n[n->first];
    const char *k = c->o->arena + f->key;
    jdoc_value a;
    jdoc_status st;
    sb_reset(&c->tmp);
    if (n->kind == O_ARR)
        sb_put(&c->tmp, "/0", 2);
    else {
        sb_put(&c->tmp, "/", 1);
        sb_ptr_key(&c->tmp, k, f->klen);
    }
    st = jdoc_pointer(v, c->tmp.s, c->tmp.len, &a);
    EXPECT(c, st == JDOC_OK && jdoc_offset(a) == f->start,
           "relative jdoc_pointer(\"%.300s\"): %s, offset %zu, expected %u",
           c->tmp.s, jdoc_status_str(st), st == JDOC_OK ? jdoc_offset(a) : 0, f->start);
    if (n->kind == O_OBJ && !oj_nameable(k, f->klen))
        return;
    sb_reset(&c->tmp);
    if (n->kind == O_ARR)
        sb_put(&c->tmp, "1", 1);
    else
        sb_oj_key(&c->tmp, k, f->klen);
    st = jdoc_fetch(v, c->tmp.s, &a);
    EXPECT(c, st == JDOC_OK && jdoc_offset(a) == f->start,
           "relative jdoc_fetch(\"%.300s\"): %s, offset %zu, expected %u",
           c->tmp.s, jdoc_status_str(st), st == JDOC_OK ? jdoc_offset(a) : 0, f->start);
}

/* Check node id, reached as v through its parent's iterator; then its children.
 * ptr_ok: reachable by key (no later duplicate on the way); oj_ok: and nameable in an Oj path. */
static void check_node(ctx *c, uint32_t id, jdoc_value v, uint64_t cost, bool ptr_ok, bool oj_ok)
{
    if (c->stop)
        return;
    const onode *n = &c->o->n[id];
    c->values++;
    size_t off = jdoc_offset(v);
    EXPECT(c, off == n->start, "iteration reached offset %zu, expected %u", off, n->start);
    if (off != n->start)
        return;   /* its subtree would only repeat the failure */
    if (c->have_ref)
        EXPECT(c, v.idx == c->ref_idx[id], "index entry %u, the reference kernel had %u", v.idx, c->ref_idx[id]);
    else
        c->ref_idx[id] = v.idx;

    bool sampled = c->full || id % OTHER_SAMPLE == 0;
    if (sampled) {
        c->checked++;
        check_value(c, n, v);
        if (ptr_ok && (cost <= ABS_COST_CAP || id % ABS_SAMPLE == 0))
            check_absolute(c, n, v, oj_ok);
    }
    if (n->kind != O_ARR && n->kind != O_OBJ) {
        jdoc_iter it;
        if (sampled)
            EXPECT(c, jdoc_iter_init(v, &it) == JDOC_ERR_TYPE, "jdoc_iter_init on a scalar");
        return;
    }
    if (sampled && n->count)
        check_first_child(c, n, v);

    jdoc_iter it;
    jdoc_status st = jdoc_iter_init(v, &it);
    EXPECT(c, st == JDOC_OK, "jdoc_iter_init: %s", jdoc_status_str(st));
    if (st != JDOC_OK)
        return;
    size_t plen = c->ptr.len, olen = c->oj.len;
    for (uint32_t ch = n->first; ch != NONE && !c->stop; ch = c->o->n[ch].next) {
        const onode *cn = &c->o->n[ch];
        jdoc_value cv;
        bool more = jdoc_iter_next(&it, &cv);
        EXPECT(c, more, "iteration ended after %u of %u children (status %s)", cn->pos, n->count,
               jdoc_status_str(it.status));
        if (!more)
            return;
        const char *k = c->o->arena + cn->key;
        sb_put(&c->ptr, "/", 1);
        sb_put(&c->oj, "/", 1);
        bool cptr = ptr_ok, coj = oj_ok;
        if (n->kind == O_OBJ) {
            const char *key;
            size_t klen;
            st = jdoc_iter_key(&it, &key, &klen);
            sb_ptr_key(&c->ptr, k, cn->klen);
            sb_oj_key(&c->oj, k, cn->klen);
            EXPECT(c, st == JDOC_OK && klen == cn->klen && memcmp(key, k, klen) == 0,
                   "jdoc_iter_key: %s '%.*s', expected '%.*s'", jdoc_status_str(st),
                   st == JDOC_OK ? (klen > 200 ? 200 : (int)klen) : 0, st == JDOC_OK ? key : "",
                   cn->klen > 200 ? 200 : (int)cn->klen, k);
            cptr = cptr && !cn->dup;
            coj = coj && cptr && oj_nameable(k, cn->klen);
        } else {
            sb_index(&c->ptr, cn->pos);
            sb_index(&c->oj, (uint64_t)cn->pos + 1);
        }
        check_node(c, ch, cv, cost + cn->pos + 1, cptr, coj);
        c->ptr.len = plen;
        c->ptr.s[plen] = 0;
        c->oj.len = olen;
        c->oj.s[olen] = 0;
    }
    if (c->stop)
        return;
    jdoc_value extra;
    EXPECT(c, !jdoc_iter_next(&it, &extra), "iteration goes past the %u children", n->count);
    EXPECT(c, it.status == JDOC_OK, "iteration status %s", jdoc_status_str(it.status));
}

typedef struct file_stats {
    size_t values;     /* checked in full on the scalar and the best kernel */
    size_t absolute;   /* of those, looked up from the root (per kernel) */
    size_t sampled;    /* checked in full on each other kernel */
} file_stats;

/* One document (an exact-size buffer) on every kernel; base names it in messages. */
static void check_doc(const char *base, const char *buf, size_t len, jdoc_kernel_id best, file_stats *fs)
{
    oracle o;
    bool ok = oracle_parse(&o, buf, len);
    cr_expect(ok, "%s: the oracle rejects it: %s at byte %zu", base, o.err, o.err_at);
    memset(fs, 0, sizeof *fs);
    if (!ok) {
        oracle_free(&o);
        return;
    }
    uint32_t *ref_idx = malloc(o.nn * sizeof *ref_idx);
    cr_assert_not_null(ref_idx);
    size_t ref_index_size = 0;
    bool have_ref = false;
    int fails = 0;   /* MAX_FAILS per file, all kernels together */
    for (int k = JDOC_KERNEL_SCALAR; k < JDOC_KERNEL_COUNT; k++) {
        if (!jdoc_kernel_supported((jdoc_kernel_id)k)) {
            tu_note_kernel_skip((jdoc_kernel_id)k);
            continue;
        }
        ctx c = { .file = base, .kname = jdoc_kernel_id_name((jdoc_kernel_id)k), .o = &o, .ref_idx = ref_idx };
        if (fails >= MAX_FAILS) {
            cr_log_error("%s [%s]: not checked, the file reached %d failures", base, c.kname, MAX_FAILS);
            continue;
        }
        c.fails = fails;
        c.full = k == JDOC_KERNEL_SCALAR || k == (int)best;
        c.have_ref = have_ref;
        jdoc_parser *p = tu_parser((jdoc_kernel_id)k);
        cr_assert_not_null(p, "%s: no parser for kernel %s", base, c.kname);
        jdoc_status st = jdoc_parse(p, buf, len, &c.d);
        cr_expect_eq(st, JDOC_OK, "%s [%s]: jdoc_parse: %s at %zu", base, c.kname, jdoc_last_error(p)->message,
                     jdoc_last_error(p)->offset);
        fails += st != JDOC_OK;
        if (st == JDOC_OK) {
            jdoc_status vs = jdoc_validate(c.d);
            cr_expect_eq(vs, o.lone_surrogate ? JDOC_ERR_STRING : JDOC_OK, "%s [%s]: jdoc_validate: %s", base,
                         c.kname, jdoc_status_str(vs));
            if (have_ref)
                cr_expect_eq(jdoc_doc_index_size(c.d), ref_index_size,
                             "%s [%s]: index size differs from the reference kernel's", base, c.kname);
            else
                ref_index_size = jdoc_doc_index_size(c.d);
            c.root = jdoc_root(c.d);
            sb_reset(&c.ptr);
            sb_reset(&c.oj);
            check_node(&c, 0, c.root, 0, true, true);
            if (c.fails > fails)
                cr_log_error("%s [%s]: %d failure(s)%s", base, c.kname, c.fails - fails,
                             c.stop ? ", stopped checking this file at the limit" : "");
            else if (!have_ref)
                have_ref = c.values == o.nn;
            fails = c.fails;
            if (c.full) {
                fs->values = c.checked;
                fs->absolute = c.absolute;
            } else {
                fs->sampled = c.checked;
            }
        }
        jdoc_parser_free(p);
        free(c.ptr.s);
        free(c.oj.s);
        free(c.tmp.s);
        free(c.got.s);
    }
    free(ref_idx);
    oracle_free(&o);
}

static void check_file(const char *path, jdoc_kernel_id best, file_stats *fs)
{
    size_t len;
    char *buf = tu_read(path, &len);
    cr_assert_not_null(buf, "cannot read %s", path);
    check_doc(strrchr(path, '/') ? strrchr(path, '/') + 1 : path, buf, len, best, fs);
    free(buf);
}

static jdoc_kernel_id best_kernel(void)
{
    jdoc_parser *p = jdoc_parser_new(NULL);
    cr_assert_not_null(p);
    jdoc_kernel_id k = jdoc_kernel_from_name(jdoc_kernel_name(p));
    jdoc_parser_free(p);
    return k;
}

static void check_dir(const char *dir)
{
    TU_REQUIRE_CORPUS();
    char **files = tu_list(dir);
    cr_assert_not_null(files, "cannot list %s", dir);
    jdoc_kernel_id best = best_kernel();
    int nfiles = 0;
    for (char **f = files; *f; f++) {
        size_t l = strlen(*f);
        if (l < 5 || strcmp(*f + l - 5, ".json") != 0)
            continue;   /* .ndjson, .txt */
        file_stats fs;
        check_file(*f, best, &fs);
        cr_log_info("%s: %zu values checked on the scalar and %s kernels, %zu of them also looked up from the "
                    "root; %zu checked on each other kernel",
                    *f, fs.values, jdoc_kernel_id_name(best), fs.absolute, fs.sampled);
        nfiles++;
    }
    cr_expect_gt(nfiles, 0, "no .json file in %s", dir);
    tu_free_list(files);
}

Test(oracle, docker_corpus, .timeout = 120) { check_dir(CORPUS "/docker"); }
Test(oracle, standard_corpus, .timeout = 300) { check_dir(CORPUS "/standard"); }

/* Hand-made documents through the same checks: duplicate keys (also equal only once
 * decoded), keys Oj paths cannot name, escapes, lone surrogates, deep nesting, a key
 * longer than jdoc's on-stack path buffer, scalar roots, odd whitespace. */
Test(oracle, crafted_documents, .timeout = 60)
{
    static const char *const docs[] = {
        "{\"a\\/b\": 1, \"a/b\": 2, \"x\": {\"k\": [1, {\"k\": 3}], \"k\": {\"z\": 4}}, \"\": {\"\": 5},"
        " \"..\": 6, \".\": 7, \"~0\": 8, \"~1/\": 9, \"back\\\\slash\": 10, \"1\": 11, \"01\": 12,"
        " \"\\u0000nul\": 13, \"\xc3\xa9\": 14, \"\\u00e9\": 15, \"\\ud83d\\ude00\": [16], \"k\\\"q\": 17,"
        " \"x\": 18, \"\\u0078\": 19, \"/\": {\"\\\\\": {\"~\": 20}}}",
        "[\"\\ud800\", \"\\udc00\\ud800\", \"\\ud800\\u0041\", \"a\\u0000b\", \"\\\"\\\\\\/\\b\\f\\n\\r\\t\","
        " \"\\u00e9\\u20AC\\uD83D\\uDE00\", \"\", \"\\u0000\"]",
        "\t{\r\n\"a\" \t:\n[ 1 ,\t2 ]\r\n, \"b\":{ } ,\"c\" : [ [ ] , { } ]}\n ",
        "{\"a\": [], \"b\": {}, \"c\": [[]], \"d\": [{}], \"e\": [null, true, false, 0, -1, 1.5, \"\"]}",
        "42", "-0", "1e400", " \"s\\n\" ", "true", "null", "[]", "{}",
    };
    jdoc_kernel_id best = best_kernel();
    file_stats fs;
    char name[32];
    for (size_t i = 0; i < sizeof docs / sizeof *docs; i++) {
        size_t len = strlen(docs[i]);
        char *b = malloc(len ? len : 1);
        cr_assert_not_null(b);
        memcpy(b, docs[i], len);
        snprintf(name, sizeof name, "crafted #%zu", i);
        check_doc(name, b, len, best, &fs);
        free(b);
    }
    /* 1000 nested arrays and objects: paths longer than jdoc's on-stack buffers */
    sbuf d = { 0 };
    for (int i = 0; i < 1000; i++)
        sb_puts(&d, i % 2 ? "[7, " : "{\"k/\": 1, \"k~\": ");
    sb_puts(&d, "\"deep\"");
    for (int i = 999; i >= 0; i--)
        sb_puts(&d, i % 2 ? "]" : "}");
    check_doc("deep", d.s, d.len, best, &fs);
    cr_expect_eq(fs.values, 1000 + 1000 + 1);
    cr_expect_eq(fs.absolute, fs.values);
    /* a 3000-byte key with slashes, tildes and backslashes */
    sb_reset(&d);
    sb_puts(&d, "{\"");
    for (int i = 0; i < 1000; i++)
        sb_puts(&d, i % 3 == 0 ? "a/b" : i % 3 == 1 ? "~\\\\" : "xyz");
    sb_puts(&d, "\": {\"in\": [1, 2]}, \"z\": 0}");
    check_doc("long key", d.s, d.len, best, &fs);
    cr_expect_eq(fs.absolute, 6);
    free(d.s);
}

/* ======================================================================== */
/* The oracle itself, on a small document with every feature                */
/* ======================================================================== */

Test(oracle, oracle_self_check)
{
    const char *s = "{\"a\\/b\": [1, -0, 1.5e3, \"x\\u00e9\\ud83d\\ude00\", true, null],"
                    " \"a/b\": 2, \"~\": {}, \"\": []}";
    oracle o;
    cr_assert(oracle_parse(&o, s, strlen(s)), "%s at %zu", o.err, o.err_at);
    cr_expect_eq(o.nn, 11);
    const onode *arr = &o.n[1];
    cr_expect_eq(arr->kind, O_ARR);
    cr_expect_eq(arr->count, 6);
    cr_expect_eq(arr->klen, 3);
    cr_expect(memcmp(o.arena + arr->key, "a/b", 3) == 0);
    cr_expect_eq(o.n[3].type, JDOC_INT);
    cr_expect(signbit(o.n[3].num.d));
    cr_expect_eq(o.n[4].num.d, 1500.0);
    cr_expect_eq(o.n[5].slen, 7);
    cr_expect(memcmp(o.arena + o.n[5].str, "x\xc3\xa9\xf0\x9f\x98\x80", 7) == 0);
    cr_expect(o.n[8].dup, "\"a/b\" repeats the decoded key \"a\\/b\"");
    cr_expect(!o.n[1].dup);
    cr_expect_eq(o.n[9].type, JDOC_OBJECT);
    cr_expect_eq(o.n[10].start, strlen(s) - 3);
    cr_expect_eq(o.n[10].end, strlen(s) - 1);
    oracle_free(&o);
    const char *bad[] = { "[1,]", "{\"a\" 1}", "[01]", "[1.]", "\"a", "[tru]", "[1] 2", "\"\\x\"" };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        cr_expect(!oracle_parse(&o, bad[i], strlen(bad[i])), "the oracle accepts %s", bad[i]);
        oracle_free(&o);
    }
}

/* ======================================================================== */
/* Adversarial numbers through the full path                                */
/* ======================================================================== */

#define DBL_HALF_PAST_MAX                                                                                      \
    "17976931348623158079372897140530341507993413271003782693617377898044496829276475094664901797758720709633" \
    "02864166928879109465555478519404026306574886715058206819089020007083836762738548458177115317644757302700" \
    "69855571366959622842914819860834936475292719074168444365510704342711559699508093042880177904174497792"

static const struct adv {
    const char *text;
    jdoc_type type;   /* written by hand: checks the oracle too */
} ADV[] = {
    /* subnormals and the subnormal/normal boundary */
    { "4.9406564584124654e-324", JDOC_DOUBLE },   /* smallest subnormal */
    { "-4.9406564584124654e-324", JDOC_DOUBLE },
    { "5e-324", JDOC_DOUBLE },
    { "2.4703282292062327e-324", JDOC_DOUBLE },   /* just under half the smallest: 0 */
    { "2.4703282292062328e-324", JDOC_DOUBLE },   /* just over: the smallest */
    { "2.2250738585072009e-308", JDOC_DOUBLE },   /* largest subnormal */
    { "2.2250738585072011e-308", JDOC_DOUBLE },
    { "2.2250738585072012e-308", JDOC_DOUBLE },
    { "2.2250738585072014e-308", JDOC_DOUBLE },   /* smallest normal */
    /* halfway cases: ties to even */
    { "9007199254740993", JDOC_INT },             /* 2^53 + 1 */
    { "9007199254740993.0", JDOC_DOUBLE },
    { "9007199254740993e0", JDOC_DOUBLE },
    { "9007199254740993.0000000000000000001", JDOC_DOUBLE },
    { "9007199254740995", JDOC_INT },
    { "-9007199254740993", JDOC_INT },
    { "2.0000000000000002220446049250313080847263336181640625", JDOC_DOUBLE },
    { "2.0000000000000002220446049250313080847263336181640624", JDOC_DOUBLE },
    { "2.0000000000000002220446049250313080847263336181640626", JDOC_DOUBLE },
    { "1.00000000000000011102230246251565404236316680908203125", JDOC_DOUBLE },
    { "0.1000000000000000055511151231257827021181583404541015625", JDOC_DOUBLE },
    { "1e23", JDOC_DOUBLE },
    { "1.7976931348623157e308", JDOC_DOUBLE },    /* DBL_MAX */
    { "1.7976931348623158e308", JDOC_DOUBLE },    /* rounds to DBL_MAX */
    { "1.7976931348623159e308", JDOC_DOUBLE },    /* rounds to infinity */
    { DBL_HALF_PAST_MAX, JDOC_DOUBLE },           /* exactly halfway to 2^1024: infinity */
    /* 19-20 digit mantissas and longer */
    { "1234567890123456789", JDOC_INT },
    { "12345678901234567890", JDOC_UINT },
    { "9999999999999999999", JDOC_UINT },
    { "99999999999999999999", JDOC_DOUBLE },
    { "-1234567890123456789", JDOC_INT },
    { "-12345678901234567890", JDOC_DOUBLE },
    { "1.2345678901234567890e10", JDOC_DOUBLE },
    { "12345678901234567890e-10", JDOC_DOUBLE },
    { "0.12345678901234567890123", JDOC_DOUBLE },
    { "7.2057594037927933e16", JDOC_DOUBLE },
    { "18446744073709551615e0", JDOC_DOUBLE },
    { "123456789012345678901234567890", JDOC_DOUBLE },
    { "36893488147419103232", JDOC_DOUBLE },      /* 2^65 */
    { "340282366920938463463374607431768211456", JDOC_DOUBLE },   /* 2^128 */
    { "99999999999999999999999999999999999999999", JDOC_DOUBLE },
    /* exponents past +-400 */
    { "1e400", JDOC_DOUBLE },
    { "-1e400", JDOC_DOUBLE },
    { "1e-400", JDOC_DOUBLE },
    { "-1e-400", JDOC_DOUBLE },
    { "0e400", JDOC_DOUBLE },
    { "0.0e-999999", JDOC_DOUBLE },
    { "0.000001e400", JDOC_DOUBLE },
    { "1000000000000000000000000000000e-330", JDOC_DOUBLE },
    { "100000000000000000000000e-430", JDOC_DOUBLE },
    { "123e-500", JDOC_DOUBLE },
    { "1e0000000000000000000000000000000000001", JDOC_DOUBLE },
    { "1E+99999999999999999999", JDOC_DOUBLE },
    { "1e-99999999999999999999", JDOC_DOUBLE },
    /* zeros */
    { "0", JDOC_INT },
    { "-0", JDOC_INT },
    { "-0.0", JDOC_DOUBLE },
    { "0.0", JDOC_DOUBLE },
    { "-0e0", JDOC_DOUBLE },
    { "0e-5", JDOC_DOUBLE },
    /* 2^53 and the 64-bit limits, and one past each */
    { "9007199254740992", JDOC_INT },
    { "-9223372036854775808", JDOC_INT },
    { "-9223372036854775809", JDOC_DOUBLE },
    { "9223372036854775807", JDOC_INT },
    { "9223372036854775808", JDOC_UINT },
    { "18446744073709551615", JDOC_UINT },
    { "18446744073709551616", JDOC_DOUBLE },
    { "-18446744073709551615", JDOC_DOUBLE },
    { "-18446744073709551616", JDOC_DOUBLE },
};

/* Doubles written by hand for some of them (checks strtod and the oracle too). */
static const struct {
    const char *text;
    double want;
} ADV_D[] = {
    { "4.9406564584124654e-324", 0x1p-1074 },
    { "2.4703282292062327e-324", 0.0 },
    { "2.4703282292062328e-324", 0x1p-1074 },
    { "2.2250738585072009e-308", 0x0.fffffffffffffp-1022 },
    { "2.2250738585072014e-308", 0x1p-1022 },
    { "9007199254740993", 0x1p53 },
    { "9007199254740993.0000000000000000001", 0x1.0000000000001p53 },
    { "9007199254740995", 0x1.0000000000002p53 },
    { "2.0000000000000002220446049250313080847263336181640625", 2.0 },
    { "2.0000000000000002220446049250313080847263336181640626", 0x1.0000000000001p1 },
    { "1.00000000000000011102230246251565404236316680908203125", 1.0 },
    { "0.1000000000000000055511151231257827021181583404541015625", 0.1 },
    { "1e23", 0x1.52d02c7e14af6p76 },
    { "1.7976931348623158e308", DBL_MAX },
    { "1e-400", 0.0 },
    { "-1e-400", -0.0 },
    { "-0", -0.0 },
    { "-0.0", -0.0 },
    { "9223372036854775808", 0x1p63 },
    { "-9223372036854775808", -0x1p63 },
    { "18446744073709551616", 0x1p64 },
    { "1e0000000000000000000000000000000000001", 10.0 },
    { "1e-99999999999999999999", 0.0 },
};

Test(oracle, adversarial_numbers)
{
    size_t n = sizeof ADV / sizeof *ADV;
    sbuf doc = { 0 };
    sb_put(&doc, "[", 1);
    for (size_t i = 0; i < n; i++) {
        if (i)
            sb_put(&doc, ", ", 2);
        sb_put(&doc, ADV[i].text, strlen(ADV[i].text));
    }
    sb_put(&doc, "]", 1);
    char *buf = malloc(doc.len);   /* exact size */
    cr_assert_not_null(buf);
    memcpy(buf, doc.s, doc.len);
    for (int k = JDOC_KERNEL_SCALAR; k < JDOC_KERNEL_COUNT; k++) {
        if (!jdoc_kernel_supported((jdoc_kernel_id)k)) {
            tu_note_kernel_skip((jdoc_kernel_id)k);
            continue;
        }
        const char *kn = jdoc_kernel_id_name((jdoc_kernel_id)k);
        jdoc_parser *p = tu_parser((jdoc_kernel_id)k);
        jdoc_doc *d;
        cr_assert_eq(jdoc_parse(p, buf, doc.len, &d), JDOC_OK, "[%s] %s", kn, jdoc_last_error(p)->message);
        jdoc_value root = jdoc_root(d);
        cr_expect_eq(jdoc_count(root), n);
        for (size_t i = 0; i < n; i++) {
            const char *t = ADV[i].text;
            onum e;
            cr_assert(onum_eval(t, strlen(t), &e), "the oracle rejects %s", t);
            cr_expect_eq(e.type, ADV[i].type, "the oracle classifies %s as %s", t, jdoc_type_name(e.type));
            char ptr[24];
            snprintf(ptr, sizeof ptr, "/%zu", i);
            jdoc_value v;
            cr_assert_eq(jdoc_pointer(root, ptr, strlen(ptr), &v), JDOC_OK, "[%s] %s", kn, ptr);
            const char *raw;
            size_t rl;
            cr_expect(jdoc_get_raw(v, &raw, &rl) == JDOC_OK && rl == strlen(t) && memcmp(raw, t, rl) == 0,
                      "[%s] raw of %s", kn, t);
            jdoc_type ty = jdoc_typeof(v);
            cr_expect_eq(ty, e.type, "[%s] jdoc_typeof(%s) is %s, expected %s", kn, t, jdoc_type_name(ty),
                         jdoc_type_name(e.type));
            int64_t iv = 0;
            uint64_t uv = 0;
            double dv = 0;
            jdoc_status si = jdoc_get_int64(v, &iv), su = jdoc_get_uint64(v, &uv), sd = jdoc_get_double(v, &dv);
            jdoc_status not_int = e.integer ? JDOC_ERR_RANGE : JDOC_ERR_TYPE;
            if (e.type == JDOC_INT)
                cr_expect(si == JDOC_OK && iv == e.i, "[%s] jdoc_get_int64(%s): %s %" PRId64 ", expected %" PRId64, kn,
                          t, jdoc_status_str(si), iv, e.i);
            else
                cr_expect_eq(si, e.type == JDOC_UINT ? JDOC_ERR_RANGE : not_int, "[%s] jdoc_get_int64(%s): %s", kn, t,
                             jdoc_status_str(si));
            if (e.type == JDOC_UINT || (e.type == JDOC_INT && e.i >= 0))
                cr_expect(su == JDOC_OK && uv == e.u, "[%s] jdoc_get_uint64(%s): %s %" PRIu64 ", expected %" PRIu64,
                          kn, t, jdoc_status_str(su), uv, e.u);
            else
                cr_expect_eq(su, e.type == JDOC_INT ? JDOC_ERR_RANGE : not_int, "[%s] jdoc_get_uint64(%s): %s", kn, t,
                             jdoc_status_str(su));
            if (e.inf)
                cr_expect_eq(sd, JDOC_ERR_RANGE, "[%s] jdoc_get_double(%s): %s %a, expected a range error", kn, t,
                             jdoc_status_str(sd), dv);
            else
                cr_expect(sd == JDOC_OK && same_double(dv, e.d), "[%s] jdoc_get_double(%s): %s %a, strtod says %a", kn,
                          t, jdoc_status_str(sd), dv, e.d);
        }
        jdoc_parser_free(p);
    }
    /* the 128-bit references and strtod against values written by hand */
    onum e;
    cr_assert(onum_eval("-9223372036854775808", 20, &e));
    cr_expect(e.type == JDOC_INT && e.i == INT64_MIN);
    cr_assert(onum_eval("9223372036854775807", 19, &e));
    cr_expect(e.type == JDOC_INT && e.i == INT64_MAX);
    cr_assert(onum_eval("9223372036854775808", 19, &e));
    cr_expect(e.type == JDOC_UINT && e.u == (uint64_t)INT64_MAX + 1);
    cr_assert(onum_eval("18446744073709551615", 20, &e));
    cr_expect(e.type == JDOC_UINT && e.u == UINT64_MAX);
    cr_assert(onum_eval("-0", 2, &e));
    cr_expect(e.type == JDOC_INT && e.i == 0 && signbit(e.d));
    cr_assert(onum_eval("1e400", 5, &e));
    cr_expect(e.inf);
    cr_assert(onum_eval(DBL_HALF_PAST_MAX, strlen(DBL_HALF_PAST_MAX), &e));
    cr_expect(e.inf, "halfway between DBL_MAX and 2^1024 rounds to even: infinity");
    for (size_t i = 0; i < sizeof ADV_D / sizeof *ADV_D; i++) {
        cr_assert(onum_eval(ADV_D[i].text, strlen(ADV_D[i].text), &e));
        cr_expect(same_double(e.d, ADV_D[i].want), "strtod(%s) = %a, expected %a", ADV_D[i].text, e.d, ADV_D[i].want);
    }
    free(buf);
    free(doc.s);
}
