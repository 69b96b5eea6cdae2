/* SPDX-License-Identifier: MIT */
/*
 * Moving over the structural index: find a member or an element, skip whole
 * containers through jump[] (one step, whatever their size), iterate. Never
 * decodes values; decodes a key only when the document's key has a backslash.
 *
 * An object's entries are   {  "k  :  v...  ,  "k  :  v...  }
 * an array's                [  v...  ,  v...  ]
 * where v... is one entry for a scalar or string and the whole span from a
 * bracket to its match for a container. Stage 1 checked the brackets only, so
 * every other expectation here is checked and reported as JDOC_ERR_SYNTAX.
 */
#include <stdlib.h>
#include "stage2.h"
#include "strdec.h"

#define J(d, e) jdoc__ch((d), (e))

/* Are the n bytes at raw (a key without a backslash; the document ends at
 * end) those of key, whose first word is kw? One word when 8 bytes are
 * readable there. */
static inline bool plain_key_eq(const char *raw, size_t n, const char *end, uint64_t kw, const char *key)
{
    return n <= 8 && raw + 8 <= end ? jdoc__word_eq(raw, n, kw) : jdoc__bytes_eq(raw, key, n);
}

/* Does the raw key body raw[0..rawlen) decode to step s's key? Raw bytes
 * compare unless the document's key has a backslash (stage 1 marked it:
 * `escaped`). */
static inline bool raw_key_eq(const char *raw, size_t rawlen, const char *end, bool escaped, const jdoc_step *s)
{
    if (JDOC_LIKELY(!escaped))
        return rawlen == s->klen && plain_key_eq(raw, rawlen, end, s->kw, s->key);
    /* an escaped key decodes to at most as many bytes as it has */
    if (rawlen >= s->klen)
        return jdoc__str_equals(raw, rawlen, s->key, s->klen) == 1;
    return false;
}

bool jdoc__key_eq(const jdoc_doc *d, uint32_t k, const jdoc_step *s)
{
    uint32_t b = d->index[k] + 1;
    return raw_key_eq(d->json + b, jdoc__string_end(d, k) - b, d->json + d->len, jdoc__str_escaped(d, k), s);
}

const uint8_t jdoc__vcls[256] = { ['{'] = VCLS_CONTAINER, ['['] = VCLS_CONTAINER, ['}'] = VCLS_BAD,
                                  [']'] = VCLS_BAD, [','] = VCLS_BAD, [':'] = VCLS_BAD };

/* Which bit of a 32-bit summary a key of raw length n, first byte c (for
 * n == 0, the closing quote), sets. */
static inline uint32_t key_bit(size_t n, uint8_t c) { return 1u << ((n * 5 + c) & 31); }
/* The same hash, 0..63: fetch_batch's buckets. */
static inline unsigned key_hash(size_t n, uint8_t c) { return (unsigned)((n * 5 + c) & 63); }

/* Member of object o whose key matches s: its value entry in *out. Members
 * from key entry `from` up to the closing brace, or up to key entry `end`,
 * are scanned; `seen` summarizes the keys of o's members before `from`
 * (key_bit of each; all bits for a key with a backslash). On a match, the
 * document's hint becomes that member with the summary of those before it. */
static jdoc_status scan_keys(const jdoc_doc *d, uint32_t o, uint32_t from, uint32_t end, uint32_t seen,
                             const jdoc_step *s, uint32_t *out)
{
    const uint8_t *tape = d->tape;
    const uint32_t *ix = d->index;
    const char *json = d->json, *jend = json + d->len;
    const size_t klen = s->klen;
    for (uint32_t i = from;;) {
        /* a key ('"', or ' ' when it holds a backslash: bit 1 clear) and a ':' */
        uint16_t kc;
        memcpy(&kc, tape + i, 2);
        if (JDOC_UNLIKELY((kc | 2) != ('"' | ':' << 8)))
            return JDOC_ERR_SYNTAX;
        uint32_t v = i + 2, next;
        uint8_t vk = jdoc__vcls[tape[v]];
        if (JDOC_LIKELY(vk == VCLS_ONE))
            next = v + 1;
        else if (vk == VCLS_CONTAINER)
            next = ix[v] + 1;
        else
            return JDOC_ERR_SYNTAX;
        /* the key's end: its closing quote is right before the ':' unless
         * there is whitespace between */
        const char *raw = json + ix[i] + 1;
        uint32_t q = ix[i + 1];
        while (JDOC_UNLIKELY(json[q - 1] != '"'))
            q--;
        size_t rawlen = (size_t)(json + q - 1 - raw);
        if (JDOC_LIKELY(kc & 2)) {
            if (rawlen == klen && plain_key_eq(raw, rawlen, jend, s->kw, s->key))
                goto found;
            seen |= key_bit(rawlen, (uint8_t)raw[0]);
        } else {
            if (raw_key_eq(raw, rawlen, jend, true, s))
                goto found;
            seen = ~0u;
        }
        uint8_t c = tape[next];
        if (JDOC_LIKELY(c == ',')) {
            i = next + 1;
            if (i == end)
                return JDOC_ERR_NOT_FOUND;
            continue;
        }
        return c == '}' ? JDOC_ERR_NOT_FOUND : JDOC_ERR_SYNTAX;
    found:
        atomic_store_explicit((_Atomic uint64_t *)&d->hint, (uint64_t)o << 32 | i, memory_order_relaxed);
        atomic_store_explicit((_Atomic uint64_t *)&d->hint_seen, (uint64_t)i << 32 | seen, memory_order_relaxed);
        *out = v;
        return JDOC_OK;
    }
}

/*
 * Find a member, starting where the last lookup in o found its key (the
 * document's hint) when no member before it can match: fields read in
 * document order cost about one pass over the object, and repeated fetches
 * from the root do not walk the same members again. The answer is the one a
 * scan from the start gives (the first of duplicate keys; a syntax error
 * after the hint), since the members before a hint were all walked, and
 * summarized, when it was set. The hint is two words, each read and written
 * relaxed, so threads may share a document: the summary word names the key
 * entry it belongs to (which names its object).
 */
static jdoc_status find_key(const jdoc_doc *d, uint32_t o, const jdoc_step *s, uint32_t *out)
{
    uint32_t i = o + 1;
    if (d->tape[i] == '}')
        return JDOC_ERR_NOT_FOUND;
    uint64_t h = atomic_load_explicit((_Atomic uint64_t *)&d->hint, memory_order_relaxed);
    uint32_t k = (uint32_t)h;
    if ((uint32_t)(h >> 32) == o && k > i) {
        uint64_t w = atomic_load_explicit((_Atomic uint64_t *)&d->hint_seen, memory_order_relaxed);
        uint32_t seen = (uint32_t)w;
        if ((uint32_t)(w >> 32) == k && !(seen & key_bit(s->klen, s->klen ? (uint8_t)s->key[0] : '"')))
            return scan_keys(d, o, k, UINT32_MAX, seen, s, out);
    }
    return scan_keys(d, o, i, UINT32_MAX, 0, s, out);
}

/* Element `n` (0-based) of array a. */
static jdoc_status find_nth(const jdoc_doc *d, uint32_t a, uint64_t n, uint32_t *out)
{
    uint32_t i = a + 1;
    if (J(d, i) == ']')
        return JDOC_ERR_NOT_FOUND;
    const jdoc_kernel *kern = d->parser->k;
    if (n >= 16 && kern->elems)   /* far in: whole steps of plain elements at once */
        i = kern->elems(d->tape, i, jdoc__close(d, a), &n);
    for (uint64_t k = 0;; k++) {
        uint32_t next = jdoc__skip(d, i);
        if (JDOC_UNLIKELY(next == UINT32_MAX))
            return JDOC_ERR_SYNTAX;
        if (k == n) {
            *out = i;
            return JDOC_OK;
        }
        char c = J(d, next);
        if (c == ',')
            i = next + 1;
        else if (c == ']')
            return JDOC_ERR_NOT_FOUND;
        else
            return JDOC_ERR_SYNTAX;
    }
}

static inline jdoc_status step_into(const jdoc_doc *d, uint32_t at, const jdoc_step *s, uint32_t *out)
{
    char c = J(d, at);
    if (c == '{')
        return find_key(d, at, s, out);
    if (c == '[') {
        if (s->index == NO_INDEX)
            return JDOC_ERR_NOT_FOUND;
        if (s->from_end) {   /* Oj "-k" */
            size_t n = jdoc_count(jdoc__value(d, at));
            return s->index > n ? JDOC_ERR_NOT_FOUND : find_nth(d, at, n - s->index, out);
        }
        return find_nth(d, at, s->index, out);
    }
    return JDOC_ERR_NOT_FOUND;   /* a scalar has no members */
}

/* The container holding entry e: descend from the root, choosing at each
 * level the child whose span contains e. */
uint32_t jdoc__parent(const jdoc_doc *d, uint32_t e)
{
    uint32_t c = 0, parent = UINT32_MAX;
    while (c != e) {
        char o = J(d, c);
        if ((o != '{' && o != '[') || e > jdoc__close(d, c))
            return UINT32_MAX;
        uint32_t i = c + 1, found = UINT32_MAX;
        while (i < jdoc__close(d, c)) {
            uint32_t v = o == '{' ? i + 2 : i;
            uint32_t next = jdoc__skip(d, v);
            if (next == UINT32_MAX)
                return UINT32_MAX;
            if (e >= v && e < next) {
                found = v;
                break;
            }
            i = next + 1;
        }
        if (found == UINT32_MAX)
            return UINT32_MAX;
        parent = c;
        c = found;
    }
    return parent;
}

jdoc_status jdoc__walk(const jdoc_doc *d, uint32_t from, const jdoc_step *steps, uint32_t n, uint32_t *out)
{
    uint32_t at = from;
    for (uint32_t k = 0; k < n; k++) {
        jdoc_status st;
        if (steps[k].kind == STEP_UP) {
            uint32_t up = jdoc__parent(d, at);
            if (up == UINT32_MAX)
                return JDOC_ERR_NOT_FOUND;
            at = up;
            continue;
        }
        if ((st = step_into(d, at, &steps[k], &at)) != JDOC_OK)
            return st;
    }
    *out = at;
    return JDOC_OK;
}


/* Paths up to this size are compiled on the stack: no allocation. */
#define STACK_STEPS 64
#define STACK_KEYS 1024

static jdoc_status fetch_expr(jdoc_value from, const char *expr, size_t len, jdoc_syntax syn, jdoc_value *out)
{
    if (!out)
        return JDOC_ERR_ARG;
    *out = (jdoc_value){ 0 };
    if (!jdoc__valid(from) || (!expr && len))
        return JDOC_ERR_ARG;
    jdoc_step steps[STACK_STEPS];
    char keys[STACK_KEYS];
    uint32_t n;
    bool abs;
    jdoc_status st = jdoc__path_parse(expr, len, syn, steps, STACK_STEPS, keys, sizeof keys, &n, &abs);
    if (st == JDOC_ERR_NOMEM) {
        /* a long path: compile it with the parser's allocator */
        jdoc_path *p = jdoc_path_compile_ex(expr, len, syn, &from.doc->parser->a, &st);
        if (!p)
            return st;
        st = jdoc_fetch_path(from, p, out);
        jdoc_path_free(p);
        return st;
    }
    if (st != JDOC_OK)
        return st;
    uint32_t at;
    st = jdoc__walk(from.doc, abs ? 0 : from.idx, steps, n, &at);
    if (st == JDOC_OK)
        *out = jdoc__value(from.doc, at);
    return st;
}

jdoc_status jdoc_fetch(jdoc_value from, const char *path, jdoc_value *out)
{
    return fetch_expr(from, path, path ? strlen(path) : 0, JDOC_SYNTAX_OJ, out);
}

jdoc_status jdoc_pointer(jdoc_value from, const char *ptr, size_t len, jdoc_value *out)
{
    return fetch_expr(from, ptr, len, JDOC_SYNTAX_POINTER, out);
}

jdoc_status jdoc_fetch_path(jdoc_value from, const jdoc_path *p, jdoc_value *out)
{
    if (!out)
        return JDOC_ERR_ARG;
    *out = (jdoc_value){ 0 };
    if (!jdoc__valid(from) || !p)
        return JDOC_ERR_ARG;
    uint32_t at;
    jdoc_status st = jdoc__walk(from.doc, p->absolute ? 0 : from.idx, p->steps, p->n, &at);
    if (st == JDOC_OK)
        *out = jdoc__value(from.doc, at);
    return st;
}

/*
 * Many paths from one object in one pass over its members: each member key is
 * compared with the first step of every path still pending, and each path
 * that matches continues from that member's value. Paths that start with an
 * index or "..", absolute or empty ones, and all paths from a non-object are
 * resolved one by one. Batches of 64 paths.
 */
/* The first steps, laid out for the member loop: the paths whose first key
 * has a member key's length and first byte are found by one lookup
 * (bucket[], by a hash of the two), so a member of no such key costs no
 * comparison; the first byte of an empty key is its closing quote. */
void jdoc__plan_init(jdoc__plan *pl, const jdoc_path *const *paths, size_t n)
{
    uint64_t rel = 0, abs = 0;
    memset(pl->bucket, 0, sizeof pl->bucket);
    for (size_t k = 0; k < n && k < 64; k++) {
        const jdoc_path *p = paths[k];
        if (!p || p->n == 0 || p->steps[0].kind != STEP_KEY)
            continue;
        uint64_t bit = 1ull << k;
        if (p->absolute)
            abs |= bit;
        else
            rel |= bit;
        const jdoc_step *s0 = &p->steps[0];
        uint32_t kl = s0->klen;
        jdoc__pkey *pk = &pl->pk[k];
        pk->kw = s0->kw;
        pk->kmask = kl >= 8 ? ~0ull : (1ull << (8 * kl)) - 1;
        pk->key = s0->key;
        pk->step0 = s0;
        pk->rest = p->steps + 1;
        pk->klen = kl;
        pk->nrest = p->n - 1;
        pk->how = p->n == 1 ? REST_NONE : p->n == 2 && p->steps[1].kind != STEP_UP ? REST_ONE : REST_WALK;
        pl->bucket[key_hash(kl, kl ? (uint8_t)s0->key[0] : '"')] |= bit;
    }
    pl->rel = rel;
    pl->abs = abs;
}

/* Does the member key raw[0..rawlen) (esc: it holds a backslash; the
 * document's bytes end at end) match the first step of pk?
 * A key without a backslash is its bytes: only a step of its length can be
 * it, compared a word at a time (one word for up to 8 bytes when 8 are
 * readable); one with a backslash decodes to at most its length. */
static inline bool pkey_eq(const jdoc__pkey *pk, const char *raw, size_t rawlen, const char *end, bool esc)
{
    if (JDOC_LIKELY(!esc)) {
        if (rawlen != pk->klen)
            return false;
        if (rawlen <= 8 && raw + 8 <= end) {
            uint64_t w;
            memcpy(&w, raw, 8);
            return ((w ^ pk->kw) & pk->kmask) == 0;
        }
        return jdoc__bytes_eq(raw, pk->key, rawlen);
    }
    return rawlen >= pk->klen && (!pk->klen || (uint8_t)raw[0] == (uint8_t)pk->key[0] || raw[0] == '\\') &&
           raw_key_eq(raw, rawlen, end, true, pk->step0);
}

/* The rest of a path from the member value v its first step found. */
static inline jdoc_status walk_rest(const jdoc_doc *d, uint32_t v, const jdoc__pkey *pk, uint32_t *at)
{
    *at = v;
    if (pk->how == REST_NONE)
        return JDOC_OK;
    if (pk->how == REST_ONE)   /* "Names/1", "Labels/x": one more step */
        return step_into(d, v, pk->rest, at);
    return jdoc__walk(d, v, pk->rest, pk->nrest, at);
}

/* out[k] and st[k] for each path; returns the set of paths found (bit k:
 * st[k] == JDOC_OK, out[k] set; the others' out[k] are zero). */
static uint64_t fetch_batch(jdoc_value from, const jdoc_path *const *paths, size_t n, const jdoc__plan *pl,
                            jdoc_value *out, jdoc_status *st)
{
    const jdoc_doc *d = from.doc;
    const uint32_t gen = from.gen;
    bool object = J(d, from.idx) == '{';
    uint64_t all = n >= 64 ? ~0ull : (1ull << n) - 1;
    uint64_t pending = object ? pl->rel | (from.idx == 0 ? pl->abs : 0) : 0;
    uint64_t found = 0;
    for (uint64_t m = all & ~pending; m; m &= m - 1) {   /* the paths resolved one by one */
        int k = __builtin_ctzll(m);
        if (paths[k])
            st[k] = jdoc_fetch_path(from, paths[k], &out[k]);
        else
            st[k] = JDOC_ERR_ARG, out[k] = (jdoc_value){ 0 };
        found |= (uint64_t)(st[k] == JDOC_OK) << k;
    }
    if (!pending)
        return found;
    jdoc_status left = JDOC_ERR_NOT_FOUND;   /* for the paths still pending at the end */
    const char *json = d->json, *end = json + d->len;
    const uint32_t *ix = d->index;
    const uint8_t *tape = d->tape;
    uint32_t i = from.idx + 1;
    if (tape[i] == '}')
        goto done;
    for (;;) {
        /* a key ('"', or ' ' when it holds a backslash: bit 1 clear) and a
         * ':', one little-endian load (as the tape's stores in stage 1) */
        uint16_t kc;
        memcpy(&kc, tape + i, 2);
        if (JDOC_UNLIKELY((kc | 2) != ('"' | ':' << 8)))
            break;
        uint32_t v = i + 2, next = jdoc__skip_in(tape, ix, v);   /* (locals: the stores below may alias *d) */
        if (JDOC_UNLIKELY(next == UINT32_MAX))
            break;
        const char *raw = json + ix[i] + 1;
        uint32_t q = ix[i + 1];
        while (JDOC_UNLIKELY(json[q - 1] != '"'))   /* the closing quote, before the ':' */
            q--;
        size_t rawlen = (size_t)(json + q - 1 - raw);
        bool esc = !(kc & 2);
        uint64_t cand = esc ? pending : pending & pl->bucket[key_hash(rawlen, (uint8_t)raw[0])];
        for (; cand; cand &= cand - 1) {
            int k = __builtin_ctzll(cand);
            const jdoc__pkey *pk = &pl->pk[k];
            if (!pkey_eq(pk, raw, rawlen, end, esc))
                continue;
            pending &= ~(1ull << k);
            uint32_t at;
            if ((st[k] = walk_rest(d, v, pk, &at)) == JDOC_OK) {
                out[k] = (jdoc_value){ d, at, gen };
                found |= 1ull << k;
            } else {
                out[k] = (jdoc_value){ 0 };
            }
        }
        char c = (char)tape[next];
        if (!pending || c == '}')
            goto done;
        if (c != ',')
            break;
        i = next + 1;
    }
    left = JDOC_ERR_SYNTAX;   /* the object is malformed */
done:
    for (uint64_t m = pending; m; m &= m - 1) {
        int k = __builtin_ctzll(m);
        st[k] = left;
        out[k] = (jdoc_value){ 0 };
    }
    return found;
}

/* fetch_batch into `each` (or a local array), and the first status that is
 * not JDOC_OK; *nfound (may be NULL) gets the number of paths found. */
jdoc_status jdoc__fetch_planned(jdoc_value from, const jdoc_path *const *paths, size_t n, const jdoc__plan *pl,
                                jdoc_value *out, jdoc_status *each, size_t *nfound)
{
    jdoc_status local[64], *st = each ? each : local;
    uint64_t all = n >= 64 ? ~0ull : (1ull << n) - 1, found;
    if (JDOC_LIKELY(jdoc__valid(from))) {
        found = fetch_batch(from, paths, n, pl, out, st);
    } else {
        for (size_t k = 0; k < n; k++) {
            out[k] = (jdoc_value){ 0 };
            st[k] = JDOC_ERR_ARG;
        }
        found = 0;
    }
    if (nfound) {   /* (no popcount instruction assumed here) */
        size_t c = 0;
        for (uint64_t m = found; m; m &= m - 1)
            c++;
        *nfound = c;
    }
    uint64_t miss = all & ~found;
    return miss ? st[__builtin_ctzll(miss)] : JDOC_OK;
}

jdoc_status jdoc_fetch_many(jdoc_value from, const jdoc_path *const *paths, size_t n, jdoc_value *out,
                            jdoc_status *each)
{
    if (!out || (!paths && n))
        return JDOC_ERR_ARG;
    jdoc_status first = JDOC_OK;
    for (size_t base = 0; base < n; base += 64) {
        size_t m = n - base < 64 ? n - base : 64;
        jdoc__plan pl;
        jdoc__plan_init(&pl, paths + base, m);
        jdoc_status r = jdoc__fetch_planned(from, paths + base, m, &pl, out + base, each ? each + base : NULL, NULL);
        if (first == JDOC_OK)
            first = r;
    }
    return first;
}

/* ---- iteration ---- */

jdoc_status jdoc_iter_init(jdoc_value c, jdoc_iter *it)
{
    if (!it)
        return JDOC_ERR_ARG;
    memset(it, 0, sizeof *it);
    if (!jdoc__valid(c))
        return JDOC_ERR_ARG;
    char o = J(c.doc, c.idx);
    if (o != '{' && o != '[')
        return JDOC_ERR_TYPE;
    it->doc = c.doc;
    it->gen = c.gen;
    it->object = o == '{';
    it->pos = c.idx + 1;
    it->end = jdoc__close(c.doc, c.idx);
    it->key = UINT32_MAX;
    return JDOC_OK;
}

bool jdoc_iter_next(jdoc_iter *it, jdoc_value *val)
{
    if (!it || !it->doc || it->status != JDOC_OK || it->pos >= it->end)
        return false;
    if (it->gen != it->doc->parser->gen || !it->doc->parser->has_doc) {
        it->status = JDOC_ERR_ARG;   /* its document was replaced */
        return false;
    }
    const jdoc_doc *d = it->doc;
    uint32_t i = it->pos, v = i;
    if (it->object) {
        if (J(d, i) != '"' || J(d, i + 1) != ':')
            goto bad;
        v = i + 2;
    }
    uint32_t next = jdoc__skip(d, v);
    if (next == UINT32_MAX || next > it->end)
        goto bad;
    if (J(d, next) == ',') {
        if (next + 1 >= it->end)   /* trailing comma */
            goto bad;
        it->pos = next + 1;
    } else if (next == it->end) {
        it->pos = next;
    } else {
        goto bad;
    }
    it->key = it->object ? i : UINT32_MAX;
    it->n++;
    if (val)
        *val = jdoc__value(d, v);
    return true;
bad:
    it->status = JDOC_ERR_SYNTAX;
    it->pos = it->end;
    return false;
}

size_t jdoc_count(jdoc_value v)
{
    jdoc_iter it;
    if (jdoc_iter_init(v, &it) != JDOC_OK)
        return 0;
    size_t n = 0;
    while (jdoc_iter_next(&it, NULL))
        n++;
    return n;
}
