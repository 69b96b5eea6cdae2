/* SPDX-License-Identifier: MIT */
/* Stage 2 internals: compiled path steps and the walk over the structural index. */
#ifndef JDOC_STAGE2_H
#define JDOC_STAGE2_H
#include "internal.h"

/*
 * A path is a list of steps. A step names a member key and, when the key is
 * an array index in the path's syntax, the index too (0-based): a digits-only
 * key selects a member of an object and an element of an array.
 *   Oj::Doc  "/a/2/b"   -> key "a" | key "2", index 1 | key "b"   (1-based)
 *   Pointer  "/a/2/b"   -> key "a" | key "2", index 2 | key "b"   (0-based)
 *   Oj::Doc  "/a/-1"    -> key "a" | key "-1", index 1 from the end (the last element)
 */
enum { STEP_KEY, STEP_UP };

typedef struct jdoc_step {
    uint8_t kind;      /* STEP_KEY or STEP_UP ("..") */
    bool plain;        /* the key has no '"', '\\' or byte < 0x20: raw bytes compare */
    uint32_t klen;
    const char *key;   /* decoded key (path escapes resolved) */
    uint64_t kw;       /* its first 8 bytes, zero after its end (jdoc__key_word) */
    uint64_t index;    /* array index, or NO_INDEX */
    bool from_end;     /* Oj "-k": index is k, counted from the end (-1 is the last element) */
} jdoc_step;
#define NO_INDEX UINT64_MAX

struct jdoc_path {
    jdoc_allocator a;
    bool absolute;     /* Oj paths starting with '/' restart at the root */
    uint32_t n;
    jdoc_step *steps;
    char *keys;        /* storage of the decoded keys */
};

/* A batch of at most 64 paths laid out for jdoc_fetch_many's one pass over
 * an object's members (walk.c): the paths whose first step is a key
 * (relative ones, and absolute ones, which start from the root only), and
 * those keys' lengths and first bytes, found by a hash of the two. Built
 * for each call of jdoc_fetch_many, once for a jdoc_pathset. */
typedef struct jdoc__pkey {
    uint64_t kw;               /* the first step's key: its first 8 bytes, zero after its end */
    uint64_t kmask;            /* ones over those of its bytes that are in the word */
    const char *key;
    const jdoc_step *step0;    /* the first step, for a document key with a backslash */
    const jdoc_step *rest;     /* the steps after it */
    uint32_t klen, nrest;
    uint8_t how;               /* REST_NONE, REST_ONE (one step into a container) or REST_WALK */
} jdoc__pkey;
enum { REST_NONE, REST_ONE, REST_WALK };
typedef struct jdoc__plan {
    uint64_t rel, abs;
    uint64_t bucket[64];
    jdoc__pkey pk[64];
} jdoc__plan;
void jdoc__plan_init(jdoc__plan *pl, const jdoc_path *const *paths, size_t n);
/* jdoc_fetch_many of at most 64 paths with their plan; *nfound (may be
 * NULL) gets the number of paths found. */
jdoc_status jdoc__fetch_planned(jdoc_value from, const jdoc_path *const *paths, size_t n, const jdoc__plan *pl,
                                jdoc_value *out, jdoc_status *each, size_t *nfound);

/* Compile into caller storage: steps[0..max_steps) and keybuf[0..keycap).
 * JDOC_ERR_NOMEM when they are too small (the caller then allocates). */
jdoc_status jdoc__path_parse(const char *expr, size_t len, jdoc_syntax syntax, jdoc_step *steps, uint32_t max_steps,
                             char *keybuf, size_t keycap, uint32_t *n, bool *absolute);

/* Walk steps from entry `from` of document d. `path_start` is the entry the
 * path's ".." may not climb above without searching for parents. */
jdoc_status jdoc__walk(const jdoc_doc *d, uint32_t from, const jdoc_step *steps, uint32_t n, uint32_t *out);

/* The entry after the value that starts at entry v, or UINT32_MAX when the
 * entry at v cannot start a value. */
enum { VCLS_ONE, VCLS_CONTAINER, VCLS_BAD };
extern const uint8_t jdoc__vcls[256];   /* tape byte -> VCLS_*: { [ | } ] , : | the rest */
static inline uint32_t jdoc__skip_in(const uint8_t *tape, const uint32_t *index, uint32_t v)
{
    uint8_t k = jdoc__vcls[tape[v]];
    if (JDOC_LIKELY(k == VCLS_ONE))
        return v + 1;
    return k == VCLS_CONTAINER ? index[v] + 1 : UINT32_MAX;   /* an opener's index is its closer */
}
static inline uint32_t jdoc__skip(const jdoc_doc *d, uint32_t v) { return jdoc__skip_in(d->tape, d->index, v); }

/* The closing quote of the string whose opening quote is at byte b, given
 * the offset q of the entry after it: right before q unless whitespace is
 * between. */
static inline uint32_t jdoc__quote_before(const char *json, uint32_t b, uint32_t q)
{
    while (q > b + 1 && json[q - 1] != '"')
        q--;
    return q - 1;
}

/* End (exclusive) of the raw body of the string whose opening quote is entry e. */
static inline uint32_t jdoc__string_end(const jdoc_doc *d, uint32_t e)
{
    /* e is a string: its offset is in the index */
    return jdoc__quote_before(d->json, d->index[e], jdoc__off(d, e + 1));
}

/* Short-string helpers for the hot paths (library calls cost more than the
 * work for the keys and values of API responses). */
static inline bool jdoc__has_backslash(const char *p, size_t n)
{
    const uint64_t ones = 0x0101010101010101ull, high = 0x8080808080808080ull, bs = ones * '\\';
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        uint64_t w;
        memcpy(&w, p + i, 8);
        w ^= bs;
        if ((w - ones) & ~w & high)
            return true;
    }
    for (; i < n; i++)
        if (p[i] == '\\')
            return true;
    return false;
}

static inline bool jdoc__bytes_eq(const char *a, const char *b, size_t n)
{
    if (n >= 8) {
        /* 8 at a time, the last word overlapping */
        for (size_t i = 0; i + 8 < n; i += 8) {
            uint64_t x, y;
            memcpy(&x, a + i, 8);
            memcpy(&y, b + i, 8);
            if (x != y)
                return false;
        }
        uint64_t x, y;
        memcpy(&x, a + n - 8, 8);
        memcpy(&y, b + n - 8, 8);
        return x == y;
    }
    /* shorter: two overlapping words of 4, or of 2, or the one byte */
    if (n >= 4) {
        uint32_t x0, y0, x1, y1;
        memcpy(&x0, a, 4), memcpy(&y0, b, 4), memcpy(&x1, a + n - 4, 4), memcpy(&y1, b + n - 4, 4);
        return ((x0 ^ y0) | (x1 ^ y1)) == 0;
    }
    if (n >= 2) {
        uint16_t x0, y0, x1, y1;
        memcpy(&x0, a, 2), memcpy(&y0, b, 2), memcpy(&x1, a + n - 2, 2), memcpy(&y1, b + n - 2, 2);
        return ((x0 ^ y0) | (x1 ^ y1)) == 0;
    }
    return n == 0 || a[0] == b[0];
}

/* A key of at most 8 bytes as one word, zero after its end. */
static inline uint64_t jdoc__key_word(const char *k, size_t n)
{
    uint64_t w = 0;
    if (n)   /* k may be NULL for an empty key */
        memcpy(&w, k, n < 8 ? n : 8);
    return w;
}
/* Do the n <= 8 bytes at p (with 8 bytes readable there) equal the key
 * whose word is kw? */
static inline bool jdoc__word_eq(const char *p, size_t n, uint64_t kw)
{
    uint64_t w;
    memcpy(&w, p, 8);
    uint64_t keep = n >= 8 ? ~0ull : (1ull << (n * 8)) - 1;   /* little-endian: the first n bytes */
    return ((w ^ kw) & keep) == 0;
}

/* Does the member key at entry k (an opening quote) equal step s? */
bool jdoc__key_eq(const jdoc_doc *d, uint32_t k, const jdoc_step *s);

/* Decode the string whose opening quote is entry e: a pointer into the input
 * when it has no escape, else into the parser's scratch buffer, once per
 * document (this writes to the parser). */
jdoc_status jdoc__string_at(const jdoc_doc *d, uint32_t e, const char **s, size_t *len);

/* Entry of the container that holds entry e (UINT32_MAX for the root). */
uint32_t jdoc__parent(const jdoc_doc *d, uint32_t e);

#endif
