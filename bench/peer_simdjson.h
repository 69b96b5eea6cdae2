/* SPDX-License-Identifier: MIT */
/* C interface to the simdjson peer (peer_simdjson.cpp, built with g++ when
 * simdjson is installed). The C side declares it weak: without the peer every
 * function's address is NULL, peer_available() is 0 and its columns say n/a. */
#ifndef JDOC_BENCH_PEER_SIMDJSON_H
#define JDOC_BENCH_PEER_SIMDJSON_H

#include <stddef.h>
#include <stdint.h>

#include "rec.h"

#ifdef __cplusplus
#define PEER extern "C"
#else
#define PEER __attribute__((weak))
#endif

typedef struct peer_simdjson peer_simdjson;

/* What peer_simdjson_run does; one parse (iterate or DOM) per call, parsers reused. */
enum peer_op {
    PEER_ITERATE,    /* On Demand iterate() + doc.type(): its stage 1 (index + UTF-8); root '[' '{' or 's' */
    PEER_DOM,        /* dom::parser::parse: stage 1 + tape; the same root kind */
    PEER_OD_PTR,     /* iterate + doc.at_pointer per path (3.0.1 rewinds to the root) */
    PEER_OD_NAV,     /* iterate + rewind + find_field_unordered / array walk per pointer step */
    PEER_DOM_PTR,    /* DOM parse + root.at_pointer per path */
    PEER_HOT_OD,     /* array of Docker objects: find_field_unordered per field, document order */
    PEER_HOT_DOM,    /* array: element.at_pointer per path */
    PEER_HOT_OD_KEYS,/* array of objects: find_field_unordered of each path's first key, strings */
    PEER_STREAM_OD,  /* iterate_many + find_field_unordered(first path's key) per document */
    PEER_STREAM_DOM, /* parse_many + at_key */
};
enum peer_shape { PEER_SHAPE_LIST, PEER_SHAPE_INSPECT }; /* /containers/json or docker inspect element */

/** 0 version, 1 default (best runtime) implementation, 2 the one On Demand is compiled for, 3 compiler and flags. */
PEER const char *peer_simdjson_info(int what);
/** Parsers bound to implementation `impl` ("haswell", ...; NULL: the default). NULL with *why set
 *  when it is not compiled into libsimdjson or not runnable here. */
PEER peer_simdjson *peer_simdjson_new(const char *impl, const char **why);
PEER void peer_simdjson_free(peer_simdjson *p);
/** A padded copy of the input, made outside timing. 0 or -1. */
PEER int peer_simdjson_set_input(peer_simdjson *p, const char *json, size_t len);
/** JSON Pointers with a type letter each (s i u d b), split into steps outside timing. 0 or -1. */
PEER int peer_simdjson_set_paths(peer_simdjson *p, size_t n, const char *const *ptrs, const char *types);
/** Run `op` once, values into r. Returns >= 0 (paths, elements or documents), or -(error code). */
PEER int64_t peer_simdjson_run(peer_simdjson *p, int op, int shape, bench_rec *r);
PEER const char *peer_simdjson_error(int64_t rc);

#ifndef __cplusplus
static inline int peer_available(void) { return peer_simdjson_new != 0; }
#endif
#endif
