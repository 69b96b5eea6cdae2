/* SPDX-License-Identifier: MIT */
/* A small DOM for the JSONPath tests, built with jdoc_iter and the typed
 * getters (not the query engine): JSON equality, and the nodes a naive
 * evaluator works on. Recursive: test documents are small. */
#ifndef JDOC_TEST_JP_DOM_H
#define JDOC_TEST_JP_DOM_H
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "jdoc.h"

typedef struct tnode {
    jdoc_type t;           /* JDOC_INT, JDOC_UINT and JDOC_DOUBLE are all numbers */
    bool b;
    bool isint;
    int64_t i;
    double d;
    char *s;               /* string (decoded) */
    size_t n;
    size_t len;            /* array / object */
    struct tnode **kid;
    char **key;
    size_t *klen;
    size_t off;            /* byte offset of the value in its document */
} tnode;

static inline bool dom_isnum(jdoc_type t) { return t == JDOC_INT || t == JDOC_UINT || t == JDOC_DOUBLE; }

static inline tnode *dom_build(jdoc_value v)
{
    tnode *x = calloc(1, sizeof *x);
    x->t = jdoc_typeof(v);
    x->off = jdoc_offset(v);
    const char *s;
    size_t n;
    switch (x->t) {
    case JDOC_BOOL: jdoc_get_bool(v, &x->b); break;
    case JDOC_INT: x->isint = true; jdoc_get_int64(v, &x->i); x->d = (double)x->i; break;
    case JDOC_UINT:
    case JDOC_DOUBLE: jdoc_get_double(v, &x->d); break;
    case JDOC_STRING:
        jdoc_get_string(v, &s, &n);
        x->s = malloc(n + 1);
        memcpy(x->s, s, n);
        x->s[n] = 0;
        x->n = n;
        break;
    case JDOC_ARRAY:
    case JDOC_OBJECT: {
        jdoc_iter it;
        jdoc_value c;
        size_t cap = 4;
        x->kid = malloc(cap * sizeof *x->kid);
        x->key = malloc(cap * sizeof *x->key);
        x->klen = malloc(cap * sizeof *x->klen);
        jdoc_iter_init(v, &it);
        while (jdoc_iter_next(&it, &c)) {
            if (x->len == cap) {
                cap *= 2;
                x->kid = realloc(x->kid, cap * sizeof *x->kid);
                x->key = realloc(x->key, cap * sizeof *x->key);
                x->klen = realloc(x->klen, cap * sizeof *x->klen);
            }
            x->key[x->len] = NULL;
            x->klen[x->len] = 0;
            if (x->t == JDOC_OBJECT) {
                jdoc_iter_key(&it, &s, &n);
                x->key[x->len] = malloc(n + 1);
                memcpy(x->key[x->len], s, n);
                x->key[x->len][n] = 0;
                x->klen[x->len] = n;
            }
            x->kid[x->len++] = dom_build(c);
        }
        break;
    }
    default: break;
    }
    return x;
}

static inline void dom_free(tnode *x)
{
    if (!x)
        return;
    for (size_t k = 0; k < x->len; k++) {
        dom_free(x->kid[k]);
        free(x->key[k]);
    }
    free(x->kid);
    free(x->key);
    free(x->klen);
    free(x->s);
    free(x);
}

static inline bool dom_eq(const tnode *a, const tnode *b)
{
    if (dom_isnum(a->t) && dom_isnum(b->t))
        return a->isint && b->isint ? a->i == b->i : a->d == b->d;
    if (a->t != b->t)
        return false;
    switch (a->t) {
    case JDOC_BOOL: return a->b == b->b;
    case JDOC_STRING: return a->n == b->n && memcmp(a->s, b->s, a->n) == 0;
    case JDOC_ARRAY:
        if (a->len != b->len)
            return false;
        for (size_t k = 0; k < a->len; k++)
            if (!dom_eq(a->kid[k], b->kid[k]))
                return false;
        return true;
    case JDOC_OBJECT:
        if (a->len != b->len)
            return false;
        for (size_t k = 0; k < a->len; k++) {
            size_t j = 0;
            while (j < b->len && !(b->klen[j] == a->klen[k] && memcmp(b->key[j], a->key[k], a->klen[k]) == 0))
                j++;
            if (j == b->len || !dom_eq(a->kid[k], b->kid[j]))
                return false;
        }
        return true;
    default: return true;
    }
}
#endif
