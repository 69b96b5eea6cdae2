/* SPDX-License-Identifier: MIT */
/* JSONPath internals: the compiled form of a query (also read by the
 * differential test's own evaluator) and the I-Regexp matcher used by
 * match() and search(). The engine reads documents only through stage 2. */
#ifndef JDOC_QUERY_H
#define JDOC_QUERY_H
#include "stage2/stage2.h"

typedef struct jq_regex jq_regex;

/* Compile an I-Regexp (RFC 9485) given as UTF-8. NULL when the pattern is not
 * an I-Regexp or exceeds the limits of iregexp.c (*nomem false), or when out
 * of memory (*nomem true). */
jq_regex *jq__regex_compile(const char *re, size_t len, const jdoc_allocator *a, bool *nomem);
void jq__regex_free(jq_regex *r);
/* Bytes of scratch memory a run of r needs. */
size_t jq__regex_scratch(const jq_regex *r);
/* 1 when r matches all of s[0..n) (full) or some substring of it (!full), else 0.
 * Invalid UTF-8 in s reads as U+FFFD. */
int jq__regex_run(const jq_regex *r, const char *s, size_t n, bool full, void *scratch);
/* Number of code points of UTF-8 text. */
size_t jq__utf8_count(const char *s, size_t n);

/* ---- the compiled form of a query ---- */

enum { SEL_NAME, SEL_WILD, SEL_INDEX, SEL_SLICE, SEL_FILTER };
enum { X_OR, X_AND, X_NOT, X_CMP, X_TEST, X_QUERY, X_FUNC, X_LIT };
enum { OP_EQ, OP_NE, OP_LT, OP_LE, OP_GT, OP_GE };
enum { FN_LENGTH, FN_COUNT, FN_MATCH, FN_SEARCH, FN_VALUE };
enum { T_VALUE, T_LOGICAL, T_NODES };
/* literal and runtime values */
enum { V_NOTHING, V_NODE, V_NUM, V_STR, V_TRUE, V_FALSE, V_NULL };

typedef struct jq_expr jq_expr;

typedef struct jq_sel {
    uint8_t kind;
    bool has_start, has_end;
    jdoc_step name;            /* SEL_NAME */
    int64_t index;             /* SEL_INDEX */
    int64_t start, end, step;  /* SEL_SLICE */
    jq_expr *filter;           /* SEL_FILTER */
} jq_sel;

typedef struct jq_seg {
    bool desc;
    bool names;        /* a child segment of 2..64 name selectors: one pass over the members */
    bool desc_names;   /* a descendant segment of plain names only: subtrees without them are skipped */
    uint32_t nsel;
    jq_sel *sel;
} jq_seg;

typedef struct jq_path {
    bool relative;   /* @ */
    bool singular;   /* only child segments of one name or index selector */
    uint32_t id;     /* its run in an iterator */
    uint32_t nseg;
    jq_seg *seg;
} jq_path;

typedef struct jq_val {
    uint8_t kind;
    bool isint;        /* V_NUM: exact in i */
    int64_t i;
    double d;          /* V_NUM: always */
    const char *s;     /* V_STR */
    size_t n;
    uint32_t node;     /* V_NODE */
} jq_val;

struct jq_expr {
    uint8_t kind, op, fn, type;
    uint32_t off;       /* in the query text, for messages */
    uint32_t n;         /* X_OR / X_AND operands, X_FUNC arguments */
    jq_expr **args;
    jq_path *q;         /* X_QUERY, X_TEST */
    jq_val lit;         /* X_LIT */
    jq_regex *re;       /* match() / search() with a literal pattern */
    bool re_bad;        /* ... that is not an I-Regexp: always false */
};

typedef struct chunk {
    struct chunk *next;
    size_t used, cap;
    _Alignas(16) unsigned char data[];
} chunk;

struct jdoc_query {
    jdoc_allocator a;
    chunk *mem;
    jq_path *root;
    uint32_t npaths;    /* queries, the root's included */
    jq_regex **re;      /* compiled patterns, to free */
    uint32_t nre, recap;
    size_t rxscratch;   /* the largest scratch a literal pattern needs */
    bool frames_only;   /* tests: descendant segments of one name the frames' way too */
};

/* For tests: evaluate q without the one-walk path of descendant segments of
 * one name (desc1_next), as the oracle it is checked against. */
void jdoc__query_frames_only(jdoc_query *q);
/* For tests: containers the iterator scanned with the kernel's keys for a
 * descendant segment of one name, and scans that found the grammar broken
 * (the walk took over), since it was made. */
void jdoc__query_iter_scans(const jdoc_query_iter *it, uint32_t *scanned, uint32_t *failed);

#endif
