/* SPDX-License-Identifier: MIT */
/*
 * The Oj::Doc cursor: a stack of frames from the root to the current value.
 * Frame i holds the value's entry, the entry of its key (object members) and
 * its 0-based position in its container, so where/local_key/".." need no
 * search. Moves are made on a scratch copy and committed only on success.
 */
#include <stdio.h>
#include <stdlib.h>
#include "stage2.h"

typedef struct frame {
    uint32_t entry;    /* the value */
    uint32_t key;      /* its key's opening quote, or UINT32_MAX in an array */
    uint64_t pos;      /* 0-based position in its container */
} frame;

struct jdoc_cursor {
    const jdoc_doc *d;
    uint32_t gen;      /* the parse it belongs to */
    uint32_t depth, cap;
    frame *f, *scratch;
};


#define J(d, e) jdoc__ch((d), (e))

/* Is the cursor's document still the parser's current one? */
static bool live(const jdoc_cursor *c)
{
    return c && c->d->parser->has_doc && c->gen == c->d->parser->gen;
}

jdoc_cursor *jdoc_cursor_new(const jdoc_doc *d)
{
    if (!d || !d->parser->has_doc || d != &d->parser->doc)
        return NULL;
    jdoc_parser *p = d->parser;
    /* a path is at most max_depth deep, and never deeper than the document has entries */
    uint64_t want = (uint64_t)(p->max_depth < d->n ? p->max_depth : d->n) + 2;
    if (want > UINT32_MAX)
        return NULL;
    uint32_t cap = (uint32_t)want;
    jdoc_cursor *c = jdoc__alloc(p, sizeof *c + 2 * (size_t)cap * sizeof(frame));
    if (!c)
        return NULL;
    c->d = d;
    c->gen = p->gen;
    c->cap = cap;
    c->f = (frame *)(c + 1);
    c->scratch = c->f + cap;
    jdoc_cursor_home(c);
    return c;
}

void jdoc_cursor_free(jdoc_cursor *c)
{
    if (c)
        jdoc__free(c->d->parser, c);
}

void jdoc_cursor_home(jdoc_cursor *c)
{
    if (!c)
        return;
    c->depth = 0;
    c->f[0] = (frame){ 0, UINT32_MAX, 0 };
}

jdoc_value jdoc_cursor_value(const jdoc_cursor *c)
{
    return live(c) ? jdoc__value(c->d, c->f[c->depth].entry) : (jdoc_value){ 0 };
}

size_t jdoc_cursor_depth(const jdoc_cursor *c) { return c ? c->depth : 0; }

/* First member/element of container entry o as a frame; NOT_FOUND if empty. */
static jdoc_status first_of(const jdoc_doc *d, uint32_t o, frame *out)
{
    char c = J(d, o);
    if (c != '{' && c != '[')
        return JDOC_ERR_NOT_FOUND;
    uint32_t i = o + 1;
    if (i == jdoc__close(d, o))
        return JDOC_ERR_NOT_FOUND;
    if (c == '{') {
        if (J(d, i) != '"' || J(d, i + 1) != ':')
            return JDOC_ERR_SYNTAX;
        *out = (frame){ i + 2, i, 0 };
    } else {
        *out = (frame){ i, UINT32_MAX, 0 };
    }
    if (jdoc__skip(d, out->entry) == UINT32_MAX)
        return JDOC_ERR_SYNTAX;
    return JDOC_OK;
}

/* The frame after `cur` inside container `o`; NOT_FOUND after the last. */
static jdoc_status next_of(const jdoc_doc *d, uint32_t o, frame *cur)
{
    uint32_t next = jdoc__skip(d, cur->entry), end = jdoc__close(d, o);
    if (next == UINT32_MAX || next > end)
        return JDOC_ERR_SYNTAX;
    if (next == end)
        return JDOC_ERR_NOT_FOUND;
    if (J(d, next) != ',' || next + 1 >= end)
        return JDOC_ERR_SYNTAX;
    uint32_t i = next + 1;
    if (J(d, o) == '{') {
        if (J(d, i) != '"' || J(d, i + 1) != ':')
            return JDOC_ERR_SYNTAX;
        *cur = (frame){ i + 2, i, cur->pos + 1 };
    } else {
        *cur = (frame){ i, UINT32_MAX, cur->pos + 1 };
    }
    return jdoc__skip(d, cur->entry) == UINT32_MAX ? JDOC_ERR_SYNTAX : JDOC_OK;
}

/* Apply steps to frames f[0..*depth]. */
static jdoc_status apply(const jdoc_doc *d, frame *f, uint32_t *depth, uint32_t cap, const jdoc_step *steps,
                         uint32_t n)
{
    for (uint32_t k = 0; k < n; k++) {
        const jdoc_step *s = &steps[k];
        if (s->kind == STEP_UP) {
            if (*depth == 0)
                return JDOC_ERR_NOT_FOUND;
            (*depth)--;
            continue;
        }
        if (*depth + 1 >= cap)
            return JDOC_ERR_DEPTH;
        uint32_t o = f[*depth].entry;
        char c = J(d, o);
        if (c != '{' && (c != '[' || s->index == NO_INDEX))
            return JDOC_ERR_NOT_FOUND;
        uint64_t want = s->index;
        if (c == '[' && s->from_end) {   /* Oj "-k" */
            size_t len = jdoc_count(jdoc__value(d, o));
            if (want > len)
                return JDOC_ERR_NOT_FOUND;
            want = len - want;
        }
        frame fr;
        jdoc_status st = first_of(d, o, &fr);
        while (st == JDOC_OK) {
            if (c == '{' ? jdoc__key_eq(d, fr.key, s) : fr.pos == want)
                break;
            st = next_of(d, o, &fr);
        }
        if (st != JDOC_OK)
            return st;
        f[++*depth] = fr;
    }
    return JDOC_OK;
}

#define STACK_STEPS 64
#define STACK_KEYS 1024

/* Parse an Oj path and run it from a copy of the cursor into c->scratch;
 * *depth gets the scratch depth. */
static jdoc_status run(jdoc_cursor *c, const char *path, uint32_t *depth)
{
    size_t len = path ? strlen(path) : 0;
    jdoc_step steps_buf[STACK_STEPS], *steps = steps_buf;
    char keys_buf[STACK_KEYS], *keys = keys_buf;
    jdoc_path *heap = NULL;
    uint32_t n;
    bool abs;
    jdoc_status st = jdoc__path_parse(path, len, JDOC_SYNTAX_OJ, steps, STACK_STEPS, keys, sizeof keys, &n, &abs);
    if (st == JDOC_ERR_NOMEM) {
        heap = jdoc_path_compile_ex(path, len, JDOC_SYNTAX_OJ, &c->d->parser->a, &st);
        if (!heap)
            return st;
        steps = heap->steps;
        n = heap->n;
        abs = heap->absolute;
    } else if (st != JDOC_OK) {
        return st;
    }
    *depth = abs ? 0 : c->depth;
    memcpy(c->scratch, c->f, (*depth + 1) * sizeof(frame));
    st = apply(c->d, c->scratch, depth, c->cap, steps, n);
    jdoc_path_free(heap);
    return st;
}

jdoc_status jdoc_cursor_move(jdoc_cursor *c, const char *path)
{
    if (!live(c) || !path)
        return JDOC_ERR_ARG;
    uint32_t depth;
    jdoc_status st = run(c, path, &depth);
    if (st != JDOC_OK)
        return st;
    frame *t = c->f;
    c->f = c->scratch;
    c->scratch = t;
    c->depth = depth;
    return JDOC_OK;
}

jdoc_status jdoc_cursor_fetch(jdoc_cursor *c, const char *path, jdoc_value *out)
{
    if (!live(c) || !out)
        return JDOC_ERR_ARG;
    *out = (jdoc_value){ 0 };
    if (!path || !*path) {
        *out = jdoc_cursor_value(c);
        return JDOC_OK;
    }
    uint32_t depth;
    jdoc_status st = run(c, path, &depth);
    if (st == JDOC_OK)
        *out = jdoc__value(c->d, c->scratch[depth].entry);
    return st;
}

/* Append s[0..n) to buf at *len, escaping '/' as "\/" and '\' as "\\"
 * when esc (as jdoc_path_of does, so the path leads back to the value). */
static void put(char *buf, size_t cap, size_t *len, const char *s, size_t n, bool esc)
{
    for (size_t i = 0; i < n; i++) {
        if (esc && (s[i] == '/' || s[i] == '\\')) {
            if (*len + 1 < cap)
                buf[*len] = '\\';
            (*len)++;
        }
        if (*len + 1 < cap)
            buf[*len] = s[i];
        (*len)++;
    }
}

size_t jdoc_cursor_where(const jdoc_cursor *c, char *buf, size_t cap)
{
    size_t len = 0;
    if (!live(c)) {
        if (cap)
            buf[0] = 0;
        return 0;
    }
    if (c->depth == 0)
        put(buf, cap, &len, "/", 1, false);
    for (uint32_t i = 1; i <= c->depth; i++) {
        put(buf, cap, &len, "/", 1, false);
        const frame *f = &c->f[i];
        if (f->key != UINT32_MAX) {
            const char *k;
            size_t kl;
            if (jdoc__string_at(c->d, f->key, &k, &kl) != JDOC_OK) {
                /* an undecodable key: its raw text */
                k = c->d->json + jdoc__off(c->d, f->key) + 1;
                kl = jdoc__string_end(c->d, f->key) - jdoc__off(c->d, f->key) - 1;
            }
            put(buf, cap, &len, k, kl, true);
        } else {
            char num[24];
            int nl = snprintf(num, sizeof num, "%llu", (unsigned long long)(f->pos + 1));
            put(buf, cap, &len, num, (size_t)nl, false);
        }
    }
    if (cap)
        buf[len < cap ? len : cap - 1] = 0;
    return len;
}

jdoc_status jdoc_cursor_local_key(const jdoc_cursor *c, const char **key, size_t *len, uint64_t *index)
{
    if (!live(c) || !key || !len || !index)
        return JDOC_ERR_ARG;
    *key = NULL;
    *len = 0;
    *index = 0;
    if (c->depth == 0)
        return JDOC_ERR_NOT_FOUND;
    const frame *f = &c->f[c->depth];
    if (f->key == UINT32_MAX) {
        *index = f->pos + 1;
        return JDOC_OK;
    }
    return jdoc__string_at(c->d, f->key, key, len);
}

jdoc_status jdoc_cursor_first_child(jdoc_cursor *c)
{
    if (!live(c))
        return JDOC_ERR_ARG;
    if (c->depth + 1 >= c->cap)
        return JDOC_ERR_DEPTH;
    frame fr;
    jdoc_status st = first_of(c->d, c->f[c->depth].entry, &fr);
    if (st == JDOC_OK)
        c->f[++c->depth] = fr;
    return st;
}

jdoc_status jdoc_cursor_next_sibling(jdoc_cursor *c)
{
    if (!live(c))
        return JDOC_ERR_ARG;
    if (c->depth == 0)
        return JDOC_ERR_NOT_FOUND;
    frame fr = c->f[c->depth];
    jdoc_status st = next_of(c->d, c->f[c->depth - 1].entry, &fr);
    if (st == JDOC_OK)
        c->f[c->depth] = fr;
    return st;
}

jdoc_status jdoc_cursor_up(jdoc_cursor *c)
{
    if (!c)
        return JDOC_ERR_ARG;
    if (c->depth == 0)
        return JDOC_ERR_NOT_FOUND;
    c->depth--;
    return JDOC_OK;
}

jdoc_status jdoc_cursor_each_child(jdoc_cursor *c, jdoc_visit_fn fn, void *ud)
{
    if (!live(c) || !fn)
        return JDOC_ERR_ARG;
    uint32_t d0 = c->depth;
    jdoc_status st = jdoc_cursor_first_child(c);
    if (st == JDOC_ERR_NOT_FOUND)
        return JDOC_OK;
    while (st == JDOC_OK) {
        if (fn(c, ud))
            break;
        c->depth = d0 + 1;
        st = jdoc_cursor_next_sibling(c);
    }
    c->depth = d0;
    return st == JDOC_ERR_NOT_FOUND ? JDOC_OK : st;
}

jdoc_status jdoc_cursor_each_leaf(jdoc_cursor *c, jdoc_visit_fn fn, void *ud)
{
    if (!live(c) || !fn)
        return JDOC_ERR_ARG;
    uint32_t d0 = c->depth;
    jdoc_status st = JDOC_OK;
    for (;;) {
        char t = J(c->d, c->f[c->depth].entry);
        if (t == '{' || t == '[') {
            st = jdoc_cursor_first_child(c);
            if (st == JDOC_OK)
                continue;          /* down into a non-empty container */
            if (st != JDOC_ERR_NOT_FOUND)
                break;
        } else {
            uint32_t here = c->depth;
            if (fn(c, ud))
                break;
            c->depth = here;
        }
        /* advance: next sibling, or up until one exists */
        st = JDOC_OK;
        while (c->depth > d0) {
            st = jdoc_cursor_next_sibling(c);
            if (st == JDOC_OK || st != JDOC_ERR_NOT_FOUND)
                break;
            c->depth--;
        }
        if (c->depth == d0 || st != JDOC_OK)
            break;
    }
    c->depth = d0;
    return st == JDOC_ERR_NOT_FOUND ? JDOC_OK : st;
}
