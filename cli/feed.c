/* SPDX-License-Identifier: MIT */
/*
 * The documents of a --ndjson stream (see feed.h). Live input is read into a
 * buffer; a small scanner finds where the last whole document of what was read
 * ends, and the bytes before that point (a batch) go to jdoc_stream_begin and
 * jdoc_stream_next as they are; the rest waits for more bytes. Memory is
 * therefore at most a megabyte (what is read before a batch goes out) plus
 * the longest document, however long the stream.
 *
 * Batches are cut so that the library sees what it would see in the whole
 * input: the scanner follows strings, escapes and bracket depth as stage 1
 * does, and where the library would skip a damaged line past the end of a
 * batch (a damaged document whose line goes on), the skip goes on here into
 * the next bytes. A file read this way and the same file mapped print the
 * same answers and messages.
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
#define BATCH_MAX (1u << 20)    /* read on without waiting up to this much */
#define DOC_LIMIT ((size_t)UINT32_MAX)   /* the library's limit: offsets are 32-bit */

struct feed {
    jdoc_parser *p;
    int fd;              /* -1: everything is in buf already */
    char *buf;           /* owned unless fd < 0 */
    size_t cap, len;     /* bytes held: buf[0..len) */
    size_t base;         /* stream offset of buf[0] */
    bool eof;            /* nothing more to read */
    int rerr;

    /* the scanner, over buf[0..scanned) */
    size_t scanned;
    size_t cut;          /* buf[0..cut) holds whole documents (or damaged ones the library resyncs after) */
    size_t depth;
    bool in_str, esc, in_scalar;
    bool skip_line;      /* drop bytes up to and including the next newline */

    /* the batch buf[0..batch) in the library */
    bool active;
    size_t batch;
    size_t docs_before;  /* documents of the earlier batches */
    bool capacity;       /* a document of 4 GiB or more: the end */

    /* lines: `line` is the line number at stream offset lpos, whose line
     * starts at bol; the line of buf[0] starts at bol0 */
    size_t line, lpos, bol, bol0;
};

feed *feed_new(jdoc_parser *p, const char *data, size_t len, int fd)
{
    feed *f = xrealloc(NULL, sizeof *f);
    *f = (feed){ 0 };
    f->p = p;
    f->fd = fd;
    f->line = 1;
    if (fd < 0) {
        f->buf = (char *)data;   /* read only: the library never writes its input */
        f->len = len;
        f->eof = true;
    }
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

/* Byte classes for the scanner; skip_plain skips class 0 of its table. */
enum { C_PLAIN, C_QUOTE, C_BSLASH, C_NL, C_OPEN, C_CLOSE, C_DELIM };
static unsigned char in_string[256], in_container[256], top[256];

static void classes(void)
{
    if (top['{'])
        return;
    in_string['"'] = C_QUOTE;
    in_string['\\'] = C_BSLASH;
    in_string['\n'] = C_NL;
    for (int c = 0; c < 256; c++)
        top[c] = C_PLAIN;
    top[' '] = top['\t'] = top['\r'] = top[','] = top[':'] = C_DELIM;
    top['\n'] = C_NL;
    in_container['"'] = top['"'] = C_QUOTE;
    in_container['\\'] = top['\\'] = C_BSLASH;
    in_container['{'] = in_container['['] = top['{'] = top['['] = C_OPEN;
    in_container['}'] = in_container[']'] = top['}'] = top[']'] = C_CLOSE;
}

/* The first byte at or after i that matters inside a string (quote,
 * backslash, newline) or inside a container outside strings (quote,
 * backslash, bracket); n when none. Eight bytes at a time: a byte equal to
 * c is a zero byte of w ^ c, and (x - 0x01..) & ~x & 0x80.. marks the zero
 * bytes of x, exactly up to the first one (a borrow only runs upwards). */
static size_t skip_plain(const unsigned char *s, size_t i, size_t n, bool str)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    const uint64_t ones = 0x0101010101010101ull, highs = 0x8080808080808080ull;
#define ZEROS(x) (((x) - ones) & ~(x) & highs)
    for (; i + 8 <= n; i += 8) {
        uint64_t w;
        memcpy(&w, s + i, 8);
        uint64_t q = w ^ (ones * '"'), b = w ^ (ones * '\\'), m;
        if (str) {
            uint64_t nl = w ^ (ones * '\n');
            m = ZEROS(q) | ZEROS(b) | ZEROS(nl);
        } else {
            /* | 0x20 turns [ ] into { }, and no other byte into either */
            uint64_t lo = w | (ones * 0x20), o = lo ^ (ones * '{'), c = lo ^ (ones * '}');
            m = ZEROS(q) | ZEROS(b) | ZEROS(o) | ZEROS(c);
        }
        if (m)
            return i + (size_t)(__builtin_ctzll(m) >> 3);
    }
#undef ZEROS
#endif
    const unsigned char *t = str ? in_string : in_container;
    while (i < n && !t[s[i]])
        i++;
    return i;
}

/* Follow buf[scanned..len): string, escape and bracket state outside and
 * inside strings, as stage 1 sees them. A document at depth 0 ends after its
 * closing bracket or quote, or before the byte after a bare scalar. A raw
 * newline inside a string is damage the library resyncs after: so does this
 * scanner. Brackets that close more than was opened count as closing to 0.
 * Inside strings and containers only a few bytes matter: skip_plain skips
 * the others. */
static void scan(feed *f)
{
    const unsigned char *s = (const unsigned char *)f->buf;
    size_t n = f->len, depth = f->depth, cut = f->cut, i = f->scanned;
    bool in_str = f->in_str, esc = f->esc, in_scalar = f->in_scalar;
    classes();
    while (i < n) {
        if (esc) {   /* the byte after a backslash is never structural (a newline still ends a string) */
            esc = false;
            if (s[i] != '\n') {
                i++;
                continue;
            }
        }
        if (in_str) {
            i = skip_plain(s, i, n, true);
            if (i == n)
                break;
            switch (in_string[s[i]]) {
            case C_QUOTE:
                in_str = false;
                if (depth == 0)
                    cut = i + 1;
                break;
            case C_BSLASH:
                esc = true;
                break;
            default:   /* a raw newline: damage, resync after it */
                in_str = false;
                depth = 0;
                cut = i + 1;
                break;
            }
            i++;
            continue;
        }
        if (depth > 0) {
            i = skip_plain(s, i, n, false);
            if (i == n)
                break;
        }
        unsigned char k = top[s[i]];
        if (k != C_PLAIN && k != C_BSLASH && in_scalar && depth == 0)
            cut = i;   /* a bare scalar ends before any delimiter */
        switch (k) {
        case C_QUOTE:
            in_scalar = false;
            in_str = true;
            break;
        case C_OPEN:
            in_scalar = false;
            depth++;
            break;
        case C_CLOSE:
            in_scalar = false;
            if (depth > 0)
                depth--;
            if (depth == 0)
                cut = i + 1;
            break;
        case C_BSLASH:
            esc = true;
            break;
        case C_PLAIN:
            in_scalar = true;   /* depth 0 here */
            break;
        default:
            in_scalar = false;
            break;
        }
        i++;
    }
    f->scanned = n;
    f->depth = depth;
    f->cut = cut;
    f->in_str = in_str;
    f->esc = esc;
    f->in_scalar = in_scalar;
}

/* Count lines up to stream offset `off` (>= lpos, within buf). */
static void lines_to(feed *f, size_t off)
{
    const char *s = f->buf + (f->lpos - f->base), *end = f->buf + (off - f->base);
    const char *nl;
    while (s < end && (nl = memchr(s, '\n', (size_t)(end - s))) != NULL) {
        f->line++;
        f->bol = f->base + (size_t)(nl - f->buf) + 1;
        s = nl + 1;
    }
    f->lpos = off;
}

void feed_where(feed *f, size_t off, size_t *line, size_t *col)
{
    if (off > f->base + f->len)
        off = f->base + f->len;
    if (off < f->base)
        off = f->base;   /* not asked for: offsets come from the current batch */
    if (off < f->lpos) {
        /* back: uncount the newlines in between; the line starts after the
         * last newline before off, or where the line of buf[0] starts */
        const char *s = f->buf + (off - f->base), *end = f->buf + (f->lpos - f->base), *nl;
        while ((nl = memchr(s, '\n', (size_t)(end - s))) != NULL) {
            f->line--;
            s = nl + 1;
        }
        const char *b = memrchr(f->buf, '\n', off - f->base);
        f->bol = b ? f->base + (size_t)(b - f->buf) + 1 : f->bol0;
        f->lpos = off;
    }
    lines_to(f, off);
    *line = f->line;
    *col = off - f->bol + 1;
}

/* Drop buf[0..n): the line count moves past it first. */
static void consume(feed *f, size_t n)
{
    lines_to(f, f->base + n);
    f->bol0 = f->bol;
    memmove(f->buf, f->buf + n, f->len - n);
    f->len -= n;
    f->base += n;
    f->scanned = f->scanned > n ? f->scanned - n : 0;
    f->cut = f->cut > n ? f->cut - n : 0;
}

/* A fresh scanner at buf[0] (after a skipped line). */
static void rescan(feed *f)
{
    f->scanned = f->cut = f->depth = 0;
    f->in_str = f->esc = f->in_scalar = false;
}

/* Drop the rest of a damaged line: true once its newline was dropped. */
static bool skip_rest_of_line(feed *f)
{
    const char *nl = memchr(f->buf, '\n', f->len);
    consume(f, nl ? (size_t)(nl - f->buf) + 1 : f->len);
    if (nl) {
        f->skip_line = false;
        rescan(f);
    }
    return nl != NULL;
}

/* Read once into buf (waiting for bytes); false at the end or on an error. */
static bool read_some(feed *f)
{
    if (f->cap - f->len < READ_MIN) {
        size_t cap = f->cap ? f->cap : 4 * READ_MIN;
        while (cap - f->len < READ_MIN)
            cap *= 2;
        f->buf = xrealloc(f->buf, cap);
        f->cap = cap;
    }
    for (;;) {
        ssize_t r = read(f->fd, f->buf + f->len, f->cap - f->len);
        if (r > 0) {
            f->len += (size_t)r;
            return true;
        }
        if (r == 0) {
            f->eof = true;
            return false;
        }
        if (errno == EINTR)
            continue;
        if (errno == EAGAIN || errno == EWOULDBLOCK) {   /* a non-blocking descriptor: wait */
            struct pollfd pfd = { f->fd, POLLIN, 0 };
            poll(&pfd, 1, -1);
            continue;
        }
        f->rerr = errno;
        f->eof = true;
        return false;
    }
}

/* Are more bytes there already, without waiting? */
static bool readable(int fd)
{
    struct pollfd pfd = { fd, POLLIN, 0 };
    return poll(&pfd, 1, 0) > 0 && (pfd.revents & (POLLIN | POLLHUP));
}

/* Make the next batch: true when there is one (possibly only whitespace). */
static bool next_batch(feed *f)
{
    for (;;) {
        if (f->skip_line && f->len && !skip_rest_of_line(f))
            continue;   /* whatever was held is dropped: read more */
        if (f->eof) {
            if (!f->len)
                return false;
            f->batch = f->len;   /* the end: whatever is left, whole or cut short */
            return true;
        }
        scan(f);
        if (f->cut && !(f->len < BATCH_MAX && readable(f->fd))) {
            f->batch = f->cut;
            return true;
        }
        if (f->len - f->cut >= DOC_LIMIT) {
            f->capacity = true;
            return false;
        }
        read_some(f);
    }
}

bool feed_next(feed *f, feed_item *it)
{
    *it = (feed_item){ 0 };
    for (;;) {
        if (!f->active) {
            if (f->capacity)
                return false;
            if (!next_batch(f)) {
                if (!f->capacity)
                    return false;
                it->st = JDOC_ERR_CAPACITY;
                it->docno = f->docs_before + 1;
                it->start = it->err_offset = f->base;
                it->message = "document of 4 GiB or more";
                return true;
            }
            jdoc_status st = jdoc_stream_begin(f->p, f->buf, f->batch);
            if (st != JDOC_OK) {   /* capacity for a mapped file: the caller checked the size */
                it->st = st;
                it->docno = f->docs_before + 1;
                it->start = it->err_offset = f->base;
                it->message = jdoc_last_error(f->p)->message;
                f->capacity = true;
                return true;
            }
            f->active = true;
        }
        jdoc_doc *d;
        jdoc_status st;
        if (jdoc_stream_next(f->p, &d, &st)) {
            it->doc = d;
            it->st = st;
            it->docno = f->docs_before + jdoc_stream_count(f->p);
            it->start = f->base + jdoc_stream_offset(f->p);
            if (st == JDOC_OK) {
                it->base = f->base + (size_t)(jdoc_doc_input(d, NULL) - f->buf);
            } else {
                const jdoc_error *e = jdoc_last_error(f->p);
                it->err_offset = f->base + e->offset;
                it->message = e->message;
                /* the library goes on after the end of the damaged line; when
                 * that line goes on past the batch, so does the skip */
                size_t o = e->offset < f->batch ? e->offset : f->batch;
                if (!memchr(f->buf + o, '\n', f->batch - o))
                    f->skip_line = true;
            }
            return true;
        }
        f->docs_before += jdoc_stream_count(f->p);
        f->active = false;
        if (f->fd < 0)
            return false;
        consume(f, f->batch);
        if (f->skip_line)
            rescan(f);   /* the rest is scanned again after the skip */
    }
}
