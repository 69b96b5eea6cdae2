/* SPDX-License-Identifier: MIT */
/* JSON string bodies: escape decoding to UTF-8 and escape checking. */
#ifndef JDOC_STRDEC_H
#define JDOC_STRDEC_H
#include "jdoc.h"

/* Decode the body of a JSON string (the bytes between the quotes, raw) into
 * dst, which has room for at least `len` bytes (decoded text is never longer).
 * Handles every escape of RFC 8259, \uXXXX with surrogate pairs to UTF-8.
 * Returns JDOC_OK and *dlen, or JDOC_ERR_STRING (bad escape, lone surrogate,
 * raw control character < 0x20) with *err_off (may be NULL) the offset in src
 * of the offending backslash or byte. Does not check UTF-8 of raw bytes.
 * dst must not overlap src; any of dst[0..len) may be overwritten (scratch
 * beyond *dlen). *dlen is set only on success. */
jdoc_status jdoc__str_decode(const char *src, size_t len, char *dst, size_t *dlen, size_t *err_off);

/* Same checks as jdoc__str_decode, no output. */
jdoc_status jdoc__str_check(const char *src, size_t len, size_t *err_off);

/* Compare the decoded value of a raw string body with `key` (already decoded):
 * 1 equal, 0 different, -1 the body has a bad escape. No allocation.
 * Stops at the first certain difference, so a bad body gives -1 only when its
 * decoded text matches key up to the bad spot (and klen <= len); else 0. */
int jdoc__str_equals(const char *src, size_t len, const char *key, size_t klen);

#endif
