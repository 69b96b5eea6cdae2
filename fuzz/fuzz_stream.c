/* SPDX-License-Identifier: MIT */
/* fuzz_stream: the input is cut at NUL bytes (or at newlines when it has none);
 * the pieces jdoc_parse accepts are joined with random whitespace, or nothing
 * where that is unambiguous, and jdoc_stream_next must return exactly those
 * documents: same count, raw text, offsets, validation and compact form; and
 * one per line before a damaged last line, all of them and then the damage. */
#include "internal.h"
#include "fuzz_util.h"

/* Indexing windows (src/stage1/stage1.c; 0 = the default 1 MiB): small ones put
 * window ends inside and between documents. Multiples of 64. */
static const size_t windows[] = { 0, 64, 128, 192, 256, 1024 };

#define MAX_DOCS 256

/* Two scalars (numbers, literals) side by side would read as one token. A
 * string, an array or an object delimits itself on either side. */
static bool self_delimiting(char c) { return c == '"' || c == '[' || c == ']' || c == '{' || c == '}'; }

/* Whitespace is needed between two documents only when both sides are scalars. */
static bool needs_space(char last, char first) { return !self_delimiting(last) && !self_delimiting(first); }

typedef struct piece {
    size_t at, len;   /* the raw text in the stream buffer */
    jdoc_status valid;
    size_t dump_len;
    char *dump;
} piece;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static jdoc_parser *p;
    if (!p)
        FZ_CHECK((p = jdoc_parser_new(NULL)) != NULL, "parser_new");
    uint64_t rng = fz_hash(data, size);
    char sep = memchr(data, 0, size) ? 0 : '\n';
    size_t window = windows[(rng >> 40) % (sizeof windows / sizeof *windows)];

    /* the accepted pieces: raw text and what they validate and dump to alone */
    static piece docs[MAX_DOCS];
    char *out = malloc(2 * size + 4 * MAX_DOCS + 8);
    size_t n = 0, o = 0;
    for (size_t b = 0; b <= size && n < MAX_DOCS;) {
        const uint8_t *e = memchr(data + b, sep, size - b);
        size_t end = e ? (size_t)(e - data) : size;
        char *one = fz_copy(data + b, end - b);
        jdoc_doc *d;
        /* a stream also checks that each token may follow the one before
         * it, which jdoc_parse leaves to the fetch: take valid pieces only */
        if (jdoc_parse(p, one, end - b, &d) == JDOC_OK && jdoc_validate(d) == JDOC_OK) {
            const char *raw;
            size_t rl;
            jdoc_get_raw(jdoc_root(d), &raw, &rl);
            piece *pc = &docs[n];
            pc->valid = jdoc_validate(d);
            pc->dump_len = jdoc_dump(jdoc_root(d), NULL, 0);
            pc->dump = malloc(pc->dump_len + 1);
            jdoc_dump(jdoc_root(d), pc->dump, pc->dump_len + 1);
            /* the separator: random whitespace, or none when that is unambiguous */
            uint64_t r = fz_rand(&rng);
            size_t ws = r % 4;
            if (n > 0 && ws == 0 && needs_space(out[o - 1], raw[0]))
                ws = 1;
            if (n == 0 && ws == 0 && (r & 16))
                ws = 1;   /* leading whitespace at times */
            for (size_t k = 0; k < ws; k++)
                out[o++] = " \t\r\n"[(r >> (8 + 2 * k)) & 3];
            pc->at = o;
            pc->len = rl;
            memcpy(out + o, raw, rl);
            o += rl;
            n++;
        }
        free(one);
        b = end + 1;
    }
    if (fz_rand(&rng) & 1)
        out[o++] = '\n';

    char *buf = fz_copy(out, o);
    p->st.window = window;
    FZ_CHECK(jdoc_stream_begin(p, buf, o) == JDOC_OK, "stream_begin");
    jdoc_doc *d;
    jdoc_status st;
    size_t k = 0;
    while (jdoc_stream_next(p, &d, &st)) {
        FZ_CHECK(k < n, "stream invents document %zu (%s at %zu, window %zu)\n  stream: %s", k + 1,
                 jdoc_status_str(st), jdoc_stream_offset(p), window, fz_show(buf, o));
        piece *pc = &docs[k];
        FZ_CHECK(st == JDOC_OK && d, "document %zu of %zu (window %zu): %s at %zu: %s\n  stream: %s", k + 1, n, window,
                 jdoc_status_str(st), jdoc_last_error(p)->offset, jdoc_last_error(p)->message, fz_show(buf, o));
        const char *raw;
        size_t rl;
        jdoc_get_raw(jdoc_root(d), &raw, &rl);
        FZ_CHECK(raw == buf + pc->at && rl == pc->len, "document %zu: raw text %s, want %s\n  stream: %s", k + 1,
                 fz_show(raw, rl), fz_show(buf + pc->at, pc->len), fz_show(buf, o));
        FZ_CHECK(jdoc_stream_offset(p) == pc->at && jdoc_stream_count(p) == k + 1, "document %zu: offset %zu, count %zu",
                 k + 1, jdoc_stream_offset(p), jdoc_stream_count(p));
        jdoc_status vs = jdoc_validate(d);
        FZ_CHECK(vs == pc->valid, "document %zu validates to %s in the stream, %s alone", k + 1, jdoc_status_str(vs),
                 jdoc_status_str(pc->valid));
        char *dump = malloc(pc->dump_len + 1);
        size_t dl = jdoc_dump(jdoc_root(d), dump, pc->dump_len + 1);
        FZ_CHECK(dl == pc->dump_len && memcmp(dump, pc->dump, dl) == 0, "document %zu dumps differently", k + 1);
        free(dump);
        k++;
    }
    FZ_CHECK(k == n, "stream lost documents: %zu of %zu (window %zu)\n  stream: %s", k, n, window, fz_show(buf, o));
    free(buf);

    /* the same documents one per line, then a damaged line (invalid UTF-8):
     * every document still comes out, then the damage is reported */
    size_t o2 = 0;
    char *lines = malloc(o + n + 4);
    for (size_t i = 0; i < n; i++) {
        memcpy(lines + o2, out + docs[i].at, docs[i].len);
        docs[i].at = o2;
        o2 += docs[i].len;
        lines[o2++] = '\n';
    }
    lines[o2++] = '\xff';
    buf = fz_copy(lines, o2);
    FZ_CHECK(jdoc_stream_begin(p, buf, o2) == JDOC_OK, "stream_begin");
    for (k = 0; jdoc_stream_next(p, &d, &st); k++) {
        if (k == n) {
            FZ_CHECK(st == JDOC_ERR_UTF8 && jdoc_last_error(p)->offset == o2 - 1,
                     "the damaged last line: %s at %zu", jdoc_status_str(st), jdoc_last_error(p)->offset);
            continue;
        }
        FZ_CHECK(k < n, "document %zu after the damaged line", k + 1);
        const char *raw = NULL;
        size_t rl = 0;
        if (st == JDOC_OK)
            jdoc_get_raw(jdoc_root(d), &raw, &rl);
        FZ_CHECK(st == JDOC_OK && raw == buf + docs[k].at && rl == docs[k].len,
                 "line %zu of %zu before a damaged line (window %zu): %s at %zu: %s\n  stream: %s", k + 1, n, window,
                 jdoc_status_str(st), jdoc_last_error(p)->offset, jdoc_last_error(p)->message, fz_show(buf, o2));
    }
    FZ_CHECK(k == n + 1, "%zu documents and the damage, want %zu + 1", k, n);
    free(buf);
    free(lines);
    for (size_t i = 0; i < n; i++)
        free(docs[i].dump);

    /* the raw input as a stream: defined statuses, offsets move forward, it ends */
    free(out);
    char *in = fz_copy(data, size);
    FZ_CHECK(jdoc_stream_begin(p, in, size) == JDOC_OK, "stream_begin");
    size_t count = 0, last = 0;
    while (jdoc_stream_next(p, &d, &st)) {
        FZ_CHECK(st < JDOC_STATUS_COUNT && (st == JDOC_OK) == (d != NULL), "status %d", st);
        FZ_CHECK(++count <= size, "more documents than bytes");
        FZ_CHECK(jdoc_stream_offset(p) <= size && (count == 1 || jdoc_stream_offset(p) >= last),
                 "offset %zu after %zu", jdoc_stream_offset(p), last);
        FZ_CHECK(st == JDOC_OK || jdoc_last_error(p)->offset <= size, "error offset");
        last = jdoc_stream_offset(p);
    }
    FZ_CHECK(jdoc_stream_count(p) == count, "stream_count %zu, returned %zu", jdoc_stream_count(p), count);
    free(in);
    return 0;
}
