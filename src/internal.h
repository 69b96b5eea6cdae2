/* SPDX-License-Identifier: MIT */
/* Private definitions shared by both stages: parser, document, allocation. */
#ifndef JDOC_INTERNAL_H
#define JDOC_INTERNAL_H
#include <stdatomic.h>
#include <string.h>
#include "jdoc.h"
#include "arch/kernel.h"

#define JDOC_LIKELY(x) __builtin_expect(!!(x), 1)
#define JDOC_UNLIKELY(x) __builtin_expect(!!(x), 0)
#define JDOC_INTERNAL __attribute__((visibility("hidden")))

/* A parsed document: the input and its structural index.
 *   tape[0..n)   each entry's byte: { } [ ] : , " (' ' for a string holding a
 *                backslash) or a scalar's first byte; tape[n] is no bracket
 *   index[i]     the byte offset of entry i, except for an opening bracket,
 *                where it is the entry of its closing bracket (the bracket's
 *                offset is the last non-whitespace byte before the first
 *                following entry that is not an opening bracket: jdoc__off)
 *   index[n]     == len, a sentinel
 */
struct jdoc_doc {
    jdoc_parser *parser;
    const char *json;
    uint32_t len;
    uint32_t n;
    const uint32_t *index;
    const uint8_t *tape;
    /* where the last member lookup found its key: object entry << 32 | key
     * entry, and key entry << 32 | a summary of the keys before it (see
     * walk.c). Hints only, read and written relaxed, so threads may share them. */
    _Atomic uint64_t hint, hint_seen;
};

struct jdoc_parser {
    jdoc_allocator a;
    const jdoc_kernel *k;
    uint32_t max_depth;
    bool trust_utf8;
    bool has_doc;
    uint32_t gen;      /* counts parses: values and cursors of an older one are refused */
    /* the index: one block (ixmem) of ix_cap entries' room, see stage1.c */
    void *ixmem;
    size_t ix_cap;
    uint32_t *index;
    uint8_t *tape;
    /* decoded strings: one buffer of the document's size, each escaped string
     * decoded once; memo[i] = 1 + offset in scratch of entry i's decoding */
    char *scratch;     size_t scratch_cap, scratch_len;
    uint64_t *memo;    size_t memo_cap;   /* (1 + offset) << 32 | length */
    bool memo_ready;
    uint8_t *vstack;   size_t vstack_cap;   /* jdoc_validate's container stack */
    jdoc_error err;
    uint32_t match_at;   /* the entry at fault of the last failed bracket pass */
    jdoc_doc doc;
    /* document streams: a whole buffer (jdoc_stream_begin) or pieces fed as
     * they arrive (jdoc_feed_begin); see the stream section of stage1.c */
    struct jdoc_stream_state {
        const char *buf;     /* the bytes being indexed: the caller's piece, or carry */
        size_t len;          /* bytes of buf at hand */
        size_t base;         /* stream offset of buf[0] */
        size_t to;           /* bytes of buf indexed */
        size_t run;          /* where in buf the kernel state was last fresh (the exact error is located from there) */
        uint32_t next;       /* the next document's first entry */
        bool active, feeding, closed;
        bool ended;          /* the kernel saw the end of the input */
        bool in_carry;       /* buf is carry */
        bool skip;           /* resyncing: bytes are dropped up to the next newline */
        bool tent;           /* entries [ks.n, tn) index the bytes after `to`, for now */
        bool tent_tried, tent_in_string;
        bool kscalar;        /* the rest of this run goes through the scalar kernel */
        uint32_t tn;
        size_t skip_from;
        /* the caller's piece while carry takes its bytes: carry[c_at + i] == in[i], i < in_pos */
        const char *in;
        size_t in_len, in_pos, c_at;
        char *carry;         /* owned: the document in progress and the bytes not yet indexed */
        size_t carry_cap;
        size_t grow;         /* bytes moved into carry at a time */
        size_t doc_len;      /* length of the last whole document */
        /* the grammar of the container document being read, entry by entry */
        uint32_t g_doc, g_pos, g_depth;
        uint8_t g_state;
        bool g_fast;         /* read by pairs and depth (g_state: the last class), not the stack */
        uint64_t *g_stack;   /* owned: one bit per open container, set for an object */
        size_t g_words;
        jdoc_status err;     /* kernel error where the index stops */
        bool err_in_token;   /* ... met inside a string or a scalar token */
        size_t err_off;
        const char *err_msg;
        jdoc_s1 ks;          /* the kernel's state between windows and pieces */
        size_t window;       /* bytes indexed at a time: 256 KiB (tests make it small) */
        size_t chunk;        /* bytes per kernel call: small right after a kernel error */
        /* what was returned */
        size_t count;        /* documents returned, damaged ones included */
        size_t last;         /* stream offset of the last document returned */
        size_t last_line;    /* its 1-based line, 0 until counted */
        size_t lines, lines_at; /* newlines in the stream before offset lines_at */
    } st;
    /* one document indexed as it arrives (jdoc_parse_begin) */
    struct jdoc_more_state {
        jdoc_s1 ks;
        size_t to;           /* bytes indexed */
        bool active;
        bool exact;          /* ks is the scalar kernel's: its error is the exact one */
        /* the bracket pass run on each piece (kernel resume): entries
         * matched, the stack's state, the root's offset (the pass writes
         * over the root's index entry) and, once it closed, its end */
        bool matching, closed, unmatched;
        uint32_t done, top, depth, end, root_off;
    } pm;
};

void *jdoc__alloc(jdoc_parser *p, size_t size);
void jdoc__free(jdoc_parser *p, void *ptr);
/* Grow *buf to hold at least `need` elements of `elem` bytes; keeps contents. */
jdoc_status jdoc__reserve(jdoc_parser *p, void **buf, size_t *cap, size_t need, size_t elem);
jdoc_status jdoc__fail(jdoc_parser *p, jdoc_status code, size_t offset, const char *msg);
/* Free what streams and feeds keep (jdoc_parser_free). */
void jdoc__stream_free(jdoc_parser *p);

/* Stage 1 on one document with kernel k: index into p's buffers, then check
 * brackets, depth and the root. Sets p->doc on success. */
jdoc_status jdoc__stage1(jdoc_parser *p, const jdoc_kernel *k, const char *json, size_t len);
/* Test hook: run only kernel k over the input (chunked as jdoc__stage1 does),
 * no fallback, no bracket pass. Returns the kernel's error code (JDOC_OK if
 * none; its offset in p->err.offset) and leaves the raw index and tape in
 * p->index / p->tape; *nb (may be NULL) gets the number of bracket entries. */
jdoc_status jdoc__stage1_kernel_only(jdoc_parser *p, const jdoc_kernel *k, const char *json, size_t len,
                                     uint32_t *n, uint32_t *nb);

/* Scalar UTF-8 validation of a whole buffer; false and *err at the first bad sequence. */
bool jdoc__utf8_check(const uint8_t *buf, size_t len, size_t *err);

/* Match the container opening at entry s with kernel k's bracket pass over
 * entries [s, n), up to its closing entry *end; errors are reported at the
 * entry's offset, an unclosed container at `eof`. */
jdoc_status jdoc__match_container(jdoc_parser *p, const jdoc_kernel *k, const char *json, size_t eof, uint32_t s,
                                  uint32_t n, uint32_t rel, uint32_t *end);
/* For tests: the grammar check of a root number (offset of the first bad byte). */
size_t jdoc__root_number_end(const char *p, size_t avail, bool *ok);
/* For tests: the stream code's pair check, table-driven (the kernels' reference). */
bool jdoc__pairs_bad(const uint8_t *tape, uint32_t from, uint32_t to);
/* The newlines of b[0..n) by memchr: the reference of the kernels' k->lines. */
size_t jdoc__lines_ref(const char *b, size_t n);
/* Check that entry offset `at` can start a document (a scalar root in full). */
jdoc_status jdoc__check_root(jdoc_parser *p, const char *json, size_t len, uint32_t at);

/* What every new parse, stream or incremental parse does first: documents,
 * values and cursors of the parser's last one go stale. */
static inline void jdoc__new_doc(jdoc_parser *p)
{
    p->has_doc = false;
    p->gen++;
    p->memo_ready = false;
    p->scratch_len = 0;
    p->st.active = false;
}

/* A value handle of document d, and whether a handle is still good. */
static inline jdoc_value jdoc__value(const jdoc_doc *d, uint32_t idx)
{
    return (jdoc_value){ d, idx, d->parser->gen };
}
static inline bool jdoc__valid(jdoc_value v)
{
    return v.doc && v.doc->parser->has_doc && v.doc == &v.doc->parser->doc && v.gen == v.doc->parser->gen &&
           v.idx < v.doc->n;
}

/* The structural character of entry e ({ } [ ] : , " or a scalar's first
 * byte), and its byte offset. Code outside stage 1 reads entries only
 * through these, so the index layout can change under it. */
static inline char jdoc__ch(const jdoc_doc *d, uint32_t e)
{
    char c = (char)d->tape[e];
    return c == ' ' ? '"' : c;
}
/* Entry e is a string (its opening quote) holding a backslash. */
static inline bool jdoc__str_escaped(const jdoc_doc *d, uint32_t e) { return d->tape[e] == ' '; }
static inline bool jdoc__is_open(uint8_t c) { return c == '{' || c == '['; }
uint32_t jdoc__open_off(const char *json, const uint32_t *index, const uint8_t *tape, uint32_t e);
static inline uint32_t jdoc__off(const jdoc_doc *d, uint32_t e)
{
    return JDOC_LIKELY(!jdoc__is_open(d->tape[e])) ? d->index[e] : jdoc__open_off(d->json, d->index, d->tape, e);
}
/* The closing entry of the container that opens at entry e. */
static inline uint32_t jdoc__close(const jdoc_doc *d, uint32_t e) { return d->index[e]; }

static inline bool jdoc__is_ws(unsigned char c) { return c == ' ' || c == '\n' || c == '\r' || c == '\t'; }

#endif
