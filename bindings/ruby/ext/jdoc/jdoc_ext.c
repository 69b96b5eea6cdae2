/* SPDX-License-Identifier: MIT */
/*
 * jdoc_ext.c - the Ruby binding of jdoc: Jdoc::Doc (Oj::Doc's model and
 * results), Jdoc::Path (compiled paths) and Jdoc.fetch (one parse, many paths),
 * and what the other parts share (jdoc_ext.h): the per-fiber parser pool, value
 * conversion and errors.
 */
#include <ruby.h>
#include <ruby/encoding.h>
#include <ruby/thread.h>
#include <math.h>
#include <stdlib.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>
#include "jdoc.h"
#include "jdoc_ext.h"

/* Inputs larger than this are parsed without the GVL: other Ruby threads run meanwhile. */
#define NOGVL_BYTES (64u * 1024u)
/* Parsers kept per fiber for reuse: POOL_MAX always, up to POOL_SLOTS while
 * they hold less than POOL_BYTES together (documents collected by the GC come
 * back in batches: keeping them saves the next opens a malloc of their
 * buffers); and the largest input after which one is still kept (a parser
 * keeps buffers sized for the largest document it read). */
#define POOL_MAX 2
#define POOL_SLOTS 64
#define POOL_BYTES (4u << 20)
#define POOL_KEEP_BYTES (1u << 20)
/* String paths compiled by Jdoc.fetch and Doc#values_at, per fiber. */
#define PATH_CACHE_MAX 256
/* Deepest container nesting the parser accepts (jdoc_options.max_depth default). */
#define MAX_DEPTH JDOC_DEFAULT_MAX_DEPTH
/* Iterators kept on the C stack before a walk moves to a heap buffer. */
#define STACK_ITERS 32

static VALUE mJdoc, cDoc, cPath, cPool, eError, eParseError, ePathError;
static ID id_pool, id_pointer, id_oj_compat, id_alive_p, iv_offset, iv_line, iv_column, iv_path, iv_where;
static rb_encoding *enc_utf8, *enc_ascii, *enc_binary;
static int enc_utf8_index, enc_ascii_index, enc_binary_index;

/* Is the String in UTF-8, US-ASCII or ASCII-8BIT? Read from the object's
 * flags, without rb_enc_get's two calls; an index kept outside the flags
 * (ENCODING_INLINE_MAX) answers false, and the caller asks rb_enc_get. */
static inline bool utf8_compatible_index(VALUE str)
{
    int i = RB_ENCODING_GET_INLINED(str);
    return i == enc_utf8_index || i == enc_ascii_index || i == enc_binary_index;
}

/* ------------------------------------------------------------------------ */
/* Errors                                                                   */
/* ------------------------------------------------------------------------ */

static void line_col(const char *s, size_t len, size_t off, size_t *line, size_t *col)
{
    if (off > len)
        off = len;
    size_t l = 1, bol = 0;
    for (const char *p = s; (p = memchr(p, '\n', (size_t)(s + off - p))) != NULL; p++) {
        l++;
        bol = (size_t)(p - s) + 1;
    }
    *line = l;
    *col = off - bol + 1;
}

/* Jdoc::ParseError with the byte offset, its 1-based line and (byte) column,
 * and, for errors found at fetch, the path of the value where it is. */
NORETURN(static void raise_parse(const char *json, size_t len, size_t off, const char *msg, const char *where));
static void raise_parse(const char *json, size_t len, size_t off, const char *msg, const char *where)
{
    size_t line, col;
    line_col(json, len, off, &line, &col);
    VALUE m;
    if (where && *where)
        m = rb_sprintf("%s at %s (line %llu, column %llu, byte %llu)", msg, where, (unsigned long long)line,
                       (unsigned long long)col, (unsigned long long)off);
    else
        m = rb_sprintf("%s at line %llu, column %llu (byte %llu)", msg, (unsigned long long)line,
                       (unsigned long long)col, (unsigned long long)off);
    VALUE e = rb_exc_new_str(eParseError, m);
    rb_ivar_set(e, iv_offset, ULL2NUM(off));
    rb_ivar_set(e, iv_line, ULL2NUM(line));
    rb_ivar_set(e, iv_column, ULL2NUM(col));
    rb_ivar_set(e, iv_path, where && *where ? rb_utf8_str_new_cstr(where) : Qnil);
    rb_exc_raise(e);
}

/* The first error of document d (jdoc_validate), for a container that failed
 * to iterate: stage 1 checks brackets only, the rest is found when read. */
NORETURN(static void raise_validate(const jdoc_doc *d));
static void raise_validate(const jdoc_doc *d)
{
    size_t len;
    const char *json = jdoc_doc_input(d, &len);
    jdoc_status st = jdoc_validate(d);
    if (st == JDOC_ERR_NOMEM)
        rb_memerror();
    if (st == JDOC_OK)
        rb_raise(eError, "jdoc: iteration failed on a valid document (please report)");
    const jdoc_error *e = jdoc_last_error(jdoc_doc_parser(d));
    raise_parse(json, len, e->offset, e->message, NULL);
}

/* A value that could not be read (malformed number, bad escape, `tru`). */
NORETURN(static void raise_value(jdoc_value v));
static void raise_value(jdoc_value v)
{
    jdoc_error err;
    char where[1024];
    size_t len;
    const char *json = jdoc_doc_input(v.doc, &len);
    jdoc_status st = jdoc_explain(v, "", 0, JDOC_SYNTAX_OJ, &err, where, sizeof where);
    if (st == JDOC_ERR_NOMEM)
        rb_memerror();
    if (st == JDOC_OK)
        raise_validate(v.doc);
    raise_parse(json, len, err.offset, err.message, where);
}

/* A path argument: its text and syntax, and its compiled form for Jdoc::Path. */
typedef struct pref {
    const char *s;
    size_t len;
    jdoc_syntax syn;
    const jdoc_path *compiled;
    VALUE obj;
} pref;

static const char *syntax_name(jdoc_syntax s) { return s == JDOC_SYNTAX_POINTER ? "pointer" : "path"; }

/* Jdoc::PathError (an ArgumentError, as Oj::Doc#move raises) for a path that
 * leads nowhere, with jdoc_explain's reason and the path where it stopped. */
NORETURN(static void raise_not_found(jdoc_value from, const pref *pr));
static void raise_not_found(jdoc_value from, const pref *pr)
{
    jdoc_error err;
    char where[1024];
    size_t len;
    const char *json = jdoc_doc_input(from.doc, &len);
    jdoc_status st = jdoc_explain(from, pr->s, pr->len, pr->syn, &err, where, sizeof where);
    if (st == JDOC_ERR_NOMEM)
        rb_memerror();
    if (st == JDOC_ERR_SYNTAX || st == JDOC_ERR_STRING || st == JDOC_ERR_NUMBER)
        raise_parse(json, len, err.offset, err.message, where);
    VALUE text = rb_utf8_str_new(pr->s, (long)pr->len);
    VALUE m = rb_sprintf("%s %" PRIsVALUE ": %s at %s", syntax_name(pr->syn), rb_inspect(text),
                         st == JDOC_OK ? "not found" : err.message, where);
    VALUE e = rb_exc_new_str(ePathError, m);
    rb_ivar_set(e, iv_path, text);
    rb_ivar_set(e, iv_where, rb_utf8_str_new_cstr(where));
    rb_ivar_set(e, iv_offset, ULL2NUM(err.offset));
    rb_exc_raise(e);
}

NORETURN(static void raise_malformed_path(VALUE text, jdoc_syntax syn));
static void raise_malformed_path(VALUE text, jdoc_syntax syn)
{
    VALUE e = rb_exc_new_str(ePathError, rb_sprintf("malformed %s %" PRIsVALUE, syntax_name(syn), rb_inspect(text)));
    rb_ivar_set(e, iv_path, text);
    rb_ivar_set(e, iv_where, Qnil);
    rb_ivar_set(e, iv_offset, Qnil);
    rb_exc_raise(e);
}

/* A walk that failed other than by not finding: a malformed document on the
 * way, an undecodable key, a malformed path, memory. */
NORETURN(static void raise_walk(jdoc_value from, const pref *pr, jdoc_status st));
static void raise_walk(jdoc_value from, const pref *pr, jdoc_status st)
{
    if (st == JDOC_ERR_NOMEM)
        rb_memerror();
    if (st == JDOC_ERR_PATH)
        raise_malformed_path(rb_utf8_str_new(pr->s, (long)pr->len), pr->syn);
    if (st == JDOC_ERR_SYNTAX || st == JDOC_ERR_STRING || st == JDOC_ERR_NUMBER) {
        jdoc_error err;
        char where[1024];
        size_t len;
        const char *json = jdoc_doc_input(from.doc, &len);
        jdoc_status s2 = jdoc_explain(from, pr->s, pr->len, pr->syn, &err, where, sizeof where);
        if (s2 == JDOC_ERR_SYNTAX || s2 == JDOC_ERR_STRING || s2 == JDOC_ERR_NUMBER)
            raise_parse(json, len, err.offset, err.message, where);
        raise_validate(from.doc);
    }
    rb_raise(eError, "jdoc: %s", jdoc_status_str(st));
}

/* ------------------------------------------------------------------------ */
/* Values                                                                   */
/* ------------------------------------------------------------------------ */

static inline char first_byte(jdoc_value v)
{
    size_t len;
    return jdoc_doc_input(v.doc, &len)[jdoc_offset(v)];
}

static inline bool is_container(jdoc_value v)
{
    char c = first_byte(v);
    return c == '{' || c == '[';
}

/* Does the number token have no fraction and no exponent? */
static bool integer_syntax(jdoc_value v)
{
    const char *s;
    size_t n;
    if (jdoc_get_raw(v, &s, &n) != JDOC_OK)
        return false;
    for (size_t i = 0; i < n; i++)
        if (s[i] == '.' || s[i] == 'e' || s[i] == 'E')
            return false;
    return true;
}

static VALUE number_value(jdoc_value v)
{
    int64_t i;
    jdoc_status st = jdoc_get_int64(v, &i);
    if (st == JDOC_OK)
        return LL2NUM(i);
    if (st == JDOC_ERR_RANGE) {
        /* beyond int64: uint64, else a Bignum from the source text, exactly */
        uint64_t u;
        if (jdoc_get_uint64(v, &u) == JDOC_OK)
            return ULL2NUM(u);
        const char *s;
        size_t n;
        jdoc_get_raw(v, &s, &n);
        return rb_str_to_inum(rb_str_new(s, (long)n), 10, 1);
    }
    if (st == JDOC_ERR_TYPE) {
        double d;
        st = jdoc_get_double(v, &d);
        if (st == JDOC_OK)
            return DBL2NUM(d);
        if (st == JDOC_ERR_RANGE)   /* beyond double's range: as Float("1e400") */
            return DBL2NUM(first_byte(v) == '-' ? -HUGE_VAL : HUGE_VAL);
    }
    raise_value(v);
}

/* A new UTF-8 String. rb_utf8_str_new associates the encoding through
 * rb_enc_associate_index, which checks what a new String cannot have; setting
 * the encoding bits of a new binary String directly is the same object. */
static inline VALUE utf8_str(const char *s, size_t n)
{
    VALUE str = rb_str_new(s, (long)n);
    RB_ENCODING_SET_INLINED(str, enc_utf8_index);
    return str;
}

/* A scalar as a Ruby object, c its first byte. */
static VALUE scalar_of(jdoc_value v, char c)
{
    if (c == '"') {
        const char *s;
        size_t n;
        jdoc_status st = jdoc_get_string(v, &s, &n);
        if (st == JDOC_ERR_NOMEM)
            rb_memerror();
        if (st != JDOC_OK)
            raise_value(v);
        return utf8_str(s, n);
    }
    if (c == '-' || (c >= '0' && c <= '9'))
        return number_value(v);
    bool b;
    switch (jdoc_typeof(v)) {
    case JDOC_NULL: return Qnil;
    case JDOC_BOOL: jdoc_get_bool(v, &b); return b ? Qtrue : Qfalse;
    default: raise_value(v);
    }
}

static VALUE scalar_value(jdoc_value v) { return scalar_of(v, first_byte(v)); }

static inline VALUE key_string(const char *k, size_t n)
{
#ifdef HAVE_RB_ENC_INTERNED_STR
    return rb_enc_interned_str(k, (long)n, enc_utf8);   /* frozen and deduplicated, as JSON.parse's keys */
#else
    return rb_str_freeze(rb_utf8_str_new(k, (long)n));
#endif
}

/* Iterators for the walks below: STACK_ITERS on the C stack, then one heap
 * buffer for the deepest nesting the parser allows (freed by the GC if a
 * block or an allocation raises). */
typedef struct iters {
    jdoc_iter local[STACK_ITERS];
    jdoc_iter *it;
    size_t cap;
    VALUE tmp;
} iters;

static void iters_init(iters *s)
{
    s->it = s->local;
    s->cap = STACK_ITERS;
    s->tmp = 0;
}

static jdoc_iter *iters_at(iters *s, size_t i)
{
    if (i >= s->cap) {
        if (s->cap > MAX_DEPTH + 1)
            rb_raise(eError, "jdoc: nesting deeper than %u", (unsigned)MAX_DEPTH);
        jdoc_iter *big = rb_alloc_tmp_buffer_with_count(&s->tmp, (MAX_DEPTH + 2) * sizeof(jdoc_iter), MAX_DEPTH + 2);
        memcpy(big, s->local, sizeof s->local);
        s->it = big;
        s->cap = MAX_DEPTH + 2;
    }
    return &s->it[i];
}

static void iters_end(iters *s)
{
    if (s->tmp)
        rb_free_tmp_buffer(&s->tmp);
}

/* Any value as a Ruby object. Containers are built without recursion: each
 * one is attached to its parent as soon as it is made, so everything built is
 * reachable from the root (on this C stack), and the containers still being
 * filled are held in a Ruby Array, which the GC marks and may compact. */
static VALUE build(jdoc_value v, bool sym);
static VALUE value_of(jdoc_value v) { return build(v, false); }

/* value_of, with Symbol keys when `sym` (JSON.parse's symbolize_names). */
static VALUE build(jdoc_value v, bool sym)
{
    char c = first_byte(v);
    if (c != '{' && c != '[')
        return scalar_of(v, c);
    iters its;
    iters_init(&its);
    VALUE root = c == '{' ? rb_hash_new() : rb_ary_new();
    VALUE open = rb_ary_new();
    rb_ary_push(open, root);
    jdoc_iter_init(v, iters_at(&its, 0));
    long top = 0;
    while (top >= 0) {
        jdoc_iter *it = &its.it[top];
        jdoc_value e;
        if (!jdoc_iter_next(it, &e)) {
            if (it->status != JDOC_OK)
                raise_validate(v.doc);
            rb_ary_pop(open);
            top--;
            continue;
        }
        VALUE parent = RARRAY_AREF(open, top), key = Qnil, val;
        bool object = it->object;
        if (object) {
            const char *k;
            size_t kl;
            jdoc_status st = jdoc_iter_key(it, &k, &kl);
            if (st == JDOC_ERR_NOMEM)
                rb_memerror();
            if (st != JDOC_OK)
                raise_validate(v.doc);
            key = key_string(k, kl);
            if (sym)
                key = rb_str_intern(key);
        }
        char ec = first_byte(e);
        bool nested = ec == '{' || ec == '[';
        if (nested) {
            val = ec == '{' ? rb_hash_new() : rb_ary_new();
            jdoc_iter_init(e, iters_at(&its, (size_t)top + 1));   /* may move the iterators */
            rb_ary_push(open, val);
        } else {
            val = scalar_of(e, ec);
        }
        if (object)
            rb_hash_aset(parent, key, val);
        else
            rb_ary_push(parent, val);
        if (nested)
            top++;
    }
    iters_end(&its);
    RB_GC_GUARD(open);
    return root;
}

/* Oj::Doc#type: the Ruby class of the value, without building it. */
static VALUE class_of(jdoc_value v)
{
    bool b;
    switch (first_byte(v)) {
    case '{': return rb_cHash;
    case '[': return rb_cArray;
    case '"': return rb_cString;
    default: break;
    }
    switch (jdoc_typeof(v)) {
    case JDOC_NULL: return rb_cNilClass;
    case JDOC_BOOL: jdoc_get_bool(v, &b); return b ? rb_cTrueClass : rb_cFalseClass;
    case JDOC_INT: case JDOC_UINT: return rb_cInteger;
    case JDOC_DOUBLE: return integer_syntax(v) ? rb_cInteger : rb_cFloat;
    default: raise_value(v);
    }
}

/* Oj::Doc#size: the number of values (containers and scalars) in v. */
static size_t count_nodes(jdoc_value v)
{
    if (!is_container(v))
        return 1;
    iters its;
    iters_init(&its);
    size_t n = 1;
    long top = 0;
    jdoc_iter_init(v, iters_at(&its, 0));
    while (top >= 0) {
        jdoc_value e;
        if (!jdoc_iter_next(&its.it[top], &e)) {
            if (its.it[top].status != JDOC_OK)
                raise_validate(v.doc);
            top--;
            continue;
        }
        n++;
        if (is_container(e))
            jdoc_iter_init(e, iters_at(&its, (size_t)++top));
    }
    iters_end(&its);
    return n;
}

/* ------------------------------------------------------------------------ */
/* Parsers and their pool (per fiber)                                       */
/* ------------------------------------------------------------------------ */

/* A parser and the bytes its buffers hold. Its allocator counts them (maybe
 * without the GVL, during a large parse); gc_sync tells the GC the change
 * afterwards, so documents left to the GC weigh what they hold. */
struct jx_parser {
    jdoc_parser *p;
    size_t live;       /* bytes allocated by jdoc now */
    size_t reported;   /* bytes told to the GC (rb_gc_adjust_memory_usage) */
};
typedef jx_parser pparser;

/* Each block starts with its size, so that free and realloc can count. */
#define HDR 16

static void *count_malloc(void *ud, size_t size)
{
    if (size > SIZE_MAX - HDR)
        return NULL;
    char *b = malloc(size + HDR);
    if (!b)
        return NULL;
    memcpy(b, &size, sizeof size);
    ((pparser *)ud)->live += size;
    return b + HDR;
}

static void count_free(void *ud, void *ptr)
{
    if (!ptr)
        return;
    char *b = (char *)ptr - HDR;
    size_t old;
    memcpy(&old, b, sizeof old);
    ((pparser *)ud)->live -= old;
    free(b);
}

static void *count_realloc(void *ud, void *ptr, size_t size)
{
    if (!ptr)
        return count_malloc(ud, size);
    if (size > SIZE_MAX - HDR)
        return NULL;
    char *b = (char *)ptr - HDR;
    size_t old;
    memcpy(&old, b, sizeof old);
    char *nb = realloc(b, size + HDR);
    if (!nb)
        return NULL;
    memcpy(nb, &size, sizeof size);
    ((pparser *)ud)->live += size - old;   /* modular: a shrink subtracts */
    return nb + HDR;
}

static void gc_sync(pparser *pp)
{
    if (pp->live != pp->reported) {
        rb_gc_adjust_memory_usage((ssize_t)(pp->live - pp->reported));
        pp->reported = pp->live;
    }
}

static pparser *pparser_new(void)
{
    pparser *pp = calloc(1, sizeof *pp);
    if (!pp)
        rb_memerror();
    jdoc_allocator a = { count_malloc, count_realloc, count_free, pp };
    jdoc_options o = { .allocator = &a };
    jdoc_status st;
    pp->p = jdoc_parser_new_ex(&o, &st);
    if (!pp->p) {
        free(pp);
        if (st == JDOC_ERR_NOMEM)
            rb_memerror();
        rb_raise(eError, "jdoc: cannot create a parser: %s (is JDOC_KERNEL set to a kernel this CPU lacks?)",
                 jdoc_status_str(st));
    }
    gc_sync(pp);
    return pp;
}

/* Also from a document's free function, during GC: never raises or allocates. */
static void pparser_free(pparser *pp)
{
    if (!pp)
        return;
    jdoc_parser_free(pp->p);
    if (pp->reported)
        rb_gc_adjust_memory_usage(-(ssize_t)pp->reported);
    free(pp);
}

/* The pool outlives its Ruby object while documents still hold a reference:
 * a document collected without close gives its parser back to the pool of
 * the fiber that opened it, or frees it once that fiber is gone. */
struct jx_pool {
    pparser *p[POOL_SLOTS];
    int n;
    size_t bytes;      /* held by the parsers in p */
    int refs;          /* the Ruby object (until freed) and each open document */
    bool orphan;       /* the Ruby object was freed */
    pparser *fetch;    /* Jdoc.fetch's own parser: no checkout, no rb_ensure */
    VALUE cache;       /* Hash: Oj path String -> Jdoc::Path */
    struct pcache *pc; /* Doc#fetch's String paths, compiled (NULL until used) */
};
typedef jx_pool pool;

/* The String paths of Doc#fetch and the other (path = nil) methods, compiled
 * once: a direct-mapped table keyed by the path's bytes, in C memory (no Ruby
 * object, no GC work; a miss costs one jdoc_path_compile, about what
 * jdoc_fetch spends parsing the path each time). It lives in the pool struct,
 * which every open document of the pool holds a reference to, so a document
 * used from another fiber of its thread (or adopted by another thread after
 * its owner died) still finds it; it is only read and written with the GVL
 * held, by code that neither calls Ruby nor releases the GVL. */
#define PC_SLOTS 64
#define PC_KEY 56
struct pcache {
    struct pc_entry {
        jdoc_path *p;
        uint32_t len;
        char key[PC_KEY];
    } e[PC_SLOTS];
};

static inline unsigned pc_slot(const char *s, size_t n)
{
    uint64_t a = 0, b = 0;
    memcpy(&a, s, n < 8 ? n : 8);
    if (n > 8)
        memcpy(&b, s + n - 8, 8);
    uint64_t h = (a * 0x9E3779B97F4A7C15ull) ^ (b * 0xC2B2AE3D27D4EB4Full) ^ ((uint64_t)n * 0x165667B19E3779F9ull);
    return (unsigned)(h >> 58);   /* 6 bits: PC_SLOTS */
}

/* The compiled form of Oj path s[0..n) (no NUL inside), or NULL when it is
 * not cached (too long, empty, malformed, or out of memory): the caller then
 * takes jdoc_fetch, which gives the same answer and the same error. Never
 * raises or allocates Ruby objects. */
static const jdoc_path *pc_get(pool *pl, const char *s, size_t n)
{
    if (n == 0 || n > PC_KEY)
        return NULL;
    if (!pl->pc && !(pl->pc = calloc(1, sizeof *pl->pc)))
        return NULL;
    struct pc_entry *e = &pl->pc->e[pc_slot(s, n)];
    if (e->p && e->len == n && memcmp(e->key, s, n) == 0)
        return e->p;
    jdoc_path *p = jdoc_path_compile(s, n, JDOC_SYNTAX_OJ, NULL);
    if (!p)
        return NULL;
    jdoc_path_free(e->p);
    e->p = p;
    e->len = (uint32_t)n;
    memcpy(e->key, s, n);
    return p;
}

static void pc_free(struct pcache *pc)
{
    if (!pc)
        return;
    for (int i = 0; i < PC_SLOTS; i++)
        jdoc_path_free(pc->e[i].p);
    free(pc);
}

static void pool_unref(pool *pl)
{
    if (--pl->refs == 0) {
        pc_free(pl->pc);
        xfree(pl);
    }
}

static void pool_mark(void *x) { rb_gc_mark(((pool *)x)->cache); }

static void pool_free(void *x)
{
    pool *pl = x;
    for (int i = 0; i < pl->n; i++)
        pparser_free(pl->p[i]);
    pl->n = 0;
    pparser_free(pl->fetch);
    pl->fetch = NULL;
    pl->orphan = true;
    pool_unref(pl);
}

static size_t pool_memsize(const void *x)
{
    const pool *pl = x;
    size_t n = sizeof *pl;
    for (int i = 0; i < pl->n; i++)
        n += pl->p[i]->live;
    if (pl->fetch)
        n += pl->fetch->live;
    if (pl->pc)
        n += sizeof *pl->pc;   /* and its compiled paths, small */
    return n;
}

static const rb_data_type_t pool_type = {
    "Jdoc::ParserPool", { pool_mark, pool_free, pool_memsize, 0, { 0 } }, 0, 0, RUBY_TYPED_FREE_IMMEDIATELY
};

/* The current fiber's pool (Thread#[] is fiber-local): parsers are never
 * shared between threads (or Ractors), so parsing may run without the GVL. */
static pool *get_pool(VALUE *holder)
{
    VALUE th = rb_thread_current();
    VALUE v = rb_thread_local_aref(th, id_pool);
    if (!rb_typeddata_is_kind_of(v, &pool_type)) {
        pool *pl = ZALLOC(pool);
        pl->cache = Qnil;
        pl->refs = 1;
        v = TypedData_Wrap_Struct(cPool, &pool_type, pl);
        RB_OBJ_WRITE(v, &pl->cache, rb_hash_new());
        rb_thread_local_aset(th, id_pool, v);
    }
    *holder = v;
    return RTYPEDDATA_DATA(v);
}

static pparser *checkout(pool *pl)
{
    if (pl->n > 0) {
        pparser *pp = pl->p[--pl->n];
        pl->bytes -= pp->live;
        return pp;
    }
    return pparser_new();
}

/* Never raises or allocates Ruby objects (called from free functions). */
static void checkin(pool *pl, pparser *pp, size_t last_len)
{
    if (pl && !pl->orphan && last_len <= POOL_KEEP_BYTES &&
        (pl->n < POOL_MAX || (pl->n < POOL_SLOTS && pl->bytes + pp->live <= POOL_BYTES))) {
        gc_sync(pp);
        pl->bytes += pp->live;
        pl->p[pl->n++] = pp;
    } else {
        pparser_free(pp);
    }
}

struct parse_call {
    jdoc_parser *p;
    const char *s;
    size_t n;
    jdoc_doc *d;
    jdoc_status st;
};

static void *parse_nogvl(void *x)
{
    struct parse_call *a = x;
    a->st = jdoc_parse(a->p, a->s, a->n, &a->d);
    return NULL;
}

/* Stage 1 of s[0..n). Above NOGVL_BYTES the caller must hold a frozen private
 * input marked (so pinned) by its owner: the parser is this fiber's own, so a
 * large parse lets the GVL go. */
static jdoc_status parse(pparser *pp, const char *s, size_t n, jdoc_doc **d)
{
    struct parse_call a = { pp->p, s, n, NULL, JDOC_OK };
    if (a.n > NOGVL_BYTES)
        rb_thread_call_without_gvl(parse_nogvl, &a, NULL, NULL);
    else
        parse_nogvl(&a);
    gc_sync(pp);
    *d = a.d;
    return a.st;
}

/* The input's bytes in UTF-8 (or binary): a string in another encoding
 * (UTF-16, ISO-8859-1, ...) is converted first. */
static VALUE utf8_input(VALUE json)
{
    StringValue(json);
    if (utf8_compatible_index(json))
        return json;
    rb_encoding *e = rb_enc_get(json);
    if (e != enc_utf8 && e != enc_ascii && e != enc_binary)
        json = rb_str_encode(json, rb_enc_from_encoding(enc_utf8), 0, Qnil);
    return json;
}

/* A frozen private string with the input's bytes: jdoc reads it in place for
 * as long as the document lives. rb_str_new_frozen shares the caller's buffer
 * copy-on-write: mutating the caller's string later copies it first, so what
 * the document reads never changes. */
static VALUE input_string(VALUE json) { return rb_str_new_frozen(utf8_input(json)); }

/* ------------------------------------------------------------------------ */
/* Jdoc::Path                                                               */
/* ------------------------------------------------------------------------ */

typedef struct rpath {
    jdoc_path *p;
    VALUE src;
    jdoc_syntax syn;
} rpath;

static void path_mark(void *x) { rb_gc_mark(((rpath *)x)->src); }

static void path_free(void *x)
{
    rpath *rp = x;
    jdoc_path_free(rp->p);
    xfree(rp);
}

static size_t path_memsize(const void *x)
{
    const rpath *rp = x;
    /* jdoc_path_compile: the struct, one step per byte plus one, the keys */
    size_t len = rp->src ? (size_t)RSTRING_LEN(rp->src) : 0;
    return sizeof *rp + 64 + (len + 1) * 40 + len;
}

static const rb_data_type_t path_type = {
    "Jdoc::Path", { path_mark, path_free, path_memsize, 0, { 0 } }, 0, 0,
    RUBY_TYPED_FREE_IMMEDIATELY | RUBY_TYPED_FROZEN_SHAREABLE
};

static VALUE path_alloc(VALUE klass)
{
    rpath *rp;
    VALUE self = TypedData_Make_Struct(klass, rpath, &path_type, rp);
    rp->src = Qnil;
    return self;
}

/* A path's text in UTF-8: one in another encoding (UTF-16, ...) is converted,
 * and one that cannot be is refused (Encoding::UndefinedConversionError), so
 * that its bytes never go to jdoc as they are. */
static VALUE path_text(VALUE expr)
{
    if (utf8_compatible_index(expr))
        return expr;
    rb_encoding *e = rb_enc_get(expr);
    if (e == enc_utf8 || e == enc_ascii || e == enc_binary)
        return expr;
    if (rb_enc_asciicompat(e) && rb_enc_str_asciionly_p(expr))
        return expr;
    return rb_str_encode(expr, rb_enc_from_encoding(enc_utf8), 0, Qnil);
}

static void path_setup(VALUE self, VALUE expr, jdoc_syntax syn)
{
    rpath *rp = rb_check_typeddata(self, &path_type);
    if (rp->p)
        rb_raise(rb_eTypeError, "Jdoc::Path already initialized");
    StringValue(expr);
    expr = path_text(expr);
    jdoc_status st;
    rp->p = jdoc_path_compile(RSTRING_PTR(expr), (size_t)RSTRING_LEN(expr), syn, &st);
    if (!rp->p) {
        if (st == JDOC_ERR_NOMEM)
            rb_memerror();
        raise_malformed_path(rb_str_dup(expr), syn);
    }
    rp->syn = syn;
    RB_OBJ_WRITE(self, &rp->src, rb_str_new_frozen(expr));
    rb_obj_freeze(self);
}

/* (arg, kw: false): the one positional argument into *arg, and whether the
 * one keyword `kw` is true. One argument and no keywords takes no hash. */
static bool arg_and_flag(int argc, const VALUE *argv, ID kw, VALUE *arg)
{
    if (argc == 1 && !rb_keyword_given_p()) {
        *arg = argv[0];
        return false;
    }
    VALUE opts = Qnil, v = Qundef;
    rb_scan_args(argc, argv, "1:", arg, &opts);
    if (!NIL_P(opts))
        rb_get_kwargs(opts, &kw, 0, 1, &v);
    return v != Qundef && RTEST(v);
}

/* Jdoc::Path.new(expr, pointer: false) */
static VALUE path_initialize(int argc, VALUE *argv, VALUE self)
{
    VALUE expr;
    bool ptr = arg_and_flag(argc, argv, id_pointer, &expr);
    path_setup(self, expr, ptr ? JDOC_SYNTAX_POINTER : JDOC_SYNTAX_OJ);
    return self;
}

static rpath *path_get(VALUE self)
{
    rpath *rp = rb_check_typeddata(self, &path_type);
    if (!rp->p)
        rb_raise(rb_eTypeError, "uninitialized Jdoc::Path");
    return rp;
}

static VALUE path_to_s(VALUE self) { return path_get(self)->src; }
static VALUE path_pointer_p(VALUE self) { return path_get(self)->syn == JDOC_SYNTAX_POINTER ? Qtrue : Qfalse; }

static VALUE path_inspect(VALUE self)
{
    rpath *rp = path_get(self);
    return rb_sprintf("#<Jdoc::Path %" PRIsVALUE "%s>", rb_inspect(rp->src),
                      rp->syn == JDOC_SYNTAX_POINTER ? " pointer" : "");
}

static VALUE path_eql(VALUE self, VALUE other)
{
    if (!rb_typeddata_is_kind_of(other, &path_type))
        return Qfalse;
    rpath *a = path_get(self), *b = path_get(other);
    return a->syn == b->syn && rb_str_equal(a->src, b->src) == Qtrue ? Qtrue : Qfalse;
}

static VALUE path_hash(VALUE self)
{
    rpath *rp = path_get(self);
    return rb_hash(rb_assoc_new(rp->src, INT2FIX((int)rp->syn)));
}

/* The compiled Jdoc::Path for an argument: itself, or a String in Oj syntax
 * compiled once per fiber. The cache is only trimmed between calls, so the
 * Path objects a call uses stay referenced until it returns. */
static VALUE path_for(pool *pl, VALUE arg)
{
    if (rb_typeddata_is_kind_of(arg, &path_type))
        return arg;
    if (!RB_TYPE_P(arg, T_STRING))
        rb_raise(rb_eTypeError, "wrong argument type %" PRIsVALUE " (expected String or Jdoc::Path)",
                 rb_obj_class(arg));
    VALUE hit = rb_hash_lookup2(pl->cache, arg, Qundef);
    if (hit != Qundef)
        return hit;
    VALUE p = path_alloc(cPath);
    path_setup(p, arg, JDOC_SYNTAX_OJ);
    rb_hash_aset(pl->cache, arg, p);
    return p;
}

static void trim_cache(pool *pl, int more)
{
    if (RHASH_SIZE(pl->cache) + (size_t)more > PATH_CACHE_MAX)
        rb_hash_clear(pl->cache);
}

/* StringValueCStr of a path from path_text (one byte per code unit): what
 * rb_string_value_cstr checks (no NUL inside, a NUL after the last byte),
 * without its rb_enc_get; a String that fails either check goes through
 * StringValueCStr itself, which raises or writes the terminator as before. */
static inline const char *path_cstr(VALUE path)
{
    const char *s = RSTRING_PTR(path);
    long n = RSTRING_LEN(path);
    if (utf8_compatible_index(path) && s && !memchr(s, 0, (size_t)n) && s[n] == '\0')
        return s;
    return StringValueCStr(path);
}

static void pref_of(VALUE path, jdoc_syntax str_syn, pref *pr)
{
    pr->obj = path;
    if (RB_TYPE_P(path, T_STRING)) {
        path = pr->obj = path_text(path);   /* kept alive by pr, on the caller's stack */
        /* the Oj functions take NUL-terminated paths; pointers have a length */
        pr->s = str_syn == JDOC_SYNTAX_OJ ? path_cstr(path) : RSTRING_PTR(path);
        pr->len = (size_t)RSTRING_LEN(path);
        pr->syn = str_syn;
        pr->compiled = NULL;
    } else if (rb_typeddata_is_kind_of(path, &path_type)) {
        rpath *rp = path_get(path);
        pr->s = RSTRING_PTR(rp->src);
        pr->len = (size_t)RSTRING_LEN(rp->src);
        pr->syn = rp->syn;
        pr->compiled = rp->p;
    } else {
        rb_raise(rb_eTypeError, "wrong argument type %" PRIsVALUE " (expected String or Jdoc::Path)",
                 rb_obj_class(path));
    }
}

/* ------------------------------------------------------------------------ */
/* Jdoc::Doc                                                                */
/* ------------------------------------------------------------------------ */

typedef struct rdoc {
    pparser *pp;        /* NULL once closed, and for a document with no root */
    jdoc_doc *d;        /* NULL once closed, and for a document with no root */
    jdoc_cursor *c;     /* made on the first move; NULL means "at the root" */
    pool *home;         /* the pool pp came from (a counted reference) */
    VALUE input;        /* the frozen string jdoc reads in place */
    VALUE owner;        /* the Thread that opened (or adopted) the document */
    size_t len;
    long long nodes;    /* size of the whole document, -1 until counted */
    bool closed;
    bool compat;        /* oj_compat: Oj::Doc's answers where they differ */
    bool empty;         /* oj_compat: no root (empty, whitespace, comments) */
} rdoc;

/* rb_gc_mark (not the movable kind): the input is pinned, since jdoc holds
 * a pointer into it, which compaction must not move (short strings are
 * embedded in their object). */
static void doc_mark(void *x)
{
    rdoc *r = x;
    rb_gc_mark(r->input);
    rb_gc_mark(r->owner);
}

/* The cursor and the parser back to `to` (its fiber's pool, or freed); from
 * close, and from the free function during GC: never raises. */
static void doc_release(rdoc *r, pool *to)
{
    if (r->c)
        jdoc_cursor_free(r->c);
    r->c = NULL;
    if (r->pp)
        checkin(to, r->pp, r->len);
    r->pp = NULL;
    r->d = NULL;
    if (r->home)
        pool_unref(r->home);
    r->home = NULL;
    r->closed = true;
}

static void doc_free(void *x)
{
    rdoc *r = x;
    doc_release(r, r->home);
    xfree(r);
}

static size_t doc_memsize(const void *x)
{
    const rdoc *r = x;   /* the parser's buffers and the cursor; the input is counted by its String */
    return sizeof *r + (r->pp ? r->pp->live : 0);
}

static const rb_data_type_t doc_type = {
    "Jdoc::Doc", { doc_mark, doc_free, doc_memsize, 0, { 0 } }, 0, 0, RUBY_TYPED_FREE_IMMEDIATELY
};

NORETURN(static void raise_closed(void));
static void raise_closed(void) { rb_raise(rb_eIOError, "Jdoc::Doc already closed"); }

/* The document belongs to the current thread, or its owner is dead and the
 * current thread takes it over (then nothing else can use its parser). */
static void check_owner(VALUE self, rdoc *r, const char *what)
{
    VALUE th = rb_thread_current();
    if (r->owner == th)
        return;
    if (RTEST(rb_funcall(r->owner, id_alive_p, 0)))
        rb_raise(rb_eThreadError, "Jdoc::Doc %s from a thread other than the one that opened it", what);
    RB_OBJ_WRITE(self, &r->owner, th);
}

/* The open document of self, on the thread that opened it. Cursors and the
 * decoding of escaped strings write to the parser: a document is confined to
 * its thread. */
static inline rdoc *doc_get(VALUE self)
{
    rdoc *r = rb_check_typeddata(self, &doc_type);
    if (r->closed)
        raise_closed();
    if (r->owner != rb_thread_current())
        check_owner(self, r, "used");
    return r;
}

static jdoc_cursor *cursor(rdoc *r)
{
    if (!r->c) {
        r->c = jdoc_cursor_new(r->d);
        if (!r->c)
            rb_memerror();
        gc_sync(r->pp);
    }
    return r->c;
}

static inline jdoc_value here(const rdoc *r) { return r->c ? jdoc_cursor_value(r->c) : jdoc_root(r->d); }

static bool has_dotdot(const char *s, size_t n)
{
    for (const char *p = s; n > 1 && (p = memchr(p, '.', n - 1 - (size_t)(p - s))) != NULL; p++)
        if (p[1] == '.')
            return true;
    return false;
}

/* Find the path of `pr` (from pref_of; obj nil for "here") from the current
 * position: true and *out when found, false when it leads nowhere; raises
 * for a malformed document or path. */
static bool lookup(rdoc *r, const pref *pr, jdoc_value *out)
{
    if (NIL_P(pr->obj)) {
        *out = here(r);
        return true;
    }
    jdoc_status st;
    if (pr->compiled)
        st = jdoc_fetch_path(here(r), pr->compiled, out);
    else if (pr->syn == JDOC_SYNTAX_POINTER)
        st = jdoc_pointer(here(r), pr->s, pr->len, out);
    else if (r->c && has_dotdot(pr->s, pr->len))
        st = jdoc_cursor_fetch(r->c, pr->s, out);   /* ".." climbs the cursor's path */
    else {
        /* the same answer; jdoc_fetch's member search is faster than the
         * cursor's, and jdoc_fetch is jdoc__path_parse + the walk that
         * jdoc_fetch_path does with the compiled steps */
        const jdoc_path *cp = r->home ? pc_get(r->home, pr->s, pr->len) : NULL;
        st = cp ? jdoc_fetch_path(here(r), cp, out) : jdoc_fetch(here(r), pr->s, out);
    }
    if (st == JDOC_OK)
        return true;
    if (st == JDOC_ERR_NOT_FOUND || st == JDOC_ERR_DEPTH)
        return false;
    raise_walk(here(r), pr, st);
}

/* Put cursor c on value t: down from the root, at each level into the child
 * whose source span holds t's first byte. */
static jdoc_status cursor_goto(jdoc_cursor *c, jdoc_value t)
{
    size_t toff = jdoc_offset(t);
    jdoc_cursor_home(c);
    while (jdoc_cursor_value(c).idx != t.idx) {
        jdoc_status st = jdoc_cursor_first_child(c);
        for (;;) {
            if (st != JDOC_OK)
                return st;
            jdoc_value ch = jdoc_cursor_value(c);
            const char *s;
            size_t n, off = jdoc_offset(ch);
            jdoc_get_raw(ch, &s, &n);
            if (toff >= off && toff < off + n)
                break;
            st = jdoc_cursor_next_sibling(c);
        }
    }
    return JDOC_OK;
}

/* Back to value v at depth `depth`: up when the block went below it (cheap),
 * from the root when it went elsewhere. */
static void restore_to(rdoc *r, jdoc_value v, size_t depth)
{
    jdoc_cursor *c = r->c;
    while (jdoc_cursor_depth(c) > depth)
        jdoc_cursor_up(c);
    if (jdoc_cursor_depth(c) == depth && jdoc_cursor_value(c).idx == v.idx)
        return;
    jdoc_status st = cursor_goto(c, v);
    if (st == JDOC_ERR_NOMEM)
        rb_memerror();
    if (st != JDOC_OK)
        raise_validate(r->d);
}

/* Move the cursor along `path`: false (cursor unchanged) when it leads nowhere. */
static bool move_to(rdoc *r, const pref *pr)
{
    if (r->empty)
        return false;
    jdoc_cursor *c = cursor(r);
    jdoc_value v;
    jdoc_status st;
    if (!pr->compiled) {
        st = jdoc_cursor_move(c, pr->s);
        if (st == JDOC_OK)
            return true;
        if (st != JDOC_ERR_NOT_FOUND && st != JDOC_ERR_DEPTH)
            raise_walk(here(r), pr, st);
    } else if (lookup(r, pr, &v)) {
        st = cursor_goto(c, v);
        if (st != JDOC_OK)
            raise_walk(here(r), pr, st);
        return true;
    }
    return false;
}

/* oj_compat: what Oj::Doc reads and JSON does not. A UTF-8 BOM and comments
 * outside strings (slash-star to star-slash, `//` and `#` to the end of the
 * line) become spaces in a private copy of the same length, so offsets stay
 * those of the input. Returns the input itself when there is nothing to blank;
 * a ParseError for a comment that does not end. */
static VALUE compat_clean(VALUE input)
{
    const char *s = RSTRING_PTR(input);
    size_t n = (size_t)RSTRING_LEN(input);
    bool bom = n >= 3 && memcmp(s, "\xEF\xBB\xBF", 3) == 0;
    if (!bom && !memchr(s, '#', n) && !memmem(s, n, "//", 2) && !memmem(s, n, "/*", 2))
        return input;
    VALUE out = rb_str_new(s, (long)n);
    char *w = RSTRING_PTR(out);
    s = RSTRING_PTR(input);
    if (bom)
        memset(w, ' ', 3);
    bool in_string = false;
    for (size_t i = bom ? 3 : 0; i < n; i++) {
        char c = s[i];
        if (in_string) {
            if (c == '\\')
                i++;
            else if (c == '"')
                in_string = false;
            continue;
        }
        size_t end;
        if (c == '"') {
            in_string = true;
            continue;
        } else if (c == '#' || (c == '/' && i + 1 < n && s[i + 1] == '/')) {
            const char *nl = memchr(s + i, '\n', n - i);
            end = nl ? (size_t)(nl - s) : n;
        } else if (c == '/' && i + 1 < n && s[i + 1] == '*') {
            const char *star = i + 2 < n ? memmem(s + i + 2, n - i - 2, "*/", 2) : NULL;
            if (!star)
                raise_parse(s, n, i, "comment not terminated", NULL);
            end = (size_t)(star - s) + 2;
        } else {
            continue;
        }
        memset(w + i, ' ', end - i);
        i = end - 1;
    }
    return rb_str_new_frozen(out);
}

static bool blank(const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (s[i] != ' ' && s[i] != '\t' && s[i] != '\n' && s[i] != '\r')
            return false;
    return true;
}

/* Doc.open(json, oj_compat: false) { |doc| ... } / Doc.open(json) */
static VALUE doc_close(VALUE self);

/* The end of the block form, on the fiber that opened the document: the
 * parser goes back to that fiber's pool, without looking the pool up. */
static VALUE doc_close_home(VALUE self)
{
    rdoc *r = RTYPEDDATA_DATA(self);
    if (r->closed || r->owner != rb_thread_current() || !r->home || r->home->orphan)
        return doc_close(self);
    doc_release(r, r->home);
    RB_OBJ_WRITE(self, &r->input, Qnil);
    return Qnil;
}

static VALUE doc_s_open(int argc, VALUE *argv, VALUE klass)
{
    VALUE json, holder;
    bool compat = arg_and_flag(argc, argv, id_oj_compat, &json);
    VALUE input = input_string(json);
    if (compat)
        input = compat_clean(input);
    const char *s = RSTRING_PTR(input);
    size_t len = (size_t)RSTRING_LEN(input);
    rdoc *r;
    VALUE self = TypedData_Make_Struct(klass, rdoc, &doc_type, r);
    RB_OBJ_WRITE(self, &r->input, input);
    RB_OBJ_WRITE(self, &r->owner, rb_thread_current());
    r->nodes = -1;
    r->len = len;
    r->compat = compat;
    pool *pl = get_pool(&holder);
    r->pp = checkout(pl);
    r->home = pl;
    pl->refs++;
    jdoc_doc *d;
    jdoc_status st = parse(r->pp, s, len, &d);
    if (st != JDOC_OK && compat) {
        const jdoc_error *e = jdoc_last_error(r->pp->p);
        size_t off = e->offset;
        /* text after a value that ended (after a space, a bracket or a quote) */
        bool after = e->code == JDOC_ERR_SYNTAX && off > 0 && off < len && memchr(" \t\r\n]}\"", s[off - 1], 7);
        if (blank(s, len)) {
            r->empty = true;   /* Oj::Doc: a document of nils */
        } else if (after) {
            if (parse(r->pp, s, off, &d) == JDOC_OK)
                st = JDOC_OK;   /* a value, then text: Oj::Doc reads the value */
            else
                st = parse(r->pp, s, len, &d);   /* the whole input's error again */
        }
    }
    if (st != JDOC_OK && !r->empty) {
        jdoc_error e = *jdoc_last_error(r->pp->p);   /* message: static */
        doc_release(r, pl);
        raise_parse(s, len, e.offset, e.message, NULL);
    }
    if (r->empty) {
        checkin(pl, r->pp, 0);
        r->pp = NULL;
    } else {
        r->d = d;
    }
    RB_GC_GUARD(holder);
    RB_GC_GUARD(input);
    if (rb_block_given_p())
        return rb_ensure(rb_yield, self, doc_close_home, self);
    return self;
}

/* Closing hands the parser back to the current fiber's pool; closing twice is
 * a no-op. Another thread may close a document whose owner has died. */
static VALUE doc_close(VALUE self)
{
    rdoc *r = rb_check_typeddata(self, &doc_type);
    if (r->closed)
        return Qnil;
    check_owner(self, r, "closed");
    VALUE holder;
    pool *pl = get_pool(&holder);
    doc_release(r, pl);
    RB_OBJ_WRITE(self, &r->input, Qnil);
    RB_GC_GUARD(holder);
    return Qnil;
}

static VALUE doc_closed_p(VALUE self) { return ((rdoc *)rb_check_typeddata(self, &doc_type))->closed ? Qtrue : Qfalse; }

/* The common head of the methods that take (path = nil, ...): the open
 * document on its thread, the arity (extra arguments are ignored in oj_compat
 * mode, as Oj::Doc ignores them), and where the path argument leads from the
 * current position. A document with no root has nothing anywhere. */
typedef struct target {
    rdoc *r;
    jdoc_value v;   /* the value, when found */
    pref pr;        /* the path, for error messages */
    bool found;
} target;

enum { PATH_OPTIONAL = 0, PATH_REQUIRED = 1, NO_LOOKUP = 2 };

static target doc_target(VALUE self, int argc, const VALUE *argv, int min, int max, jdoc_syntax syn, int flags)
{
    target t;
    t.r = doc_get(self);
    if (argc < min || (argc > max && !t.r->compat))
        rb_error_arity(argc, min, max);
    VALUE path = argc > 0 ? argv[0] : Qnil;
    if ((flags & PATH_REQUIRED) && NIL_P(path))
        rb_raise(rb_eTypeError, "wrong argument type nil (expected String or Jdoc::Path)");
    t.pr = (pref){ "", 0, syn, NULL, path };
    if (!NIL_P(path))
        pref_of(path, syn, &t.pr);
    t.found = !(flags & NO_LOOKUP) && !t.r->empty && lookup(t.r, &t.pr, &t.v);
    return t;
}

/* Jdoc::PathError for a path that leads nowhere (also in a document with no root). */
NORETURN(static void raise_missing(const target *t));
static void raise_missing(const target *t)
{
    if (t->r->empty) {
        VALUE text = rb_utf8_str_new(t->pr.s, (long)t->pr.len);
        VALUE e = rb_exc_new_str(ePathError, rb_sprintf("%s %" PRIsVALUE ": the document has no root",
                                                        syntax_name(t->pr.syn), rb_inspect(text)));
        rb_ivar_set(e, iv_path, text);
        rb_ivar_set(e, iv_where, rb_utf8_str_new_cstr("/"));
        rb_ivar_set(e, iv_offset, INT2FIX(0));
        rb_exc_raise(e);
    }
    raise_not_found(here(t->r), &t->pr);
}

/* fetch(path = nil, default = nil) */
static VALUE doc_fetch(int argc, VALUE *argv, VALUE self)
{
    target t = doc_target(self, argc, argv, 0, 2, JDOC_SYNTAX_OJ, PATH_OPTIONAL);
    if (!t.found)
        return argc > 1 ? argv[1] : Qnil;
    return value_of(t.v);
}

/* fetch!(path = nil): Jdoc::PathError when the path leads nowhere */
static VALUE doc_fetch_bang(int argc, VALUE *argv, VALUE self)
{
    target t = doc_target(self, argc, argv, 0, 1, JDOC_SYNTAX_OJ, PATH_OPTIONAL);
    if (!t.found)
        raise_missing(&t);
    return value_of(t.v);
}

/* pointer(ptr, default = nil): RFC 6901, from the current position */
static VALUE doc_pointer(int argc, VALUE *argv, VALUE self)
{
    target t = doc_target(self, argc, argv, 1, 2, JDOC_SYNTAX_POINTER, PATH_REQUIRED);
    if (!t.found)
        return argc > 1 ? argv[1] : Qnil;
    return value_of(t.v);
}

static VALUE doc_exists_p(int argc, VALUE *argv, VALUE self)
{
    return doc_target(self, argc, argv, 1, 1, JDOC_SYNTAX_OJ, PATH_OPTIONAL).found ? Qtrue : Qfalse;
}

static VALUE doc_type_m(int argc, VALUE *argv, VALUE self)
{
    target t = doc_target(self, argc, argv, 0, 1, JDOC_SYNTAX_OJ, PATH_OPTIONAL);
    return t.found ? class_of(t.v) : Qnil;
}

/* size: as Oj::Doc, the number of values in the whole document, wherever the
 * cursor is (0 with no root); size(path): in the value at path (nil when
 * there is none). */
static VALUE doc_size(int argc, VALUE *argv, VALUE self)
{
    if (argc == 0 || NIL_P(argv[0])) {
        rdoc *r = doc_target(self, argc, argv, 0, 1, JDOC_SYNTAX_OJ, PATH_OPTIONAL).r;
        if (r->empty)
            return INT2FIX(0);
        if (r->nodes < 0)
            r->nodes = (long long)count_nodes(jdoc_root(r->d));
        return ULL2NUM((unsigned long long)r->nodes);
    }
    target t = doc_target(self, argc, argv, 0, 1, JDOC_SYNTAX_OJ, PATH_OPTIONAL);
    return t.found ? ULL2NUM(count_nodes(t.v)) : Qnil;
}

/* Several compiled paths fetched together (jdoc_fetch_many): Strings are
 * compiled once per fiber. Arrays on the stack up to 16 paths. */
typedef struct many {
    int n;
    VALUE *argv;
    const jdoc_path **paths;
    jdoc_value *out;
    jdoc_status *st;
    VALUE tp, to, ts;
    const jdoc_path *lp[16];
    jdoc_value lo[16];
    jdoc_status ls[16];
} many;

static void many_init(many *m, pool *pl, int argc, VALUE *argv)
{
    m->n = argc;
    m->argv = argv;
    m->paths = m->lp;
    m->out = m->lo;
    m->st = m->ls;
    m->tp = m->to = m->ts = 0;
    if (argc > 16) {
        /* heap buffers the GC frees if a conversion raises (not ALLOCV: it may
         * alloca, in this function's frame) */
        size_t n = (size_t)argc;
        m->paths = rb_alloc_tmp_buffer_with_count(&m->tp, n * sizeof *m->paths, n);
        m->out = rb_alloc_tmp_buffer_with_count(&m->to, n * sizeof *m->out, n);
        m->st = rb_alloc_tmp_buffer_with_count(&m->ts, n * sizeof *m->st, n);
    }
    trim_cache(pl, argc);
    for (int i = 0; i < argc; i++)
        m->paths[i] = path_get(path_for(pl, argv[i]))->p;
}

/* The values in m->out, as an Array (nil where missing); raises on the
 * first path whose status is an error. */
static VALUE many_values(many *m, pool *pl, jdoc_value from)
{
    VALUE res = rb_ary_new_capa(m->n);
    for (int i = 0; i < m->n; i++) {
        if (m->st[i] == JDOC_OK) {
            rb_ary_push(res, value_of(m->out[i]));
        } else if (m->st[i] == JDOC_ERR_NOT_FOUND || m->st[i] == JDOC_ERR_DEPTH) {
            rb_ary_push(res, Qnil);
        } else {
            pref pr;
            pref_of(path_for(pl, m->argv[i]), JDOC_SYNTAX_OJ, &pr);
            raise_walk(from, &pr, m->st[i]);
        }
    }
    return res;
}

/* The values of every path from `from`, as an Array (nil where missing). */
static VALUE many_row(many *m, pool *pl, jdoc_value from)
{
    jdoc_fetch_many(from, m->paths, (size_t)m->n, m->out, m->st);
    return many_values(m, pl, from);
}

/* A path set made for one call (pluck), held by a hidden object so that
 * the GC frees it when the call raises. */
static void pset_free(void *p) { jdoc_pathset_free(p); }
static const rb_data_type_t pset_type = {
    "jdoc pathset", { 0, pset_free, 0, 0, { 0 } }, 0, 0, RUBY_TYPED_FREE_IMMEDIATELY
};

static void many_end(many *m)
{
    if (m->n > 16) {
        rb_free_tmp_buffer(&m->tp);
        rb_free_tmp_buffer(&m->to);
        rb_free_tmp_buffer(&m->ts);
    }
}

static VALUE fetch_many_values(jdoc_value from, pool *pl, int argc, VALUE *argv)
{
    many m;
    many_init(&m, pl, argc, argv);
    VALUE res = many_row(&m, pl, from);
    many_end(&m);
    return res;
}

/* values_at(*paths): several paths from the current position in one pass. */
static VALUE doc_values_at(int argc, VALUE *argv, VALUE self)
{
    rdoc *r = doc_get(self);
    VALUE holder;
    pool *pl = get_pool(&holder);
    VALUE res;
    if (r->empty) {
        for (int i = 0; i < argc; i++)
            path_for(pl, argv[i]);   /* the same argument errors */
        res = rb_ary_new_capa(argc);
        for (int i = 0; i < argc; i++)
            rb_ary_push(res, Qnil);
    } else {
        res = fetch_many_values(here(r), pl, argc, argv);
    }
    RB_GC_GUARD(holder);
    return res;
}

/* pluck(*paths): for each child of the current value (array elements,
 * member values), the values at paths from that child: [[v, ...], ...]. One
 * call for a whole Docker list, no block and no Ruby call per field. */
static VALUE doc_pluck(int argc, VALUE *argv, VALUE self)
{
    rdoc *r = doc_get(self);
    VALUE holder;
    pool *pl = get_pool(&holder);
    VALUE res = rb_ary_new();
    if (r->empty)
        return res;
    jdoc_value from = here(r), child;
    jdoc_iter it;
    if (jdoc_iter_init(from, &it) != JDOC_OK)
        return res;   /* a scalar has no children */
    many m;
    many_init(&m, pl, argc, argv);
    /* the paths planned once for all the children (jdoc_fetch_many plans per call) */
    VALUE sh = TypedData_Wrap_Struct(0, &pset_type, NULL);
    jdoc_pathset *set = jdoc_pathset_of(m.paths, (size_t)argc, NULL);
    if (!set)
        rb_memerror();
    DATA_PTR(sh) = set;
    while (jdoc_iter_next(&it, &child)) {
        jdoc_pathset_fetch(child, set, m.out, m.st);
        rb_ary_push(res, many_values(&m, pl, child));
    }
    if (it.status != JDOC_OK)
        raise_validate(r->d);
    DATA_PTR(sh) = NULL;
    jdoc_pathset_free(set);
    many_end(&m);
    RB_GC_GUARD(sh);
    RB_GC_GUARD(holder);
    return res;
}

static VALUE doc_where(VALUE self)
{
    rdoc *r = doc_get(self);
    if (!r->c || jdoc_cursor_depth(r->c) == 0)
        return rb_utf8_str_new_cstr("/");
    char buf[512];
    size_t n = jdoc_cursor_where(r->c, buf, sizeof buf);
    if (n < sizeof buf)
        return rb_utf8_str_new(buf, (long)n);
    VALUE s = rb_utf8_str_new(NULL, (long)n);   /* room for n bytes and the NUL */
    jdoc_cursor_where(r->c, RSTRING_PTR(s), n + 1);
    return s;
}

static VALUE doc_local_key(VALUE self)
{
    rdoc *r = doc_get(self);
    if (!r->c)
        return Qnil;
    const char *k;
    size_t kl;
    uint64_t index;
    jdoc_status st = jdoc_cursor_local_key(r->c, &k, &kl, &index);
    if (st == JDOC_ERR_NOT_FOUND)
        return Qnil;
    if (st == JDOC_ERR_NOMEM)
        rb_memerror();
    if (st != JDOC_OK)
        raise_validate(r->d);
    return k ? rb_utf8_str_new(k, (long)kl) : ULL2NUM(index);
}

static VALUE doc_home(VALUE self)
{
    rdoc *r = doc_get(self);
    if (r->c)
        jdoc_cursor_home(r->c);
    return rb_utf8_str_new_cstr("/");
}

/* move(path): Jdoc::PathError (an ArgumentError, as Oj) when it leads nowhere */
static VALUE doc_move(int argc, VALUE *argv, VALUE self)
{
    target t = doc_target(self, argc, argv, 1, 1, JDOC_SYNTAX_OJ, PATH_REQUIRED | NO_LOOKUP);
    if (!move_to(t.r, &t.pr)) {
        /* oj_compat: Oj::Doc is back at the root after a failed absolute move */
        if (t.r->compat && t.r->c && t.pr.syn == JDOC_SYNTAX_OJ && t.pr.len > 0 && t.pr.s[0] == '/')
            jdoc_cursor_home(t.r->c);
        raise_missing(&t);
    }
    return Qnil;
}

static VALUE doc_dump(int argc, VALUE *argv, VALUE self)
{
    target t = doc_target(self, argc, argv, 0, 1, JDOC_SYNTAX_OJ, PATH_OPTIONAL);
    if (!t.found)
        return Qnil;
    jdoc_value v = t.v;
    char buf[4096];
    size_t n = jdoc_dump(v, buf, sizeof buf);
    if (n < sizeof buf)
        return rb_utf8_str_new(buf, (long)n);
    VALUE s = rb_utf8_str_new(NULL, (long)n);
    jdoc_dump(v, RSTRING_PTR(s), n + 1);
    return s;
}

/* ---- walks that yield the document at each position ---- */

typedef struct walk {
    VALUE self;
    rdoc *r;
    jdoc_value saved;     /* where the cursor was before the call */
    size_t saved_depth;
} walk;

/* After a yield: the block may have closed the document or moved the cursor. */
static jdoc_cursor *after_yield(rdoc *r, jdoc_value at, size_t depth)
{
    if (r->closed)
        raise_closed();
    restore_to(r, at, depth);
    return r->c;
}

static VALUE walk_restore(VALUE x)
{
    walk *w = (walk *)x;
    if (!w->r->closed && w->r->c)
        restore_to(w->r, w->saved, w->saved_depth);
    return Qnil;
}

static VALUE each_child_body(VALUE x)
{
    walk *w = (walk *)x;
    rdoc *r = w->r;
    jdoc_cursor *c = r->c;
    size_t d0 = jdoc_cursor_depth(c);
    jdoc_status st = jdoc_cursor_first_child(c);
    while (st == JDOC_OK) {
        jdoc_value child = jdoc_cursor_value(c);
        rb_yield(w->self);
        c = after_yield(r, child, d0 + 1);
        st = jdoc_cursor_next_sibling(c);
    }
    if (st != JDOC_ERR_NOT_FOUND)
        raise_validate(r->d);
    return Qnil;
}

static VALUE each_leaf_body(VALUE x)
{
    walk *w = (walk *)x;
    rdoc *r = w->r;
    jdoc_cursor *c = r->c;
    size_t d0 = jdoc_cursor_depth(c);
    jdoc_status st;
    for (;;) {
        jdoc_value v = jdoc_cursor_value(c);
        if (is_container(v)) {
            st = jdoc_cursor_first_child(c);
            if (st == JDOC_OK)
                continue;              /* down into a non-empty container */
            if (st != JDOC_ERR_NOT_FOUND)
                raise_validate(r->d);
        } else {
            size_t dv = jdoc_cursor_depth(c);
            rb_yield(w->self);
            c = after_yield(r, v, dv);
        }
        /* next: a sibling, or up until there is one */
        for (;;) {
            if (jdoc_cursor_depth(c) <= d0)
                return Qnil;
            st = jdoc_cursor_next_sibling(c);
            if (st == JDOC_OK)
                break;
            if (st != JDOC_ERR_NOT_FOUND)
                raise_validate(r->d);
            jdoc_cursor_up(c);
        }
    }
}

static VALUE walk_with(int argc, VALUE *argv, VALUE self, VALUE (*body)(VALUE))
{
    if (!rb_block_given_p())
        return Qnil;   /* as Oj::Doc */
    target t = doc_target(self, argc, argv, 0, 1, JDOC_SYNTAX_OJ, PATH_OPTIONAL | NO_LOOKUP);
    rdoc *r = t.r;
    if (r->empty)
        return Qnil;
    jdoc_cursor *c = cursor(r);
    walk w = { self, r, jdoc_cursor_value(c), jdoc_cursor_depth(c) };
    if (!NIL_P(t.pr.obj) && !move_to(r, &t.pr))
        return Qnil;   /* nothing there: no yield, as Oj::Doc */
    rb_ensure(body, (VALUE)&w, walk_restore, (VALUE)&w);
    RB_GC_GUARD(self);
    return Qnil;
}

/* each_child(path = nil) { |doc| }: the document at each child, in order */
static VALUE doc_each_child(int argc, VALUE *argv, VALUE self) { return walk_with(argc, argv, self, each_child_body); }
/* each_leaf(path = nil) { |doc| }: the document at each scalar, depth first */
static VALUE doc_each_leaf(int argc, VALUE *argv, VALUE self) { return walk_with(argc, argv, self, each_leaf_body); }

/* each_value(path = nil) { |value| }: every scalar's value, depth first; the
 * cursor does not move. */
static VALUE doc_each_value(int argc, VALUE *argv, VALUE self)
{
    if (!rb_block_given_p())
        return Qnil;
    target t = doc_target(self, argc, argv, 0, 1, JDOC_SYNTAX_OJ, PATH_OPTIONAL);
    if (!t.found)
        return Qnil;
    rdoc *r = t.r;
    jdoc_value v = t.v;
    if (!is_container(v)) {
        rb_yield(scalar_value(v));
        return Qnil;
    }
    const jdoc_doc *d = r->d;
    iters its;
    iters_init(&its);
    long top = 0;
    jdoc_iter_init(v, iters_at(&its, 0));
    while (top >= 0) {
        jdoc_value e;
        if (!jdoc_iter_next(&its.it[top], &e)) {
            if (its.it[top].status != JDOC_OK)
                raise_validate(d);
            top--;
            continue;
        }
        if (is_container(e)) {
            jdoc_iter_init(e, iters_at(&its, (size_t)++top));
        } else {
            rb_yield(scalar_value(e));
            if (r->closed)   /* closed by the block */
                raise_closed();
        }
    }
    iters_end(&its);
    return Qnil;
}

static VALUE doc_not_implemented(VALUE self)
{
    (void)self;
    rb_raise(rb_eNotImpError, "Jdoc::Doc cannot be copied");
}

/* ------------------------------------------------------------------------ */
/* Jdoc.fetch(json, *paths)                                                 */
/* ------------------------------------------------------------------------ */

/* A large input: a frozen private copy, parsed without the GVL by a parser
 * checked out of the pool, given back by rb_ensure (code run while the GVL is
 * away, such as a signal handler, may call Jdoc.fetch again). */
struct mfetch {
    VALUE input;
    pool *pl;
    pparser *pp;
    many *m;
};

static VALUE mfetch_body(VALUE x)
{
    struct mfetch *a = (struct mfetch *)x;
    jdoc_doc *d;
    const char *s = RSTRING_PTR(a->input);
    size_t n = (size_t)RSTRING_LEN(a->input);
    if (parse(a->pp, s, n, &d) != JDOC_OK) {
        const jdoc_error *e = jdoc_last_error(a->pp->p);
        raise_parse(s, n, e->offset, e->message, NULL);
    }
    return many_row(a->m, a->pl, jdoc_root(d));
}

static VALUE mfetch_done(VALUE x)
{
    struct mfetch *a = (struct mfetch *)x;
    checkin(a->pl, a->pp, (size_t)RSTRING_LEN(a->input));
    return Qnil;
}

static VALUE m_fetch(int argc, VALUE *argv, VALUE mod)
{
    (void)mod;
    rb_check_arity(argc, 1, UNLIMITED_ARGUMENTS);
    VALUE holder, res;
    pool *pl = get_pool(&holder);
    many m;
    many_init(&m, pl, argc - 1, argv + 1);   /* paths first: a wrong argument raises before the parse */
    VALUE input = utf8_input(argv[0]);
    if ((size_t)RSTRING_LEN(input) > NOGVL_BYTES) {
        input = rb_str_new_frozen(input);
        struct mfetch a = { input, pl, checkout(pl), &m };
        res = rb_ensure(mfetch_body, (VALUE)&a, mfetch_done, (VALUE)&a);
    } else {
        /* A small input is parsed with the GVL held, by the fiber's own
         * parser: nothing else runs on this fiber until the call returns, and
         * the input string (on the stack, so pinned) cannot change meanwhile.
         * If a conversion raises, the parser simply stays where it is. */
        if (!pl->fetch)
            pl->fetch = pparser_new();
        jdoc_doc *d;
        const char *s = RSTRING_PTR(input);
        size_t n = (size_t)RSTRING_LEN(input);
        if (parse(pl->fetch, s, n, &d) != JDOC_OK) {
            const jdoc_error *e = jdoc_last_error(pl->fetch->p);
            raise_parse(s, n, e->offset, e->message, NULL);
        }
        res = many_row(&m, pl, jdoc_root(d));
    }
    many_end(&m);
    RB_GC_GUARD(holder);
    RB_GC_GUARD(input);
    return res;
}

/* Jdoc.kernel: the stage-1 kernel this process uses ("avx2", ...). */
static VALUE m_kernel(VALUE mod)
{
    (void)mod;
    VALUE holder;
    pool *pl = get_pool(&holder);
    pparser *pp = checkout(pl);
    VALUE name = rb_str_new_cstr(jdoc_kernel_name(pp->p));
    checkin(pl, pp, 0);
    RB_GC_GUARD(holder);
    return name;
}

/* ------------------------------------------------------------------------ */
/* Shared with the other parts of the extension (jdoc_ext.h)                */
/* ------------------------------------------------------------------------ */

VALUE jx_module(void) { return mJdoc; }
VALUE jx_scalar_value(jdoc_value v) { return scalar_value(v); }
VALUE jx_build(jdoc_value v, bool sym) { return build(v, sym); }
VALUE jx_key_string(const char *k, size_t n) { return key_string(k, n); }
void jx_raise_parse(const char *json, size_t len, size_t off, const char *msg, const char *where)
{
    raise_parse(json, len, off, msg, where);
}
void jx_raise_validate(const jdoc_doc *d) { raise_validate(d); }
VALUE jx_path_text(VALUE expr) { return path_text(expr); }
VALUE jx_input_string(VALUE json) { return input_string(json); }
bool jx_arg_and_flag(int argc, const VALUE *argv, ID kw, VALUE *arg) { return arg_and_flag(argc, argv, kw, arg); }
jx_pool *jx_get_pool(VALUE *holder) { return get_pool(holder); }
void jx_pool_ref(jx_pool *pl) { pl->refs++; }
void jx_pool_unref(jx_pool *pl) { pool_unref(pl); }
jx_parser *jx_checkout(jx_pool *pl) { return checkout(pl); }
void jx_checkin(jx_pool *pl, jx_parser *pp, size_t last_len) { checkin(pl, pp, last_len); }
jdoc_status jx_parse(jx_parser *pp, const char *s, size_t n, jdoc_doc **d) { return parse(pp, s, n, d); }
const jdoc_error *jx_last_error(const jx_parser *pp) { return jdoc_last_error(pp->p); }
size_t jx_parser_bytes(const jx_parser *pp) { return pp->live; }
jdoc_parser *jx_parser_of(jx_parser *pp) { return pp->p; }
void jx_parser_sync(jx_parser *pp) { gc_sync(pp); }

void Init_jdoc_ext(void)
{
    enc_utf8 = rb_utf8_encoding();
    enc_utf8_index = rb_utf8_encindex();
    enc_ascii_index = rb_usascii_encindex();
    enc_binary_index = rb_ascii8bit_encindex();
    enc_ascii = rb_usascii_encoding();
    enc_binary = rb_ascii8bit_encoding();
    id_pool = rb_intern("__jdoc_parser_pool__");
    id_pointer = rb_intern("pointer");
    id_oj_compat = rb_intern("oj_compat");
    id_alive_p = rb_intern("alive?");
    iv_offset = rb_intern("@offset");
    iv_line = rb_intern("@line");
    iv_column = rb_intern("@column");
    iv_path = rb_intern("@path");
    iv_where = rb_intern("@where");

#ifdef HAVE_RB_EXT_RACTOR_SAFE
    /* Nothing is shared between Ractors: the classes and IDs above are set
     * once here, parsers live in fiber-local pools, Jdoc::Path objects are
     * frozen and shareable, and documents are confined to their thread. */
    rb_ext_ractor_safe(true);
#endif
    mJdoc = rb_define_module("Jdoc");
    rb_define_const(mJdoc, "LIBRARY_VERSION", rb_obj_freeze(rb_str_new_cstr(jdoc_version())));

    eError = rb_define_class_under(mJdoc, "Error", rb_eStandardError);
    eParseError = rb_define_class_under(mJdoc, "ParseError", eError);
    rb_define_attr(eParseError, "offset", 1, 0);
    rb_define_attr(eParseError, "line", 1, 0);
    rb_define_attr(eParseError, "column", 1, 0);
    rb_define_attr(eParseError, "path", 1, 0);
    ePathError = rb_define_class_under(mJdoc, "PathError", rb_eArgError);
    rb_define_attr(ePathError, "path", 1, 0);
    rb_define_attr(ePathError, "where", 1, 0);
    rb_define_attr(ePathError, "offset", 1, 0);

    cPool = rb_define_class_under(mJdoc, "ParserPool", rb_cObject);
    rb_undef_alloc_func(cPool);

    cPath = rb_define_class_under(mJdoc, "Path", rb_cObject);
    rb_define_alloc_func(cPath, path_alloc);
    rb_define_method(cPath, "initialize", path_initialize, -1);
    rb_define_method(cPath, "to_s", path_to_s, 0);
    rb_define_method(cPath, "pointer?", path_pointer_p, 0);
    rb_define_method(cPath, "inspect", path_inspect, 0);
    rb_define_method(cPath, "==", path_eql, 1);
    rb_define_method(cPath, "eql?", path_eql, 1);
    rb_define_method(cPath, "hash", path_hash, 0);

    cDoc = rb_define_class_under(mJdoc, "Doc", rb_cObject);
    rb_undef_alloc_func(cDoc);
    rb_undef_method(CLASS_OF(cDoc), "new");   /* Doc.open makes documents */
    rb_define_singleton_method(cDoc, "open", doc_s_open, -1);
    rb_define_method(cDoc, "fetch", doc_fetch, -1);
    rb_define_method(cDoc, "fetch!", doc_fetch_bang, -1);
    rb_define_method(cDoc, "pointer", doc_pointer, -1);
    rb_define_method(cDoc, "values_at", doc_values_at, -1);
    rb_define_method(cDoc, "pluck", doc_pluck, -1);
    rb_define_method(cDoc, "exists?", doc_exists_p, -1);
    rb_define_method(cDoc, "type", doc_type_m, -1);
    rb_define_method(cDoc, "size", doc_size, -1);
    rb_define_method(cDoc, "where?", doc_where, 0);
    rb_define_method(cDoc, "where", doc_where, 0);
    rb_define_method(cDoc, "path", doc_where, 0);
    rb_define_method(cDoc, "local_key", doc_local_key, 0);
    rb_define_method(cDoc, "home", doc_home, 0);
    rb_define_method(cDoc, "move", doc_move, -1);
    rb_define_method(cDoc, "each_child", doc_each_child, -1);
    rb_define_method(cDoc, "each_leaf", doc_each_leaf, -1);
    rb_define_method(cDoc, "each_value", doc_each_value, -1);
    rb_define_method(cDoc, "dump_json", doc_dump, -1);
    rb_define_method(cDoc, "close", doc_close, 0);
    rb_define_method(cDoc, "closed?", doc_closed_p, 0);
    rb_define_method(cDoc, "clone", doc_not_implemented, 0);
    rb_define_method(cDoc, "dup", doc_not_implemented, 0);

    rb_define_singleton_method(mJdoc, "fetch", m_fetch, -1);
    rb_define_singleton_method(mJdoc, "kernel", m_kernel, 0);
    /* The other parts of the extension (jdoc_ext.h), one Init_ call each:
     * extconf.rb builds every .c file of ext/jdoc. */
    Init_jdoc_view();
    Init_jdoc_stream();
    { extern void Init_jdoc_query(VALUE, VALUE, rdoc *(*)(VALUE), jdoc_value (*)(const rdoc *), VALUE (*)(jdoc_value)); Init_jdoc_query(mJdoc, cDoc, doc_get, here, value_of); }   /* JSONPath: query_ext.c */
}
