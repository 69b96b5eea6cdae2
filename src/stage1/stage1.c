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
#define MIN_CAP 512u          /* entries: a block of 2.6 KiB */

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

/* Room for a document of len bytes at the expected density. */
static jdoc_status ix_prepare(jdoc_parser *p, size_t len)
{
    size_t want = len / 6 + 128;
    if (JDOC_LIKELY(p->ix_cap >= want))
        return JDOC_OK;
    want += want / 2;
    return ix_alloc(p, want < MIN_CAP ? MIN_CAP : want, 0);
}

/* Run kernel k over json[pos..pos+chunk) (len: the end of the input, start:
 * where indexing began, until: where it is to stop), with room for every byte of the chunk (rounded up to
 * 64) being an entry, 64 more for the unrolled writes, and the sentinel; the
 * chunk is cut to fit when there is room for at least 256 bytes of input, else
 * the block grows to half again what the density so far says the whole
 * input needs (so the next input of the kind, up to 1.5 times as large, fits). */
static jdoc_status kernel_chunk(jdoc_parser *p, const jdoc_kernel *k, jdoc_s1 *s, const char *json, size_t start,
                                size_t pos, size_t *chunk, size_t len, size_t until)
{
    size_t room = p->ix_cap - s->n;
    if (room < *chunk + 192) {
        if (room >= 256 + 192) {
            *chunk = (room - 192) & ~(size_t)63;
        } else {
            size_t cap = p->ix_cap + p->ix_cap / 2;
            if (pos > start) {
                double need = (double)s->n * (double)(until - start) / (double)(pos - start);
                if (need * 1.5 > (double)cap)
                    cap = need * 1.5 < (double)UINT32_MAX ? (size_t)(need * 1.5) : UINT32_MAX;
            }
            if (cap < (size_t)s->n + *chunk + 192)
                cap = (size_t)s->n + *chunk + 192;
            if (ix_alloc(p, cap, s->n))
                return JDOC_ERR_NOMEM;
        }
    }
    s->index = p->index;
    s->tape = p->tape;
    s->base = pos;
    k->stage1(s, (const uint8_t *)json + pos, *chunk, pos + *chunk == len);
    return JDOC_OK;
}

/* Index json[start..len) with kernel k; entries are offsets from json. */
static jdoc_status run_kernel(jdoc_parser *p, const jdoc_kernel *k, const char *json, size_t start, size_t len,
                              jdoc_s1 *s)
{
    memset(s, 0, sizeof *s);
    s->check_utf8 = !p->trust_utf8;
    size_t pos = start;
    do {
        size_t chunk = len - pos < CHUNK ? len - pos : CHUNK;
        if (kernel_chunk(p, k, s, json, start, pos, &chunk, len, len))
            return JDOC_ERR_NOMEM;
        pos += chunk;
    } while (pos < len && s->code == JDOC_OK);
    return JDOC_OK;
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
    if (ix_prepare(p, len) || run_kernel(p, k, json, 0, len, &s))
        return jdoc__fail(p, JDOC_ERR_NOMEM, 0, "out of memory");
    if (s.code != JDOC_OK && k != &jdoc__kernel_scalar) {
        /* SIMD kernels say where about; the scalar kernel says exactly */
        if (run_kernel(p, &jdoc__kernel_scalar, json, 0, len, &s))
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
 * A stream is indexed in runs of windows: a run starts at a document
 * boundary with a fresh kernel state and indexes one window (1 MiB) at a
 * time, more only while the next document is not complete in what is indexed.
 * Once every indexed entry is used, the next run starts where the last
 * window ended (only whitespace can lie between), so memory stays bounded by a
 * window plus the longest document, and the index stays in cache. A kernel
 * error (located by the scalar kernel, from the run's start) ends the run
 * there. A damaged document is reported, and the next run starts after the
 * end of the line where the damage is. */

#define WINDOW (1u << 20)   /* a multiple of 64 */

jdoc_status jdoc_stream_begin(jdoc_parser *p, const char *buf, size_t len)
{
    if (!p)
        return JDOC_ERR_ARG;
    p->has_doc = false;
    p->gen++;
    size_t window = p->st.window;
    memset(&p->st, 0, sizeof p->st);
    p->st.window = window;
    if (!buf && len)
        return jdoc__fail(p, JDOC_ERR_ARG, 0, "NULL argument");
    if ((uint64_t)len > UINT32_MAX)
        return jdoc__fail(p, JDOC_ERR_CAPACITY, 0, "stream of 4 GiB or more");
    p->st.buf = buf ? buf : "";
    p->st.len = len;
    p->st.active = true;
    return JDOC_OK;
}

/* Start a run at byte `from`. */
static void run_start(jdoc_parser *p, size_t from)
{
    struct jdoc_stream_state *t = &p->st;
    memset(&t->ks, 0, sizeof t->ks);
    t->ks.check_utf8 = !p->trust_utf8;
    t->run = t->to = from;
    t->next = 0;
    t->done = from >= t->len;
    t->err = JDOC_OK;
    t->err_off = t->len;
    t->indexed = true;
}

/* Index one more window of the current run. */
static jdoc_status index_more(jdoc_parser *p)
{
    struct jdoc_stream_state *t = &p->st;
    jdoc_s1 *s = &t->ks;
    size_t w = t->window ? t->window : WINDOW;
    size_t end = t->len - t->to <= w ? t->len : t->to + w;
    while (t->to < end && s->code == JDOC_OK) {
        /* after a kernel error the chunks start small and double, so that
         * a stream with many damaged lines is not scanned ahead for nothing */
        size_t chunk = t->chunk ? t->chunk : CHUNK;
        t->chunk = chunk < CHUNK ? 2 * chunk : 0;
        if (chunk > end - t->to)
            chunk = end - t->to;
        if (kernel_chunk(p, p->k, s, t->buf, t->run, t->to, &chunk, t->len, end))
            return JDOC_ERR_NOMEM;
        t->to += chunk;
    }
    if (s->code != JDOC_OK) {
        /* locate the first error exactly: the scalar kernel over the whole run */
        jdoc_s1 e;
        if (run_kernel(p, &jdoc__kernel_scalar, t->buf, t->run, t->len, &e))
            return JDOC_ERR_NOMEM;
        *s = e;
        t->chunk = 256;
        t->err = e.code;
        t->err_in_token = e.in_string || e.scalar;   /* the scalar kernel's state at the error */
        t->err_off = e.offset;
        t->err_msg = e.message;
        t->to = t->len;
        if (e.code == JDOC_OK) {   /* cannot happen with a correct kernel: keep the scalar index */
            t->err_off = t->len;
        }
    }
    t->done = t->to >= t->len;
    seal(p, s->n);
    /* entries stop at an error: it is where the valid index ends */
    p->index[s->n] = (uint32_t)(t->err != JDOC_OK ? t->err_off : t->to);
    return JDOC_OK;
}

/* Report a damaged document at `off` and resync after the end of its line.
 * After a grammar error (not a kernel error) the index of the current run
 * stays valid past a newline outside a string, where the kernel's state is
 * the fresh one: go on from the first entry after it, without indexing the
 * window again. */
static bool stream_damaged(jdoc_parser *p, jdoc_status code, size_t off, const char *msg, size_t start,
                           jdoc_doc **doc, jdoc_status *st)
{
    struct jdoc_stream_state *t = &p->st;
    jdoc__fail(p, code, off, msg);
    const char *nl = off < t->len ? memchr(t->buf + off, '\n', t->len - off) : NULL;
    t->pos = nl ? (size_t)(nl - t->buf) + 1 : t->len;
    if (t->indexed && t->err == JDOC_OK && t->pos < t->to) {
        uint32_t e = t->next;
        while (e < t->ks.n && p->index[e] < t->pos)
            e++;
        t->next = e;
    } else {
        t->indexed = false;
    }
    t->count++;
    t->last = start;
    *doc = NULL;
    *st = code;
    return true;
}

bool jdoc_stream_next(jdoc_parser *p, jdoc_doc **doc, jdoc_status *st)
{
    jdoc_status dummy;
    if (!st)
        st = &dummy;
    if (!p || !doc || !p->st.active) {
        *st = JDOC_ERR_ARG;
        return false;
    }
    struct jdoc_stream_state *t = &p->st;
    p->has_doc = false;
    p->gen++;
    p->memo_ready = false;
    p->scratch_len = 0;
    *doc = NULL;
    if (!t->indexed) {
        if (t->pos >= t->len)
            return false;
        run_start(p, t->pos);
    }
    const char *json = t->buf;
    for (;;) {
        uint32_t n = t->ks.n;
        if (t->next >= n) {
            if (!t->done) {
                /* every entry used: a new run where this one stopped */
                if (t->next)
                    run_start(p, t->to);
                if (index_more(p) != JDOC_OK) {
                    *st = jdoc__fail(p, JDOC_ERR_NOMEM, t->to, "out of memory");
                    t->indexed = false;
                    t->pos = t->len;
                    return true;
                }
                continue;
            }
            if (t->err == JDOC_OK)
                return false;
            /* the error lies after the last whole document */
            return stream_damaged(p, t->err, t->err_off, t->err_msg, t->err_off, doc, st);
        }
        uint32_t s0 = t->next, end = s0;
        size_t start = entry_off(p, json, s0);   /* a failed bracket pass may have written over it */
        size_t eof = t->err != JDOC_OK ? t->err_off : t->len;
        jdoc_status r = jdoc__check_root(p, json, t->done ? eof : t->to, (uint32_t)start);
        bool more = false;
        char c = (char)p->tape[s0];
        if (r == JDOC_OK && (c == '[' || c == '{')) {
            r = jdoc__match_container(p, p->k, json, eof, s0, n, s0, &end);
            /* ran out of brackets before the end: index more, then again */
            more = r == JDOC_ERR_SYNTAX && !t->done && p->err.offset == eof;
            /* the pass wrote over the offsets of the brackets it opened, all
             * before the one at fault: resync looks from after that one */
            if (r != JDOC_OK && !more)
                t->next = p->match_at + 1 < n ? p->match_at + 1 : n;
        } else if (s0 + 1 >= n && !t->done) {
            more = true;   /* a scalar or string may go on past the window */
        }
        if (more) {
            /* a new run from this document's start, so the index holds only
             * what is still to come (the part indexed again is this
             * document's, once per window) */
            if (s0 > 0)
                run_start(p, start);
            if (index_more(p) != JDOC_OK) {
                *st = jdoc__fail(p, JDOC_ERR_NOMEM, t->to, "out of memory");
                t->indexed = false;
                t->pos = t->len;
                return true;
            }
            continue;
        }
        if (r != JDOC_OK) {
            /* a document cut short by a kernel error is damaged by that error */
            if (t->err != JDOC_OK && p->err.offset >= t->err_off)
                return stream_damaged(p, t->err, t->err_off, t->err_msg, start, doc, st);
            return stream_damaged(p, r, p->err.offset, p->err.message, start, doc, st);
        }
        /* a scalar or string root that the kernel error cuts short is damaged
         * by it; one that ended before the error (the kernel was outside any
         * string or token there) is whole */
        if (t->err != JDOC_OK && t->err_in_token && end + 1 >= n && p->tape[end] != ']' && p->tape[end] != '}')
            return stream_damaged(p, t->err, t->err_off, t->err_msg, start, doc, st);
        t->next = end + 1;
        t->count++;
        t->last = start;
        p->doc.parser = p;
        p->doc.json = json;
        p->doc.len = (uint32_t)(t->next < n ? entry_off(p, json, t->next) : eof);
        p->doc.n = end - s0 + 1;
        p->doc.index = p->index + s0;
        p->doc.tape = p->tape + s0;
        atomic_store_explicit(&p->doc.hint, 0, memory_order_relaxed);
        p->err = (jdoc_error){ JDOC_OK, 0, "ok", "" };
        p->has_doc = true;
        *doc = &p->doc;
        *st = JDOC_OK;
        return true;
    }
}

size_t jdoc_stream_count(const jdoc_parser *p) { return p ? p->st.count : 0; }
size_t jdoc_stream_offset(const jdoc_parser *p) { return p ? p->st.last : 0; }
