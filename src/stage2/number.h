/* SPDX-License-Identifier: MIT */
/* Strict RFC 8259 number grammar and exact conversion (int64, uint64, double). */
#ifndef JDOC_NUMBER_H
#define JDOC_NUMBER_H
#include "jdoc.h"

typedef struct jdoc_num {
    jdoc_type type;   /* JDOC_INT, JDOC_UINT or JDOC_DOUBLE */
    size_t len;       /* bytes of the number token */
    int64_t i;        /* JDOC_INT */
    uint64_t u;       /* JDOC_UINT (and JDOC_INT >= 0) */
    double d;         /* always: the correctly rounded double (±inf when beyond range) */
    bool inf;         /* magnitude beyond double's range: jdoc_get_double says JDOC_ERR_RANGE */
} jdoc_num;

/* Parse the number that starts at p; at most `avail` bytes may be read.
 * The token must follow the RFC 8259 grammar exactly and be followed by the
 * end of the buffer or a delimiter: whitespace, a structural character or a
 * quote (space, \t, \n, \r, ',', ':', '[', ']', '{', '}', '"'); whether that
 * is a grammatical place for it is the structure's business.
 * Returns JDOC_OK or JDOC_ERR_NUMBER; *err_off (may be NULL) gets the offset
 * from p of the first offending byte (on error out->type is JDOC_INVALID,
 * out->len that offset, the rest zero). Never allocates. On JDOC_OK, i is set
 * for JDOC_INT, u for JDOC_UINT and nonnegative JDOC_INT, both 0 otherwise. */
jdoc_status jdoc__num_parse(const char *p, size_t avail, jdoc_num *out, size_t *err_off);

/* Classify only (no double conversion): type, len, i and u as above, same
 * errors; out->d is 0.0 and out->inf false. */
jdoc_status jdoc__num_classify(const char *p, size_t avail, jdoc_num *out, size_t *err_off);

/* For tests: the exact big-integer conversion alone (what jdoc__num_parse
 * falls back to when its fast paths cannot decide), started `nudge` ulps
 * (-64..64) away from the usual first guess. *d gets the same double as
 * jdoc__num_parse. JDOC_ERR_NUMBER for a bad token, JDOC_ERR_ARG for a nudge
 * out of range. Slow; not for production use. */
jdoc_status jdoc__num_parse_exact(const char *p, size_t avail, int nudge, double *d);

#endif
