/* SPDX-License-Identifier: MIT */
/*
 * The documents of a --ndjson stream (see feed.h), through the library's
 * feed: each read goes to jdoc_feed as it is, documents come from
 * jdoc_feed_next until it wants more bytes, and jdoc_feed_close ends the
 * stream at the end of the input. A mapped file is one piece, fed and
 * closed at once. Where documents end, and where reading resumes after a
 * damaged one, is the library's business alone, so a stream read in pieces
 * of any size and the same bytes mapped give the same answers and messages.
 *
 * Live input is read into a buffer that holds, besides the read in
 * progress, only what the library still holds itself (jdoc_feed_buffered:
 * the document in progress at the end of the last read): the next document
 * starts there or later, and its line and column are counted in those
 * bytes. A piece may be let go once jdoc_feed_next has returned false, so
 * the buffer is trimmed to that tail before each read. Memory is therefore
 * one read plus the longest document (and the library's own copy of it),
 * however long the stream.
 *
 * Line numbers come from the library (jdoc_stream_line: the line the
 * current document starts on); from there, lines and columns are counted
 * in the buffer only when a message asks for them.
 */
#include <errno.h>
#include <poll.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "cli.h"
#include "feed.h"

#define READ_MIN (1u << 16)     /* free space asked for before a read */
#define BUF_MIN (1u << 18)      /* the buffer's first size */
#define DOC_LIMIT ((size_t)UINT32_MAX)   /* the library's limit: offsets are 32-bit */

struct feed {
    jdoc_parser *p;
    int fd;              /* -1: everything is in buf already */
    char *buf;           /* owned unless fd < 0 */
    size_t cap, len;     /* bytes held: buf[0..len), stream offsets [base, base + len) */
    size_t base;
    size_t bol0;         /* stream offset where the line of buf[0] starts */
    bool closed;         /* jdoc_feed_close was called */
    bool over;           /* nothing more to hand out */
    int rerr;

    /* lines and columns: the line number t_line and its start t_bol at
     * stream offset t_pos (valid when t_ok) */
    bool t_ok;
    size_t t_pos, t_line, t_bol;
};

feed *feed_new(jdoc_parser *p, const char *data, size_t len, int fd)
{
    feed *f = xrealloc(NULL, sizeof *f);
    *f = (feed){ 0 };
    f->p = p;
    f->fd = fd;
    if (fd < 0) {
        f->buf = (char *)data;   /* read only: the library never writes its input */
        f->len = len;
    }
    if (jdoc_feed_begin(p) != JDOC_OK)
        die_nomem();   /* its only failure with a parser */
    return f;
}

void feed_free(feed *f)
{
    if (!f)
        return;
    if (f->fd >= 0)
        free(f->buf);
    free(f);
}

int feed_read_errno(const feed *f) { return f->rerr; }
bool feed_live(const feed *f) { return f->fd >= 0; }

/* Follow the line count from t_pos to stream offset `off` (within buf). */
static void lines_to(feed *f, size_t off)
{
    const char *s = f->buf + (f->t_pos - f->base), *end = f->buf + (off - f->base), *nl;
    while (s < end && (nl = memchr(s, '\n', (size_t)(end - s))) != NULL) {
        f->t_line++;
        f->t_bol = f->base + (size_t)(nl - f->buf) + 1;
        s = nl + 1;
    }
    f->t_pos = off;
}

void feed_where(feed *f, size_t off, size_t *line, size_t *col)
{
    size_t start = jdoc_stream_offset(f->p);   /* of the current document: in buf */
    if (start < f->base)
        start = f->base;   /* not asked for: the current document is held */
    if (off > f->base + f->len)
        off = f->base + f->len;
    if (off < start)
        off = start;   /* not asked for: offsets lie in the current document or after it */
    if (!f->t_ok || f->t_pos < f->base || f->t_pos > off) {
        /* from the start of the current document: its line from the
         * library, its column from the newline before it */
        const char *nl = memrchr(f->buf, '\n', start - f->base);
        size_t l = jdoc_stream_line(f->p);
        f->t_line = l ? l : 1;
        f->t_bol = nl ? f->base + (size_t)(nl - f->buf) + 1 : f->bol0;
        f->t_pos = start;
        f->t_ok = true;
    }
    lines_to(f, off);
    *line = f->t_line;
    *col = off - f->t_bol + 1;
}

/* Let go of what the library holds no more: buf keeps only the tail of the
 * stream that it keeps (the document in progress), moved to the front. */
static void trim(feed *f)
{
    size_t keep = jdoc_feed_buffered(f->p);
    if (keep > f->len)
        keep = f->len;   /* never: the library holds no more than was read */
    size_t drop = f->len - keep;
    if (!drop)
        return;
    const char *nl = memrchr(f->buf, '\n', drop);
    if (nl)
        f->bol0 = f->base + (size_t)(nl - f->buf) + 1;
    memmove(f->buf, f->buf + drop, keep);
    f->len = keep;
    f->base += drop;
}

/* Read once after buf[0..len) (waiting for bytes): how many bytes came, 0
 * at the end of the input or on an error (then rerr). At most `room`. */
static size_t read_some(feed *f, size_t room)
{
    if (f->cap - f->len < READ_MIN) {
        size_t cap = f->cap ? f->cap : BUF_MIN;
        while (cap - f->len < READ_MIN)
            cap *= 2;
        f->buf = xrealloc(f->buf, cap);
        f->cap = cap;
    }
    size_t want = f->cap - f->len < room ? f->cap - f->len : room;
    for (;;) {
        ssize_t r = read(f->fd, f->buf + f->len, want);
        if (r > 0) {
            f->len += (size_t)r;
            return (size_t)r;
        }
        if (r == 0)
            return 0;
        if (errno == EINTR)
            continue;
        if (errno == EAGAIN || errno == EWOULDBLOCK) {   /* a non-blocking descriptor: wait */
            struct pollfd pfd = { f->fd, POLLIN, 0 };
            poll(&pfd, 1, -1);
            continue;
        }
        f->rerr = errno;
        return 0;
    }
}

/* The stream cannot go on: an item for the document in progress, then the end. */
static bool fail(feed *f, feed_item *it, jdoc_status st, const char *message)
{
    f->over = true;
    it->st = st;
    it->docno = jdoc_stream_count(f->p) + 1;
    it->start = it->err_offset = f->base;
    it->message = message;
    return true;
}

bool feed_next(feed *f, feed_item *it)
{
    *it = (feed_item){ 0 };
    while (!f->over) {
        jdoc_doc *d;
        jdoc_status st;
        if (jdoc_feed_next(f->p, &d, &st)) {
            it->doc = d;
            it->st = st;
            it->docno = jdoc_stream_count(f->p);
            it->start = jdoc_stream_offset(f->p);
            if (st == JDOC_OK) {
                /* the document's offsets count from its input, whose
                 * offset of the root is the document's start */
                it->base = it->start - jdoc_offset(jdoc_root(d));
            } else {
                const jdoc_error *e = jdoc_last_error(f->p);
                it->err_offset = e->offset;
                it->message = e->message;
                if (st == JDOC_ERR_NOMEM || st == JDOC_ERR_CAPACITY)
                    f->over = true;   /* the library's stream has ended */
            }
            return true;
        }
        if (f->closed)
            break;
        size_t n = 0;
        if (f->fd < 0) {
            n = f->len;   /* the whole input, in place */
        } else {
            trim(f);
            if (f->len >= DOC_LIMIT)
                return fail(f, it, JDOC_ERR_CAPACITY, "document of 4 GiB or more");
            n = read_some(f, DOC_LIMIT - f->len);
        }
        if (n) {
            st = jdoc_feed(f->p, f->buf + f->len - n, n);
            if (st != JDOC_OK)
                return fail(f, it, st, jdoc_last_error(f->p)->message);
        }
        if (!n || f->fd < 0) {
            jdoc_feed_close(f->p);
            f->closed = true;
        }
    }
    f->over = true;
    return false;
}
