/* SPDX-License-Identifier: MIT */
/*
 * JSONPath (RFC 9535): compile a query once, then evaluate it lazily over the
 * structural index, one node at a time, in nodelist order.
 *
 * Evaluation is a depth-first walk with an explicit stack of frames. A frame
 * applies one segment to one node: it runs the segment's selectors over the
 * node's children in turn, and each child a selector yields goes on to the
 * next segment (a new frame) or, after the last segment, out to the caller.
 * A descendant segment's frame then goes over the node's children once more
 * and pushes a frame of the same segment for every container child, so the
 * node's own results come before its descendants' (RFC 9535 2.5.2.2); scalar
 * children and whole subtrees are passed over through the index's jump.
 * Each frame remembers the step (key or index) to its current child, so the
 * frames spell the normalized path of the node just yielded.
 *
 * Filters evaluate their embedded queries the same way, each in its own
 * reusable run; singular queries are direct walks. Nothing is allocated per
 * node: frames, slice positions and matcher memory grow once per iterator.
 */
#include <stdio.h>
#include <stdlib.h>
#include "query.h"
#include "stage2/number.h"

/* Nesting of filters, parentheses and function calls in a query. */
#define MAX_NEST 64
/* The I-JSON range of integers, for indices and slice bounds. */
#define MAX_SAFE_INT 9007199254740991LL

#define CH(d, e) jdoc__ch((d), (e))

/* ------------------------------------------------------------------------ */
/* Compiled form                                                            */
/* ------------------------------------------------------------------------ */

/* ------------------------------------------------------------------------ */
/* Allocation                                                               */
/* ------------------------------------------------------------------------ */

static void *def_malloc(void *ud, size_t n) { (void)ud; return malloc(n); }
static void *def_realloc(void *ud, void *p, size_t n) { (void)ud; return realloc(p, n); }
static void def_free(void *ud, void *p) { (void)ud; free(p); }
static const jdoc_allocator default_alloc = { def_malloc, def_realloc, def_free, NULL };

static void *arena(jdoc_query *q, size_t n)
{
    n = (n + 15) & ~(size_t)15;
    chunk *c = q->mem;
    if (!c || c->cap - c->used < n) {
        size_t cap = n > 4000 ? n : 4000;
        c = q->a.malloc(q->a.ud, sizeof *c + cap);
        if (!c)
            return NULL;
        c->next = q->mem;
        c->used = 0;
        c->cap = cap;
        q->mem = c;
    }
    void *p = c->data + c->used;
    c->used += n;
    memset(p, 0, n);
    return p;
}

/* ------------------------------------------------------------------------ */
/* Parser                                                                   */
/* ------------------------------------------------------------------------ */

typedef struct qp {
    const char *s;
    size_t n, i;
    jdoc_query *q;
    size_t err_off;
    const char *err;
    bool nomem;
    int depth;
} qp;

static void *fail(qp *p, size_t off, const char *msg)
{
    if (!p->err) {
        p->err = msg;
        p->err_off = off;
    }
    return NULL;
}

static void *oom(qp *p)
{
    p->nomem = true;
    return fail(p, p->i, "out of memory");
}

static inline int cur(const qp *p) { return p->i < p->n ? (unsigned char)p->s[p->i] : -1; }
static inline int at(const qp *p, size_t k) { return p->i + k < p->n ? (unsigned char)p->s[p->i + k] : -1; }
static inline bool is_blank(int c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }
static inline void skip_s(qp *p)
{
    while (is_blank(cur(p)))
        p->i++;
}
static inline bool is_digit(int c) { return c >= '0' && c <= '9'; }
static inline bool is_alpha(int c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
static inline bool name_first(int c) { return is_alpha(c) || c == '_' || c >= 0x80; }
static inline bool name_char(int c) { return name_first(c) || is_digit(c); }

/* The query must be UTF-8: the offset of the first bad byte, or len. */
static size_t utf8_bad(const unsigned char *s, size_t n)
{
    for (size_t i = 0; i < n;) {
        unsigned char c = s[i];
        if (c < 0x80) {
            i++;
            continue;
        }
        size_t k;
        uint32_t cp, min;
        if (c >= 0xC2 && c <= 0xDF)
            k = 1, cp = c & 31, min = 0x80;
        else if (c >= 0xE0 && c <= 0xEF)
            k = 2, cp = c & 15, min = 0x800;
        else if (c >= 0xF0 && c <= 0xF4)
            k = 3, cp = c & 7, min = 0x10000;
        else
            return i;
        if (i + k >= n)
            return i;
        for (size_t j = 1; j <= k; j++) {
            if ((s[i + j] & 0xC0) != 0x80)
                return i;
            cp = cp << 6 | (s[i + j] & 0x3F);
        }
        if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
            return i;
        i += k + 1;
    }
    return n;
}

static void put_utf8(char *out, size_t *o, uint32_t cp)
{
    if (cp < 0x80) {
        out[(*o)++] = (char)cp;
    } else if (cp < 0x800) {
        out[(*o)++] = (char)(0xC0 | cp >> 6);
        out[(*o)++] = (char)(0x80 | (cp & 0x3F));
    } else if (cp < 0x10000) {
        out[(*o)++] = (char)(0xE0 | cp >> 12);
        out[(*o)++] = (char)(0x80 | ((cp >> 6) & 0x3F));
        out[(*o)++] = (char)(0x80 | (cp & 0x3F));
    } else {
        out[(*o)++] = (char)(0xF0 | cp >> 18);
        out[(*o)++] = (char)(0x80 | ((cp >> 12) & 0x3F));
        out[(*o)++] = (char)(0x80 | ((cp >> 6) & 0x3F));
        out[(*o)++] = (char)(0x80 | (cp & 0x3F));
    }
}

static int hex4(qp *p, size_t at_i)
{
    if (at_i + 4 > p->n)
        return -1;
    int v = 0;
    for (int k = 0; k < 4; k++) {
        int c = (unsigned char)p->s[at_i + k], h;
        if (is_digit(c))
            h = c - '0';
        else if (c >= 'a' && c <= 'f')
            h = c - 'a' + 10;
        else if (c >= 'A' && c <= 'F')
            h = c - 'A' + 10;
        else
            return -1;
        v = v << 4 | h;
    }
    return v;
}

/* A string literal at the quote: decoded into the arena. */
static bool parse_string(qp *p, const char **out, size_t *olen)
{
    int quote = cur(p);
    size_t start = p->i++;
    /* the decoded text is never longer than the literal */
    char *buf = arena(p->q, p->n - p->i + 1);
    if (!buf)
        return oom(p), false;
    size_t o = 0;
    for (;;) {
        int c = cur(p);
        if (c < 0)
            return fail(p, start, "unterminated string"), false;
        if (c == quote) {
            p->i++;
            break;
        }
        if (c < 0x20)
            return fail(p, p->i, "control character in a string (write it as an escape)"), false;
        if (c != '\\') {
            buf[o++] = (char)c;
            p->i++;
            continue;
        }
        size_t esc = p->i;
        int e = at(p, 1);
        p->i += 2;
        switch (e) {
        case 'b': buf[o++] = '\b'; break;
        case 'f': buf[o++] = '\f'; break;
        case 'n': buf[o++] = '\n'; break;
        case 'r': buf[o++] = '\r'; break;
        case 't': buf[o++] = '\t'; break;
        case '/': buf[o++] = '/'; break;
        case '\\': buf[o++] = '\\'; break;
        case '"':
        case '\'':
            if (e != quote)
                return fail(p, esc, "invalid escape: only the string's own quote is escaped"), false;
            buf[o++] = (char)e;
            break;
        case 'u': {
            int h = hex4(p, p->i);
            if (h < 0)
                return fail(p, esc, "invalid \\u escape: four hex digits expected"), false;
            p->i += 4;
            uint32_t cp = (uint32_t)h;
            if (cp >= 0xDC00 && cp <= 0xDFFF)
                return fail(p, esc, "lone low surrogate in a \\u escape"), false;
            if (cp >= 0xD800 && cp <= 0xDBFF) {
                int lo = cur(p) == '\\' && at(p, 1) == 'u' ? hex4(p, p->i + 2) : -1;
                if (lo < 0xDC00 || lo > 0xDFFF)
                    return fail(p, esc, "high surrogate without a low surrogate after it"), false;
                p->i += 6;
                cp = 0x10000 + ((cp - 0xD800) << 10) + ((uint32_t)lo - 0xDC00);
            }
            put_utf8(buf, &o, cp);
            break;
        }
        default:
            return fail(p, esc, "invalid escape in a string"), false;
        }
    }
    *out = buf;
    *olen = o;
    return true;
}

static void make_step(jdoc_step *st, const char *k, size_t n)
{
    st->kind = STEP_KEY;
    st->key = k;
    st->klen = (uint32_t)n;
    st->kw = jdoc__key_word(k, n);
    st->index = NO_INDEX;
    st->plain = true;
    for (size_t i = 0; i < n; i++)
        if (k[i] == '"' || k[i] == '\\' || (unsigned char)k[i] < 0x20)
            st->plain = false;
}

/* int = "0" / ["-"] DIGIT1 *DIGIT, within the I-JSON range */
static bool parse_int(qp *p, int64_t *out)
{
    size_t start = p->i;
    bool neg = cur(p) == '-';
    if (neg)
        p->i++;
    if (!is_digit(cur(p)))
        return fail(p, start, "integer expected"), false;
    if (cur(p) == '0' && (neg || is_digit(at(p, 1))))
        return fail(p, start, neg ? "-0 is not an index" : "leading zeros in an integer"), false;
    int64_t v = 0;
    while (is_digit(cur(p))) {
        v = v * 10 + (cur(p) - '0');
        if (v > MAX_SAFE_INT)
            return fail(p, start, "integer out of range (beyond +-(2^53-1))"), false;
        p->i++;
    }
    *out = neg ? -v : v;
    return true;
}

static jq_path *parse_query(qp *p, bool relative);
static jq_expr *parse_or(qp *p);

/* A filter's expression as a test: queries test for existence. */
static jq_expr *as_logical(qp *p, jq_expr *x)
{
    if (!x)
        return NULL;
    if (x->kind == X_LIT)
        return fail(p, x->off, "a literal is not a test (compare it with something)");
    if (x->kind == X_QUERY) {
        x->kind = X_TEST;
        return x;
    }
    if (x->kind == X_FUNC && x->type == T_VALUE)
        return fail(p, x->off, "this function's result is a value, not a test: compare it with something");
    return x;
}

static jq_expr *new_expr(qp *p, uint8_t kind, size_t off)
{
    jq_expr *x = arena(p->q, sizeof *x);
    if (!x)
        return oom(p);
    x->kind = kind;
    x->off = (uint32_t)off;
    return x;
}

static bool is_value_arg(const jq_expr *x)
{
    return x->kind == X_LIT || (x->kind == X_QUERY && x->q->singular) || (x->kind == X_FUNC && x->type == T_VALUE);
}

static bool parse_number(qp *p, jq_val *v)
{
    size_t start = p->i;
    if (cur(p) == '-')
        p->i++;
    if (!is_digit(cur(p)))
        return fail(p, start, "number expected"), false;
    if (cur(p) == '0' && is_digit(at(p, 1)))
        return fail(p, start, "leading zeros in a number"), false;
    while (is_digit(cur(p)))
        p->i++;
    bool integer = true;
    if (cur(p) == '.') {
        p->i++;
        integer = false;
        if (!is_digit(cur(p)))
            return fail(p, p->i, "digits expected after '.'"), false;
        while (is_digit(cur(p)))
            p->i++;
    }
    if (cur(p) == 'e' || cur(p) == 'E') {
        p->i++;
        integer = false;
        if (cur(p) == '+' || cur(p) == '-')
            p->i++;
        if (!is_digit(cur(p)))
            return fail(p, p->i, "digits expected in the exponent"), false;
        while (is_digit(cur(p)))
            p->i++;
    }
    jdoc_num num;
    if (jdoc__num_parse(p->s + start, p->i - start, &num, NULL) != JDOC_OK)
        return fail(p, start, "invalid number"), false;
    v->kind = V_NUM;
    v->d = num.d;
    v->isint = integer && num.type == JDOC_INT;
    v->i = num.i;
    return true;
}

static bool keyword(qp *p, const char *w)
{
    size_t n = strlen(w);
    if (p->i + n > p->n || memcmp(p->s + p->i, w, n) != 0 || name_char(at(p, n)))
        return false;
    p->i += n;
    return true;
}

static const struct { const char *name; uint8_t result, nparams, params[2]; } functions[] = {
    [FN_LENGTH] = { "length", T_VALUE, 1, { T_VALUE } },
    [FN_COUNT] = { "count", T_VALUE, 1, { T_NODES } },
    [FN_MATCH] = { "match", T_LOGICAL, 2, { T_VALUE, T_VALUE } },
    [FN_SEARCH] = { "search", T_LOGICAL, 2, { T_VALUE, T_VALUE } },
    [FN_VALUE] = { "value", T_VALUE, 1, { T_NODES } },
};

static bool add_regex(qp *p, jq_regex *r)
{
    jdoc_query *q = p->q;
    if (q->nre == q->recap) {
        uint32_t nc = q->recap ? q->recap * 2 : 4;
        jq_regex **v = q->a.realloc(q->a.ud, q->re, nc * sizeof *v);
        if (!v)
            return false;
        q->re = v;
        q->recap = nc;
    }
    q->re[q->nre++] = r;
    size_t sc = jq__regex_scratch(r);
    if (sc > q->rxscratch)
        q->rxscratch = sc;
    return true;
}

static jq_expr *parse_function(qp *p)
{
    size_t start = p->i;
    while (is_digit(cur(p)) || (cur(p) >= 'a' && cur(p) <= 'z') || cur(p) == '_')
        p->i++;
    size_t nl = p->i - start;
    int fn = -1;
    for (int k = 0; k < (int)(sizeof functions / sizeof *functions); k++)
        if (strlen(functions[k].name) == nl && memcmp(functions[k].name, p->s + start, nl) == 0)
            fn = k;
    if (cur(p) != '(')
        return fail(p, start, fn >= 0 ? "'(' expected after the function name" : "unknown name (functions: length, count, match, search, value; literals: true, false, null)");
    if (fn < 0)
        return fail(p, start, "unknown function (length, count, match, search and value are)");
    if (++p->depth > MAX_NEST)
        return fail(p, p->i, "nesting too deep");
    p->i++;
    jq_expr *x = new_expr(p, X_FUNC, start);
    if (!x)
        return NULL;
    x->fn = (uint8_t)fn;
    x->type = functions[fn].result;
    x->args = arena(p->q, 2 * sizeof *x->args);
    if (!x->args)
        return oom(p);
    skip_s(p);
    if (cur(p) != ')') {
        for (;;) {
            size_t aoff = p->i;
            jq_expr *a = parse_or(p);
            if (!a)
                return NULL;
            if (x->n >= functions[fn].nparams)
                return fail(p, aoff, "too many arguments");
            uint8_t want = functions[fn].params[x->n];
            if (want == T_VALUE && !is_value_arg(a))
                return fail(p, aoff, a->kind == X_QUERY ? "this argument must be a singular query (names and indices only)"
                                                       : "this argument must be a value: a literal, a singular query or length(), count(), value()");
            if (want == T_NODES && a->kind != X_QUERY)
                return fail(p, aoff, "this argument must be a query (@... or $...)");
            x->args[x->n++] = a;
            skip_s(p);
            if (cur(p) == ',') {
                p->i++;
                skip_s(p);
                continue;
            }
            break;
        }
    }
    if (cur(p) != ')')
        return fail(p, p->i, "',' or ')' expected in the function's arguments");
    p->i++;
    p->depth--;
    if (x->n != functions[fn].nparams)
        return fail(p, start, functions[fn].nparams == 1 ? "this function takes one argument" : "this function takes two arguments");
    if ((fn == FN_MATCH || fn == FN_SEARCH) && x->args[1]->kind == X_LIT) {
        const jq_val *pat = &x->args[1]->lit;
        if (pat->kind != V_STR) {
            x->re_bad = true;
        } else {
            bool nomem;
            x->re = jq__regex_compile(pat->s, pat->n, &p->q->a, &nomem);
            if (nomem)
                return oom(p);
            if (!x->re)
                x->re_bad = true;
            else if (!add_regex(p, x->re)) {
                jq__regex_free(x->re);
                return oom(p);
            }
        }
    }
    return x;
}

/* comparable / test operand: literal, query or function */
static jq_expr *parse_operand(qp *p)
{
    size_t off = p->i;
    int c = cur(p);
    jq_expr *x;
    if (c == '@' || c == '$') {
        p->i++;
        if (!(x = new_expr(p, X_QUERY, off)))
            return NULL;
        x->q = parse_query(p, c == '@');
        return x->q ? x : NULL;
    }
    if (c == '\'' || c == '"' || c == '-' || is_digit(c)) {
        if (!(x = new_expr(p, X_LIT, off)))
            return NULL;
        if (c == '\'' || c == '"') {
            x->lit.kind = V_STR;
            if (!parse_string(p, &x->lit.s, &x->lit.n))
                return NULL;
        } else if (!parse_number(p, &x->lit)) {
            return NULL;
        }
        return x;
    }
    if (c >= 'a' && c <= 'z') {
        static const char *const words[] = { "true", "false", "null" };
        static const uint8_t kinds[] = { V_TRUE, V_FALSE, V_NULL };
        for (int k = 0; k < 3; k++) {
            if (keyword(p, words[k])) {
                if (!(x = new_expr(p, X_LIT, off)))
                    return NULL;
                x->lit.kind = kinds[k];
                return x;
            }
        }
        return parse_function(p);
    }
    if (c < 0)
        return fail(p, off, "unexpected end of the query in a filter");
    return fail(p, off, "a query (@ or $), a literal, a function, '!' or '(' expected");
}

static int comparison_op(qp *p)
{
    int c = cur(p), d = at(p, 1);
    if (c == '=' && d == '=') return p->i += 2, OP_EQ;
    if (c == '!' && d == '=') return p->i += 2, OP_NE;
    if (c == '<' && d == '=') return p->i += 2, OP_LE;
    if (c == '>' && d == '=') return p->i += 2, OP_GE;
    if (c == '<') return p->i += 1, OP_LT;
    if (c == '>') return p->i += 1, OP_GT;
    return -1;
}

static jq_expr *check_comparable(qp *p, jq_expr *x)
{
    if (!x)
        return NULL;
    if (x->kind == X_QUERY && !x->q->singular)
        return fail(p, x->off, "only a singular query (names and indices only) can be compared");
    if (x->kind == X_FUNC && x->type != T_VALUE)
        return fail(p, x->off, "match() and search() are tests: they cannot be compared");
    return x;
}

static jq_expr *parse_paren(qp *p)
{
    size_t off = p->i;
    if (++p->depth > MAX_NEST)
        return fail(p, off, "nesting too deep");
    p->i++;
    skip_s(p);
    jq_expr *x = as_logical(p, parse_or(p));
    if (!x)
        return NULL;
    skip_s(p);
    if (cur(p) != ')')
        return fail(p, p->i, cur(p) < 0 ? "unclosed '(' in a filter" : "')' expected");
    p->i++;
    p->depth--;
    return x;
}

/* basic-expr; a bare operand is returned as it is (the caller decides) */
static jq_expr *parse_basic(qp *p)
{
    size_t off = p->i;
    if (cur(p) == '!') {
        p->i++;
        skip_s(p);
        jq_expr *x = cur(p) == '(' ? parse_paren(p) : as_logical(p, parse_operand(p));
        if (!x)
            return NULL;
        jq_expr *n = new_expr(p, X_NOT, off);
        if (!n)
            return NULL;
        n->args = arena(p->q, sizeof *n->args);
        if (!n->args)
            return oom(p);
        n->args[0] = x;
        n->n = 1;
        return n;
    }
    if (cur(p) == '(')
        return parse_paren(p);
    jq_expr *x = parse_operand(p);
    if (!x)
        return NULL;
    size_t save = p->i;
    skip_s(p);
    size_t opoff = p->i;
    int op = comparison_op(p);
    if (op < 0) {
        p->i = save;
        return x;
    }
    if (!check_comparable(p, x))
        return NULL;
    skip_s(p);
    jq_expr *y = check_comparable(p, parse_operand(p));
    if (!y)
        return NULL;
    if (y->kind == X_LIT || y->kind == X_QUERY || y->kind == X_FUNC) {
        save = p->i;
        skip_s(p);
        if (comparison_op(p) >= 0)
            return fail(p, save, "comparisons do not chain: use && between them");
        p->i = save;
    }
    jq_expr *c = new_expr(p, X_CMP, opoff);
    if (!c)
        return NULL;
    c->op = (uint8_t)op;
    c->args = arena(p->q, 2 * sizeof *c->args);
    if (!c->args)
        return oom(p);
    c->args[0] = x;
    c->args[1] = y;
    c->n = 2;
    return c;
}

/* a chain of operands joined by && (and) or || (or) */
static jq_expr *parse_chain(qp *p, bool is_or)
{
    size_t off = p->i;
    jq_expr *first = is_or ? parse_chain(p, false) : parse_basic(p);
    if (!first)
        return NULL;
    size_t save = p->i;
    skip_s(p);
    char opc = is_or ? '|' : '&';
    if (!(cur(p) == opc && at(p, 1) == opc)) {
        p->i = save;
        return first;
    }
    /* operands into a growing array in the arena */
    uint32_t n = 0, cap = 4;
    jq_expr **v = arena(p->q, cap * sizeof *v);
    if (!v)
        return oom(p);
    if (!(v[n++] = as_logical(p, first)))
        return NULL;
    while (cur(p) == opc && at(p, 1) == opc) {
        p->i += 2;
        skip_s(p);
        jq_expr *x = as_logical(p, is_or ? parse_chain(p, false) : parse_basic(p));
        if (!x)
            return NULL;
        if (n == cap) {
            jq_expr **w = arena(p->q, 2 * cap * sizeof *w);
            if (!w)
                return oom(p);
            memcpy(w, v, n * sizeof *v);
            v = w;
            cap *= 2;
        }
        v[n++] = x;
        save = p->i;
        skip_s(p);
        if (!(cur(p) == opc && at(p, 1) == opc)) {
            p->i = save;
            break;
        }
    }
    jq_expr *c = new_expr(p, is_or ? X_OR : X_AND, off);
    if (!c)
        return NULL;
    c->args = v;
    c->n = n;
    return c;
}

static jq_expr *parse_or(qp *p) { return parse_chain(p, true); }

/* One selector inside brackets. */
static bool parse_selector(qp *p, jq_sel *s)
{
    size_t off = p->i;
    int c = cur(p);
    if (c == '\'' || c == '"') {
        const char *k;
        size_t n;
        if (!parse_string(p, &k, &n))
            return false;
        s->kind = SEL_NAME;
        make_step(&s->name, k, n);
        return true;
    }
    if (c == '*') {
        p->i++;
        s->kind = SEL_WILD;
        return true;
    }
    if (c == '?') {
        p->i++;
        if (++p->depth > MAX_NEST)
            return fail(p, off, "nesting too deep"), false;
        skip_s(p);
        s->kind = SEL_FILTER;
        s->filter = as_logical(p, parse_or(p));
        p->depth--;
        return s->filter != NULL;
    }
    if (c == '-' || is_digit(c) || c == ':') {
        int64_t v[3] = { 0, 0, 1 };
        bool has[3] = { false, false, false };
        if (c != ':') {
            if (!parse_int(p, &v[0]))
                return false;
            has[0] = true;
            size_t save = p->i;
            skip_s(p);
            if (cur(p) != ':') {
                p->i = save;
                s->kind = SEL_INDEX;
                s->index = v[0];
                return true;
            }
        }
        /* a slice: start? ':' end? (':' step?)? */
        p->i++;
        skip_s(p);
        for (int k = 1; k <= 2; k++) {
            if (cur(p) == '-' || is_digit(cur(p))) {
                if (!parse_int(p, &v[k]))
                    return false;
                has[k] = true;
                skip_s(p);
            }
            if (k == 1) {
                if (cur(p) != ':')
                    break;
                p->i++;
                skip_s(p);
            }
        }
        s->kind = SEL_SLICE;
        s->has_start = has[0];
        s->has_end = has[1];
        s->start = v[0];
        s->end = v[1];
        s->step = has[2] ? v[2] : 1;
        return true;
    }
    if (c < 0)
        fail(p, off, "unclosed '[': a selector expected");
    else
        fail(p, off, "a selector expected: 'name', *, an index, a slice or a ?filter");
    return false;
}

static bool parse_segment(qp *p, jq_seg *g)
{
    size_t off = p->i;
    jq_sel one;
    memset(&one, 0, sizeof one);
    if (cur(p) == '.') {
        p->i++;
        if (cur(p) == '.') {
            p->i++;
            g->desc = true;
            if (cur(p) == '[')
                goto bracket;
        }
        if (cur(p) == '*') {
            p->i++;
            one.kind = SEL_WILD;
        } else if (name_first(cur(p))) {
            size_t st = p->i;
            while (name_char(cur(p)))
                p->i++;
            one.kind = SEL_NAME;
            char *k = arena(p->q, p->i - st + 1);
            if (!k)
                return oom(p), false;
            memcpy(k, p->s + st, p->i - st);
            make_step(&one.name, k, p->i - st);
        } else {
            return fail(p, cur(p) < 0 ? off : p->i,
                        is_blank(cur(p)) ? "no space allowed after '.'"
                        : cur(p) < 0     ? "a name or * expected after the dot"
                                         : "a member name (letters, digits, _), * or [ expected after the dot; quote other names: ['...']"),
                   false;
        }
        g->nsel = 1;
        g->sel = arena(p->q, sizeof *g->sel);
        if (!g->sel)
            return oom(p), false;
        g->sel[0] = one;
        return true;
    }
bracket:
    /* [ S selector *(S , S selector) S ] */
    p->i++;
    skip_s(p);
    uint32_t cap = 2;
    g->sel = arena(p->q, cap * sizeof *g->sel);
    if (!g->sel)
        return oom(p), false;
    for (;;) {
        if (g->nsel == cap) {
            jq_sel *w = arena(p->q, 2 * cap * sizeof *w);
            if (!w)
                return oom(p), false;
            memcpy(w, g->sel, g->nsel * sizeof *w);
            g->sel = w;
            cap *= 2;
        }
        if (!parse_selector(p, &g->sel[g->nsel]))
            return false;
        g->nsel++;
        skip_s(p);
        if (cur(p) == ',') {
            p->i++;
            skip_s(p);
            continue;
        }
        if (cur(p) == ']') {
            p->i++;
            return true;
        }
        return fail(p, cur(p) < 0 ? off : p->i, cur(p) < 0 ? "unclosed '['" : "',' or ']' expected"), false;
    }
}

/* After the identifier ($ or @): the segments. */
static jq_path *parse_query(qp *p, bool relative)
{
    jq_path *q = arena(p->q, sizeof *q);
    if (!q)
        return oom(p);
    q->relative = relative;
    q->id = p->q->npaths++;
    uint32_t cap = 4;
    q->seg = arena(p->q, cap * sizeof *q->seg);
    if (!q->seg)
        return oom(p);
    for (;;) {
        size_t save = p->i;
        skip_s(p);
        if (cur(p) != '.' && cur(p) != '[') {
            p->i = save;
            break;
        }
        if (q->nseg == cap) {
            jq_seg *w = arena(p->q, 2 * cap * sizeof *w);
            if (!w)
                return oom(p);
            memcpy(w, q->seg, q->nseg * sizeof *w);
            q->seg = w;
            cap *= 2;
        }
        if (!parse_segment(p, &q->seg[q->nseg]))
            return NULL;
        q->nseg++;
    }
    q->singular = true;
    bool desc_before = false;   /* only the first descendant segment is scanned (one hit list per run) */
    for (uint32_t k = 0; k < q->nseg; k++) {
        jq_seg *g = &q->seg[k];
        g->names = !g->desc && g->nsel >= 2 && g->nsel <= 64;
        g->desc_names = g->desc && !desc_before && g->nsel <= 64;
        desc_before |= g->desc;
        for (uint32_t s = 0; s < g->nsel; s++) {
            if (g->sel[s].kind != SEL_NAME)
                g->names = g->desc_names = false;
            else if (!g->sel[s].name.plain || !g->sel[s].name.klen)
                g->desc_names = false;
        }
        if (g->desc || g->nsel != 1 || (g->sel[0].kind != SEL_NAME && g->sel[0].kind != SEL_INDEX))
            q->singular = false;
    }
    return q;
}

static void query_free_mem(jdoc_query *q)
{
    for (uint32_t k = 0; k < q->nre; k++)
        jq__regex_free(q->re[k]);
    q->a.free(q->a.ud, q->re);
    for (chunk *c = q->mem, *n; c; c = n) {
        n = c->next;
        q->a.free(q->a.ud, c);
    }
}

jdoc_query *jdoc_query_compile(const char *expr, size_t len, const jdoc_allocator *a, jdoc_error *err)
{
    jdoc_error dummy;
    if (!err)
        err = &dummy;
    *err = (jdoc_error){ JDOC_OK, 0, NULL, "" };
    if (!expr && len) {
        *err = (jdoc_error){ JDOC_ERR_ARG, 0, "no query", "" };
        return NULL;
    }
    if (!a)
        a = &default_alloc;
    if (len > UINT32_MAX) {
        *err = (jdoc_error){ JDOC_ERR_CAPACITY, 0, "query too long", "" };
        return NULL;
    }
    jdoc_query *q = a->malloc(a->ud, sizeof *q);
    if (!q) {
        *err = (jdoc_error){ JDOC_ERR_NOMEM, 0, "out of memory", "" };
        return NULL;
    }
    memset(q, 0, sizeof *q);
    q->a = *a;
    qp p = { 0 };
    p.s = expr ? expr : "";
    p.n = len;
    p.q = q;
    size_t bad = utf8_bad((const unsigned char *)p.s, len);
    if (bad < len) {
        fail(&p, bad, "the query is not UTF-8");
    } else if (len && is_blank(cur(&p))) {
        fail(&p, 0, "no whitespace allowed before '$'");
    } else if (cur(&p) != '$') {
        fail(&p, 0, "a JSONPath query starts with '$'");
    } else {
        p.i++;
        q->root = parse_query(&p, false);
        if (q->root && p.i < p.n)
            fail(&p, p.i,
                 is_blank(cur(&p)) ? "no whitespace allowed at the end of the query" : "'.', '..' or '[' expected");
    }
    if (p.err) {
        *err = (jdoc_error){ p.nomem ? JDOC_ERR_NOMEM : JDOC_ERR_PATH, p.err_off, p.err, "" };
        query_free_mem(q);
        a->free(a->ud, q);
        return NULL;
    }
    return q;
}

void jdoc_query_free(jdoc_query *q)
{
    if (!q)
        return;
    jdoc_allocator a = q->a;
    query_free_mem(q);
    a.free(a.ud, q);
}

bool jdoc_query_is_singular(const jdoc_query *q) { return q && q->root->singular; }

void jdoc__query_frames_only(jdoc_query *q) { q->frames_only = true; }

/* ------------------------------------------------------------------------ */
/* Evaluation                                                               */
/* ------------------------------------------------------------------------ */

typedef struct jq_frame {
    uint32_t node;     /* the value the segment is applied to */
    uint32_t pos;      /* next child: a member's key entry, or an element's entry */
    uint32_t end;      /* the closing bracket's entry */
    uint32_t seg;
    uint32_t sel;      /* current selector; == nsel: a descendant segment's descent */
    uint32_t base;     /* positions stack height when the frame was pushed */
    bool obj, container, init;
    bool skip;         /* a descendant frame of the main run whose subtrees are checked with desc_may_match */
    bool d1;           /* a descendant segment of one name in the main run: one walk (desc1_next) */
    bool ddamaged;     /* d1: a malformed child after the recorded ones */
    bool scan;         /* d1: its nodes come from one scan of the subtree (desc_keys) */
    bool noscan;       /* d1: a container the walk descended into: not scanned again */
    uint32_t cown;     /* scan: the object the current node is a member of */
    uint32_t dmatch, dkey;   /* d1: the member of the name (value, key entry), or UINT32_MAX */
    int64_t k;         /* index of the child at pos */
    int64_t lo, hi, step, len;   /* index / slice state */
    uint32_t ckey;     /* the step to the current child: its key entry, or UINT32_MAX */
    int64_t cidx;      /* ... or its index */
} jq_frame;

typedef struct jq_run {
    const jq_path *qp;
    uint32_t start;
    jq_frame *fr;
    uint32_t nfr, cap;
    bool begun, active;
} jq_run;

/* explicit stack for deep equality */
typedef struct eq_item {
    uint32_t a, b;        /* containers compared */
    uint32_t apos, aend;  /* next child of a */
    uint32_t bpos;        /* next child of b (arrays) */
    bool obj;
} eq_item;

struct jdoc_query_iter {
    const jdoc_query *q;
    const jdoc_doc *d;
    uint32_t gen;
    uint32_t root;      /* $: the value the query runs from */
    jdoc_allocator a;
    jdoc_status status;
    bool have;          /* a node was yielded and is current */
    jq_run main;
    jq_run *subs;       /* one per embedded query, by id */
    uint32_t *pos;      /* element entries of reverse slices, a stack */
    size_t npos, poscap;
    void *rx;           /* matcher scratch */
    size_t rxcap;
    eq_item *eq;
    size_t eqcap;
    /* Skipping subtrees in a descendant segment of names (main run only):
     * the sorted offsets of every occurrence of the names' bytes and of
     * every backslash in the span [hit_lo, hit_hi) where the segment
     * started. A member of such a name in a subtree shows one of them: its
     * key is written as is, or with an escape. */
    uint32_t *hits;
    size_t nhits, hitcap;
    uint32_t hit_seg;   /* nonzero when they are valid (1 + the segment they are for) */
    uint32_t hit_lo, hit_hi;
    /* the kernel's scan for a descendant segment of one name (desc_keys) */
    uint64_t *kown;
    uint64_t *kout;
    size_t kocap, kcap;
    uint32_t nscan, nscan_failed;   /* for tests */
};

static bool grow(jdoc_query_iter *it, void **buf, size_t *cap, size_t need, size_t elem)
{
    if (need <= *cap)
        return true;
    size_t nc = *cap ? *cap * 2 : 16;
    while (nc < need)
        nc *= 2;
    void *b = it->a.realloc(it->a.ud, *buf, nc * elem);
    if (!b) {
        it->status = JDOC_ERR_NOMEM;
        return false;
    }
    *buf = b;
    *cap = nc;
    return true;
}

static inline bool is_container(const jdoc_doc *d, uint32_t e)
{
    char c = CH(d, e);
    return c == '{' || c == '[';
}

/* Start iterating the children of container e: false on a scalar. */
static inline bool children(const jdoc_doc *d, uint32_t e, uint32_t *pos, uint32_t *end)
{
    if (!is_container(d, e))
        return false;
    *pos = e + 1;
    *end = jdoc__skip(d, e) - 1;
    return true;
}

/* The next child: 1 with its key entry (objects) and value entry, 0 at the
 * end, -1 on a malformed container (the iterator's status says so). */
static inline int child_next(jdoc_query_iter *it, bool obj, uint32_t *pos, uint32_t end, uint32_t *key,
                             uint32_t *val)
{
    const jdoc_doc *d = it->d;
    uint32_t i = *pos, v = i;
    if (i >= end)
        return 0;
    if (obj) {
        if (JDOC_UNLIKELY(CH(d, i) != '"' || CH(d, i + 1) != ':'))
            goto bad;
        v = i + 2;
        *key = i;
    }
    uint32_t next = jdoc__skip(d, v);
    if (JDOC_UNLIKELY(next == UINT32_MAX || next > end))
        goto bad;
    char c = CH(d, next);
    if (c == ',') {
        if (JDOC_UNLIKELY(next + 1 >= end))
            goto bad;
        *pos = next + 1;
    } else if (next == end) {
        *pos = end;
    } else {
        goto bad;
    }
    *val = v;
    return 1;
bad:
    it->status = JDOC_ERR_SYNTAX;
    return -1;
}

/* Is the member key at entry k the name nm? Most keys are rejected by
 * their written length and first byte before any comparison: a key written
 * shorter than the name cannot be it, one of the same length is compared
 * bytewise, a longer one has escapes and goes to jdoc__key_eq when its
 * first byte allows (the name's first byte, or a backslash). */
static inline bool name_eq_raw(const jdoc_doc *d, uint32_t k, const char *raw, uint32_t rawlen, const jdoc_step *nm)
{
    if (rawlen == nm->klen)
        return jdoc__bytes_eq(raw, nm->key, rawlen) && (nm->plain || !jdoc__has_backslash(raw, rawlen));
    if (rawlen < nm->klen || !nm->klen || (raw[0] != '\\' && raw[0] != nm->key[0]))
        return false;
    return jdoc__key_eq(d, k, nm);
}

/* The key of member k as written (no decoding). */
static inline const char *raw_key(const jdoc_doc *d, uint32_t k, uint32_t *rawlen)
{
    uint32_t kb = jdoc__off(d, k) + 1;
    *rawlen = jdoc__string_end(d, k) - kb;
    return d->json + kb;
}

static inline bool name_eq(const jdoc_doc *d, uint32_t k, const jdoc_step *nm)
{
    /* a key without a backslash (entry k + 1 is its ':') is written as its
     * bytes: shorter than the name, or longer with its quote right before
     * the ':', it is not the name, whatever its bytes */
    if (JDOC_LIKELY(d->tape[k] == '"' && CH(d, k + 1) == ':')) {
        uint32_t w = d->index[k + 1] - d->index[k] - 2;
        if (w < nm->klen || (w > nm->klen && d->json[d->index[k + 1] - 1] == '"'))
            return false;
        /* written as long as a name without '"' or '\\': its bytes, with no
         * search for the closing quote (a shorter key with whitespace before
         * its ':' shows its quote among them, which such a name has not) */
        if (w == nm->klen && nm->plain)
            return jdoc__bytes_eq(d->json + d->index[k] + 1, nm->key, w);
    }
    uint32_t rawlen;
    const char *raw = raw_key(d, k, &rawlen);
    return name_eq_raw(d, k, raw, rawlen, nm);
}

/* Number of children of container e (-1 when malformed). */
static int64_t count_children(jdoc_query_iter *it, uint32_t e)
{
    uint32_t pos = 0, end = 0, k, v;
    if (!children(it->d, e, &pos, &end))
        return 0;
    bool obj = CH(it->d, e) == '{';
    int64_t n = 0;
    int r;
    while ((r = child_next(it, obj, &pos, end, &k, &v)) > 0)
        n++;
    return r < 0 ? -1 : n;
}

static int eval_logical(jdoc_query_iter *it, const jq_expr *x, uint32_t at_node);

static int cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return x < y ? -1 : x > y;
}

/* Spans shorter than this are walked: the scan would cost more than it saves;
 * and so are spans with more than one occurrence per HIT_SPARSE bytes. */
#define HIT_MIN_SPAN 4096
#define HIT_SPARSE 16384

/* A descendant segment of names starts at `node`: find where the names
 * (and backslashes) occur in its text, for desc_skip. */
static bool desc_scan(jdoc_query_iter *it, const jq_seg *g, uint32_t seg, uint32_t node)
{
    it->hit_seg = 0;
    const char *raw;
    size_t len;
    if (!is_container(it->d, node) || jdoc_get_raw(jdoc__value(it->d, node), &raw, &len) != JDOC_OK ||
        len < HIT_MIN_SPAN)
        return true;
    uint32_t base = jdoc__off(it->d, node);
    it->nhits = 0;
    const char *end = raw + len;
    for (uint32_t s = 0; s <= g->nsel; s++) {
        const char *p = raw;
        for (;;) {
            if (s < g->nsel) {
                p = memmem(p, (size_t)(end - p), g->sel[s].name.key, g->sel[s].name.klen);
                if (!p)
                    break;
            } else {
                /* a backslash counts only in a key: the first one of a
                 * string is an escape; scan to the string's end, and a ':'
                 * after it makes it a key */
                p = memchr(p, '\\', (size_t)(end - p));
                if (!p)
                    break;
                const char *q = p;
                while (q < end && *q != '"')
                    q += *q == '\\' ? 2 : 1;
                const char *after = q + 1;
                while (after < end && jdoc__is_ws((unsigned char)*after))
                    after++;
                bool key = after < end && *after == ':';
                const char *at = p;
                p = q < end ? q + 1 : end;
                if (!key)
                    continue;
                p = at;
            }
            /* the names all over the span (one per element of a Docker
             * list): almost nothing would be skipped, stop scanning */
            if (it->nhits > 8 + (size_t)(p - raw) / HIT_SPARSE)
                return true;
            if (!grow(it, (void **)&it->hits, &it->hitcap, it->nhits + 1, sizeof *it->hits))
                return false;
            it->hits[it->nhits++] = base + (uint32_t)(p - raw);
            if (s == g->nsel) {   /* on after that key */
                while (p < end && *p != '"')
                    p += *p == '\\' ? 2 : 1;
            }
            if (p >= end)
                break;
            p++;
        }
    }
    if (it->nhits > 1)
        qsort(it->hits, it->nhits, sizeof *it->hits, cmp_u32);
    it->hit_seg = seg + 1;
    it->hit_lo = base;
    it->hit_hi = base + (uint32_t)len;
    return true;
}

/* Can the subtree at entry v (in the scanned span) hold one of the names? */
static bool desc_may_match(const jdoc_query_iter *it, uint32_t v)
{
    uint32_t lo = jdoc__off(it->d, v), hi = jdoc__off(it->d, jdoc__skip(it->d, v) - 1);
    if (lo < it->hit_lo || hi >= it->hit_hi)
        return true;
    size_t a = 0, b = it->nhits;   /* the first hit >= lo */
    while (a < b) {
        size_t m = (a + b) / 2;
        if (it->hits[m] < lo)
            a = m + 1;
        else
            b = m;
    }
    return a < it->nhits && it->hits[a] < hi;
}

/* Push a frame applying segment `seg` to `node`. */
static bool push(jdoc_query_iter *it, jq_run *r, uint32_t seg, uint32_t node)
{
    if (r->nfr == r->cap) {
        size_t cap = r->cap;
        if (!grow(it, (void **)&r->fr, &cap, (size_t)r->nfr + 1, sizeof *r->fr))
            return false;
        r->cap = (uint32_t)cap;
    }
    jq_frame *f = &r->fr[r->nfr++];
    f->node = node;
    f->seg = seg;
    f->sel = 0;
    f->init = false;
    f->base = (uint32_t)it->npos;
    f->ckey = UINT32_MAX;
    f->cidx = -1;
    f->skip = false;
    f->scan = f->noscan = false;
    const jq_seg *g = &r->qp->seg[seg];
    f->d1 = r == &it->main && g->desc && g->nsel == 1 && g->sel[0].kind == SEL_NAME && !it->q->frames_only;
    f->container = children(it->d, node, &f->pos, &f->end);
    f->obj = f->container && CH(it->d, node) == '{';
    return true;
}

static inline void pop(jdoc_query_iter *it, jq_run *r)
{
    it->npos = r->fr[--r->nfr].base;
}

/* Begin child iteration anew for the frame's next selector. */
static inline void rewind_children(jdoc_query_iter *it, jq_frame *f)
{
    f->pos = f->node + 1;
    f->k = 0;
    (void)it;
}

/* Slice bounds (RFC 9535 2.3.4.2.2) for length len. */
static void slice_bounds(const jq_sel *s, int64_t len, int64_t *lower, int64_t *upper)
{
    int64_t st = s->step;
    int64_t a = s->has_start ? s->start : st >= 0 ? 0 : len - 1;
    int64_t b = s->has_end ? s->end : st >= 0 ? len : -len - 1;
    int64_t na = a >= 0 ? a : len + a, nb = b >= 0 ? b : len + b;
    if (st >= 0) {
        *lower = na < 0 ? 0 : na > len ? len : na;
        *upper = nb < 0 ? 0 : nb > len ? len : nb;
    } else {
        *upper = na < -1 ? -1 : na > len - 1 ? len - 1 : na;
        *lower = nb < -1 ? -1 : nb > len - 1 ? len - 1 : nb;
    }
}

/* The next child selector s picks from frame f's node: 1 (in *out, with the
 * frame's ckey/cidx set), 0 when done, -1 on error. */
static int sel_next(jdoc_query_iter *it, jq_frame *f, const jq_sel *s, uint32_t *out)
{
    uint32_t key = UINT32_MAX, v;
    int r = 0;
    if (!f->container)
        return 0;
    if (!f->init) {
        f->init = true;
        rewind_children(it, f);
        switch (s->kind) {
        case SEL_NAME:
            if (!f->obj)
                return 0;
            break;
        case SEL_INDEX:
            if (f->obj)
                return 0;
            f->lo = s->index;
            if (f->lo < 0) {
                int64_t n = count_children(it, f->node);
                if (n < 0)
                    return -1;
                f->lo += n;
                if (f->lo < 0)
                    return 0;
            }
            break;
        case SEL_SLICE: {
            if (f->obj || s->step == 0)
                return 0;
            bool need_len = s->step < 0 || (s->has_start && s->start < 0) || (s->has_end && s->end < 0);
            int64_t len = INT64_MAX / 4;
            if (need_len && (len = count_children(it, f->node)) < 0)
                return -1;
            slice_bounds(s, len, &f->lo, &f->hi);
            f->step = s->step;
            if (s->step < 0) {
                /* reverse: the elements' entries on the positions stack */
                size_t base = it->npos;
                if (!grow(it, (void **)&it->pos, &it->poscap, base + (size_t)len, sizeof *it->pos))
                    return -1;
                while ((r = child_next(it, false, &f->pos, f->end, &key, &v)) > 0)
                    it->pos[it->npos++] = v;
                if (r < 0)
                    return -1;
                f->len = (int64_t)base;   /* where this slice's entries start */
                f->k = f->hi;             /* next index to give */
            }
            break;
        }
        default:
            break;
        }
    }
    switch (s->kind) {
    case SEL_NAME:
        while ((r = child_next(it, true, &f->pos, f->end, &key, &v)) > 0) {
            if (name_eq(it->d, key, &s->name)) {
                f->pos = f->end;   /* the first member of that name */
                f->ckey = key;
                *out = v;
                return 1;
            }
        }
        return r;
    case SEL_WILD:
        if ((r = child_next(it, f->obj, &f->pos, f->end, &key, &v)) > 0) {
            f->ckey = f->obj ? key : UINT32_MAX;
            f->cidx = f->k++;
            *out = v;
        }
        return r;
    case SEL_INDEX:
        while ((r = child_next(it, false, &f->pos, f->end, &key, &v)) > 0) {
            if (f->k++ == f->lo) {
                f->pos = f->end;
                f->ckey = UINT32_MAX;
                f->cidx = f->lo;
                *out = v;
                return 1;
            }
        }
        return r;
    case SEL_SLICE:
        if (f->step > 0) {
            while (f->k < f->hi && (r = child_next(it, false, &f->pos, f->end, &key, &v)) > 0) {
                int64_t k = f->k++;
                if (k >= f->lo && (k - f->lo) % f->step == 0) {
                    f->ckey = UINT32_MAX;
                    f->cidx = k;
                    *out = v;
                    return 1;
                }
            }
            return f->k >= f->hi ? 0 : r;
        }
        if (f->k > f->lo) {
            int64_t k = f->k;
            f->k += f->step;
            f->ckey = UINT32_MAX;
            f->cidx = k;
            *out = it->pos[f->len + k];
            return 1;
        }
        return 0;
    case SEL_FILTER:
        while ((r = child_next(it, f->obj, &f->pos, f->end, &key, &v)) > 0) {
            int64_t k = f->k++;
            int t = eval_logical(it, s->filter, v);
            if (t < 0)
                return -1;
            if (t) {
                f->ckey = f->obj ? key : UINT32_MAX;
                f->cidx = k;
                *out = v;
                return 1;
            }
        }
        return r;
    }
    return 0;
}

/* A segment of several names (['Id','Image','State']): one pass over the
 * object's members finds the first member of each name, kept on the
 * positions stack as (key, value) pairs; then they are given in the
 * selectors' order. */
static int names_next(jdoc_query_iter *it, const jq_seg *g, jq_frame *f, uint32_t *out)
{
    if (!f->obj)
        return 0;
    if (!f->init) {
        f->init = true;
        size_t base = it->npos;
        if (!grow(it, (void **)&it->pos, &it->poscap, base + 2 * (size_t)g->nsel, sizeof *it->pos))
            return -1;
        for (uint32_t s = 0; s < 2 * g->nsel; s++)
            it->pos[base + s] = UINT32_MAX;
        it->npos = base + 2 * (size_t)g->nsel;
        f->len = (int64_t)base;
        uint64_t pending = g->nsel == 64 ? ~0ull : (1ull << g->nsel) - 1;
        uint32_t key = UINT32_MAX, v;
        int r;
        while (pending && (r = child_next(it, true, &f->pos, f->end, &key, &v)) > 0) {
            uint32_t rawlen;
            const char *raw = raw_key(it->d, key, &rawlen);   /* once per member */
            for (uint64_t m = pending; m; m &= m - 1) {
                int s = __builtin_ctzll(m);
                bool eq = name_eq_raw(it->d, key, raw, rawlen, &g->sel[s].name);
                if (eq) {
                    it->pos[base + 2 * (size_t)s] = key;
                    it->pos[base + 2 * (size_t)s + 1] = v;
                    pending &= ~(1ull << s);
                }
            }
        }
        if (pending && r < 0)
            return -1;
    }
    while (f->sel < g->nsel) {
        size_t at = (size_t)f->len + 2 * (size_t)f->sel++;
        if (it->pos[at] != UINT32_MAX) {
            f->ckey = it->pos[at];
            *out = it->pos[at + 1];
            return 1;
        }
    }
    return 0;
}

/* Containers of fewer entries are walked: the scan would not pay (the fuzz
 * targets scan every container). */
#ifdef JDOC_SCAN_MIN
#define SCAN_MIN JDOC_SCAN_MIN
#else
#define SCAN_MIN 32
#endif

/* A d1 frame that desc_keys scans (the first of its segment's descent). */
static bool will_scan(const jdoc_query_iter *it, const jq_frame *f)
{
    return f->d1 && !f->noscan && f->container && f->end - f->node >= SCAN_MIN && it->d->parser->k->keys;
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/*
 * A descendant segment of one name over a whole container, without
 * walking it: the kernel's scan (jdoc_keys_fn) checks the grammar between
 * all its entries, which the walk would check, and lists the keys that may
 * be the name with the object each is in. The members of the name are the
 * first matching key of each object, in the order of the objects' opening
 * entries: preorder, the walk's order (RFC 9535 2.5.2.2). They go on the
 * positions stack as (key entry, object). 1 done, 0 malformed (walk it),
 * -1 out of memory.
 */
static int desc_keys(jdoc_query_iter *it, const jq_seg *g, jq_frame *f)
{
    const jdoc_doc *d = it->d;
    const jdoc_step *nm = &g->sel[0].name;
    jdoc_kscan k = { .tape = d->tape, .index = d->index, .json = d->json, .end = f->end, .name = nm->key,
                     .klen = nm->klen + 2,
                     .from = jdoc__off(d, f->node), .to = jdoc__off(d, f->end), .spaced = 2, .at = f->node + 1,
                     .c_o = f->obj, .c_a = !f->obj };
    for (;;) {
        if (!grow(it, (void **)&it->kown, &it->kocap, (size_t)k.depth + 66, sizeof *it->kown) ||
            !grow(it, (void **)&it->kout, &it->kcap, k.nout + 64, sizeof *it->kout))
            return -1;
        it->kown[0] = (uint64_t)f->node << 1;
        k.own = it->kown;
        k.levels = (uint32_t)it->kocap;
        k.out = it->kout;
        k.cap = it->kcap;
        int r = d->parser->k->keys(&k);
        if (r < 0) {
            it->nscan_failed++;
            return 0;
        }
        if (r == 0)
            break;
    }
    it->nscan++;
    /* the candidates that are the name, by object, then by position */
    size_t n = 0;
    bool sorted = true;
    for (size_t i = 0; i < k.nout; i++)
        if (name_eq(d, (uint32_t)k.out[i], nm)) {
            sorted &= !n || k.out[n - 1] < k.out[i];
            k.out[n++] = k.out[i];
        }
    if (!sorted)
        qsort(k.out, n, sizeof *k.out, cmp_u64);
    if (!grow(it, (void **)&it->pos, &it->poscap, it->npos + 2 * n, sizeof *it->pos))
        return -1;
    f->lo = f->k = (int64_t)it->npos;
    for (size_t i = 0; i < n; i++) {
        uint32_t obj = (uint32_t)(k.out[i] >> 32);
        if (i && obj == (uint32_t)(k.out[i - 1] >> 32))
            continue;   /* a name given twice: the first member */
        it->pos[it->npos++] = (uint32_t)k.out[i];
        it->pos[it->npos++] = obj;
    }
    f->hi = (int64_t)it->npos;
    f->scan = true;
    return 1;
}

void jdoc__query_iter_scans(const jdoc_query_iter *it, uint32_t *scanned, uint32_t *failed)
{
    *scanned = it->nscan + it->nscan_failed;
    *failed = it->nscan_failed;
}

/*
 * A descendant segment of one name, applied to a container: one walk over
 * its children finds the member of that name (the first one) and records the
 * containers to descend into, (entry, key entry, index) on the positions
 * stack; then the member is given, then the containers. The frames' two
 * walks (the selector's, then the descent's) in one, with the same results
 * and the same point of failure on a malformed container: met before the
 * member (or in an object without it), the error comes first, as the
 * selector's walk would meet it; met after it, the member and the
 * containers before the damage come first, as the descent's walk would give
 * them.
 */
static int desc1_next(jdoc_query_iter *it, const jq_seg *g, jq_frame *f, uint32_t *out)
{
    if (!f->container)
        return 0;
    if (f->scan) {
        if (f->k == f->hi)
            return 0;
        const uint32_t *rec = &it->pos[f->k];
        f->k += 2;
        f->ckey = rec[0];
        f->cown = rec[1];
        *out = rec[0] + 2;
        return 1;
    }
    if (!f->init) {
        f->init = true;
        if (will_scan(it, f)) {
            int r = desc_keys(it, g, f);
            if (r)
                return r < 0 ? -1 : desc1_next(it, g, f, out);
            /* malformed somewhere: the walk finds where, skipping what it may */
            if (g->desc_names) {
                if (!desc_scan(it, g, f->seg, f->node))
                    return -1;
                f->skip = it->hit_seg != 0;
            }
        }
        f->lo = f->k = (int64_t)it->npos;
        f->dmatch = f->dkey = UINT32_MAX;
        f->ddamaged = false;
        uint32_t key = UINT32_MAX, v;
        int r;
        for (uint32_t k = 0; (r = child_next(it, f->obj, &f->pos, f->end, &key, &v)) > 0; k++) {
            if (f->obj && f->dmatch == UINT32_MAX && name_eq(it->d, key, &g->sel[0].name)) {
                f->dmatch = v;
                f->dkey = key;
            }
            /* scalars have no descendants, and subtrees without the name's
             * bytes no members of that name: passed over */
            if (is_container(it->d, v) && (!f->skip || desc_may_match(it, v))) {
                if (!grow(it, (void **)&it->pos, &it->poscap, it->npos + 3, sizeof *it->pos))
                    return -1;
                it->pos[it->npos++] = v;
                it->pos[it->npos++] = f->obj ? key : UINT32_MAX;
                it->pos[it->npos++] = k;
            }
        }
        if (r < 0) {
            if (f->obj && f->dmatch == UINT32_MAX)
                return -1;
            f->ddamaged = true;   /* reported once the nodes before it are given */
            it->status = JDOC_OK;
        }
        f->hi = (int64_t)it->npos;
        if (f->dmatch != UINT32_MAX) {
            f->ckey = f->dkey;
            *out = f->dmatch;
            return 1;
        }
    }
    if (f->k < f->hi) {
        const uint32_t *rec = &it->pos[f->k];
        f->k += 3;
        f->ckey = rec[1];
        f->cidx = rec[2];
        *out = rec[0];
        return 2;
    }
    if (f->ddamaged) {
        it->status = JDOC_ERR_SYNTAX;
        return -1;
    }
    return 0;
}

/* Next step of frame f: 1 a selected child, 2 a child to descend into (a
 * descendant segment), 0 the frame is done, -1 error. */
static int frame_next(jdoc_query_iter *it, const jq_path *P, jq_frame *f, uint32_t *out)
{
    const jq_seg *g = &P->seg[f->seg];
    if (f->d1)
        return desc1_next(it, g, f, out);
    if (g->names)
        return names_next(it, g, f, out);
    while (f->sel < g->nsel) {
        int r = sel_next(it, f, &g->sel[f->sel], out);
        if (r)
            return r;
        f->sel++;
        f->init = false;
    }
    if (!g->desc || !f->container)
        return 0;
    if (!f->init) {
        f->init = true;
        rewind_children(it, f);
    }
    uint32_t key = UINT32_MAX, v;
    int r;
    while ((r = child_next(it, f->obj, &f->pos, f->end, &key, &v)) > 0) {
        int64_t k = f->k++;
        /* scalars have no descendants, and subtrees without the names'
         * bytes no members of those names: passed over */
        if (is_container(it->d, v) && (!f->skip || desc_may_match(it, v))) {
            f->ckey = f->obj ? key : UINT32_MAX;
            f->cidx = k;
            *out = v;
            return 2;
        }
    }
    return r;
}

static void run_reset(jdoc_query_iter *it, jq_run *r, const jq_path *P, uint32_t start)
{
    if (r->nfr)
        it->npos = r->fr[0].base;
    r->qp = P;
    r->start = start;
    r->nfr = 0;
    r->begun = false;
    r->active = true;
}

/* The next node of run r: 1 (entry in *out), 0 at the end, -1 on error. */
static int run_next(jdoc_query_iter *it, jq_run *r, uint32_t *out)
{
    const jq_path *P = r->qp;
    if (!r->active)
        return 0;
    if (!r->begun) {
        r->begun = true;
        if (P->nseg == 0) {
            *out = r->start;
            return 1;
        }
        if (!push(it, r, 0, r->start))
            return -1;
        if (r == &it->main && P->seg[0].desc_names && !will_scan(it, &r->fr[0])) {
            if (!desc_scan(it, &P->seg[0], 0, r->start))
                return -1;
            r->fr[r->nfr - 1].skip = it->hit_seg != 0;
        }
    }
    while (r->nfr) {
        jq_frame *f = &r->fr[r->nfr - 1];
        uint32_t c;
        int k = frame_next(it, P, f, &c);
        if (k < 0)
            return -1;
        if (k == 0) {
            pop(it, r);
            continue;
        }
        if (k == 2) {
            bool skip = f->skip;
            if (!push(it, r, f->seg, c))
                return -1;
            r->fr[r->nfr - 1].skip = skip;   /* the same scan covers the descendants */
            r->fr[r->nfr - 1].noscan = true;
            continue;
        }
        if (f->seg + 1 == P->nseg) {
            *out = c;
            return 1;
        }
        uint32_t next = f->seg + 1;
        if (!push(it, r, next, c))
            return -1;
        if (r == &it->main && P->seg[next].desc_names && !will_scan(it, &r->fr[r->nfr - 1])) {
            if (!desc_scan(it, &P->seg[next], next, c))
                return -1;
            r->fr[r->nfr - 1].skip = it->hit_seg != 0;
        }
    }
    r->active = false;
    return 0;
}

/* A member or element found by a singular query's step, or UINT32_MAX. */
static int single_step(jdoc_query_iter *it, uint32_t node, const jq_sel *s, uint32_t *out)
{
    uint32_t pos = 0, end = 0, key = UINT32_MAX, v;
    int r;
    if (!children(it->d, node, &pos, &end))
        return 0;
    bool obj = CH(it->d, node) == '{';
    if (s->kind == SEL_NAME) {
        if (!obj)
            return 0;
        while ((r = child_next(it, true, &pos, end, &key, &v)) > 0)
            if (name_eq(it->d, key, &s->name)) {
                *out = v;
                return 1;
            }
        return r;
    }
    if (obj)
        return 0;
    int64_t want = s->index;
    if (want < 0) {
        int64_t n = count_children(it, node);
        if (n < 0)
            return -1;
        want += n;
        if (want < 0)
            return 0;
    }
    for (int64_t k = 0; (r = child_next(it, false, &pos, end, &key, &v)) > 0; k++)
        if (k == want) {
            *out = v;
            return 1;
        }
    return r;
}

static int eval_singular(jdoc_query_iter *it, const jq_path *P, uint32_t at_node, uint32_t *out)
{
    uint32_t n = P->relative ? at_node : it->root;
    for (uint32_t k = 0; k < P->nseg; k++) {
        int r = single_step(it, n, &P->seg[k].sel[0], &n);
        if (r <= 0)
            return r;
    }
    *out = n;
    return 1;
}

/* An embedded query's run, started at the right node. */
static jq_run *sub_run(jdoc_query_iter *it, const jq_path *P, uint32_t at_node)
{
    jq_run *r = &it->subs[P->id];
    run_reset(it, r, P, P->relative ? at_node : it->root);
    return r;
}

static void sub_done(jdoc_query_iter *it, jq_run *r)
{
    if (r->nfr)
        it->npos = r->fr[0].base;
    r->nfr = 0;
    r->active = false;
}

/* Nodes of an embedded query: the count, up to `limit`; the first in *first. */
static int64_t query_nodes(jdoc_query_iter *it, const jq_path *P, uint32_t at_node, int64_t limit, uint32_t *first)
{
    if (P->singular) {
        int r = eval_singular(it, P, at_node, first);
        return r;
    }
    jq_run *r = sub_run(it, P, at_node);
    int64_t n = 0;
    uint32_t v;
    int k;
    while (n < limit && (k = run_next(it, r, &v)) > 0) {
        if (n == 0)
            *first = v;
        n++;
    }
    sub_done(it, r);
    if (it->status != JDOC_OK)
        return -1;
    return n;
}

/* A node as a value: scalars converted (strings decoded), containers kept. */
static void node_value(jdoc_query_iter *it, uint32_t e, jq_val *v)
{
    jdoc_value jv = jdoc__value(it->d, e);
    memset(v, 0, sizeof *v);
    switch (jdoc_typeof(jv)) {
    case JDOC_NULL: v->kind = V_NULL; return;
    case JDOC_BOOL: {
        bool b = false;
        jdoc_get_bool(jv, &b);
        v->kind = b ? V_TRUE : V_FALSE;
        return;
    }
    case JDOC_INT:
        v->kind = V_NUM;
        v->isint = true;
        jdoc_get_int64(jv, &v->i);
        v->d = (double)v->i;
        return;
    case JDOC_UINT:
    case JDOC_DOUBLE:
        v->kind = V_NUM;
        if (jdoc_get_double(jv, &v->d) != JDOC_OK) {   /* beyond double's range */
            const char *s;
            size_t n;
            jdoc_get_raw(jv, &s, &n);
            v->d = n && s[0] == '-' ? -__builtin_inf() : __builtin_inf();
        }
        return;
    case JDOC_STRING:
        if (jdoc__string_at(it->d, e, &v->s, &v->n) != JDOC_OK) {
            v->kind = V_NOTHING;   /* a bad escape: no value */
            return;
        }
        v->kind = V_STR;
        return;
    case JDOC_ARRAY:
    case JDOC_OBJECT:
        v->kind = V_NODE;
        v->node = e;
        return;
    default:
        v->kind = V_NOTHING;
        return;
    }
}

static int eval_value(jdoc_query_iter *it, const jq_expr *x, uint32_t at_node, jq_val *out);

static const jq_regex *get_regex(jdoc_query_iter *it, const jq_expr *x, const jq_val *pat, jq_regex **owned)
{
    *owned = NULL;
    if (x->re || x->re_bad)
        return x->re;
    bool nomem;
    *owned = jq__regex_compile(pat->s, pat->n, &it->a, &nomem);
    if (nomem)
        it->status = JDOC_ERR_NOMEM;
    return *owned;
}

/* match() / search(): 1, 0, or -1 on error */
static int eval_regex(jdoc_query_iter *it, const jq_expr *x, uint32_t at_node)
{
    jq_val s, pat;
    if (eval_value(it, x->args[0], at_node, &s) < 0 || eval_value(it, x->args[1], at_node, &pat) < 0)
        return -1;
    if (s.kind != V_STR || pat.kind != V_STR)
        return 0;
    jq_regex *owned;
    const jq_regex *re = get_regex(it, x, &pat, &owned);
    if (!re)
        return it->status == JDOC_OK ? 0 : -1;
    int m = -1;
    if (grow(it, &it->rx, &it->rxcap, jq__regex_scratch(re), 1))
        m = jq__regex_run(re, s.s, s.n, x->fn == FN_MATCH, it->rx);
    jq__regex_free(owned);
    return m;
}

static int eval_value(jdoc_query_iter *it, const jq_expr *x, uint32_t at_node, jq_val *out)
{
    memset(out, 0, sizeof *out);
    if (x->kind == X_LIT) {
        *out = x->lit;
        return 0;
    }
    if (x->kind == X_QUERY) {
        uint32_t e;
        int r = eval_singular(it, x->q, at_node, &e);
        if (r < 0)
            return -1;
        if (r > 0)
            node_value(it, e, out);
        return 0;
    }
    /* a function of value type */
    const jq_expr *a = x->args[0];
    switch (x->fn) {
    case FN_LENGTH: {
        jq_val v;
        if (eval_value(it, a, at_node, &v) < 0)
            return -1;
        int64_t n = -1;
        if (v.kind == V_STR)
            n = (int64_t)jq__utf8_count(v.s, v.n);
        else if (v.kind == V_NODE && (n = count_children(it, v.node)) < 0)
            return -1;
        if (n >= 0) {
            out->kind = V_NUM;
            out->isint = true;
            out->i = n;
            out->d = (double)n;
        }
        return 0;
    }
    case FN_COUNT: {
        uint32_t first;
        int64_t n = query_nodes(it, a->q, at_node, INT64_MAX, &first);
        if (n < 0)
            return -1;
        out->kind = V_NUM;
        out->isint = true;
        out->i = n;
        out->d = (double)n;
        return 0;
    }
    case FN_VALUE: {
        uint32_t first;
        int64_t n = query_nodes(it, a->q, at_node, 2, &first);
        if (n < 0)
            return -1;
        if (n == 1)
            node_value(it, first, out);
        return 0;
    }
    default:
        return 0;
    }
}

static int deep_equal(jdoc_query_iter *it, uint32_t a, uint32_t b);

static int values_equal(jdoc_query_iter *it, const jq_val *x, const jq_val *y)
{
    if (x->kind != y->kind)
        return 0;
    switch (x->kind) {
    case V_NOTHING: case V_TRUE: case V_FALSE: case V_NULL:
        return 1;
    case V_NUM:
        if (x->isint && y->isint)
            return x->i == y->i;
        return x->d == y->d;
    case V_STR:
        return x->n == y->n && memcmp(x->s, y->s, x->n) == 0;
    case V_NODE:
        return deep_equal(it, x->node, y->node);
    }
    return 0;
}

static int values_less(const jq_val *x, const jq_val *y)
{
    if (x->kind == V_NUM && y->kind == V_NUM) {
        if (x->isint && y->isint)
            return x->i < y->i;
        return x->d < y->d;
    }
    if (x->kind == V_STR && y->kind == V_STR) {
        /* UTF-8 byte order is code point order */
        size_t n = x->n < y->n ? x->n : y->n;
        int c = memcmp(x->s, y->s, n);
        return c < 0 || (c == 0 && x->n < y->n);
    }
    return 0;
}

/* Member of object o whose key equals the (decoded) key at entry k. */
static int find_member(jdoc_query_iter *it, uint32_t o, uint32_t k, uint32_t *out)
{
    const char *s;
    size_t n;
    if (jdoc__string_at(it->d, k, &s, &n) != JDOC_OK)
        return 0;
    jdoc_step st;
    make_step(&st, s, n);
    uint32_t pos = 0, end = 0, key, v;
    int r;
    children(it->d, o, &pos, &end);
    while ((r = child_next(it, true, &pos, end, &key, &v)) > 0)
        if (jdoc__key_eq(it->d, key, &st)) {
            *out = v;
            return 1;
        }
    return r;
}

/* Two values of the document equal as JSON (objects: same members in any
 * order), with an explicit stack. */
static int deep_equal(jdoc_query_iter *it, uint32_t a, uint32_t b)
{
    size_t top = 0;
    uint32_t x = a, y = b;
    for (;;) {
        /* compare x and y; containers are pushed */
        char cx = CH(it->d, x), cy = CH(it->d, y);
        if (is_container(it->d, x) || is_container(it->d, y)) {
            if (cx != cy)
                goto unequal;
            int64_t nx = count_children(it, x), ny = count_children(it, y);
            if (nx < 0 || ny < 0)
                return -1;
            if (nx != ny)
                goto unequal;
            if (!grow(it, (void **)&it->eq, &it->eqcap, top + 1, sizeof *it->eq))
                return -1;
            eq_item *e = &it->eq[top++];
            e->a = x;
            e->b = y;
            e->obj = cx == '{';
            children(it->d, x, &e->apos, &e->aend);
            uint32_t bend;
            children(it->d, y, &e->bpos, &bend);
        } else {
            jq_val vx, vy;
            node_value(it, x, &vx);
            node_value(it, y, &vy);
            if (!values_equal(it, &vx, &vy))
                goto unequal;
        }
        /* the next pair */
        for (;;) {
            if (top == 0)
                return 1;
            eq_item *e = &it->eq[top - 1];
            uint32_t key = UINT32_MAX, va;
            int r = child_next(it, e->obj, &e->apos, e->aend, &key, &va);
            if (r < 0)
                return -1;
            if (r == 0) {
                top--;
                continue;
            }
            if (e->obj) {
                uint32_t vb;
                int f = find_member(it, e->b, key, &vb);
                if (f < 0)
                    return -1;
                if (!f)
                    goto unequal;
                x = va;
                y = vb;
            } else {
                uint32_t vb, bkey;
                uint32_t bend = jdoc__skip(it->d, e->b) - 1;
                if (child_next(it, false, &e->bpos, bend, &bkey, &vb) <= 0)
                    return it->status == JDOC_OK ? 0 : -1;
                x = va;
                y = vb;
            }
            break;
        }
    }
unequal:
    return 0;
}

static int compare(jdoc_query_iter *it, const jq_expr *x, uint32_t at_node)
{
    jq_val a, b;
    if (eval_value(it, x->args[0], at_node, &a) < 0 || eval_value(it, x->args[1], at_node, &b) < 0)
        return -1;
    int r;
    switch (x->op) {
    case OP_EQ: return values_equal(it, &a, &b);
    case OP_NE: return (r = values_equal(it, &a, &b)) < 0 ? r : !r;
    case OP_LT: return values_less(&a, &b);
    case OP_GT: return values_less(&b, &a);
    case OP_LE: return values_less(&a, &b) ? 1 : values_equal(it, &a, &b);
    case OP_GE: return values_less(&b, &a) ? 1 : values_equal(it, &a, &b);
    }
    return 0;
}

/* A logical expression with @ at at_node: 1 true, 0 false, -1 error. */
static int eval_logical(jdoc_query_iter *it, const jq_expr *x, uint32_t at_node)
{
    int r;
    switch (x->kind) {
    case X_OR:
        for (uint32_t k = 0; k < x->n; k++)
            if ((r = eval_logical(it, x->args[k], at_node)) != 0)
                return r;
        return 0;
    case X_AND:
        for (uint32_t k = 0; k < x->n; k++)
            if ((r = eval_logical(it, x->args[k], at_node)) != 1)
                return r;
        return 1;
    case X_NOT:
        r = eval_logical(it, x->args[0], at_node);
        return r < 0 ? r : !r;
    case X_CMP:
        return compare(it, x, at_node);
    case X_TEST: {
        uint32_t first;
        int64_t n = query_nodes(it, x->q, at_node, 1, &first);
        return n < 0 ? -1 : n > 0;
    }
    case X_FUNC:
        if (x->fn == FN_MATCH || x->fn == FN_SEARCH)
            return eval_regex(it, x, at_node);
        return 0;
    }
    return 0;
}

/* ------------------------------------------------------------------------ */
/* Public iteration                                                         */
/* ------------------------------------------------------------------------ */

jdoc_query_iter *jdoc_query_iter_new(const jdoc_query *q, jdoc_value from, jdoc_status *st)
{
    jdoc_status dummy;
    if (!st)
        st = &dummy;
    if (!q || !jdoc__valid(from)) {
        *st = JDOC_ERR_ARG;
        return NULL;
    }
    const jdoc_allocator *a = &from.doc->parser->a;
    jdoc_query_iter *it = a->malloc(a->ud, sizeof *it);
    if (!it) {
        *st = JDOC_ERR_NOMEM;
        return NULL;
    }
    memset(it, 0, sizeof *it);
    it->a = *a;
    it->q = q;
    it->subs = a->malloc(a->ud, q->npaths * sizeof *it->subs);
    if (!it->subs) {
        a->free(a->ud, it);
        *st = JDOC_ERR_NOMEM;
        return NULL;
    }
    memset(it->subs, 0, q->npaths * sizeof *it->subs);
    if (q->rxscratch && !grow(it, &it->rx, &it->rxcap, q->rxscratch, 1)) {
        jdoc_query_iter_free(it);
        *st = JDOC_ERR_NOMEM;
        return NULL;
    }
    *st = jdoc_query_iter_reset(it, from);
    return it;
}

jdoc_status jdoc_query_iter_reset(jdoc_query_iter *it, jdoc_value from)
{
    if (!it)
        return JDOC_ERR_ARG;
    it->have = false;
    if (!jdoc__valid(from)) {
        it->status = JDOC_ERR_ARG;
        it->main.active = false;
        return JDOC_ERR_ARG;
    }
    it->d = from.doc;
    it->gen = from.gen;
    it->root = from.idx;
    it->status = JDOC_OK;
    it->npos = 0;
    it->hit_seg = 0;
    it->main.nfr = 0;
    for (uint32_t k = 0; k < it->q->npaths; k++)
        it->subs[k].nfr = 0;
    run_reset(it, &it->main, it->q->root, from.idx);
    return JDOC_OK;
}

bool jdoc_query_iter_next(jdoc_query_iter *it, jdoc_value *out)
{
    if (!it)
        return false;
    it->have = false;
    if (it->status != JDOC_OK || !it->main.active)
        return false;
    if (it->gen != it->d->parser->gen || !it->d->parser->has_doc) {
        it->status = JDOC_ERR_ARG;   /* its document was replaced */
        return false;
    }
    uint32_t e;
    int r = run_next(it, &it->main, &e);
    if (r <= 0) {
        it->main.active = false;
        return false;
    }
    it->have = true;
    if (out)
        *out = jdoc__value(it->d, e);
    return true;
}

jdoc_status jdoc_query_iter_status(const jdoc_query_iter *it) { return it ? it->status : JDOC_ERR_ARG; }

/* Append to buf within cap, counting the full length. */
typedef struct wbuf {
    char *p;
    size_t cap, len;
} wbuf;

static void wput(wbuf *w, const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++, w->len++)
        if (w->len + 1 < w->cap)
            w->p[w->len] = s[i];
}

/* A member name in a normalized path: '...' with \b \f \n \r \t \' \\ and
 * other controls as \u00xx (RFC 9535 2.7). */
static void put_name(wbuf *w, const char *s, size_t n)
{
    wput(w, "['", 2);
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        char e[7];
        const char *x = NULL;
        switch (c) {
        case '\b': x = "\\b"; break;
        case '\f': x = "\\f"; break;
        case '\n': x = "\\n"; break;
        case '\r': x = "\\r"; break;
        case '\t': x = "\\t"; break;
        case '\'': x = "\\'"; break;
        case '\\': x = "\\\\"; break;
        default:
            if (c < 0x20) {
                static const char hex[] = "0123456789abcdef";
                e[0] = '\\', e[1] = 'u', e[2] = '0', e[3] = '0', e[4] = hex[c >> 4], e[5] = hex[c & 15], e[6] = 0;
                x = e;
            }
        }
        if (x)
            wput(w, x, strlen(x));
        else
            wput(w, (const char *)&c, 1);
    }
    wput(w, "']", 2);
}

/* One step of a normalized path: a member's name, or an element's index. */
static void put_step(wbuf *w, const jdoc_doc *d, uint32_t key, int64_t idx)
{
    if (key != UINT32_MAX) {
        const char *s;
        size_t n;
        if (jdoc__string_at(d, key, &s, &n) != JDOC_OK) {
            /* a bad escape (found only now): the name as written */
            jdoc_get_raw(jdoc__value(d, key), &s, &n);
            s++, n -= 2;
        }
        put_name(w, s, n);
    } else {
        char num[24];
        int n = snprintf(num, sizeof num, "[%lld]", (long long)idx);
        wput(w, num, (size_t)n);
    }
}

/* The steps from container `from` down to container `to` inside it, in a
 * subtree desc_keys checked: from each container, over its children to the
 * one that holds `to`. */
static void put_steps_down(wbuf *w, const jdoc_doc *d, uint32_t from, uint32_t to)
{
    for (uint32_t c = from; c != to;) {
        bool obj = CH(d, c) == '{';
        uint32_t pos = c + 1;
        for (int64_t k = 0;; k++) {
            uint32_t v = obj ? pos + 2 : pos, next = jdoc__skip(d, v);
            if (to < next) {
                put_step(w, d, obj ? pos : UINT32_MAX, k);
                c = v;
                break;
            }
            pos = next + 1;
        }
    }
}

size_t jdoc_query_iter_path(const jdoc_query_iter *it, char *buf, size_t cap)
{
    wbuf w = { buf, cap, 0 };
    if (it && it->have && it->gen == it->d->parser->gen && it->d->parser->has_doc) {
        wput(&w, "$", 1);
        const jq_run *r = &it->main;
        for (uint32_t k = 0; k < r->nfr; k++) {
            const jq_frame *f = &r->fr[k];
            if (f->scan)
                put_steps_down(&w, it->d, f->node, f->cown);
            put_step(&w, it->d, f->ckey, f->cidx);
        }
    }
    if (cap)
        buf[w.len < cap ? w.len : cap - 1] = 0;
    return w.len;
}

void jdoc_query_iter_free(jdoc_query_iter *it)
{
    if (!it)
        return;
    jdoc_allocator a = it->a;
    a.free(a.ud, it->main.fr);
    if (it->subs)
        for (uint32_t k = 0; k < it->q->npaths; k++)
            a.free(a.ud, it->subs[k].fr);
    a.free(a.ud, it->subs);
    a.free(a.ud, it->pos);
    a.free(a.ud, it->rx);
    a.free(a.ud, it->eq);
    a.free(a.ud, it->hits);
    a.free(a.ud, it->kown);
    a.free(a.ud, it->kout);
    a.free(a.ud, it);
}

jdoc_status jdoc_query_each(const jdoc_query *q, jdoc_value from, jdoc_query_fn fn, void *ud)
{
    if (!fn)
        return JDOC_ERR_ARG;
    jdoc_status st;
    jdoc_query_iter *it = jdoc_query_iter_new(q, from, &st);
    if (!it)
        return st;
    jdoc_value v;
    while (jdoc_query_iter_next(it, &v))
        if (fn(it, v, ud))
            break;
    st = jdoc_query_iter_status(it);
    jdoc_query_iter_free(it);
    return st;
}
