/* SPDX-License-Identifier: MIT */
/* C interface to the simdjson peer (peer_simdjson.cpp, built with g++ when
 * simdjson is installed; otherwise peer_simdjson_none.c says "not available"). */
#ifndef JDOC_BENCH_PEER_SIMDJSON_H
#define JDOC_BENCH_PEER_SIMDJSON_H

#include <stddef.h>
#include <stdint.h>

#include "bench_rec.h"

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
/** The implementation On Demand's stage 2 is compiled for (SIMDJSON_BUILTIN_IMPLEMENTATION:
 *  set by the peer's compiler flags, e.g. "haswell" with -march=native on an AVX2 CPU,
 *  "fallback" without -m flags), or "n/a". Stage 1 is dispatched at run time. */
const char *peer_simdjson_builtin(void);
/** Compiler and flags the peer was built with, or "n/a". */
const char *peer_simdjson_compiler(void);
/** 1 when the peer was compiled with SIMDJSON_THREADS_ENABLED (it then turns
 *  threads off, so iterate_many/parse_many work on the calling thread only). */
int peer_simdjson_threads(void);

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
/** Message for a negative return of the calls of this header. */
const char *peer_simdjson_error_message(int64_t rc);

/* ---- fetch by path ---------------------------------------------------- */

/** How the paths are followed. */
enum {
    PEER_OD_POINTER = 0, /* On Demand iterate + doc.at_pointer(p) per path (3.0.1 rewinds to the root) */
    PEER_OD_NAV = 1,     /* On Demand iterate + doc.rewind() + find_field_unordered / array walk per step */
    PEER_DOM_POINTER = 2 /* DOM parse + root.at_pointer(p) per path */
};

/** The paths of peer_simdjson_fetch (and of PEER_DOM_POINTER in peer_simdjson_hot):
 *  JSON Pointers with a type letter each (s string, i int64, u uint64, d double,
 *  b bool). Split into steps here, outside timing. 0, or -1 for an empty or
 *  malformed pointer. */
int peer_simdjson_set_paths(peer_simdjson *p, size_t n, const char *const *ptrs, const size_t *lens,
                            const char *types);
/** Parse the input and read every path as its typed value into `r` (a value
 *  not found or of another type is recorded as missing). Returns the number of
 *  paths, or -(error code) when the document does not parse. */
int64_t peer_simdjson_fetch(peer_simdjson *p, int mode, bench_rec *r);

/* ---- hot loop over an array of Docker objects ------------------------- */

enum {
    PEER_SHAPE_LIST = 0,   /* /containers/json element: Id, Names[0], Image, State, Labels[svc] */
    PEER_SHAPE_INSPECT = 1 /* docker inspect element: Id, Name, Config.Image, State.Status, Config.Labels[svc] */
};
/** Parse the input (an array) and read 5 strings per element, recorded in
 *  that order (Id, name, image, state, compose service label). mode
 *  PEER_OD_NAV: On Demand, find_field_unordered per field in document order;
 *  PEER_DOM_POINTER: DOM + element.at_pointer with the paths of set_paths.
 *  Returns the element count or -(error code). */
int64_t peer_simdjson_hot(peer_simdjson *p, int mode, int shape, bench_rec *r);

/* ---- document streams ------------------------------------------------- */

enum {
    PEER_STREAM_OD = 0, /* ondemand::parser::iterate_many + find_field_unordered(field) */
    PEER_STREAM_DOM = 1 /* dom::parser::parse_many + at_key(field) */
};
/** Read string member `field` of every document of the input. Returns the
 *  document count or -(error code). */
int64_t peer_simdjson_stream(peer_simdjson *p, int mode, const char *field, bench_rec *r);

#ifdef __cplusplus
}
#endif
#endif /* JDOC_BENCH_PEER_SIMDJSON_H */
