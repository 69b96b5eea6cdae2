/* SPDX-License-Identifier: MIT */
/*
 * Stage 1 driver: feeds the input to a kernel in chunks, growing the index as
 * entries are written, falls back to the scalar kernel to locate an error
 * exactly, then runs the kernel's bracket pass over the tape, which checks
 * brackets and depth and records each container's closing entry, and checks
 * the root.
 *
 * Memory: one block holds index[cap + 1] and tape[cap + 65] (5 bytes an
 * entry; the bracket pass writes each container's closing entry over its
 * opening bracket's offset). A parse first makes room for len / 6 entries,
 * with half as much again of headroom (1.25 bytes per input byte), so a
 * parser that has seen a document takes one up to 1.5 times its size without
 * allocating; a denser document (over 0.25 entries a byte) grows the block
 * while it is indexed, to half again what its density says it needs.
 */
#include "internal.h"

#define CHUNK (64u * 1024u)   /* a multiple of 64 */
#define SMALL_DOC (16u * 1024u) /* bytes: indexed in one kernel call */
#define MIN_CAP 512u          /* entries: a block of 2.6 KiB */
#define PIECE_ROOM 8192u      /* bytes: a stream's chunk up to this gets room for all its bytes as entries */

extern const jdoc_kernel jdoc__kernel_scalar;

static size_t ix_bytes(size_t cap) { return (cap + 1) * 4 + cap + 65; }

/* A block of `cap` entries, keeping the first `keep` entries of index and tape. */
static jdoc_status ix_alloc(jdoc_parser *p, size_t cap, uint32_t keep)
{
    if (cap > UINT32_MAX || cap > (SIZE_MAX - 128) / 5)
        return JDOC_ERR_NOMEM;
    uint8_t *m = jdoc__alloc(p, ix_bytes(cap));
    if (!m)
        return JDOC_ERR_NOMEM;
    uint32_t *index = (uint32_t *)(void *)m;
    uint8_t *tape = (uint8_t *)(index + cap + 1);
    if (keep) {
        memcpy(index, p->index, (size_t)keep * 4);
        memcpy(tape, p->tape, keep);
    }
    jdoc__free(p, p->ixmem);
    p->ixmem = m;
    p->index = index;
    p->tape = tape;
    p->ix_cap = cap;
    return JDOC_OK;
}

/* Room for a document of len bytes at the expected density; a small one is
 * given room for every byte being an entry, so that the kernel indexes it in
 * one call (see kernel_chunk), with headroom up to the memory bound of
 * 2 bytes per input byte plus 64 KiB. */
/* A small document with room for every byte being an entry, 256 more. */
static bool small_room(const jdoc_parser *p, size_t len) { return len <= SMALL_DOC && p->ix_cap >= len + 256; }

static jdoc_status ix_prepare(jdoc_parser *p, size_t len)
{
    if (len <= SMALL_DOC) {
        size_t need = len + 256;
        if (JDOC_LIKELY(small_room(p, len)))
            return JDOC_OK;
        size_t cap = need + need / 2, most = (2 * len + 60 * 1024) / 5;
        if (cap > most)
            cap = most > need ? most : need;
        return ix_alloc(p, cap < MIN_CAP ? MIN_CAP : cap, 0);
    }
    size_t want = len / 6 + 128;
    if (JDOC_LIKELY(p->ix_cap >= want))
        return JDOC_OK;
    want += want / 2;
    return ix_alloc(p, want, 0);
}

/* Run kernel k over json[pos..pos+chunk) (len: the end of the input, start:
 * where indexing began, until: where it is to stop), with room for every
 * byte of the chunk (rounded up to 64) being an entry, 64 more for the
 * unrolled writes, and the sentinel: the chunk is cut to the room there is;
 * with room for less than 256 bytes the block grows first (so the next input
 * of the kind, up to 1.5 times as large, fits). */
static jdoc_status kernel_chunk(jdoc_parser *p, const jdoc_kernel *k, jdoc_s1 *s, const char *json, size_t start,
                                size_t pos, size_t *chunk, size_t len, size_t until)
{
    size_t room = p->ix_cap - s->n;
    if (room < *chunk + 192) {
        if (room < 256 + 192) {
            /* grow: by half, or to half again what the density so far says
             * the input needs, or (nothing indexed yet) to what a chunk of
             * the usual density needs */
            size_t cap = p->ix_cap + p->ix_cap / 2;
            if (pos > start) {
                double need = (double)s->n * (double)(until - start) / (double)(pos - start);
                if (need * 1.5 > (double)cap)
                    cap = need * 1.5 < (double)UINT32_MAX ? (size_t)(need * 1.5) : UINT32_MAX;
            }
            size_t least = (size_t)s->n + 256 + 192 + *chunk / 4;
            if (cap < least)
                cap = least;
            if (cap < MIN_CAP)
                cap = MIN_CAP;
            if (ix_alloc(p, cap, s->n))
                return JDOC_ERR_NOMEM;
            room = p->ix_cap - s->n;
        }
        if (room < *chunk + 192)
            *chunk = (room - 192) & ~(size_t)63;
    }
    s->index = p->index;
    s->tape = p->tape;
    s->base = pos;
    k->stage1(s, (const uint8_t *)json + pos, *chunk, pos + *chunk == len);
    return JDOC_OK;
}

/* Index json[start..len) with kernel k; entries are offsets from json. */
/* A kernel state at the start of a document, writing to the parser's index. */
static void s1_init(const jdoc_parser *p, jdoc_s1 *s)
{
    /* field by field: a memset of the whole state is a `rep stos`, a
     * tenth of the time of parsing a document of a few bytes */
    s->base = 0;
    s->check_utf8 = !p->trust_utf8;
    s->index = p->index;
    s->tape = p->tape;
    s->n = 0;
    s->code = JDOC_OK;
    s->offset = 0;
    s->message = NULL;
    s->in_string = s->escaped = s->scalar = s->utf8_inc = 0;
    s->seq_start = 0;
    s->seq_need = 0;
    s->seq_lo = s->seq_hi = 0;
    s->string_start = 0;
    memset(s->prev, 0, sizeof s->prev);
}

/* Where the scalar kernel may start afresh to say exactly what a SIMD kernel
 * saw at byte x (its first error): the last entry before x among [from, n)
 * that opens a string. There the scalar kernel of a run from the start is
 * outside any string, with no escape or UTF-8 sequence open (a sequence open
 * there would be cut by that quote, an error before x), and the kernels agree
 * on every entry before it; what comes after it is indexed again. n when
 * there is none. Without it, a stream with one damaged line in a hundred
 * was scanned again by the scalar kernel from where indexing began (up to a
 * window) at each damaged line: 3.6 times the time of an intact stream. */
static uint32_t scalar_restart(const uint32_t *index, const uint8_t *tape, uint32_t from, uint32_t n, size_t x)
{
    for (uint32_t e = n; e > from; e--)
        if ((tape[e - 1] | 2) == '"' && index[e - 1] < x)   /* '"', or ' ': a string holding a backslash */
            return e - 1;
    return n;
}

static jdoc_status run_kernel(jdoc_parser *p, const jdoc_kernel *k, const char *json, size_t start, size_t len,
                              jdoc_s1 *s)
{
    s1_init(p, s);
    size_t pos = start;
    do {
        size_t chunk = len - pos < CHUNK ? len - pos : CHUNK;
        if (kernel_chunk(p, k, s, json, start, pos, &chunk, len, len))
            return JDOC_ERR_NOMEM;
        pos += chunk;
    } while (pos < len && s->code == JDOC_OK);
    return JDOC_OK;
}

/* kernel_chunk for the stream code: no density estimate (windows, pieces);
 * a chunk of at most PIECE_ROOM bytes (a piece fed, the rest of one) gets
 * room for all its bytes as entries first, so that it is indexed in one call
 * (kernel_chunk, growing by the usual density, cut a 4 KiB piece in two);
 * a larger one grows as in a parse, within its memory bound. */
static jdoc_status stream_chunk(jdoc_parser *p, const jdoc_kernel *k, jdoc_s1 *s, const char *json, size_t pos,
                                size_t *chunk, size_t len)
{
    size_t need = (size_t)s->n + ((*chunk + 63) & ~(size_t)63) + 192;
    if (*chunk <= PIECE_ROOM && p->ix_cap < need && ix_alloc(p, need + need / 2, s->n))
        return JDOC_ERR_NOMEM;
    return kernel_chunk(p, k, s, json, pos, pos, chunk, len, len);
}

/* The tape after the last entry: zero, so the bracket pass may read 64 at a time. */
static void seal(jdoc_parser *p, uint32_t n) { memset(p->tape + n, 0, 65); }

jdoc_status jdoc__stage1_kernel_only(jdoc_parser *p, const jdoc_kernel *k, const char *json, size_t len,
                                     uint32_t *n, uint32_t *nb)
{
    jdoc_s1 s;
    if (ix_prepare(p, len) || run_kernel(p, k, json, 0, len, &s))
        return JDOC_ERR_NOMEM;
    *n = s.n;
    if (nb) {
        uint32_t c = 0;
        for (uint32_t e = 0; e < s.n; e++)
            c += (p->tape[e] | 0x20) == '{' || (p->tape[e] | 0x20) == '}';
        *nb = c;
    }
    p->err.offset = s.offset;
    return s.code;
}

static bool is_scalar_start(char c)
{
    return c != '{' && c != '}' && c != '[' && c != ']' && c != ':' && c != ',' && c != '"';
}

static bool ends_token(const char *p, size_t avail, size_t at)
{
    return at == avail || jdoc__is_ws((unsigned char)p[at]) || !is_scalar_start(p[at]);
}

/* The RFC 8259 number grammar, for a scalar root: the offset from p of the
 * first byte that does not fit it, or the token's length when it does and
 * ends at the end, whitespace, a structural character or a quote.
 *   -? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?                     */
static size_t number_end(const char *p, size_t avail, bool *ok)
{
    size_t i = 0;
#define DIGIT(k) ((k) < avail && p[k] >= '0' && p[k] <= '9')
    *ok = false;
    if (i < avail && p[i] == '-')
        i++;
    if (!DIGIT(i))
        return i;
    if (p[i++] != '0')
        while (DIGIT(i))
            i++;
    if (i < avail && p[i] == '.') {
        if (!DIGIT(i + 1))
            return i + 1;
        i++;
        while (DIGIT(i))
            i++;
    }
    if (i < avail && (p[i] == 'e' || p[i] == 'E')) {
        i++;
        if (i < avail && (p[i] == '+' || p[i] == '-'))
            i++;
        if (!DIGIT(i))
            return i;
        while (DIGIT(i))
            i++;
    }
#undef DIGIT
    *ok = ends_token(p, avail, i);
    return i;
}

/* A root scalar must be a literal or a number in full: this is what rejects
 * plain-text bodies such as "Internal Server Error" or "nothing". */
static jdoc_status check_root_scalar(jdoc_parser *p, const char *json, size_t len, size_t at)
{
    static const char *const lit[3] = { "true", "false", "null" };
    for (int i = 0; i < 3; i++) {
        size_t l = strlen(lit[i]);
        if (len - at >= l && memcmp(json + at, lit[i], l) == 0) {
            if (ends_token(json + at, len - at, l))
                return JDOC_OK;
            return jdoc__fail(p, JDOC_ERR_SYNTAX, at + l, "unexpected text after a literal");
        }
    }
    char c = json[at];
    if (c == '-' || (c >= '0' && c <= '9')) {
        bool ok;
        size_t e = number_end(json + at, len - at, &ok);
        return ok ? JDOC_OK : jdoc__fail(p, JDOC_ERR_NUMBER, at + e, "malformed number");
    }
    return jdoc__fail(p, JDOC_ERR_SYNTAX, at, "not JSON: expected a value");
}

/* Match the container opening at entry s with kernel k's bracket pass over
 * entries [s, n); stored closing entries are relative to `rel`. */
jdoc_status jdoc__match_container(jdoc_parser *p, const jdoc_kernel *k, const char *json, size_t eof, uint32_t s,
                                  uint32_t n, uint32_t rel, uint32_t *end)
{
    uint32_t at;
    int r = k->match(p->tape, p->index, s, n, rel, p->max_depth, &at);
    p->match_at = at;
    switch (r) {
    case JDOC_MATCH_OK:
        *end = at;
        return JDOC_OK;
    case JDOC_MATCH_DEPTH:
        return jdoc__fail(p, JDOC_ERR_DEPTH, jdoc__open_off(json, p->index, p->tape, at), "nesting too deep");
    case JDOC_MATCH_UNMATCHED:
        return jdoc__fail(p, JDOC_ERR_SYNTAX, p->index[at], "unmatched closing bracket");
    case JDOC_MATCH_MISMATCH:
        return jdoc__fail(p, JDOC_ERR_SYNTAX, p->index[at],
                          p->tape[at] == ']' ? "expected '}' before ']'" : "expected ']' before '}'");
    default:
        return jdoc__fail(p, JDOC_ERR_SYNTAX, eof, p->tape[at] == '[' ? "unclosed '['" : "unclosed '{'");
    }
}

/* The first entry of a document must start a value; a scalar root must be a
 * literal or a number in full. */
jdoc_status jdoc__check_root(jdoc_parser *p, const char *json, size_t len, uint32_t at)
{
    char c0 = json[at];
    if (c0 == ']' || c0 == '}' || c0 == ':' || c0 == ',')
        return jdoc__fail(p, JDOC_ERR_SYNTAX, at, "expected a value");
    if (is_scalar_start(c0))
        return check_root_scalar(p, json, len, at);
    return JDOC_OK;
}

/* For tests: the root-number grammar alone (see number_end). */
size_t jdoc__root_number_end(const char *p, size_t avail, bool *ok) { return number_end(p, avail, ok); }

jdoc_status jdoc__stage1(jdoc_parser *p, const jdoc_kernel *k, const char *json, size_t len)
{
    jdoc_s1 s;
    if (JDOC_LIKELY(small_room(p, len))) {
        /* one kernel call, without the chunk loop's room checks */
        s1_init(p, &s);
        k->stage1(&s, (const uint8_t *)json, len, true);
    } else if (ix_prepare(p, len) || run_kernel(p, k, json, 0, len, &s))
        return jdoc__fail(p, JDOC_ERR_NOMEM, 0, "out of memory");
    if (s.code != JDOC_OK && k != &jdoc__kernel_scalar) {
        /* SIMD kernels say where about; the scalar kernel says exactly, from
         * the last string before (or from the start when that finds none) */
        uint32_t q = scalar_restart(p->index, p->tape, 0, s.n, s.offset);
        size_t from = q < s.n ? p->index[q] : 0;
        if (run_kernel(p, &jdoc__kernel_scalar, json, from, len, &s) ||
            (s.code == JDOC_OK && from && run_kernel(p, &jdoc__kernel_scalar, json, 0, len, &s)))
            return jdoc__fail(p, JDOC_ERR_NOMEM, 0, "out of memory");
    }
    if (s.code != JDOC_OK)
        return jdoc__fail(p, s.code, s.offset, s.message);
    if (s.n == 0)
        return jdoc__fail(p, JDOC_ERR_SYNTAX, len, len ? "no value: only whitespace" : "no value: empty input");
    seal(p, s.n);
    p->index[s.n] = (uint32_t)len;
    jdoc_status st = jdoc__check_root(p, json, len, p->index[0]);
    if (st != JDOC_OK)
        return st;
    uint32_t end = 0;
    char c0 = (char)p->tape[0];
    if ((c0 == '[' || c0 == '{') && (st = jdoc__match_container(p, k, json, len, 0, s.n, 0, &end)) != JDOC_OK)
        return st;
    if (end + 1 < s.n)
        return jdoc__fail(p, JDOC_ERR_SYNTAX, p->index[end + 1], "text after the root value");
    p->doc.parser = p;
    p->doc.json = json;
    p->doc.len = (uint32_t)len;
    p->doc.n = s.n;
    p->doc.index = p->index;
    p->doc.tape = p->tape;
    atomic_store_explicit(&p->doc.hint, 0, memory_order_relaxed);
    return JDOC_OK;
}

/* The offset of entry e of the parser's index, an opening bracket too. */
static uint32_t entry_off(const jdoc_parser *p, const char *json, uint32_t e)
{
    return jdoc__is_open(p->tape[e]) ? jdoc__open_off(json, p->index, p->tape, e) : p->index[e];
}

/* ---- document streams ----
 * One engine reads a whole buffer (jdoc_stream_begin) and pieces fed as
 * they arrive (jdoc_feed_begin, jdoc_feed, jdoc_feed_close): a whole buffer
 * is one piece that ends the input.
 *
 * A piece is indexed in place, one window (256 KiB) at a time, the kernel's
 * state carried from window to window and from piece to piece; entries are
 * offsets in `buf`. Once every entry is used, the index starts again at the
 * front, so it holds only the document in progress and one window. When a
 * piece runs out in the middle of a document, that document's bytes (and
 * the bytes not indexed yet: every kernel call but the last is a multiple of
 * 64 bytes) move to `carry`, their entries are shifted to match, and the
 * next piece is copied after them a little at a time, as much as the
 * document needs; as soon as what is still needed lies wholly in the new
 * piece, indexing goes on in place there. So a document that arrives whole
 * is never copied, and each byte is indexed once, except: the last 63 bytes
 * of a piece are indexed for a look (by the scalar kernel, on a copy of the
 * state) so that a document ending there comes out without waiting for the
 * next piece. When indexing moves back from carry to a piece, the entries
 * of the next document made in carry are rebased onto the piece and the
 * kernel's state goes on there.
 *
 * A whole container document goes through the kernel's bracket pass (which
 * records its jump table) and a check that each entry may follow the one
 * before it; one still arriving is followed entry by entry (pairs and
 * depth), so that a line cut short shows at the next line. On any error an
 * exact automaton reads the document again to say which error comes first
 * and where. A damaged document is reported once
 * and reading goes on after the end of its line; when the damage shows only
 * past the end of the line the document starts on (an NDJSON line cut short,
 * brackets that never close), the document is that line. A kernel error
 * (located by the scalar kernel from the last fresh state) ends the index
 * there; the documents before it are whole. */

#define WINDOW (1u << 18)   /* a multiple of 64; 1.1x the events a second of 1 MiB (its bytes still cached when read) */
#define GROW_MIN 64u

static const char *const msg_cut = "document not closed at the end of its line";

enum { G_VALUE, G_VALUE_OR_CLOSE, G_KEY, G_KEY_OR_CLOSE, G_COLON, G_AFTER };

void jdoc__stream_free(jdoc_parser *p)
{
    jdoc__free(p, p->st.carry);
    jdoc__free(p, p->st.g_stack);
    p->st.carry = NULL;
    p->st.g_stack = NULL;
    p->st.carry_cap = p->st.g_words = 0;
}

/* The end of what the index covers: the tape after entry n is zero (the
 * bracket pass reads 64 at a time) and index[n] is the end. */
static void sentinel(jdoc_parser *p, uint32_t n, size_t end)
{
    seal(p, n);
    p->index[n] = (uint32_t)end;
}

static bool st_final(const struct jdoc_stream_state *t)
{
    return t->closed && (!t->in_carry || t->in_pos == t->in_len);
}

/* A fresh kernel state at byte `from` of buf, the index empty. */
static void run_start(jdoc_parser *p, size_t from)
{
    struct jdoc_stream_state *t = &p->st;
    memset(&t->ks, 0, sizeof t->ks);
    t->ks.check_utf8 = !p->trust_utf8;
    t->run = t->to = from;
    t->next = 0;
    t->err = JDOC_OK;
    t->err_off = SIZE_MAX;
    t->ended = false;
    t->tent = t->tent_tried = false;
    t->kscalar = false;
    t->g_doc = UINT32_MAX;
    sentinel(p, 0, from);
}

/* Lines: newlines of the stream before offset lines_at, counted when
 * bytes are about to go or a line number is asked for. */
static void count_lines(jdoc_parser *p, size_t stop)
{
    struct jdoc_stream_state *t = &p->st;
    if (stop <= t->lines_at)
        return;
    const char *b = t->buf + (t->lines_at - t->base), *e = t->buf + (stop - t->base);
    if (p->k->lines)
        t->lines += p->k->lines((const uint8_t *)b, (size_t)(e - b));
    else
        t->lines += jdoc__lines_ref(b, (size_t)(e - b));
    t->lines_at = stop;
}

size_t jdoc__lines_ref(const char *b, size_t n)
{
    size_t c = 0;
    for (const char *e = b + n; b < e && (b = memchr(b, '\n', (size_t)(e - b))); b++)
        c++;
    return c;
}

/* Count up to byte `upto` of buf; the last document's line first. */
static void lines_upto(jdoc_parser *p, size_t upto)
{
    struct jdoc_stream_state *t = &p->st;
    if (t->count && !t->last_line && t->last >= t->lines_at && t->last <= t->base + upto) {
        count_lines(p, t->last);
        t->last_line = t->lines + 1;
    }
    count_lines(p, t->base + upto);
}

/* Drop the look at the bytes after `to`: its entries are indexed for real later. */
static void drop_tent(jdoc_parser *p)
{
    struct jdoc_stream_state *t = &p->st;
    if (t->tent)
        sentinel(p, t->ks.n, t->err != JDOC_OK ? t->err_off : t->to);
    t->tent = false;
}

/* Move the unused entries [first, n) to the front. */
static void compact(jdoc_parser *p)
{
    struct jdoc_stream_state *t = &p->st;
    uint32_t n = t->ks.n, first = t->next < n ? t->next : n;
    if (!first)
        return;
    drop_tent(p);
    memmove(p->index, p->index + first, (size_t)(n - first) * 4);
    memmove(p->tape, p->tape + first, n - first);
    t->ks.n = n - first;
    t->next -= first;
    if (t->g_doc != UINT32_MAX) {
        t->g_doc -= first;
        t->g_pos -= first;
    }
    sentinel(p, t->ks.n, t->err != JDOC_OK ? t->err_off : t->to);
    t->run = t->ks.n ? entry_off(p, t->buf, 0) : t->to;
}

/* Shift every offset of the index and the kernel state by -d: buf now starts d bytes later. */
static void shift(jdoc_parser *p, size_t d)
{
    struct jdoc_stream_state *t = &p->st;
    if (!d)
        return;   /* a document in progress at the front of carry: every piece, so never a pass over its entries */
    uint32_t *ix = p->index, n = t->ks.n, dd = (uint32_t)d, e = 0;
    for (; e + 4 <= n; e += 4) {   /* four at a time: one vector subtract where the compiler has one */
        ix[e] -= dd;
        ix[e + 1] -= dd;
        ix[e + 2] -= dd;
        ix[e + 3] -= dd;
    }
    for (; e < n; e++)
        ix[e] -= dd;
    t->ks.string_start = t->ks.string_start >= d ? t->ks.string_start - (uint32_t)d : 0;
    t->ks.seq_start = t->ks.seq_start >= d ? t->ks.seq_start - d : 0;
    t->to -= d;
    t->run = t->run >= d ? t->run - d : 0;
    t->base += d;
    t->len -= d;
}

/* Locate a kernel error exactly: the scalar kernel over [run, stop), from a fresh state. */
static jdoc_status locate(jdoc_parser *p, size_t stop, bool fin)
{
    struct jdoc_stream_state *t = &p->st;
    /* from the last string before the kernel's error, its entries kept (see
     * scalar_restart); from the run's start when that finds none */
    uint32_t q = scalar_restart(p->index, p->tape, t->next, t->ks.n, t->ks.offset);
    jdoc_s1 e;
    for (int pass = q < t->ks.n ? 0 : 1; pass < 2; pass++) {
        memset(&e, 0, sizeof e);
        e.check_utf8 = !p->trust_utf8;
        size_t pos = t->run;
        if (pass == 0) {
            e.n = q;
            pos = p->index[q];
        }
        do {
            size_t chunk = stop - pos < CHUNK ? stop - pos : CHUNK;
            if (stream_chunk(p, &jdoc__kernel_scalar, &e, t->buf, pos, &chunk, fin ? stop : SIZE_MAX))
                return JDOC_ERR_NOMEM;
            pos += chunk;
        } while (pos < stop && e.code == JDOC_OK);
        if (e.code != JDOC_OK)
            break;
    }
    t->ks = e;
    t->to = stop;
    t->ended = fin;
    if (e.code == JDOC_OK) {   /* cannot happen with a correct kernel: go on with the scalar one */
        t->kscalar = true;
        return JDOC_OK;
    }
    t->chunk = 4096;
    t->err = e.code;
    t->err_in_token = e.in_string || e.scalar;   /* the scalar kernel's state at the error */
    t->err_off = e.offset;
    t->err_msg = e.message;
    return JDOC_OK;
}

/* Index one more window of buf: whole blocks of 64 bytes, unless buf's end
 * ends the input. */
static jdoc_status index_more(jdoc_parser *p)
{
    struct jdoc_stream_state *t = &p->st;
    jdoc_s1 *s = &t->ks;
    const jdoc_kernel *k = t->kscalar ? &jdoc__kernel_scalar : p->k;
    bool fin = st_final(t);
    size_t lim = fin ? t->len : t->to + ((t->len - t->to) & ~(size_t)63);
    size_t w = t->window ? t->window : WINDOW;
    size_t end = lim - t->to <= w ? lim : t->to + w;
    drop_tent(p);
    t->tent_tried = false;
    while ((t->to < end || (fin && !t->ended && t->to == t->len)) && s->code == JDOC_OK) {
        /* after a kernel error the chunks start small and double, so that
         * a stream with many damaged lines is not scanned ahead for nothing */
        size_t chunk = t->chunk ? t->chunk : CHUNK;
        t->chunk = chunk < CHUNK ? 2 * chunk : 0;
        if (chunk > end - t->to)
            chunk = end - t->to;
        if (stream_chunk(p, k, s, t->buf, t->to, &chunk, fin ? t->len : SIZE_MAX))
            return JDOC_ERR_NOMEM;
        t->to += chunk;
        if (fin && t->to == t->len)
            t->ended = true;
    }
    if (s->code != JDOC_OK && t->err == JDOC_OK && locate(p, t->to, fin && t->to == t->len))
        return JDOC_ERR_NOMEM;
    sentinel(p, s->n, t->err != JDOC_OK ? t->err_off : t->to);
    return JDOC_OK;
}

/* Index the bytes after `to` (fewer than 64, not the end of the input) for
 * a look: the scalar kernel on a copy of the state. A document that ends
 * there comes out now; the entries are made again once more bytes arrive. */
static void tentative(jdoc_parser *p)
{
    struct jdoc_stream_state *t = &p->st;
    t->tent_tried = true;
    if (t->to >= t->len || t->err != JDOC_OK || t->ks.code != JDOC_OK)
        return;
    if (t->next < t->ks.n && (p->tape[t->next] == '{' || p->tape[t->next] == '[') &&
        !memchr(t->buf + t->to, '}', t->len - t->to) && !memchr(t->buf + t->to, ']', t->len - t->to))
        return;   /* the container in progress cannot close there */
    jdoc_s1 tmp = t->ks;
    if (p->k != &jdoc__kernel_scalar && !t->kscalar) {
        if (tmp.utf8_inc)   /* a UTF-8 sequence open in the SIMD state: wait for the bytes */
            return;
        tmp.seq_need = 0;
    }
    size_t chunk = t->len - t->to;
    if (stream_chunk(p, &jdoc__kernel_scalar, &tmp, t->buf, t->to, &chunk, SIZE_MAX) || tmp.code != JDOC_OK ||
        chunk != t->len - t->to) {
        /* what the look wrote after the entries goes: an opening bracket's
         * offset is found from the first entry after it that is not one */
        sentinel(p, t->ks.n, t->to);
        return;
    }
    t->tent = true;
    t->tn = tmp.n;
    t->tent_in_string = tmp.in_string != 0;
    sentinel(p, tmp.n, t->len);
}

/* The grammar's fast path: whether each entry may follow the one before it
 * in any JSON (a table of pairs: a value after a value, a comma before a
 * bracket, a key that is not a string, ...) and the depth, with no
 * dependence from one entry to the next but the depth's sum. What only
 * context tells (a string followed by ':' in an array, a key without its
 * value, a mismatched bracket) is left to the bracket pass and to fetch
 * time, as for jdoc_parse. Classes of a tape byte: */
enum { K_SCALAR, K_OBJ, K_ARR, K_OBJ_END, K_ARR_END, K_COLON, K_COMMA, K_STRING };
static const uint8_t gclass[256] = {
    ['{'] = K_OBJ, ['['] = K_ARR, ['}'] = K_OBJ_END, [']'] = K_ARR_END,
    [':'] = K_COLON, [','] = K_COMMA, ['"'] = K_STRING, [' '] = K_STRING,
};
static const int8_t gdelta[8] = { 0, 1, 1, -1, -1, 0, 0, 0 };
/* gbad[before][entry]: 1 when no JSON has entry right after before */
static const uint8_t gbad[8][8] = {
    /*                 scalar {  [  }  ]  :  ,  string */
    [K_SCALAR]     = { 1,     1, 1, 0, 0, 1, 0, 1 },
    [K_OBJ]        = { 1,     1, 1, 0, 1, 1, 1, 0 },
    [K_ARR]        = { 0,     0, 0, 1, 0, 1, 1, 0 },
    [K_OBJ_END]    = { 1,     1, 1, 0, 0, 1, 0, 1 },
    [K_ARR_END]    = { 1,     1, 1, 0, 0, 1, 0, 1 },
    [K_COLON]      = { 0,     0, 0, 1, 1, 1, 1, 0 },
    [K_COMMA]      = { 0,     0, 0, 1, 1, 1, 1, 0 },
    [K_STRING]     = { 1,     1, 1, 0, 0, 0, 0, 1 },
};

/* 1: the document closes at *end; 0: the entries run out; -2: a bad pair
 * or too deep: the exact automaton reads the document again. With a SIMD
 * kernel, its depth scan and pair check (k->depth, k->pairs) do it 64
 * entries a step, the pair check reading the class of the entry before
 * g_pos from the tape; else one entry at a time. */
static int grammar_fast(struct jdoc_stream_state *t, const jdoc_kernel *k, const uint8_t *tape, uint32_t n,
                        uint32_t max_depth, uint32_t *end)
{
    if (k->depth && k->pairs) {
        uint32_t from = t->g_pos, depth = t->g_depth, at = 0;
        if (from >= n)
            return 0;
        int r = k->depth(tape, from, n, &depth, max_depth, &at);
        if (r < 0 || k->pairs(tape, from, r == 1 ? at : n - 1))
            return -2;
        if (r == 1) {
            *end = at;
            return 1;
        }
        t->g_depth = depth;
        t->g_pos = n;
        t->g_state = gclass[tape[n - 1]];
        return 0;
    }
    uint32_t depth = t->g_depth, e = t->g_pos;
    unsigned prev = t->g_state, bad = 0;
    for (; e < n; e++) {
        unsigned c = gclass[tape[e]];
        bad |= gbad[prev][c];
        prev = c;
        depth += (uint32_t)(int32_t)gdelta[c];
        if (JDOC_UNLIKELY(depth - 1 >= max_depth))
            break;
    }
    if (bad || (e < n && depth != 0))
        return -2;
    if (e < n) {
        *end = e;
        return 1;
    }
    t->g_depth = depth;
    t->g_pos = e;
    t->g_state = (uint8_t)prev;
    return 0;
}

/* Read the grammar of the container document whose root is entry s0 over
 * entries [g_pos, n): 1 when it closes (*end: its closing entry), 0 when
 * the entries run out first, -1 on an error (in p->err, offset in buf). */
static int grammar_exact(jdoc_parser *p, uint32_t s0, uint32_t n, uint32_t *end);

/* Any bad pair among entries [from, to]: one pass with no branch, two
 * entries a step. The reference of the kernels' pair checks (k->pairs). */
bool jdoc__pairs_bad(const uint8_t *tape, uint32_t from, uint32_t to)
{
    unsigned prev = gclass[tape[from - 1]], bad = 0;
    uint32_t e = from;
    for (; e + 1 <= to; e += 2) {
        unsigned k1 = gclass[tape[e]], k2 = gclass[tape[e + 1]];
        bad |= gbad[prev][k1] | gbad[k1][k2];
        prev = k2;
    }
    if (e <= to)
        bad |= gbad[prev][gclass[tape[e]]];
    return bad != 0;
}

static int grammar(jdoc_parser *p, uint32_t s0, uint32_t n, uint32_t *end)
{
    struct jdoc_stream_state *t = &p->st;
    if (t->g_doc != s0) {
        /* the whole document is most often there: the kernel's bracket pass
         * finds its end (and records its jump table), then the pairs */
        uint32_t at;
        int m = p->k->match(p->tape, p->index, s0, n, s0, p->max_depth, &at);
        if (m == JDOC_MATCH_OK && !(p->k->pairs ? p->k->pairs : jdoc__pairs_bad)(p->tape, s0 + 1, at)) {
            *end = at;
            return 1;
        }
        if (m != JDOC_MATCH_UNCLOSED) {
            t->g_fast = false;
            t->g_doc = UINT32_MAX;
            return grammar_exact(p, s0, n, end);
        }
        t->g_doc = s0;
        t->g_pos = s0 + 1;
        t->g_depth = 1;
        t->g_state = p->tape[s0] == '{' ? K_OBJ : K_ARR;
        t->g_fast = true;
    }
    if (t->g_fast) {
        int r = grammar_fast(t, p->k, p->tape, n, p->max_depth, end);
        if (r == 1) {
            t->g_doc = UINT32_MAX;
            uint32_t at;
            if (p->k->match(p->tape, p->index, s0, n, s0, p->max_depth, &at) == JDOC_MATCH_OK && at == *end)
                return 1;
        }
        if (r == 0)
            return 0;
        t->g_fast = false;
        t->g_doc = UINT32_MAX;   /* from the start again */
    }
    return grammar_exact(p, s0, n, end);
}

static int grammar_exact(jdoc_parser *p, uint32_t s0, uint32_t n, uint32_t *end)
{
    struct jdoc_stream_state *t = &p->st;
    const uint8_t *tape = p->tape;
    uint64_t *stk = t->g_stack;
    if (t->g_doc != s0) {
        t->g_doc = s0;
        t->g_pos = s0 + 1;
        t->g_depth = 1;
        bool obj = tape[s0] == '{';
        stk[0] = obj;
        t->g_state = obj ? G_KEY_OR_CLOSE : G_VALUE_OR_CLOSE;
    }
    uint32_t e = t->g_pos, depth = t->g_depth;
    int state = t->g_state;
    const char *msg = NULL;
    jdoc_status code = JDOC_ERR_SYNTAX;
#define TOP_OBJ() ((stk[(depth - 1) >> 6] >> ((depth - 1) & 63)) & 1)
    for (; e < n; e++) {
        uint8_t c = tape[e];
        bool close = c == '}' || c == ']';
        if (close) {
            /* a bracket that does not match is that, wherever it is */
            if ((c == '}') != (bool)TOP_OBJ()) {
                msg = c == ']' ? "expected '}' before ']'" : "expected ']' before '}'";
                break;
            }
            if (state != G_AFTER && state != (c == '}' ? G_KEY_OR_CLOSE : G_VALUE_OR_CLOSE)) {
                msg = state == G_KEY ? "expected a key after ','" : state == G_COLON ? "expected ':'"
                                                                                     : "expected a value";
                break;
            }
            if (--depth == 0) {
                t->g_doc = UINT32_MAX;
                *end = e;
                return 1;
            }
            state = G_AFTER;
            continue;
        }
        switch (state) {
        case G_VALUE:
        case G_VALUE_OR_CLOSE:
            if (c == '{' || c == '[') {
                if (depth >= p->max_depth) {
                    code = JDOC_ERR_DEPTH;
                    msg = "nesting too deep";
                    goto out;
                }
                uint64_t bit = 1ull << (depth & 63);
                stk[depth >> 6] = c == '{' ? stk[depth >> 6] | bit : stk[depth >> 6] & ~bit;
                depth++;
                state = c == '{' ? G_KEY_OR_CLOSE : G_VALUE_OR_CLOSE;
            } else if (c == ':' || c == ',') {
                msg = "expected a value";
                goto out;
            } else {
                state = G_AFTER;
            }
            break;
        case G_KEY:
        case G_KEY_OR_CLOSE:
            if (c != '"' && c != ' ') {
                msg = "expected a string key";
                goto out;
            }
            state = G_COLON;
            break;
        case G_COLON:
            if (c != ':') {
                msg = "expected ':'";
                goto out;
            }
            state = G_VALUE;
            break;
        default: /* G_AFTER */
            if (c != ',') {
                msg = TOP_OBJ() ? "expected ',' or '}'" : "expected ',' or ']'";
                goto out;
            }
            state = TOP_OBJ() ? G_KEY : G_VALUE;
            break;
        }
    }
out:
#undef TOP_OBJ
    if (msg) {
        t->g_doc = UINT32_MAX;
        jdoc__fail(p, code, entry_off(p, t->buf, e), msg);
        return -1;
    }
    t->g_pos = e;
    t->g_depth = depth;
    t->g_state = (uint8_t)state;
    return 0;
}

/* Go on reading at byte `at` of buf, right after a newline outside any
 * string: with the index as it is when it reaches there, else afresh. */
static void resume_at(jdoc_parser *p, size_t at, uint32_t from)
{
    struct jdoc_stream_state *t = &p->st;
    size_t valid = t->err != JDOC_OK ? t->err_off : t->tent ? t->len : t->to;
    uint32_t n = t->tent ? t->tn : t->ks.n;
    if (at <= valid && at <= t->to) {
        uint32_t e = from;
        while (e < n && entry_off(p, t->buf, e) < at)   /* a bracket pass wrote over openers */
            e++;
        t->next = e;
    } else {
        drop_tent(p);
        run_start(p, at);
    }
}

static void count_doc(jdoc_parser *p, size_t start)
{
    struct jdoc_stream_state *t = &p->st;
    t->count++;
    t->last = t->base + start;
    t->last_line = 0;
    t->g_doc = UINT32_MAX;
}

/* Report the document starting at `start` as damaged by an error at `off`,
 * and resync after the end of its line. */
static int damaged(jdoc_parser *p, jdoc_status code, size_t off, const char *msg, size_t start, uint32_t s0,
                   jdoc_doc **doc, jdoc_status *st)
{
    struct jdoc_stream_state *t = &p->st;
    const char *b = t->buf;
    const char *nl = off > start ? memchr(b + start, '\n', off - start) : NULL;
    size_t at = 0;
    bool found = true;
    if (nl) {
        /* the damage shows past the line the document starts on */
        code = JDOC_ERR_SYNTAX;
        off = (size_t)(nl - b);
        msg = msg_cut;
        at = off + 1;
    } else {
        const char *q = off < t->len ? memchr(b + off, '\n', t->len - off) : NULL;
        if (q)
            at = (size_t)(q - b) + 1;
        else
            found = false;
    }
    jdoc__fail(p, code, t->base + off, msg);
    count_doc(p, start);
    lines_upto(p, start);
    t->chunk = 4096;
    if (found) {
        resume_at(p, at, s0);
    } else {
        t->skip = true;
        t->skip_from = t->len;
        drop_tent(p);
        t->next = t->ks.n = 0;
        t->err = JDOC_OK;
        sentinel(p, 0, t->to);
    }
    *doc = NULL;
    *st = code;
    return 1;
}

/* The end of a scalar root token starting at `at`, within [at, lim). */
static size_t token_end(const char *b, size_t at, size_t lim)
{
    while (at < lim && !ends_token(b, lim, at))
        at++;
    return at;
}

/* The entries the documents may be read from. Entries written at or before
 * a UTF-8 sequence a SIMD kernel leaves open at its end need no holding
 * back: next_doc waits for the next block before it judges a grammar error
 * there (the `utf8_inc` check) or a root token that reaches the end of what
 * is indexed (the token-end check). */
static uint32_t usable(const jdoc_parser *p)
{
    const struct jdoc_stream_state *t = &p->st;
    return t->tent ? t->tn : t->ks.n;
}

/* The next document from the entries: 1 when one is returned (whole or
 * damaged), 0 when it needs bytes that have not arrived. */
static int next_doc(jdoc_parser *p, jdoc_doc **doc, jdoc_status *st)
{
    struct jdoc_stream_state *t = &p->st;
    uint32_t n = usable(p);
    bool done = t->ended;
    size_t eof = t->err != JDOC_OK ? t->err_off : t->tent ? t->len : t->to;
    const char *b = t->buf;
    uint32_t s0 = t->next, end = s0;
    size_t start = entry_off(p, b, s0);   /* a failed bracket pass may have written over it */
    char c = (char)p->tape[s0];
    if (c == '{' || c == '[') {
        int r = grammar(p, s0, n, &end);
        /* a grammar error near the end of what the kernel indexed may hide
         * a UTF-8 sequence left open there (a SIMD kernel says so only in the
         * next block; errors inside a block are seen within it): judge it
         * once the next block is indexed */
        if (r == -1 && !done && t->err == JDOC_OK && t->ks.utf8_inc && p->err.offset + 4 > t->to)
            return 0;
        if (r == -1)
            return damaged(p, p->err.code, p->err.offset, p->err.message, start, s0, doc, st);
        if (r == 0) {
            if (t->err != JDOC_OK) {
                /* a grammar error the fast reading does not see (a ':' in an
                 * array) may come before the kernel's: the exact automaton says */
                if (t->g_fast) {
                    t->g_fast = false;
                    t->g_doc = UINT32_MAX;
                    if (grammar_exact(p, s0, n, &end) == -1)
                        return damaged(p, p->err.code, p->err.offset, p->err.message, start, s0, doc, st);
                }
                return damaged(p, t->err, t->err_off, t->err_msg, start, s0, doc, st);
            }
            if (done) {
                /* unclosed: the exact automaton says where it went wrong
                 * first, or which bracket is left open */
                if (t->g_fast) {
                    t->g_fast = false;
                    t->g_doc = UINT32_MAX;
                    if (grammar_exact(p, s0, n, &end) == -1)
                        return damaged(p, p->err.code, p->err.offset, p->err.message, start, s0, doc, st);
                }
                uint32_t d = t->g_depth - 1;
                bool obj = (t->g_stack[d >> 6] >> (d & 63)) & 1;
                return damaged(p, JDOC_ERR_SYNTAX, eof, obj ? "unclosed '{'" : "unclosed '['", start, s0, doc, st);
            }
            return 0;
        }

    } else if (c == ']' || c == '}' || c == ':' || c == ',') {
        jdoc__check_root(p, b, eof, (uint32_t)start);
        return damaged(p, p->err.code, p->err.offset, p->err.message, start, s0, doc, st);
    } else {
        bool last_entry = s0 + 1 >= n, reaches_err = true;
        if (c == '"' || c == ' ') {
            if (last_entry && !done && t->err == JDOC_OK && (t->tent ? t->tent_in_string : t->ks.in_string != 0))
                return 0;   /* the string goes on */
        } else {
            size_t lim = t->err != JDOC_OK ? t->err_off : t->len;
            size_t te = token_end(b, start, lim);
            reaches_err = te >= lim;   /* else it ended before the error: `\` then a string cut short */
            /* the token may go on, or is not indexed to its end, or the byte
             * after it is not indexed yet: a SIMD kernel sees a bad UTF-8
             * sequence at the byte after it (an invalid lead at the end of
             * a token shows only there) */
            if (!done && t->err == JDOC_OK &&
                (te == t->len || entry_off(p, b, s0 + 1) < te || (last_entry && te >= eof)))
                return 0;
        }
        /* a scalar or string root that the kernel error cuts short is damaged
         * by it; one that ended before the error is whole */
        if (t->err != JDOC_OK && t->err_in_token && last_entry && reaches_err)
            return damaged(p, t->err, t->err_off, t->err_msg, start, s0, doc, st);
        if (jdoc__check_root(p, b, t->err != JDOC_OK ? t->err_off : t->len, (uint32_t)start) != JDOC_OK)
            return damaged(p, p->err.code, p->err.offset, p->err.message, start, s0, doc, st);
    }
    t->next = end + 1;
    count_doc(p, start);
    t->grow = GROW_MIN;
    t->doc_len = p->index[end] + 1 - start;
    p->doc.parser = p;
    p->doc.json = b;
    p->doc.len = entry_off(p, b, end + 1);
    p->doc.n = end - s0 + 1;
    p->doc.index = p->index + s0;
    p->doc.tape = p->tape + s0;
    atomic_store_explicit(&p->doc.hint, 0, memory_order_relaxed);
    p->err = (jdoc_error){ JDOC_OK, 0, "ok", "" };
    p->has_doc = true;
    *doc = &p->doc;
    *st = JDOC_OK;
    return 1;
}

static jdoc_status carry_reserve(jdoc_parser *p, size_t need)
{
    struct jdoc_stream_state *t = &p->st;
    if (need > UINT32_MAX)
        return JDOC_ERR_CAPACITY;
    void *c = t->carry;
    jdoc_status r = jdoc__reserve(p, &c, &t->carry_cap, need, 1);
    t->carry = c;
    if (t->in_carry)
        t->buf = t->carry;
    return r;
}

/* The caller's piece is used up: keep in carry what is still needed (the
 * document in progress, the bytes not indexed yet), so that the piece may go. */
static jdoc_status retire(jdoc_parser *p)
{
    struct jdoc_stream_state *t = &p->st;
    if (t->in_carry && t->in && t->in_pos < t->in_len) {
        /* fed again before the piece was read: take the rest of it */
        size_t rest = t->in_len - t->in_pos;
        if (carry_reserve(p, t->len + rest))
            return JDOC_ERR_NOMEM;
        memcpy(t->carry + t->len, t->in + t->in_pos, rest);
        t->len += rest;
        t->in_pos = t->in_len;
    }
    size_t keep;
    bool fresh = false;
    if (t->skip) {
        keep = t->len;
        t->skip_from = 0;
    } else if (t->tent && t->next >= t->ks.n) {
        /* what was indexed for real is used up, and the look went on: keep
         * from the start of the document it left open (a fresh state
         * there), or nothing when it left only whitespace */
        keep = t->next < t->tn ? entry_off(p, t->buf, t->next) : t->len;
        fresh = true;
    } else {
        compact(p);
        keep = t->next < t->ks.n ? entry_off(p, t->buf, t->next) : t->to;
    }
    drop_tent(p);
    lines_upto(p, keep);
    size_t kept = t->len - keep;
    if (!t->in_carry) {
        if (carry_reserve(p, kept))
            return JDOC_ERR_NOMEM;
        if (kept)
            memcpy(t->carry, t->buf + keep, kept);
    } else if (keep && kept) {
        memmove(t->carry, t->carry + keep, kept);
    }
    t->in_carry = true;
    t->buf = t->carry ? t->carry : "";
    if (t->skip) {
        t->base += keep;
        t->len = 0;
        t->to = t->run = 0;
    } else if (fresh) {
        t->base += keep;
        t->len = kept;
        run_start(p, 0);
    } else {
        shift(p, keep);
    }
    t->in = NULL;
    t->in_len = t->in_pos = 0;
    sentinel(p, t->ks.n, t->to);
    return JDOC_OK;
}

/* In carry: go on in the piece when all that is still needed is there. */
static void back_in_place(jdoc_parser *p)
{
    struct jdoc_stream_state *t = &p->st;
    uint32_t n = t->ks.n;
    size_t q = t->next < n ? entry_off(p, t->buf, t->next) : t->to;
    if (t->skip) {
        lines_upto(p, t->len);
        t->skip_from = t->skip_from > t->c_at ? t->skip_from - t->c_at : 0;
    } else if (q < t->c_at || t->err != JDOC_OK) {
        return;
    } else {
        lines_upto(p, q);
    }
    size_t c_at = t->c_at;
    if (!t->skip)
        compact(p);   /* the entries still needed at the front, while buf is carry */
    drop_tent(p);
    t->buf = t->in;
    t->len = t->in_len;
    t->base += c_at;
    t->in_carry = false;
    t->in = NULL;
    if (t->skip) {
        t->to = t->run = 0;
        t->ks.n = t->next = 0;
        sentinel(p, 0, 0);
        return;
    }
    /* The kernel's state goes on in the piece, and the entries made in
     * carry of a document starting in the piece move with it: their
     * offsets, all at or after c_at, become offsets in the piece (an
     * opening bracket's entry that holds a jump of a bracket pass instead
     * is written again by the pass that ends the document; its offset is
     * read from the entries after it). Nothing is indexed twice.
     *   carry  [ ...done... | c_at: piece bytes copied ... to )
     *   piece              [ 0 ....................... to - c_at ... len ) */
    uint32_t *ix = p->index, d = (uint32_t)c_at;
    for (uint32_t e = 0; e < t->ks.n; e++)
        ix[e] -= d;
    t->to -= c_at;
    t->run = q - c_at;
    t->ks.string_start = t->ks.string_start >= c_at ? t->ks.string_start - (uint32_t)c_at : 0;
    t->ks.seq_start = t->ks.seq_start >= c_at ? t->ks.seq_start - c_at : 0;
    sentinel(p, t->ks.n, t->to);
}

/* Copy more of the piece after carry. */
static jdoc_status append(jdoc_parser *p)
{
    struct jdoc_stream_state *t = &p->st;
    size_t a = t->in_len - t->in_pos, want = t->grow < 64 ? 64 : t->grow;
    if (t->grow == GROW_MIN && t->next < t->ks.n) {
        /* the first bytes for this document: up to the piece's first
         * newline when a bracket ends the line there (an NDJSON line's end)
         * and the document would be at least half as long as the last one,
         * else as many bytes as the last one had; either way to the end of
         * the kernel block holding that byte, so that one kernel call
         * mostly finds the end */
        const char *in = t->in + t->in_pos;
        size_t start = entry_off(p, t->buf, t->next), have = t->len - start;
        size_t look = a < CHUNK ? a : CHUNK, e = 0;
        const char *nl = memchr(in, '\n', look);
        size_t d = nl ? (size_t)(nl - in) : 0;
        char before = d > 1 && in[d - 1] == '\r' ? in[d - 2] : d > 0 ? in[d - 1] : t->buf[t->len - 1];
        if (nl && (before == '}' || before == ']') && 2 * (have + d + 1) >= t->doc_len)
            e = t->len + d + 1;
        else if (t->doc_len > have)
            e = t->doc_len - have < CHUNK ? start + t->doc_len : t->len + CHUNK;
        if (e > t->len) {
            size_t need = t->to + ((e - t->to + 63) & ~(size_t)63) - t->len;
            if (need > want)
                want = need;
        }
    }
    if (a > want)
        a = want;
    if (t->grow < CHUNK)
        t->grow = t->grow ? 2 * t->grow : GROW_MIN;
    if (carry_reserve(p, t->len + a))
        return JDOC_ERR_NOMEM;
    memcpy(t->carry + t->len, t->in + t->in_pos, a);
    t->len += a;
    t->in_pos += a;
    return JDOC_OK;
}

static void stream_reset(jdoc_parser *p)
{
    struct jdoc_stream_state *t = &p->st;
    p->has_doc = false;
    p->gen++;
    p->pm.active = false;
    t->buf = t->carry ? t->carry : "";
    t->len = t->base = 0;
    t->active = true;
    t->feeding = t->closed = t->in_carry = t->skip = false;
    t->in = NULL;
    t->in_len = t->in_pos = t->c_at = t->skip_from = 0;
    t->grow = GROW_MIN;
    t->chunk = 0;
    t->count = t->last = t->last_line = t->lines = t->lines_at = 0;
}

/* What every stream needs before it starts: the index block and the grammar's stack. */
static jdoc_status stream_prepare(jdoc_parser *p)
{
    struct jdoc_stream_state *t = &p->st;
    size_t words = ((size_t)p->max_depth >> 6) + 1;
    if (t->g_words < words) {
        uint64_t *g = jdoc__alloc(p, words * 8);
        if (!g)
            return JDOC_ERR_NOMEM;
        jdoc__free(p, t->g_stack);
        t->g_stack = g;
        t->g_words = words;
    }
    return ix_prepare(p, 0);
}

jdoc_status jdoc_stream_begin(jdoc_parser *p, const char *buf, size_t len)
{
    if (!p)
        return JDOC_ERR_ARG;
    struct jdoc_stream_state *t = &p->st;
    stream_reset(p);
    t->active = false;
    if (!buf && len)
        return jdoc__fail(p, JDOC_ERR_ARG, 0, "NULL argument");
    if ((uint64_t)len > UINT32_MAX)
        return jdoc__fail(p, JDOC_ERR_CAPACITY, 0, "stream of 4 GiB or more");
    if (stream_prepare(p))
        return jdoc__fail(p, JDOC_ERR_NOMEM, 0, "out of memory");
    t->buf = buf ? buf : "";
    t->len = len;
    t->closed = true;
    t->active = true;
    run_start(p, 0);
    return JDOC_OK;
}

jdoc_status jdoc_feed_begin(jdoc_parser *p)
{
    if (!p)
        return JDOC_ERR_ARG;
    struct jdoc_stream_state *t = &p->st;
    stream_reset(p);
    t->active = false;
    if (stream_prepare(p))
        return jdoc__fail(p, JDOC_ERR_NOMEM, 0, "out of memory");
    t->feeding = true;
    t->in_carry = true;
    t->active = true;
    run_start(p, 0);
    return JDOC_OK;
}

jdoc_status jdoc_feed(jdoc_parser *p, const char *chunk, size_t len)
{
    if (!p)
        return JDOC_ERR_ARG;
    struct jdoc_stream_state *t = &p->st;
    if (!t->active || !t->feeding || t->closed)
        return jdoc__fail(p, JDOC_ERR_ARG, 0, "no feed in progress");
    if (!chunk && len)
        return jdoc__fail(p, JDOC_ERR_ARG, 0, "NULL argument");
    if ((uint64_t)len > UINT32_MAX)
        return jdoc__fail(p, JDOC_ERR_CAPACITY, 0, "piece of 4 GiB or more");
    if (!len)
        return JDOC_OK;
    p->has_doc = false;
    p->gen++;
    if ((!t->in_carry || t->in) && retire(p))   /* the last piece is still in use */
        return jdoc__fail(p, JDOC_ERR_NOMEM, t->base + t->len, "out of memory");
    if (t->len == 0) {
        /* nothing kept: read the piece in place */
        t->buf = chunk;
        t->len = len;
        t->in_carry = false;
        t->to = t->run = 0;
        t->skip_from = 0;
        sentinel(p, t->ks.n, 0);
    } else {
        t->in = chunk;
        t->in_len = len;
        t->in_pos = 0;
        t->c_at = t->len;
    }
    t->tent_tried = false;
    return JDOC_OK;
}

jdoc_status jdoc_feed_close(jdoc_parser *p)
{
    if (!p)
        return JDOC_ERR_ARG;
    if (!p->st.active || !p->st.feeding)
        return jdoc__fail(p, JDOC_ERR_ARG, 0, "no feed in progress");
    p->st.closed = true;
    return JDOC_OK;
}

size_t jdoc_feed_buffered(const jdoc_parser *p)
{
    return p && p->st.active && p->st.in_carry ? p->st.len : 0;
}

bool jdoc_stream_next(jdoc_parser *p, jdoc_doc **doc, jdoc_status *st)
{
    jdoc_status dummy;
    if (!st)
        st = &dummy;
    if (!p || !doc || !p->st.active) {
        *st = JDOC_ERR_ARG;
        if (doc)
            *doc = NULL;
        return false;
    }
    struct jdoc_stream_state *t = &p->st;
    p->has_doc = false;
    p->gen++;
    p->memo_ready = false;
    p->scratch_len = 0;
    *doc = NULL;
    *st = JDOC_OK;
    if (t->in_carry && t->in && t->in_pos < t->in_len && !t->skip) {
        /* a document returned from carry: the next one may start in the piece, and is read there */
        back_in_place(p);
        if (!t->in_carry && index_more(p) != JDOC_OK)
            goto nomem;
    }
    for (;;) {
        if (t->skip) {
            const char *q = t->skip_from < t->len ? memchr(t->buf + t->skip_from, '\n', t->len - t->skip_from) : NULL;
            if (q) {
                t->skip = false;
                run_start(p, (size_t)(q - t->buf) + 1);
                continue;
            }
            t->skip_from = t->len;
        } else {
            if (t->next < usable(p)) {
                if (next_doc(p, doc, st))
                    return true;
            } else if (t->err != JDOC_OK) {
                /* the error lies after the last whole document */
                return damaged(p, t->err, t->err_off, t->err_msg, t->err_off, t->next, doc, st);
            }
            /* more entries: index more of buf */
            bool fin = st_final(t);
            if (t->err == JDOC_OK && (t->len - t->to >= 64 || (fin && !t->ended))) {
                compact(p);
                if (index_more(p) != JDOC_OK)
                    goto nomem;
                continue;
            }
        }
        if (t->in_carry && t->in && t->in_pos < t->in_len) {
            back_in_place(p);
            if (t->in_carry && append(p))
                goto nomem;
            continue;
        }
        if (st_final(t) || !t->feeding)
            return false;
        if (!t->skip && !t->tent_tried && t->to < t->len) {
            tentative(p);
            if (t->tent)
                continue;
        }
        if (retire(p))
            goto nomem;
        return false;
    }
nomem:
    *st = jdoc__fail(p, JDOC_ERR_NOMEM, t->base + t->to, "out of memory");
    t->active = false;
    return true;
}

bool jdoc_feed_next(jdoc_parser *p, jdoc_doc **doc, jdoc_status *st) { return jdoc_stream_next(p, doc, st); }

size_t jdoc_stream_count(const jdoc_parser *p) { return p ? p->st.count : 0; }
size_t jdoc_stream_offset(const jdoc_parser *p) { return p ? p->st.last : 0; }

size_t jdoc_stream_line(const jdoc_parser *cp)
{
    if (!cp || !cp->st.count)
        return 0;
    jdoc_parser *p = (jdoc_parser *)cp;   /* the count is cached; parsers are never const objects */
    if (!p->st.last_line)
        lines_upto(p, p->st.last - p->st.base);
    return p->st.last_line;
}

/* ---- one document indexed as it arrives ----
 * jdoc_parse_more indexes whole blocks of 64 bytes of what is new, with the
 * kernel's state carried over (the buffer may move: the state holds no
 * pointer into it); jdoc_parse_end indexes the rest and does what
 * jdoc__stage1 does after indexing, so the result is jdoc_parse's. */

jdoc_status jdoc_parse_begin(jdoc_parser *p)
{
    if (!p)
        return JDOC_ERR_ARG;
    jdoc__new_doc(p);
    struct jdoc_more_state *m = &p->pm;
    memset(&m->ks, 0, sizeof m->ks);
    m->ks.check_utf8 = !p->trust_utf8;
    m->to = 0;
    m->exact = p->k == &jdoc__kernel_scalar;
    m->matching = m->closed = m->unmatched = false;
    m->done = 0;
    m->active = true;
    p->err = (jdoc_error){ JDOC_OK, 0, "ok", "" };
    return JDOC_OK;
}

/* Index json[to, end) (a multiple of 64 unless it ends the document). */
static jdoc_status more_index(jdoc_parser *p, const jdoc_kernel *k, jdoc_s1 *s, size_t *to, const char *json,
                              size_t end, bool last)
{
    do {
        size_t chunk = end - *to < CHUNK ? end - *to : CHUNK;
        if (stream_chunk(p, k, s, json, *to, &chunk, last ? end : SIZE_MAX))
            return JDOC_ERR_NOMEM;
        *to += chunk;
    } while (*to < end && s->code == JDOC_OK);
    return JDOC_OK;
}

/* The exact error: the scalar kernel over json[0, end), or from the last
 * string before the kernel's error (see scalar_restart) with the entries
 * before it kept: the error ends the parse, and when that finds none the
 * whole is indexed again. */
static jdoc_status more_locate(jdoc_parser *p, const char *json, size_t end, bool last)
{
    struct jdoc_more_state *m = &p->pm;
    uint32_t q = scalar_restart(p->index, p->tape, 0, m->ks.n, m->ks.offset);
    m->exact = true;
    m->matching = m->closed = m->unmatched = false;   /* the index is made again: so is the pass */
    m->done = 0;
    for (int pass = q < m->ks.n ? 0 : 1; pass < 2; pass++) {
        memset(&m->ks, 0, sizeof m->ks);
        m->ks.check_utf8 = !p->trust_utf8;
        m->to = 0;
        if (pass == 0) {
            m->ks.n = q;
            m->to = p->index[q];
        }
        if (more_index(p, &jdoc__kernel_scalar, &m->ks, &m->to, json, end, last))
            return JDOC_ERR_NOMEM;
        if (m->ks.code != JDOC_OK)
            break;
    }
    return JDOC_OK;
}

/* The bracket pass over the entries indexed since the last piece, when the
 * root is a container and the kernel resumes its pass: what is left to
 * jdoc_parse_end is its last piece's. An error, or a root still open at the
 * end, is left to the whole pass there, which says which and where. */
static void more_match(jdoc_parser *p)
{
    struct jdoc_more_state *m = &p->pm;
    uint32_t n = m->ks.n;
    if (!p->k->resume || m->unmatched || m->closed || m->ks.code != JDOC_OK || n <= m->done)
        return;
    if (!m->matching) {
        if (!jdoc__is_open(p->tape[0])) {
            m->unmatched = true;   /* a scalar root: nothing to match */
            return;
        }
        m->matching = true;
        m->root_off = p->index[0];
        m->done = 0;
        m->top = UINT32_MAX;
        m->depth = 0;
    }
    seal(p, n);
    uint32_t at;
    int r = p->k->resume(p->tape, p->index, m->done, n, 0, p->max_depth, &m->top, &m->depth, &at);
    m->done = n;
    if (r == JDOC_MATCH_OK) {
        m->closed = true;
        m->end = at;
    } else if (r != JDOC_MATCH_UNCLOSED) {
        m->unmatched = true;
    }
}

static jdoc_status more_check(jdoc_parser *p, const char *json, size_t len)
{
    if (!p)
        return JDOC_ERR_ARG;
    if (!p->pm.active)
        return jdoc__fail(p, JDOC_ERR_ARG, 0, "no jdoc_parse_begin");
    if (!json && len)
        return jdoc__fail(p, JDOC_ERR_ARG, 0, "NULL argument");
    if ((uint64_t)len > UINT32_MAX)
        return jdoc__fail(p, JDOC_ERR_CAPACITY, 0, "document of 4 GiB or more");
    if (len < p->pm.to)
        return jdoc__fail(p, JDOC_ERR_ARG, len, "shorter than what was passed before");
    return JDOC_OK;
}

jdoc_status jdoc_parse_more(jdoc_parser *p, const char *json, size_t len)
{
    jdoc_status r = more_check(p, json, len);
    if (r != JDOC_OK)
        return r;
    struct jdoc_more_state *m = &p->pm;
    if (m->ks.code != JDOC_OK)
        return jdoc__fail(p, m->ks.code, m->ks.offset, m->ks.message);
    size_t end = m->to + ((len - m->to) & ~(size_t)63);
    if (end > m->to && more_index(p, p->k, &m->ks, &m->to, json, end, false))
        return jdoc__fail(p, JDOC_ERR_NOMEM, 0, "out of memory");
    if (m->ks.code != JDOC_OK && !m->exact && more_locate(p, json, m->to, false))
        return jdoc__fail(p, JDOC_ERR_NOMEM, 0, "out of memory");
    if (m->ks.code != JDOC_OK)
        return jdoc__fail(p, m->ks.code, m->ks.offset, m->ks.message);
    more_match(p);
    return JDOC_OK;
}

jdoc_status jdoc_parse_end(jdoc_parser *p, const char *json, size_t len, jdoc_doc **doc)
{
    if (doc)
        *doc = NULL;
    jdoc_status r = more_check(p, json, len);
    if (r != JDOC_OK)
        return r;
    if (!doc)
        return jdoc__fail(p, JDOC_ERR_ARG, 0, "NULL argument");
    if (!json)
        json = "";
    struct jdoc_more_state *m = &p->pm;
    m->active = false;
    jdoc_s1 *s = &m->ks;
    if (s->code == JDOC_OK && more_index(p, p->k, s, &m->to, json, len, true))
        return jdoc__fail(p, JDOC_ERR_NOMEM, 0, "out of memory");
    if (s->code != JDOC_OK && !m->exact && more_locate(p, json, len, true))
        return jdoc__fail(p, JDOC_ERR_NOMEM, 0, "out of memory");
    /* from here on as jdoc__stage1 */
    if (s->code != JDOC_OK)
        return jdoc__fail(p, s->code, s->offset, s->message);
    if (s->n == 0)
        return jdoc__fail(p, JDOC_ERR_SYNTAX, len, len ? "no value: only whitespace" : "no value: empty input");
    more_match(p);
    seal(p, s->n);
    p->index[s->n] = (uint32_t)len;
    jdoc_status st = jdoc__check_root(p, json, len, m->matching ? m->root_off : p->index[0]);
    if (st != JDOC_OK)
        return st;
    uint32_t end = 0;
    char c0 = (char)p->tape[0];
    if (m->closed) {   /* the pass run on each piece matched the root */
        end = m->end;
        p->match_at = end;
    } else if ((c0 == '[' || c0 == '{') &&
               (st = jdoc__match_container(p, p->k, json, len, 0, s->n, 0, &end)) != JDOC_OK) {
        return st;
    }
    if (end + 1 < s->n)
        return jdoc__fail(p, JDOC_ERR_SYNTAX, p->index[end + 1], "text after the root value");
    p->doc.parser = p;
    p->doc.json = json;
    p->doc.len = (uint32_t)len;
    p->doc.n = s->n;
    p->doc.index = p->index;
    p->doc.tape = p->tape;
    atomic_store_explicit(&p->doc.hint, 0, memory_order_relaxed);
    p->err = (jdoc_error){ JDOC_OK, 0, "ok", "" };
    p->has_doc = true;
    *doc = &p->doc;
    return JDOC_OK;
}
