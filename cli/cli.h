/* SPDX-License-Identifier: MIT */
/* The jdoc command-line tool: pieces shared by its source files (buffers,
 * input, output formats). */
#ifndef JDOC_CLI_H
#define JDOC_CLI_H
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include "jdoc.h"

/* Exit statuses; when several apply the highest ranked wins: 2 > 1 > 3 > 0. */
enum { RC_OK = 0, RC_INVALID = 1, RC_USAGE = 2, RC_MISSING = 3 };

/* ---- growable byte buffer (out of memory: message, exit 2) ---- */
typedef struct sbuf {
    char *p;
    size_t len, cap;
} sbuf;

void sb_reserve(sbuf *b, size_t extra);
void sb_put(sbuf *b, const char *s, size_t n);
void sb_puts(sbuf *b, const char *s);
void sb_free(sbuf *b);
static inline void sb_putc(sbuf *b, char c)
{
    if (b->len == b->cap)
        sb_reserve(b, 1);
    b->p[b->len++] = c;
}
/* Write the buffer to stdout and empty it; the first failure's errno is kept
 * in sb_write_errno. */
void sb_flush(sbuf *b);
extern int sb_write_errno;
void *xrealloc(void *p, size_t n);
_Noreturn void die_nomem(void);

/* ---- input: a whole file (mmap) or stdin (read) ---- */
typedef struct input {
    const char *data;
    size_t len;
    void *map;        /* mapping to unmap (with its guard page), or NULL */
    size_t maplen;
    char *heap;       /* buffer to free, or NULL */
    int fd;           /* input_open_stream: the descriptor to read from, or -1 */
    bool close_fd;    /* input_close closes fd */
} input;

/* Read `path` ("-" = stdin; a regular file there is mapped like a named one).
 * 0 on success; else an errno value: EFBIG for a regular file of 4 GiB or
 * more (seen from its size, nothing read) or input that reaches 4 GiB. */
int input_open(input *in, const char *path);
/* As input_open for regular files (mapped, in->fd = -1); anything else (a
 * pipe, FIFO, socket, terminal) is left open in in->fd, unread. */
int input_open_stream(input *in, const char *path);
void input_close(input *in);

/* Line and column (1-based; columns count bytes) of byte offsets: O(n) in
 * total for offsets asked in increasing order; going back costs the distance
 * back plus the length of the line reached, never a scan from the start. */
typedef struct linemap {
    const char *buf;
    size_t len;
    size_t pos, line, bol;   /* scanned up to pos; line number there; start of that line */
} linemap;

void linemap_init(linemap *m, const char *buf, size_t len);
void linemap_at(linemap *m, size_t off, size_t *line, size_t *col);

/* ---- output formats (emit.c) ---- */

/* Where a walk failed: status, byte offset in the document's input, message. */
typedef struct walk_err {
    jdoc_status st;
    size_t offset;
    const char *message;
} walk_err;

/* Shortest decimal that reads back as d, in the canonical number format
 * (see format_double in emit.c); returns the length written (< 32). */
size_t format_double(char out[32], double d);
/* A JSON string with minimal escaping, quotes included. */
void put_json_string(sbuf *b, const char *s, size_t n);
/* Compact JSON of v: scalars as in the source, containers through jdoc_dump. */
jdoc_status emit_compact(sbuf *b, jdoc_value v);
/* Canonical JSON of v (typed getters, decoded and re-escaped strings).
 * *inexact is set when a number beyond double range was copied from the source.
 * `stream` as for emit_pretty. */
jdoc_status emit_canonical(sbuf *b, jdoc_value v, bool stream, bool *inexact, walk_err *err);
/* Pretty JSON of v, 2-space indentation, strings and numbers as in the source,
 * no final newline. When `stream` is set, the buffer is flushed to stdout as
 * it grows (the caller validated the document, so nothing is retracted). */
jdoc_status emit_pretty(sbuf *b, jdoc_value v, bool stream, walk_err *err);

#endif
