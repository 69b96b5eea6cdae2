/* SPDX-License-Identifier: MIT */
/*
 * jdoc_ext.h - what the parts of the Ruby extension share (internal; every
 * .c file of ext/jdoc is compiled into jdoc_ext.so, which exports only
 * Init_jdoc_ext). jdoc_ext.c holds the parser pool, value conversion, errors,
 * Jdoc::Path, Jdoc::Doc and Jdoc.fetch; each other part has an Init_ function
 * called from Init_jdoc_ext.
 */
#ifndef JDOC_EXT_H
#define JDOC_EXT_H

#include <ruby.h>
#include <ruby/encoding.h>
#include <stdbool.h>
#include <stddef.h>
#include "jdoc.h"

/* A pooled parser (its memory counted for the GC), and the per-fiber pool. */
typedef struct jx_parser jx_parser;
typedef struct jx_pool jx_pool;

/* The Jdoc module. */
VALUE jx_module(void);

/* A value's first byte: '{', '[', '"', a digit, '-', 't', 'f' or 'n'. */
static inline char jx_first_byte(jdoc_value v)
{
    size_t len;
    return jdoc_doc_input(v.doc, &len)[jdoc_offset(v)];
}

/* A scalar as a Ruby object; any value built as Hash/Array (Symbol keys when sym). */
VALUE jx_scalar_value(jdoc_value v);
VALUE jx_build(jdoc_value v, bool sym);
/* A member key: a frozen, deduplicated UTF-8 String. */
VALUE jx_key_string(const char *k, size_t n);

/* Jdoc::ParseError at byte `off` of json (`where`: the path of the value, or NULL). */
NORETURN(void jx_raise_parse(const char *json, size_t len, size_t off, const char *msg, const char *where));
/* The first error of document d, for a container that failed to iterate. */
NORETURN(void jx_raise_validate(const jdoc_doc *d));

/* A path or key String in UTF-8 (converted from another encoding, or refused). */
VALUE jx_path_text(VALUE expr);
/* A frozen private UTF-8 (or binary) copy of an input, shared copy-on-write. */
VALUE jx_input_string(VALUE json);
/* (arg, kw: false): the positional argument and whether the keyword is true. */
bool jx_arg_and_flag(int argc, const VALUE *argv, ID kw, VALUE *arg);

/* The current fiber's pool (*holder keeps it alive); a document that keeps a
 * parser holds a reference (jx_pool_ref) and gives the parser back with
 * jx_checkin (safe from a free function) before jx_pool_unref. */
jx_pool *jx_get_pool(VALUE *holder);
void jx_pool_ref(jx_pool *pl);
void jx_pool_unref(jx_pool *pl);
jx_parser *jx_checkout(jx_pool *pl);
void jx_checkin(jx_pool *pl, jx_parser *pp, size_t last_len);
/* Stage 1 (without the GVL above 64 KB: the input must then be frozen and pinned). */
jdoc_status jx_parse(jx_parser *pp, const char *s, size_t n, jdoc_doc **d);
const jdoc_error *jx_last_error(const jx_parser *pp);
size_t jx_parser_bytes(const jx_parser *pp);
/* The jdoc parser of a pooled one, for calls other than jx_parse (the feed
 * API); jx_parser_sync then tells the GC how its memory changed. */
jdoc_parser *jx_parser_of(jx_parser *pp);
void jx_parser_sync(jx_parser *pp);

/* A view (Jdoc::Object / Jdoc::Array, or the scalar) of a document lent for a
 * block: `keeper` is marked as long as the view lives; after
 * jx_view_expire(*token) every use of the view raises IOError. */
VALUE jx_view_lend(VALUE keeper, jdoc_value root, bool sym, VALUE *token);
void jx_view_expire(VALUE token);

void Init_jdoc_view(void);
void Init_jdoc_stream(void);

#endif /* JDOC_EXT_H */
