/* SPDX-License-Identifier: MIT */
/* fuzz_feed: the input, any bytes, is a stream; fed in pieces (sizes drawn
 * from the input's hash: 1 to 8 bytes, around a kernel block, a few hundred,
 * 4 KiB), each piece in its own exact-size block overwritten and freed as soon
 * as jdoc_feed_next asks for more, it must give what jdoc_stream_begin gives
 * on the whole buffer, on every kernel this CPU runs: the same documents
 * (compact form), statuses, counts, lines, offsets and error offsets and
 * messages. Indexing windows of 64 bytes to the default put window ends
 * inside and between documents. */
#include "internal.h"
#include "fuzz_util.h"

static const size_t windows[] = { 0, 64, 128, 256 };

typedef struct rec {
    jdoc_status st;
    size_t count, line, offset, err_off;
    const char *msg;
    char *text;
} rec;

#define MAX_RECS (64 * 1024 + 1)

typedef struct recs {
    rec v[MAX_RECS];
    size_t n;
} recs;

static recs whole_r, fed_r;

static void take(jdoc_parser *p, jdoc_doc *d, jdoc_status st, recs *r)
{
    FZ_CHECK(r->n < MAX_RECS, "more documents than bytes");
    rec *x = &r->v[r->n++];
    memset(x, 0, sizeof *x);
    x->st = st;
    x->count = jdoc_stream_count(p);
    x->line = jdoc_stream_line(p);
    x->offset = jdoc_stream_offset(p);
    if (st == JDOC_OK) {
        FZ_CHECK(d != NULL, "a document with JDOC_OK");
        size_t l = jdoc_dump(jdoc_root(d), NULL, 0);
        x->text = malloc(l + 1);
        if (!x->text)
            abort();
        jdoc_dump(jdoc_root(d), x->text, l + 1);
    } else {
        FZ_CHECK(d == NULL, "no document with an error");
        x->err_off = jdoc_last_error(p)->offset;
        x->msg = jdoc_last_error(p)->message;
    }
}

static void recs_clear(recs *r)
{
    for (size_t i = 0; i < r->n; i++)
        free(r->v[i].text);
    r->n = 0;
}

static size_t piece_size(uint64_t *rng)
{
    uint64_t x = fz_rand(rng);
    switch (x % 6) {
    case 0:
        return 1 + (x >> 8) % 8;
    case 1:
        return 62 + (x >> 8) % 5;
    case 2:
        return 1 + (x >> 8) % 300;
    case 3:
        return 4096;
    default:
        return 1 + (x >> 8) % 64;
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > 64 * 1024)
        return 0;
    uint64_t h = fz_hash(data, size);
    char *buf = fz_copy(data, size);
    for (int k = JDOC_KERNEL_SCALAR; k < JDOC_KERNEL_COUNT; k++) {
        if (!jdoc_kernel_supported((jdoc_kernel_id)k))
            continue;
        jdoc_options o = { 0 };
        o.kernel = (jdoc_kernel_id)k;
        jdoc_parser *p = jdoc_parser_new(&o);
        if (!p)
            abort();
        uint64_t rng = h ^ (uint64_t)k << 56;
        size_t window = windows[fz_rand(&rng) % (sizeof windows / sizeof *windows)];
        jdoc_doc *d;
        jdoc_status st;

        FZ_CHECK(jdoc_stream_begin(p, buf, size) == JDOC_OK, "stream_begin");
        p->st.window = window;
        while (jdoc_stream_next(p, &d, &st))
            take(p, d, st, &whole_r);

        FZ_CHECK(jdoc_feed_begin(p) == JDOC_OK, "feed_begin");
        p->st.window = window;
        for (size_t pos = 0; pos < size;) {
            size_t n = piece_size(&rng);
            if (n > size - pos)
                n = size - pos;
            char *piece = fz_copy(data + pos, n);
            FZ_CHECK(jdoc_feed(p, piece, n) == JDOC_OK, "feed");
            while (jdoc_feed_next(p, &d, &st))
                take(p, d, st, &fed_r);
            memset(piece, '#', n);
            free(piece);
            pos += n;
        }
        FZ_CHECK(jdoc_feed_close(p) == JDOC_OK, "feed_close");
        while (jdoc_feed_next(p, &d, &st))
            take(p, d, st, &fed_r);

        for (size_t i = 0; i < whole_r.n || i < fed_r.n; i++) {
            FZ_CHECK(i < whole_r.n && i < fed_r.n, "[%s] %zu documents whole, %zu fed", jdoc_kernel_name(p),
                     whole_r.n, fed_r.n);
            const rec *x = &whole_r.v[i], *y = &fed_r.v[i];
            FZ_CHECK(x->st == y->st && x->count == y->count && x->line == y->line && x->offset == y->offset &&
                         x->err_off == y->err_off && (!x->msg || strcmp(x->msg, y->msg) == 0) &&
                         (!x->text || strcmp(x->text, y->text) == 0),
                     "[%s] window %zu, document %zu: status %d/%d count %zu/%zu line %zu/%zu offset %zu/%zu "
                     "error at %zu/%zu (%s/%s) %.60s/%.60s",
                     jdoc_kernel_name(p), window, i + 1, x->st, y->st, x->count, y->count, x->line, y->line,
                     x->offset, y->offset, x->err_off, y->err_off, x->msg ? x->msg : "-", y->msg ? y->msg : "-",
                     x->text ? x->text : "-", y->text ? y->text : "-");
        }
        recs_clear(&whole_r);
        recs_clear(&fed_r);
        jdoc_parser_free(p);
    }
    free(buf);
    return 0;
}
