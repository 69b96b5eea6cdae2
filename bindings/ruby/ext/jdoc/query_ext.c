/* SPDX-License-Identifier: MIT */
/*
 * JSONPath (RFC 9535) for Ruby: Jdoc::Query (a compiled query),
 * Jdoc::Doc#query and Jdoc.query. Init_jdoc_query is called by Init_jdoc_ext
 * (jdoc_ext.c) with the accessors of Jdoc::Doc it needs: the document's data
 * (checked open and on its thread) and its current value, and the conversion
 * of a jdoc_value to a Ruby object, so values come out exactly as from fetch.
 */
#include <ruby.h>
#include <ruby/encoding.h>
#include <string.h>
#include "jdoc.h"

/* Jdoc::Doc's data, defined in jdoc_ext.c; only pointers to it here. */
struct rdoc;
static VALUE mJdoc, cDoc, cQuery, ePathError;
static struct rdoc *(*doc_data)(VALUE doc);   /* raises unless open and on its thread */
static jdoc_value (*doc_here)(const struct rdoc *data);
static VALUE (*to_ruby)(jdoc_value v);

/* ---- Jdoc::Query ---- */

typedef struct rquery {
    jdoc_query *q;
    VALUE src;
} rquery;

static void query_mark(void *x) { rb_gc_mark(((rquery *)x)->src); }
static void query_free(void *x)
{
    jdoc_query_free(((rquery *)x)->q);
    xfree(x);
}
static size_t query_memsize(const void *x)
{
    const rquery *r = x;
    return sizeof *r + (r->src ? 16 * (size_t)RSTRING_LEN(r->src) : 0);
}
static const rb_data_type_t query_type = {
    "Jdoc::Query", { query_mark, query_free, query_memsize, 0, { 0 } }, 0, 0, RUBY_TYPED_FREE_IMMEDIATELY
};

static VALUE query_alloc(VALUE klass)
{
    rquery *r;
    VALUE self = TypedData_Make_Struct(klass, rquery, &query_type, r);
    r->src = Qnil;
    return self;
}

NORETURN(static void raise_query(VALUE text, const jdoc_error *e));
static void raise_query(VALUE text, const jdoc_error *e)
{
    if (e->code == JDOC_ERR_NOMEM)
        rb_memerror();
    VALUE msg = rb_sprintf("invalid JSONPath query %+" PRIsVALUE " at byte %zu: %s", text, e->offset, e->message);
    VALUE exc = rb_exc_new_str(ePathError, msg);
    rb_ivar_set(exc, rb_intern("@path"), text);
    rb_ivar_set(exc, rb_intern("@offset"), SIZET2NUM(e->offset));
    rb_exc_raise(exc);
}

/* Jdoc::Query.new('$[*].Id'): Jdoc::PathError (an ArgumentError, with #offset) when invalid. */
static VALUE query_initialize(VALUE self, VALUE text)
{
    rquery *r = rb_check_typeddata(self, &query_type);
    if (r->q)
        rb_raise(rb_eTypeError, "Jdoc::Query already initialized");
    StringValue(text);
    text = rb_str_new_frozen(text);
    jdoc_error e;
    r->q = jdoc_query_compile(RSTRING_PTR(text), (size_t)RSTRING_LEN(text), NULL, &e);
    if (!r->q)
        raise_query(text, &e);
    r->src = text;
    return self;
}

static rquery *query_get(VALUE self)
{
    rquery *r = rb_check_typeddata(self, &query_type);
    if (!r->q)
        rb_raise(rb_eTypeError, "uninitialized Jdoc::Query");
    return r;
}

static VALUE query_to_s(VALUE self) { return query_get(self)->src; }
static VALUE query_singular_p(VALUE self) { return jdoc_query_is_singular(query_get(self)->q) ? Qtrue : Qfalse; }
static VALUE query_inspect(VALUE self) { return rb_sprintf("#<Jdoc::Query %+" PRIsVALUE ">", query_get(self)->src); }

/* A Jdoc::Query, or a String compiled now (*tmp then holds it for the GC). */
static const jdoc_query *query_of(VALUE arg, VALUE *tmp)
{
    if (rb_typeddata_is_kind_of(arg, &query_type)) {
        *tmp = arg;
        return query_get(arg)->q;
    }
    if (!RB_TYPE_P(arg, T_STRING))
        rb_raise(rb_eTypeError, "wrong argument type %" PRIsVALUE " (expected String or Jdoc::Query)",
                 rb_obj_class(arg));
    *tmp = rb_class_new_instance(1, &arg, cQuery);
    return query_get(*tmp)->q;
}

/* ---- running a query ---- */

struct run {
    jdoc_query_iter *it;
    jdoc_value from;
    VALUE out;      /* Array of values, or Qnil when yielding */
    bool paths;     /* normalized paths instead of values (Doc#query_paths) */
};

static VALUE path_string(const jdoc_query_iter *it)
{
    char buf[256];
    size_t n = jdoc_query_iter_path(it, buf, sizeof buf);
    if (n < sizeof buf)
        return rb_utf8_str_new(buf, (long)n);
    VALUE s = rb_str_buf_new((long)n + 1);
    jdoc_query_iter_path(it, RSTRING_PTR(s), n + 1);
    rb_str_set_len(s, (long)n);
    rb_enc_associate(s, rb_utf8_encoding());
    return s;
}

static VALUE run_body(VALUE x)
{
    struct run *a = (struct run *)x;
    jdoc_value v;
    while (jdoc_query_iter_next(a->it, &v)) {
        if (NIL_P(a->out))
            rb_yield_values(2, to_ruby(v), path_string(a->it));
        else
            rb_ary_push(a->out, a->paths ? path_string(a->it) : to_ruby(v));
    }
    jdoc_status st = jdoc_query_iter_status(a->it);
    if (st == JDOC_ERR_NOMEM)
        rb_memerror();
    if (st != JDOC_OK)
        rb_raise(rb_const_get(mJdoc, rb_intern("ParseError")), "the query met a malformed document: %s",
                 jdoc_status_str(st));
    return NIL_P(a->out) ? Qnil : a->out;
}

static VALUE run_done(VALUE x)
{
    jdoc_query_iter_free(((struct run *)x)->it);
    return Qnil;
}

static VALUE run_query(const jdoc_query *q, jdoc_value from, bool yield, bool paths)
{
    jdoc_status st;
    struct run a = { NULL, from, yield ? Qnil : rb_ary_new(), paths };
    a.it = jdoc_query_iter_new(q, from, &st);
    if (!a.it) {
        if (st == JDOC_ERR_NOMEM)
            rb_memerror();
        rb_raise(rb_eArgError, "cannot run the query: %s", jdoc_status_str(st));
    }
    return rb_ensure(run_body, (VALUE)&a, run_done, (VALUE)&a);
}

/* doc.query('$[*].Names[0]') -> Array of values; with a block, yields each
 * value and its normalized path ('$[0][\'Names\'][0]') and returns nil. `$` is
 * the document's root. */
static VALUE doc_query(VALUE self, VALUE query)
{
    VALUE tmp;
    const jdoc_query *q = query_of(query, &tmp);
    jdoc_value here = doc_here(doc_data(self));
    VALUE res = run_query(q, jdoc_root(here.doc), rb_block_given_p(), false);
    RB_GC_GUARD(tmp);
    return res;
}

/* doc.query_paths('$..IPAddress') -> Array of normalized paths. */
static VALUE doc_query_paths(VALUE self, VALUE query)
{
    VALUE tmp;
    const jdoc_query *q = query_of(query, &tmp);
    jdoc_value here = doc_here(doc_data(self));
    VALUE res = run_query(q, jdoc_root(here.doc), false, true);
    RB_GC_GUARD(tmp);
    return res;
}

/* query.run(doc) is doc.query(query) */
static VALUE query_run(VALUE self, VALUE doc)
{
    query_get(self);
    if (rb_block_given_p())
        return rb_funcall_with_block(doc, rb_intern("query"), 1, &self, rb_block_proc());
    return doc_query(doc, self);
}

struct mquery {
    VALUE doc, query;
};

static VALUE mquery_body(VALUE x)
{
    struct mquery *a = (struct mquery *)x;
    return doc_query(a->doc, a->query);
}

static VALUE mquery_done(VALUE x)
{
    return rb_funcall(((struct mquery *)x)->doc, rb_intern("close"), 0);
}

/* Jdoc.query(json, '$..IPAddress') -> Array of values: parse, query, close. */
static VALUE m_query(VALUE mod, VALUE json, VALUE query)
{
    (void)mod;
    VALUE tmp;
    query_of(query, &tmp);   /* a bad query raises before anything is parsed */
    struct mquery a = { rb_funcall(cDoc, rb_intern("open"), 1, json), tmp };
    VALUE res = rb_ensure(mquery_body, (VALUE)&a, mquery_done, (VALUE)&a);
    RB_GC_GUARD(tmp);
    return res;
}

void Init_jdoc_query(VALUE module, VALUE doc_class, struct rdoc *(*data)(VALUE),
                     jdoc_value (*here)(const struct rdoc *), VALUE (*value)(jdoc_value));
void Init_jdoc_query(VALUE module, VALUE doc_class, struct rdoc *(*data)(VALUE),
                     jdoc_value (*here)(const struct rdoc *), VALUE (*value)(jdoc_value))
{
    mJdoc = module;
    cDoc = doc_class;
    doc_data = data;
    doc_here = here;
    to_ruby = value;
    ePathError = rb_const_get(mJdoc, rb_intern("PathError"));

    cQuery = rb_define_class_under(mJdoc, "Query", rb_cObject);
    rb_define_alloc_func(cQuery, query_alloc);
    rb_define_method(cQuery, "initialize", query_initialize, 1);
    rb_define_method(cQuery, "to_s", query_to_s, 0);
    rb_define_method(cQuery, "singular?", query_singular_p, 0);
    rb_define_method(cQuery, "inspect", query_inspect, 0);
    rb_define_method(cQuery, "run", query_run, 1);
    rb_define_method(cDoc, "query", doc_query, 1);
    rb_define_method(cDoc, "query_paths", doc_query_paths, 1);
    rb_define_singleton_method(mJdoc, "query", m_query, 2);
}
