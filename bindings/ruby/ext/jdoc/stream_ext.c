/* SPDX-License-Identifier: MIT */
/*
 * stream_ext.c - Jdoc::Stream: NDJSON or concatenated documents handed over
 * in pieces as they arrive (an HTTP client's read_body chunks, a socket), on
 * jdoc's feed API. Each complete document is yielded as a lazy view, valid
 * inside the block (or, with paths:, the values at those paths, which are
 * plain Ruby objects); damaged documents are reported (Jdoc::StreamError in
 * #errors and to on_error:) and reading goes on at the next line.
 */
#include "jdoc_ext.h"

/* The most recent errors #errors keeps (error_count counts them all): an
 * endless stream of damaged lines keeps its memory bounded. */
#define ERRORS_KEPT 100

static VALUE cStream, eStreamError, eError;
static ID id_on_error, id_strict, id_symbolize_names, id_paths, id_call, id_to_s, id_pointer_p, iv_offset, iv_line, iv_column, iv_path, iv_document,
    iv_start;

typedef struct rstream {
    jx_parser *pp;     /* NULL once the stream is over and its parser given back */
    jx_pool *home;     /* the pool pp came from (a counted reference) */
    VALUE chunk;       /* the last piece fed: jdoc reads it in place */
    VALUE token;       /* the document lent to the block now (jx_view_lend), or nil */
    VALUE on_error;    /* callable, or nil */
    VALUE errors;      /* Array of Jdoc::StreamError, the last ERRORS_KEPT */
    jdoc_path **paths; /* paths:, compiled once (npaths of them), or NULL */
    long npaths;
    size_t error_count;
    size_t docs;       /* documents read so far, damaged ones included */
    bool strict, sym, closed, busy;
} rstream;

/* rb_gc_mark (not the movable kind): jdoc holds a pointer into the chunk. */
static void stream_mark(void *x)
{
    rstream *s = x;
    rb_gc_mark(s->chunk);
    rb_gc_mark(s->token);
    rb_gc_mark(s->on_error);
    rb_gc_mark(s->errors);
}

/* The parser back to its pool; from the free function too: never raises. */
static void stream_release(rstream *s)
{
    if (s->pp)
        jx_checkin(s->home, s->pp, jx_parser_bytes(s->pp));
    s->pp = NULL;
    if (s->home)
        jx_pool_unref(s->home);
    s->home = NULL;
}

static void stream_free(void *x)
{
    rstream *s = x;
    stream_release(s);
    for (long i = 0; i < s->npaths; i++)
        jdoc_path_free(s->paths[i]);
    xfree(s->paths);
    xfree(s);
}

static size_t stream_memsize(const void *x)
{
    const rstream *s = x;
    return sizeof *s + (s->pp ? jx_parser_bytes(s->pp) : 0) + (size_t)s->npaths * 64;
}

static const rb_data_type_t stream_type = {
    "Jdoc::Stream", { stream_mark, stream_free, stream_memsize, 0, { 0 } }, 0, 0, RUBY_TYPED_FREE_IMMEDIATELY
};

static VALUE stream_alloc(VALUE klass)
{
    rstream *s;
    VALUE self = TypedData_Make_Struct(klass, rstream, &stream_type, s);
    s->chunk = s->token = s->on_error = s->errors = Qnil;
    return self;
}

/* The stream, not inside its own block (the document lent there points into
 * the parser, which a feed or a read would move on). */
static rstream *stream_get(VALUE self)
{
    rstream *s = rb_check_typeddata(self, &stream_type);
    if (NIL_P(s->errors))
        rb_raise(rb_eTypeError, "uninitialized Jdoc::Stream");
    if (s->busy)
        rb_raise(eError, "Jdoc::Stream used while it is yielding a document (from its own block or another thread)");
    return s;
}

/* paths: each a String (Oj syntax) or a Jdoc::Path, compiled into s. */
static void compile_paths(rstream *s, VALUE list)
{
    list = rb_Array(list);
    long n = RARRAY_LEN(list);
    s->paths = ZALLOC_N(jdoc_path *, n ? n : 1);
    for (long i = 0; i < n; i++) {
        VALUE e = RARRAY_AREF(list, i);
        jdoc_syntax syn = JDOC_SYNTAX_OJ;
        if (!RB_TYPE_P(e, T_STRING)) {
            if (!rb_obj_is_kind_of(e, rb_const_get(jx_module(), rb_intern("Path"))))
                rb_raise(rb_eTypeError, "wrong path type %" PRIsVALUE " (expected String or Jdoc::Path)", rb_obj_class(e));
            syn = RTEST(rb_funcall(e, id_pointer_p, 0)) ? JDOC_SYNTAX_POINTER : JDOC_SYNTAX_OJ;
            e = rb_funcall(e, id_to_s, 0);
        }
        e = jx_path_text(e);
        jdoc_status st;
        jdoc_path *p = jdoc_path_compile(RSTRING_PTR(e), (size_t)RSTRING_LEN(e), syn, &st);
        if (!p) {
            if (st == JDOC_ERR_NOMEM)
                rb_memerror();
            rb_raise(rb_const_get(jx_module(), rb_intern("PathError")), "malformed path %" PRIsVALUE, rb_inspect(e));
        }
        s->paths[s->npaths++] = p;
        RB_GC_GUARD(e);
    }
    RB_GC_GUARD(list);
}

/* Jdoc::Stream.new(paths: nil, on_error: nil, strict: false, symbolize_names: false) */
static VALUE stream_initialize(int argc, VALUE *argv, VALUE self)
{
    rstream *s = rb_check_typeddata(self, &stream_type);
    if (!NIL_P(s->errors))
        rb_raise(rb_eTypeError, "Jdoc::Stream already initialized");
    VALUE opts = Qnil, kw[4] = { Qundef, Qundef, Qundef, Qundef };
    ID ids[4] = { id_on_error, id_strict, id_symbolize_names, id_paths };
    rb_scan_args(argc, argv, "0:", &opts);
    if (!NIL_P(opts))
        rb_get_kwargs(opts, ids, 0, 4, kw);
    if (kw[3] != Qundef && !NIL_P(kw[3]))
        compile_paths(s, kw[3]);
    if (kw[0] != Qundef && !NIL_P(kw[0])) {
        if (!rb_respond_to(kw[0], id_call))
            rb_raise(rb_eTypeError, "on_error: must respond to call");
        RB_OBJ_WRITE(self, &s->on_error, kw[0]);
    }
    s->strict = kw[1] != Qundef && RTEST(kw[1]);
    s->sym = kw[2] != Qundef && RTEST(kw[2]);
    VALUE holder;
    jx_pool *pl = jx_get_pool(&holder);
    s->pp = jx_checkout(pl);
    s->home = pl;
    jx_pool_ref(pl);
    jdoc_status st = jdoc_feed_begin(jx_parser_of(s->pp));
    jx_parser_sync(s->pp);
    if (st == JDOC_ERR_NOMEM)
        rb_memerror();
    if (st != JDOC_OK)
        rb_raise(eError, "jdoc: %s", jdoc_status_str(st));
    RB_OBJ_WRITE(self, &s->errors, rb_ary_new());
    RB_GC_GUARD(holder);
    return self;
}

/* A damaged document: a Jdoc::StreamError with its number, the line it starts
 * on, its start and the byte offset of the error (both counted from the
 * stream's first byte); kept, passed to on_error:, raised when strict. */
static void report(VALUE self, rstream *s, jdoc_status st, VALUE exc)
{
    jdoc_parser *p = jx_parser_of(s->pp);
    const jdoc_error *e = jdoc_last_error(p);
    size_t num = jdoc_stream_count(p), line = jdoc_stream_line(p), start = jdoc_stream_offset(p);
    size_t off = start;
    VALUE m;
    if (NIL_P(exc)) {
        off = e->offset;
        const char *msg = e->code != JDOC_OK && e->message ? e->message : jdoc_status_str(st);
        m = rb_sprintf("document %llu (line %llu, byte %llu): %s at byte %llu", (unsigned long long)num,
                       (unsigned long long)line, (unsigned long long)start, msg, (unsigned long long)off);
    } else {   /* a value at one of the paths could not be read (its offset is in the document) */
        m = rb_sprintf("document %llu (line %llu, byte %llu): %" PRIsVALUE, (unsigned long long)num,
                       (unsigned long long)line, (unsigned long long)start, rb_funcall(exc, rb_intern("message"), 0));
    }
    VALUE err = rb_exc_new_str(eStreamError, m);
    rb_ivar_set(err, iv_document, SIZET2NUM(num));
    rb_ivar_set(err, iv_line, SIZET2NUM(line));
    rb_ivar_set(err, iv_start, SIZET2NUM(start));
    rb_ivar_set(err, iv_offset, SIZET2NUM(off));
    rb_ivar_set(err, iv_column, Qnil);
    rb_ivar_set(err, iv_path, Qnil);
    s->error_count++;
    if (RARRAY_LEN(s->errors) >= ERRORS_KEPT)
        rb_ary_shift(s->errors);
    rb_ary_push(s->errors, err);
    if (s->strict)
        rb_exc_raise(err);
    if (!NIL_P(s->on_error))
        rb_funcall(s->on_error, id_call, 1, err);
}

/* With paths: the value at each (Hash/Array for a container), nil where missing. */
struct row {
    rstream *s;
    jdoc_value root;
};

static VALUE row_of(VALUE x)
{
    struct row *r = (struct row *)x;
    VALUE res = rb_ary_new_capa(r->s->npaths);
    for (long i = 0; i < r->s->npaths; i++) {
        jdoc_value v;
        jdoc_status st = jdoc_fetch_path(r->root, r->s->paths[i], &v);
        if (st == JDOC_OK)
            rb_ary_push(res, jx_build(v, r->s->sym));
        else if (st == JDOC_ERR_NOT_FOUND || st == JDOC_ERR_DEPTH)
            rb_ary_push(res, Qnil);
        else if (st == JDOC_ERR_NOMEM)
            rb_memerror();
        else
            jx_raise_validate(r->root.doc);
    }
    return res;
}

/* Yield every document whose last byte has arrived; after the input ended
 * and the last one was read, the parser goes back to the pool. */
static VALUE drain_body(VALUE self)
{
    rstream *s = RTYPEDDATA_DATA(self);
    while (s->pp) {
        jdoc_doc *d;
        jdoc_status st;
        bool more = jdoc_feed_next(jx_parser_of(s->pp), &d, &st);
        jx_parser_sync(s->pp);
        s->docs = jdoc_stream_count(jx_parser_of(s->pp));
        if (!more) {
            if (s->closed)
                stream_release(s);
            break;
        }
        if (st != JDOC_OK) {
            report(self, s, st, Qnil);
            continue;
        }
        if (s->paths) {
            struct row r = { s, jdoc_root(d) };
            int state = 0;
            VALUE vals = rb_protect(row_of, (VALUE)&r, &state);
            if (state) {
                VALUE exc = rb_errinfo();
                if (!rb_obj_is_kind_of(exc, rb_const_get(jx_module(), rb_intern("ParseError"))))
                    rb_jump_tag(state);   /* NoMemoryError, Interrupt...: not the document's fault */
                rb_set_errinfo(Qnil);
                report(self, s, JDOC_ERR_SYNTAX, exc);
                continue;
            }
            rb_yield(vals);
            continue;
        }
        VALUE token;
        VALUE v = jx_view_lend(self, jdoc_root(d), s->sym, &token);
        RB_OBJ_WRITE(self, &s->token, token);
        rb_yield(v);
        jx_view_expire(s->token);
        s->token = Qnil;
    }
    return Qnil;
}

/* Also when the block raises or breaks: the lent document dies with it. */
static VALUE drain_done(VALUE self)
{
    rstream *s = RTYPEDDATA_DATA(self);
    if (!NIL_P(s->token))
        jx_view_expire(s->token);
    s->token = Qnil;
    s->busy = false;
    return Qnil;
}

static void drain(VALUE self, rstream *s)
{
    s->busy = true;
    rb_ensure(drain_body, self, drain_done, self);
}

/* each { |doc| }: each document complete so far, in order (nil after close
 * when everything was read). Without a block, an Enumerator. */
static VALUE stream_each(VALUE self)
{
    RETURN_ENUMERATOR(self, 0, 0);
    drain(self, stream_get(self));
    return self;
}

/* feed(chunk) / << chunk: the next bytes of the stream. With a block, feed
 * then each. The bytes are kept (a frozen copy-on-write String) as long as
 * jdoc may read them. */
static VALUE stream_feed(VALUE self, VALUE chunk)
{
    rstream *s = stream_get(self);
    if (s->closed)
        rb_raise(rb_eIOError, "Jdoc::Stream closed");
    VALUE input = jx_input_string(chunk);
    size_t n = (size_t)RSTRING_LEN(input);
    if (n > 0) {
        /* the previous piece stays referenced until jdoc_feed has copied what it still needs of it */
        jdoc_status st = jdoc_feed(jx_parser_of(s->pp), RSTRING_PTR(input), n);
        jx_parser_sync(s->pp);
        if (st == JDOC_ERR_NOMEM)
            rb_memerror();
        if (st != JDOC_OK)
            rb_raise(eError, "jdoc: cannot feed %llu bytes: %s", (unsigned long long)n, jdoc_status_str(st));
        RB_OBJ_WRITE(self, &s->chunk, input);
    }
    if (rb_block_given_p())
        drain(self, s);
    RB_GC_GUARD(input);
    return self;
}

/* close: the input ends (a last document without its newline is complete,
 * or damaged, now); with a block, the documents left are yielded. */
static VALUE stream_close(VALUE self)
{
    rstream *s = stream_get(self);
    if (!s->closed) {
        s->closed = true;
        jdoc_status st = jdoc_feed_close(jx_parser_of(s->pp));
        jx_parser_sync(s->pp);
        if (st != JDOC_OK)
            rb_raise(eError, "jdoc: %s", jdoc_status_str(st));
    }
    if (rb_block_given_p())
        drain(self, s);
    return self;
}

static VALUE stream_closed_p(VALUE self) { return stream_get(self)->closed ? Qtrue : Qfalse; }
static VALUE stream_errors(VALUE self) { return rb_ary_dup(stream_get(self)->errors); }
static VALUE stream_error_count(VALUE self) { return SIZET2NUM(stream_get(self)->error_count); }

/* document_count: documents read so far, damaged ones included */
static VALUE stream_document_count(VALUE self) { return SIZET2NUM(((rstream *)rb_check_typeddata(self, &stream_type))->docs); }

/* buffered: bytes the parser holds for the document in progress */
static VALUE stream_buffered(VALUE self)
{
    rstream *s = rb_check_typeddata(self, &stream_type);
    return SIZET2NUM(s->pp ? jdoc_feed_buffered(jx_parser_of(s->pp)) : 0);
}

void Init_jdoc_stream(void)
{
    VALUE mJdoc = jx_module();
    id_on_error = rb_intern("on_error");
    id_strict = rb_intern("strict");
    id_symbolize_names = rb_intern("symbolize_names");
    id_call = rb_intern("call");
    id_paths = rb_intern("paths");
    id_to_s = rb_intern("to_s");
    id_pointer_p = rb_intern("pointer?");
    iv_offset = rb_intern("@offset");
    iv_line = rb_intern("@line");
    iv_column = rb_intern("@column");
    iv_path = rb_intern("@path");
    iv_document = rb_intern("@document");
    iv_start = rb_intern("@start");
    eError = rb_const_get(mJdoc, rb_intern("Error"));
    VALUE eParseError = rb_const_get(mJdoc, rb_intern("ParseError"));
    eStreamError = rb_define_class_under(mJdoc, "StreamError", eParseError);
    rb_define_attr(eStreamError, "document", 1, 0);
    rb_define_attr(eStreamError, "start", 1, 0);

    cStream = rb_define_class_under(mJdoc, "Stream", rb_cObject);
    rb_define_alloc_func(cStream, stream_alloc);
    rb_include_module(cStream, rb_mEnumerable);
    rb_define_method(cStream, "initialize", stream_initialize, -1);
    rb_define_method(cStream, "feed", stream_feed, 1);
    rb_define_method(cStream, "<<", stream_feed, 1);
    rb_define_method(cStream, "each", stream_each, 0);
    rb_define_method(cStream, "close", stream_close, 0);
    rb_define_method(cStream, "closed?", stream_closed_p, 0);
    rb_define_method(cStream, "errors", stream_errors, 0);
    rb_define_method(cStream, "error_count", stream_error_count, 0);
    rb_define_method(cStream, "document_count", stream_document_count, 0);
    rb_define_method(cStream, "buffered", stream_buffered, 0);
}
