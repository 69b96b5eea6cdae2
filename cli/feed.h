/* SPDX-License-Identifier: MIT */
/* The documents of a --ndjson stream, one at a time: from a mapped file in
 * one go, or from a pipe, FIFO, socket or terminal as the bytes arrive. The
 * only place where the tool meets the library's stream functions. */
#ifndef JDOC_CLI_FEED_H
#define JDOC_CLI_FEED_H
#include <stdbool.h>
#include <stddef.h>
#include "jdoc.h"

typedef struct feed feed;

/* One document of the stream. Offsets are stream offsets: bytes from the
 * start of the input, over every read. */
typedef struct feed_item {
    jdoc_doc *doc;        /* NULL when damaged (st != JDOC_OK) */
    jdoc_status st;
    size_t docno;         /* 1-based, damaged documents included */
    size_t start;         /* offset of the document's first byte */
    size_t base;          /* offset of the byte that the document's own offsets count from */
    size_t err_offset;    /* damaged: offset of the damage */
    const char *message;  /* damaged: what it is */
} feed_item;

/* A feed over data[0..len) (all of the input, e.g. a mapped file) when
 * fd < 0, else over what fd delivers until its end (`data` unused). Out of
 * memory: message and exit 2. */
feed *feed_new(jdoc_parser *p, const char *data, size_t len, int fd);
void feed_free(feed *f);
/* The next document into *it; false at the end of the input or after a read
 * error (feed_read_errno). Reads (and waits) only when no whole document is
 * left in what was read. The document and the item's strings are valid until
 * the next call. A document of 4 GiB or more is an item with status
 * JDOC_ERR_CAPACITY, after which the feed ends. */
bool feed_next(feed *f, feed_item *it);
/* 0, or the errno of the read that failed. */
int feed_read_errno(const feed *f);
/* Is the input read as it arrives (so answers should go out at once)? */
bool feed_live(const feed *f);
/* Line and column (1-based, columns in bytes) of stream offset `off`, which
 * must lie in the current document or after it. */
void feed_where(feed *f, size_t off, size_t *line, size_t *col);

#endif
