/* SPDX-License-Identifier: MIT */
/*
 * Path syntaxes, parsed in one place.
 *
 * Oj::Doc (JDOC_SYNTAX_OJ): "/" alone is the root; a leading '/' makes the
 * path absolute, otherwise it is relative; steps are separated by '/'; ".."
 * goes up one level; "\/" is a '/' inside a key and "\\" a backslash (any
 * other backslash stays as it is); an empty step ("a//b") is the empty key; a
 * trailing '/' is ignored. Array indices are 1-based: "1" is the first element.
 *
 * JSON Pointer (RFC 6901, JDOC_SYNTAX_POINTER): "" is the starting value;
 * otherwise every step starts with '/'; "~0" is '~', "~1" is '/', any other
 * '~' is malformed. Indices are 0-based decimal without leading zeros; "-"
 * (past the end) is never found. Always relative to the starting value.
 */
#include <stdlib.h>
#include "stage2.h"

static void finish_step(jdoc_step *s, jdoc_syntax syntax)
{
    const unsigned char *k = (const unsigned char *)s->key;
    s->kw = jdoc__key_word(s->key, s->klen);
    s->plain = true;
    for (uint32_t i = 0; i < s->klen; i++)
        if (k[i] == '"' || k[i] == '\\' || k[i] < 0x20)
            s->plain = false;
    /* digits only, no leading zero (but "0" itself), and fits: an index;
     * in Oj paths also "-k" (k >= 1): the k-th element from the end */
    s->index = NO_INDEX;
    s->from_end = false;
    if (syntax == JDOC_SYNTAX_OJ && s->klen >= 2 && s->klen <= 20 && k[0] == '-' && k[1] != '0') {
        uint64_t v = 0;
        for (uint32_t i = 1; i < s->klen; i++) {
            if (k[i] < '0' || k[i] > '9')
                return;
            v = v * 10 + (k[i] - '0');
        }
        s->index = v;
        s->from_end = true;
        return;
    }
    if (s->klen == 0 || s->klen > 19 || (s->klen > 1 && k[0] == '0'))
        return;
    uint64_t v = 0;
    for (uint32_t i = 0; i < s->klen; i++) {
        if (k[i] < '0' || k[i] > '9')
            return;
        v = v * 10 + (k[i] - '0');
    }
    if (syntax == JDOC_SYNTAX_OJ) {
        if (v == 0)
            return;           /* Oj indices start at 1 */
        v--;
    }
    s->index = v;
}

/* One step from expr[i..) up to the next unescaped '/'; returns the index of
 * that '/' (or len). */
static size_t parse_step(const char *expr, size_t i, size_t len, jdoc_syntax syntax, char *keybuf, size_t *kb,
                         jdoc_step *s, jdoc_status *st)
{
    size_t start = *kb;
    bool escaped = false;
    while (i < len && expr[i] != '/') {
        char c = expr[i];
        if (syntax == JDOC_SYNTAX_POINTER && c == '~') {
            if (i + 1 >= len || (expr[i + 1] != '0' && expr[i + 1] != '1')) {
                *st = JDOC_ERR_PATH;
                return len;
            }
            c = expr[++i] == '0' ? '~' : '/';
        } else if (syntax == JDOC_SYNTAX_OJ && c == '\\' && i + 1 < len && (expr[i + 1] == '/' || expr[i + 1] == '\\')) {
            c = expr[++i];
            escaped = true;
        }
        keybuf[(*kb)++] = c;
        i++;
    }
    s->key = keybuf + start;
    s->klen = (uint32_t)(*kb - start);
    if (syntax == JDOC_SYNTAX_OJ && !escaped && s->klen == 2 && s->key[0] == '.' && s->key[1] == '.') {
        s->kind = STEP_UP;
        s->kw = 0;
        s->plain = true;
        s->index = NO_INDEX;
    } else {
        s->kind = STEP_KEY;
        finish_step(s, syntax);
    }
    return i;
}

jdoc_status jdoc__path_parse(const char *expr, size_t len, jdoc_syntax syntax, jdoc_step *steps, uint32_t max_steps,
                             char *keybuf, size_t keycap, uint32_t *n, bool *absolute)
{
    size_t i = 0, kb = 0;
    uint32_t ns = 0;
    jdoc_status st = JDOC_OK;
    *absolute = false;
    *n = 0;
    if (syntax != JDOC_SYNTAX_OJ && syntax != JDOC_SYNTAX_POINTER)
        return JDOC_ERR_ARG;
    if (len > keycap)
        return JDOC_ERR_NOMEM;   /* decoded keys never exceed the expression */
    if (syntax == JDOC_SYNTAX_POINTER) {
        if (len == 0)
            return JDOC_OK;
        if (expr[0] != '/')
            return JDOC_ERR_PATH;
        /* every '/' starts a step, including a last, empty one */
        while (i < len) {
            if (ns == max_steps)
                return JDOC_ERR_NOMEM;
            i = parse_step(expr, i + 1, len, syntax, keybuf, &kb, &steps[ns++], &st);
            if (st != JDOC_OK)
                return st;
        }
    } else {
        if (len && expr[0] == '/') {
            *absolute = true;
            i = 1;
        }
        /* steps separated by '/'; a trailing '/' adds nothing */
        while (i < len) {
            if (ns == max_steps)
                return JDOC_ERR_NOMEM;
            i = parse_step(expr, i, len, syntax, keybuf, &kb, &steps[ns++], &st);
            if (i < len)
                i++;
        }
    }
    *n = ns;
    return JDOC_OK;
}

jdoc_path *jdoc_path_compile_ex(const char *expr, size_t len, jdoc_syntax syntax, const jdoc_allocator *al,
                                jdoc_status *st)
{
    jdoc_status dummy;
    if (!st)
        st = &dummy;
    if (!expr && len) {
        *st = JDOC_ERR_ARG;
        return NULL;
    }
    jdoc_allocator a;
    if (al) {
        if (!al->malloc || !al->free) {
            *st = JDOC_ERR_ARG;
            return NULL;
        }
        a = *al;
    } else {
        a.malloc = NULL;
    }
    /* at most one step per byte, plus one */
    size_t maxs = len + 1;
    size_t bytes = sizeof(jdoc_path) + maxs * sizeof(jdoc_step) + len + 1;
    jdoc_path *p = al ? a.malloc(a.ud, bytes) : malloc(bytes);
    if (!p) {
        *st = JDOC_ERR_NOMEM;
        return NULL;
    }
    p->a = a;
    p->steps = (jdoc_step *)(p + 1);
    p->keys = (char *)(p->steps + maxs);
    *st = jdoc__path_parse(expr ? expr : "", len, syntax, p->steps, (uint32_t)maxs, p->keys, len + 1, &p->n,
                           &p->absolute);
    if (*st != JDOC_OK) {
        jdoc_path_free(p);
        return NULL;
    }
    return p;
}

jdoc_path *jdoc_path_compile(const char *expr, size_t len, jdoc_syntax syntax, jdoc_status *st)
{
    return jdoc_path_compile_ex(expr, len, syntax, NULL, st);
}

void jdoc_path_free(jdoc_path *p)
{
    if (!p)
        return;
    if (p->a.malloc)
        p->a.free(p->a.ud, p);
    else
        free(p);
}

/* ---- path sets ---- */

struct jdoc_pathset {
    size_t n;
    jdoc_path **paths;
    bool borrowed;     /* the caller's paths (jdoc_pathset_of): not freed with the set */
    jdoc__plan plan;   /* of the paths, when there are at most 64 */
};

void jdoc_pathset_free(jdoc_pathset *set)
{
    if (!set)
        return;
    for (size_t i = 0; i < set->n && !set->borrowed; i++)
        jdoc_path_free(set->paths[i]);
    free(set->paths);
    free(set);
}

/* A set with room for n paths, or NULL (*st: JDOC_ERR_NOMEM). */
static jdoc_pathset *set_alloc(size_t n, jdoc_status *st)
{
    jdoc_pathset *set = calloc(1, sizeof *set);
    if (!set || !(set->paths = calloc(n ? n : 1, sizeof *set->paths))) {
        free(set);
        *st = JDOC_ERR_NOMEM;
        return NULL;
    }
    return set;
}

/* The set's n paths are in place: plan them (up to 64). */
static jdoc_pathset *set_ready(jdoc_pathset *set, jdoc_status *st)
{
    if (set->n <= 64)
        jdoc__plan_init(&set->plan, (const jdoc_path *const *)set->paths, set->n);
    *st = JDOC_OK;
    return set;
}

jdoc_pathset *jdoc_pathset_compile(const char *const *exprs, size_t n, jdoc_syntax syntax, jdoc_status *st,
                                   size_t *bad)
{
    jdoc_status dummy;
    if (!st)
        st = &dummy;
    if (!exprs && n) {
        *st = JDOC_ERR_ARG;
        return NULL;
    }
    jdoc_pathset *set = set_alloc(n, st);
    if (!set)
        return NULL;
    for (; set->n < n; set->n++) {
        const char *e = exprs[set->n];
        if (!e) {
            *st = JDOC_ERR_ARG;
        } else if ((set->paths[set->n] = jdoc_path_compile(e, strlen(e), syntax, st)) != NULL) {
            continue;
        }
        if (bad)
            *bad = set->n;
        jdoc_pathset_free(set);
        return NULL;
    }
    return set_ready(set, st);
}

jdoc_pathset *jdoc_pathset_of(const jdoc_path *const *paths, size_t n, jdoc_status *st)
{
    jdoc_status dummy;
    if (!st)
        st = &dummy;
    for (size_t i = 0; i < n; i++)
        if (!paths || !paths[i]) {
            *st = JDOC_ERR_ARG;
            return NULL;
        }
    jdoc_pathset *set = set_alloc(n, st);
    if (!set)
        return NULL;
    set->borrowed = true;
    set->n = n;
    for (size_t i = 0; i < n; i++)
        set->paths[i] = (jdoc_path *)paths[i];   /* never written through: the set's paths are const to it */
    return set_ready(set, st);
}

size_t jdoc_pathset_size(const jdoc_pathset *set) { return set ? set->n : 0; }

size_t jdoc_pathset_fetch(jdoc_value from, const jdoc_pathset *set, jdoc_value *out, jdoc_status *each)
{
    if (!set || !out)
        return 0;
    size_t found = 0;
    if (set->n <= 64) {
        jdoc__fetch_planned(from, (const jdoc_path *const *)set->paths, set->n, &set->plan, out, each, &found);
        return found;
    }
    jdoc_fetch_many(from, (const jdoc_path *const *)set->paths, set->n, out, each);
    for (size_t i = 0; i < set->n; i++)
        found += out[i].doc != NULL;
    return found;
}
