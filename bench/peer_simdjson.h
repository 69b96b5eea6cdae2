/* SPDX-License-Identifier: MIT */
/* C interface to the simdjson peer (peer_simdjson.cpp, built with g++ when
 * simdjson is installed; otherwise peer_simdjson_none.c says "not available"). */
#ifndef JDOC_BENCH_PEER_SIMDJSON_H
#define JDOC_BENCH_PEER_SIMDJSON_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct peer_simdjson peer_simdjson;

/** 1 when the peer is linked in. */
int peer_simdjson_available(void);
/** SIMDJSON_VERSION ("3.0.1"), or "n/a". */
const char *peer_simdjson_version(void);
/** Name and description of the active (runtime-dispatched) implementation, or "n/a". */
const char *peer_simdjson_impl(void);
const char *peer_simdjson_impl_desc(void);
/** Compiler and flags the peer was built with, or "n/a". */
const char *peer_simdjson_compiler(void);

/** Create the reused parsers (one On Demand, one DOM). NULL when not available. */
peer_simdjson *peer_simdjson_new(void);
void peer_simdjson_free(peer_simdjson *p);
/** Copy `json` into a simdjson::padded_string held by `p` (done once, outside timing). 0 or -1. */
int peer_simdjson_set_input(peer_simdjson *p, const char *json, size_t len);
/** ondemand::parser::iterate() (stage 1: index + UTF-8 check) and doc.type().
 *  Returns the type (>= 0), or -(simdjson error code) on error. */
int64_t peer_simdjson_iterate(peer_simdjson *p);
/** dom::parser::parse (stage 1 + tape). Returns the root's type char, or -(error code). */
int64_t peer_simdjson_dom(peer_simdjson *p);
/** Message for a negative return of the two calls above. */
const char *peer_simdjson_error_message(int64_t rc);

#ifdef __cplusplus
}
#endif
#endif /* JDOC_BENCH_PEER_SIMDJSON_H */
