/* SPDX-License-Identifier: MIT */
/*
 * Stage 1 driver: feeds the input to a kernel in chunks (so the index grows
 * with the document, not with a worst-case bound), falls back to the scalar
 * kernel to locate an error exactly, then checks brackets, depth and the root
 * over the bracket entries only, recording each container's closing entry.
 */
#include "internal.h"
#include "stage2/number.h"

#define CHUNK (64u * 1024u)   /* a multiple of 64 */

extern const jdoc_kernel jdoc__kernel_scalar;

/* Run kernel k on json[pos..pos+chunk) (len: the end of the input), with
 * room for every byte of the chunk being an entry, 64 of slack for the
 * unrolled writes, and the sentinel. */
static jdoc_status kernel_chunk(jdoc_parser *p, const jdoc_kernel *k, jdoc_s1 *s, const char *json, size_t pos,
                                size_t chunk, size_t len)
{
    if (jdoc__reserve(p, (void **)&p->index, &p->index_cap, (size_t)s->n + chunk + 65, 4) ||
        jdoc__reserve(p, (void **)&p->brackets, &p->brackets_cap, (size_t)s->nb + chunk + 65, 4) ||
        jdoc__reserve(p, (void **)&p->brtype, &p->brtype_cap, (size_t)s->nb + chunk + 65, 1))
        return JDOC_ERR_NOMEM;
    s->index = p->index;
    s->brackets = p->brackets;
    s->brtype = p->brtype;
    s->base = pos;
    k->stage1(s, (const uint8_t *)json + pos, chunk, pos + chunk == len);
    return JDOC_OK;
}

/* Index json[start..len) with kernel k; entries are offsets from json. */
static jdoc_status run_kernel(jdoc_parser *p, const jdoc_kernel *k, const char *json, size_t start, size_t len,
                              jdoc_s1 *s)
{
    memset(s, 0, offsetof(jdoc_s1, prev));
    memset(s->prev, 0, sizeof s->prev);
    s->check_utf8 = !p->trust_utf8;
    size_t pos = start;
    do {
        size_t chunk = len - pos < CHUNK ? len - pos : CHUNK;
        if (kernel_chunk(p, k, s, json, pos, chunk, len))
            return JDOC_ERR_NOMEM;
        pos += chunk;
    } while (pos < len && s->code == JDOC_OK);
    return JDOC_OK;
}

jdoc_status jdoc__stage1_kernel_only(jdoc_parser *p, const jdoc_kernel *k, const char *json, size_t len,
                                     uint32_t *n, uint32_t *nb)
{
    jdoc_s1 s;
    if (run_kernel(p, k, json, 0, len, &s))
        return JDOC_ERR_NOMEM;
    *n = s.n;
    *nb = s.nb;
    return s.code;
}

static bool is_scalar_start(char c)
{
    return c != '{' && c != '}' && c != '[' && c != ']' && c != ':' && c != ',' && c != '"';
}

/* A root scalar must be a literal or a number in full: this is what rejects
 * plain-text bodies such as "Internal Server Error" or "nothing". */
static jdoc_status check_root_scalar(jdoc_parser *p, const char *json, size_t len, size_t at)
{
    static const char *const lit[3] = { "true", "false", "null" };
    for (int i = 0; i < 3; i++) {
        size_t l = strlen(lit[i]);
        if (len - at >= l && memcmp(json + at, lit[i], l) == 0) {
            char c = len - at == l ? ' ' : json[at + l];
            if (jdoc__is_ws((unsigned char)c) || !is_scalar_start(c))   /* ends at a structural or a quote */
                return JDOC_OK;
            return jdoc__fail(p, JDOC_ERR_SYNTAX, at + l, "unexpected text after a literal");
        }
    }
    char c = json[at];
    if (c == '-' || (c >= '0' && c <= '9')) {
        jdoc_num num;
        size_t e = 0;
        if (jdoc__num_classify(json + at, len - at, &num, &e) != JDOC_OK)
            return jdoc__fail(p, JDOC_ERR_NUMBER, at + e, "malformed number");
        return JDOC_OK;
    }
    return jdoc__fail(p, JDOC_ERR_SYNTAX, at, "not JSON: expected a value");
}

/*
 * Match the brackets of the container whose opening bracket is entry `s`,
 * which is brackets[*bk], walking the bracket entries only (and their bytes,
 * kept by the kernel: no read of the input), until it closes at *end. The
 * open containers form a stack threaded through jump[]: while a container is
 * open, jump[its entry] holds the bracket number of the container around it;
 * once closed, its closing entry. Stored entries are relative to `rel` (the
 * document's first entry). No memory beyond jump[] is needed.
 */
jdoc_status jdoc__match_container(jdoc_parser *p, const char *json, size_t eof, uint32_t s, uint32_t rel,
                                  uint32_t *bk, uint32_t nb, uint32_t *end)
{
    const uint32_t *idx = p->index, *br = p->brackets;
    const uint8_t *type = p->brtype;
    uint32_t *jump = p->jump;
    uint32_t top = UINT32_MAX, depth = 0, max = p->max_depth;
    for (uint32_t k = *bk; k < nb; k++) {
        uint32_t e = br[k];
        uint8_t c = type[k];
        if (c == '[' || c == '{') {
            if (JDOC_UNLIKELY(++depth > max))
                return jdoc__fail(p, JDOC_ERR_DEPTH, idx[e], "nesting too deep");
            jump[e] = top;
            top = k;
            continue;
        }
        if (JDOC_UNLIKELY(top == UINT32_MAX))
            return jdoc__fail(p, JDOC_ERR_SYNTAX, idx[e], "unmatched closing bracket");
        /* '[' + 2 == ']' and '{' + 2 == '}' */
        if (JDOC_UNLIKELY(type[top] + 2 != c))
            return jdoc__fail(p, JDOC_ERR_SYNTAX, idx[e], c == ']' ? "expected '}' before ']'" : "expected ']' before '}'");
        uint32_t open = br[top];
        top = jump[open];
        jump[open] = e - rel;
        if (--depth == 0) {
            *bk = k + 1;
            *end = e;
            return JDOC_OK;
        }
    }
    (void)s;
    (void)json;
    return jdoc__fail(p, JDOC_ERR_SYNTAX, eof, type[top] == '[' ? "unclosed '['" : "unclosed '{'");
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

jdoc_status jdoc__stage1(jdoc_parser *p, const jdoc_kernel *k, const char *json, size_t len)
{
    jdoc_s1 s;
    if (run_kernel(p, k, json, 0, len, &s))
        return jdoc__fail(p, JDOC_ERR_NOMEM, 0, "out of memory");
    if (s.code != JDOC_OK && k != &jdoc__kernel_scalar) {
        /* SIMD kernels detect errors by block; the scalar kernel says which came first */
        if (run_kernel(p, &jdoc__kernel_scalar, json, 0, len, &s))
            return jdoc__fail(p, JDOC_ERR_NOMEM, 0, "out of memory");
    }
    if (s.code != JDOC_OK)
        return jdoc__fail(p, s.code, s.offset, s.message);
    if (s.n == 0)
        return jdoc__fail(p, JDOC_ERR_SYNTAX, len, len ? "no value: only whitespace" : "no value: empty input");
    if (jdoc__reserve(p, (void **)&p->jump, &p->jump_cap, (size_t)s.n + 1, 4))
        return jdoc__fail(p, JDOC_ERR_NOMEM, 0, "out of memory");
    jdoc_status st = jdoc__check_root(p, json, len, p->index[0]);
    if (st != JDOC_OK)
        return st;
    uint32_t end = 0, bk = 0;
    char c0 = json[p->index[0]];
    if ((c0 == '[' || c0 == '{') && (st = jdoc__match_container(p, json, len, 0, 0, &bk, s.nb, &end)) != JDOC_OK)
        return st;
    if (end + 1 < s.n)
        return jdoc__fail(p, JDOC_ERR_SYNTAX, p->index[end + 1], "text after the root value");
    p->index[s.n] = (uint32_t)len;
    p->doc.parser = p;
    p->doc.json = json;
    p->doc.len = (uint32_t)len;
    p->doc.n = s.n;
    p->doc.index = p->index;
    p->doc.jump = p->jump;
    return JDOC_OK;
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
    t->next = t->bk = 0;
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
        if (kernel_chunk(p, p->k, s, t->buf, t->to, chunk, t->len))
            return JDOC_ERR_NOMEM;
        t->to += chunk;
    }
    if (s->code != JDOC_OK) {
        /* locate the first error exactly: the scalar kernel over the whole run */
        jdoc_s1 e;
        if (run_kernel(p, &jdoc__kernel_scalar, t->buf, t->run, t->len, &e))
            return JDOC_ERR_NOMEM;
        *s = e;
        t->chunk = 4096;
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
    if (jdoc__reserve(p, (void **)&p->jump, &p->jump_cap, (size_t)s->n + 1, 4))
        return JDOC_ERR_NOMEM;
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
        while (t->bk < t->ks.nb && p->brackets[t->bk] < e)
            t->bk++;
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
        uint32_t s0 = t->next, end = s0, bk = t->bk;
        size_t start = p->index[s0];
        size_t eof = t->err != JDOC_OK ? t->err_off : t->len;
        jdoc_status r = jdoc__check_root(p, json, t->done ? eof : t->to, (uint32_t)start);
        bool more = false;
        char c = json[start];
        if (r == JDOC_OK && (c == '[' || c == '{')) {
            while (bk < t->ks.nb && p->brackets[bk] < s0)
                bk++;
            r = jdoc__match_container(p, json, eof, s0, s0, &bk, t->ks.nb, &end);
            /* ran out of brackets before the end: index more, then again */
            more = r == JDOC_ERR_SYNTAX && !t->done && p->err.offset == eof;
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
        if (t->err != JDOC_OK && t->err_in_token && end + 1 >= n && json[p->index[end]] != ']' &&
            json[p->index[end]] != '}')
            return stream_damaged(p, t->err, t->err_off, t->err_msg, start, doc, st);
        t->next = end + 1;
        t->bk = bk;
        t->count++;
        t->last = start;
        p->doc.parser = p;
        p->doc.json = json;
        p->doc.len = (uint32_t)(t->next < n ? p->index[t->next] : eof);
        p->doc.n = end - s0 + 1;
        p->doc.index = p->index + s0;
        p->doc.jump = p->jump + s0;
        p->err = (jdoc_error){ JDOC_OK, 0, "ok", "" };
        p->has_doc = true;
        *doc = &p->doc;
        *st = JDOC_OK;
        return true;
    }
}

size_t jdoc_stream_count(const jdoc_parser *p) { return p ? p->st.count : 0; }
size_t jdoc_stream_offset(const jdoc_parser *p) { return p ? p->st.last : 0; }
