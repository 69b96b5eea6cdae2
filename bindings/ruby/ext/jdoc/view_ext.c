/* SPDX-License-Identifier: MIT */
/*
 * view_ext.c - Jdoc.parse: a lazy, read-only JSON.parse. Jdoc::Object and
 * Jdoc::Array are views of one container of a parsed document; only what is
 * read becomes a Ruby object (lib/jdoc/view.rb has the parts in Ruby).
 */
#include "jdoc_ext.h"

static ID id_symbolize_names, id_dig;

/* ------------------------------------------------------------------------ */
/* Jdoc.parse: a lazy, read-only JSON.parse                                 */
/* ------------------------------------------------------------------------ */

/* The document behind the views: its own parser (never parsed again while a
 * view lives, so every jdoc_value stays current) and the input it reads. It
 * is collected with its last view, and its parser goes back to the jx_pool of
 * the fiber that parsed. Views work from any thread of the Ractor: every call
 * holds the GVL, which also covers the parser's scratch memory. */
typedef struct ldoc {
    jx_parser *pp;
    jx_pool *home;
    VALUE input;
    size_t len;
    bool sym;     /* symbolize_names */
    bool expired; /* a document lent by Jdoc::Stream whose block has returned */
} ldoc;

static void ldoc_mark(void *x) { rb_gc_mark(((ldoc *)x)->input); }   /* pinned: jdoc reads it in place */

static void ldoc_free(void *x)
{
    ldoc *l = x;
    if (l->pp)
        jx_checkin(l->home, l->pp, l->len);
    if (l->home)
        jx_pool_unref(l->home);
    xfree(l);
}

static size_t ldoc_memsize(const void *x)
{
    const ldoc *l = x;
    return sizeof *l + (l->pp ? jx_parser_bytes(l->pp) : 0);
}

static const rb_data_type_t ldoc_type = {
    "Jdoc::LazyDocument", { ldoc_mark, ldoc_free, ldoc_memsize, 0, { 0 } }, 0, 0, RUBY_TYPED_FREE_IMMEDIATELY
};

/* A view of one container. Arrays get a table of their elements on the first
 * index other than 0, so that a[i] in a loop is not quadratic. */
typedef struct lview {
    VALUE owner;
    const ldoc *l;
    jdoc_value v;
    jdoc_value *elems;
    size_t n;
} lview;

static void lview_mark(void *x) { rb_gc_mark(((lview *)x)->owner); }

static void lview_free(void *x)
{
    lview *w = x;
    xfree(w->elems);
    xfree(w);
}

static size_t lview_memsize(const void *x)
{
    const lview *w = x;
    return sizeof *w + (w->elems ? w->n * sizeof *w->elems : 0);
}

static const rb_data_type_t lview_type = {
    "Jdoc::View", { lview_mark, lview_free, lview_memsize, 0, { 0 } }, 0, 0, RUBY_TYPED_FREE_IMMEDIATELY
};

static VALUE cObject, cArray;

NORETURN(static void raise_expired(void));
static void raise_expired(void)
{
    rb_raise(rb_eIOError, "Jdoc::Stream document used after its block (copy it with to_h / to_a inside the block)");
}

/* A view whose document is still there: a stream's document dies when the
 * block it was yielded to returns (the parser reads the next one). */
static inline lview *lview_get(VALUE self)
{
    lview *w = rb_check_typeddata(self, &lview_type);
    if (w->l->expired)
        raise_expired();
    return w;
}

/* A value read through a view: a view for a container, a Ruby object for a scalar. */
static VALUE lazy_value(VALUE owner, const ldoc *l, jdoc_value v)
{
    char c = jx_first_byte(v);
    if (c != '{' && c != '[')
        return jx_scalar_value(v);
    lview *w;
    VALUE obj = TypedData_Make_Struct(c == '{' ? cObject : cArray, lview, &lview_type, w);
    RB_OBJ_WRITE(obj, &w->owner, owner);
    w->l = l;
    w->v = v;
    return obj;
}

/* Jdoc.jx_parse(json, symbolize_names: false) */
static VALUE m_parse(int argc, VALUE *argv, VALUE mod)
{
    (void)mod;
    VALUE json, holder;
    bool sym = jx_arg_and_flag(argc, argv, id_symbolize_names, &json);
    VALUE input = jx_input_string(json);
    ldoc *l;
    VALUE owner = TypedData_Make_Struct(rb_cObject, ldoc, &ldoc_type, l);
    rb_obj_hide(owner);   /* internal: reachable from its views only */
    RB_OBJ_WRITE(owner, &l->input, input);
    l->len = (size_t)RSTRING_LEN(input);
    l->sym = sym;
    jx_pool *pl = jx_get_pool(&holder);
    l->pp = jx_checkout(pl);
    l->home = pl;
    jx_pool_ref(pl);
    jdoc_doc *d;
    const char *s = RSTRING_PTR(input);
    if (jx_parse(l->pp, s, l->len, &d) != JDOC_OK) {
        jdoc_error e = *jx_last_error(l->pp);
        jx_checkin(pl, l->pp, l->len);
        l->pp = NULL;
        jx_raise_parse(s, l->len, e.offset, e.message, NULL);
    }
    VALUE res = lazy_value(owner, l, jdoc_root(d));
    RB_GC_GUARD(holder);
    RB_GC_GUARD(owner);
    return res;
}

/* The member named `key` (a String, or a Symbol with symbolize_names) as a
 * JSON Pointer step, "~" and "/" escaped: false when the key cannot match. */
static bool member(lview *w, VALUE key, jdoc_value *out)
{
    if (w->l->sym) {
        if (!SYMBOL_P(key))
            return false;
        key = rb_sym2str(key);
    } else if (!RB_TYPE_P(key, T_STRING)) {
        return false;
    }
    key = jx_path_text(key);
    const char *k = RSTRING_PTR(key);
    size_t n = (size_t)RSTRING_LEN(key);
    char local[256];
    VALUE tmp = 0;
    char *p = n * 2 + 1 <= sizeof local ? local : rb_alloc_tmp_buffer(&tmp, (long)(n * 2 + 1));
    size_t m = 0;
    p[m++] = '/';
    for (size_t i = 0; i < n; i++) {
        if (k[i] == '~' || k[i] == '/') {
            p[m++] = '~';
            p[m++] = k[i] == '~' ? '0' : '1';
        } else {
            p[m++] = k[i];
        }
    }
    jdoc_status st = jdoc_pointer(w->v, p, m, out);
    if (tmp)
        rb_free_tmp_buffer(&tmp);
    RB_GC_GUARD(key);
    if (st == JDOC_OK)
        return true;
    if (st == JDOC_ERR_NOT_FOUND)
        return false;
    jx_raise_validate(w->v.doc);
}

/* Element i (0-based, negative from the end) of an array view. */
static bool element(lview *w, long i, jdoc_value *out)
{
    if (i == 0 && !w->elems) {
        jdoc_iter it;
        jdoc_iter_init(w->v, &it);
        if (jdoc_iter_next(&it, out))
            return true;
        if (it.status != JDOC_OK)
            jx_raise_validate(w->v.doc);
        return false;
    }
    if (!w->elems) {
        size_t n = jdoc_count(w->v), k = 0;
        jdoc_value *e = ALLOC_N(jdoc_value, n ? n : 1);
        jdoc_iter it;
        jdoc_iter_init(w->v, &it);
        while (k < n && jdoc_iter_next(&it, &e[k]))
            k++;
        if (k < n) {
            xfree(e);
            jx_raise_validate(w->v.doc);
        }
        w->elems = e;
        w->n = n;
    }
    if (i < 0)
        i += (long)w->n;
    if (i < 0 || (size_t)i >= w->n)
        return false;
    *out = w->elems[i];
    return true;
}

/* Object#[](key), Array#[](index): nil when missing, as Hash and Array */
static VALUE view_aref(VALUE self, VALUE key)
{
    lview *w = lview_get(self);
    jdoc_value v;
    bool found;
    if (jx_first_byte(w->v) == '{')
        found = member(w, key, &v);
    else if (FIXNUM_P(key))
        found = element(w, FIX2LONG(key), &v);
    else if (RB_TYPE_P(key, T_BIGNUM))
        found = false;
    else
        return rb_funcall(rb_funcall(self, rb_intern("to_a"), 0), rb_intern("[]"), 1, key);   /* a Range... */
    return found ? lazy_value(w->owner, w->l, v) : Qnil;
}

/* dig(key, *rest), as Hash#dig and Array#dig: the steps through views stay
 * in C; nil as soon as one is missing; a scalar on the way is a TypeError. */
static VALUE view_dig(int argc, VALUE *argv, VALUE self)
{
    rb_check_arity(argc, 1, UNLIMITED_ARGUMENTS);
    VALUE cur = self;
    for (int i = 0; i < argc; i++) {
        if (NIL_P(cur))
            return Qnil;
        if (!rb_typeddata_is_kind_of(cur, &lview_type)) {
            if (!rb_respond_to(cur, id_dig))
                rb_raise(rb_eTypeError, "%" PRIsVALUE " does not have #dig method", rb_obj_class(cur));
            return rb_funcallv(cur, id_dig, argc - i, argv + i);
        }
        cur = view_aref(cur, argv[i]);
    }
    return cur;
}

/* Object#key?(key) */
static VALUE view_key_p(VALUE self, VALUE key)
{
    lview *w = lview_get(self);
    jdoc_value v;
    return member(w, key, &v) ? Qtrue : Qfalse;
}

static VALUE view_size(VALUE self) { return SIZET2NUM(jdoc_count(lview_get(self)->v)); }
static VALUE view_enum_size(VALUE self, VALUE args, VALUE eobj) { return view_size(self); }

static VALUE view_key(const lview *w, const jdoc_iter *it)
{
    const char *k;
    size_t kl;
    jdoc_status st = jdoc_iter_key(it, &k, &kl);
    if (st == JDOC_ERR_NOMEM)
        rb_memerror();
    if (st != JDOC_OK)
        jx_raise_validate(w->v.doc);
    VALUE key = jx_key_string(k, kl);
    return w->l->sym ? rb_str_intern(key) : key;
}

/* Object#each { |key, value| }, Array#each { |value| }: values lazily. The
 * iterator is re-created after each yield, since the block may run anything. */
static VALUE view_each(VALUE self)
{
    RETURN_SIZED_ENUMERATOR(self, 0, 0, view_enum_size);
    lview *w = lview_get(self);
    VALUE owner = w->owner;
    jdoc_iter it;
    jdoc_value v;
    jdoc_iter_init(w->v, &it);
    /* |k, v|: no Array per member, as Hash#each (one Proc per call to ask) */
    bool pairs = it.object && rb_proc_arity(rb_block_proc()) > 1;
    while (jdoc_iter_next(&it, &v)) {
        VALUE val = lazy_value(owner, w->l, v);
        if (pairs)
            rb_yield_values(2, view_key(w, &it), val);
        else if (it.object)
            rb_yield(rb_assoc_new(view_key(w, &it), val));
        else
            rb_yield(val);
        if (w->l->expired)   /* an external enumerator resumed after the stream's block */
            raise_expired();
    }
    if (it.status != JDOC_OK)
        jx_raise_validate(w->v.doc);
    RB_GC_GUARD(owner);
    return self;
}

/* Object#keys */
static VALUE view_keys(VALUE self)
{
    lview *w = lview_get(self);
    VALUE res = rb_ary_new_capa((long)jdoc_count(w->v));
    jdoc_iter it;
    jdoc_value v;
    jdoc_iter_init(w->v, &it);
    while (jdoc_iter_next(&it, &v))
        rb_ary_push(res, view_key(w, &it));
    if (it.status != JDOC_OK)
        jx_raise_validate(w->v.doc);
    return res;
}

/* to_h / to_a: the whole value as Hash and Array (JSON.parse's result) */
static VALUE view_materialize(VALUE self)
{
    lview *w = lview_get(self);
    VALUE res = jx_build(w->v, w->l->sym);
    RB_GC_GUARD(self);
    return res;
}

/* to_json: compact JSON (jdoc_dump: the source without its whitespace) */
static VALUE view_to_json(int argc, VALUE *argv, VALUE self)
{
    (void)argc;
    (void)argv;   /* JSON.generate's state argument: the output is compact */
    lview *w = lview_get(self);
    char buf[4096];
    size_t n = jdoc_dump(w->v, buf, sizeof buf);
    if (n < sizeof buf)
        return rb_utf8_str_new(buf, (long)n);
    VALUE s = rb_utf8_str_new(NULL, (long)n);
    jdoc_dump(w->v, RSTRING_PTR(s), n + 1);
    return s;
}

/* The document of a stream, lent to a block: a view of its root (or the
 * scalar), owned by a hidden object that marks `keeper` (which holds the
 * bytes) and takes no parser; jx_view_expire ends it. */
VALUE jx_view_lend(VALUE keeper, jdoc_value root, bool sym, VALUE *token)
{
    ldoc *l;
    VALUE owner = TypedData_Make_Struct(rb_cObject, ldoc, &ldoc_type, l);
    rb_obj_hide(owner);
    RB_OBJ_WRITE(owner, &l->input, keeper);
    l->sym = sym;
    *token = owner;
    return lazy_value(owner, l, root);
}

void jx_view_expire(VALUE token)
{
    ldoc *l = RTYPEDDATA_DATA(token);
    l->expired = true;
    l->input = Qnil;   /* a view kept after the block no longer keeps the stream */
}

void Init_jdoc_view(void)
{
    VALUE mJdoc = jx_module();
    id_symbolize_names = rb_intern("symbolize_names");
    id_dig = rb_intern("dig");
    cObject = rb_define_class_under(mJdoc, "Object", rb_cObject);
    cArray = rb_define_class_under(mJdoc, "Array", rb_cObject);
    VALUE both[2] = { cObject, cArray };
    for (int i = 0; i < 2; i++) {
        VALUE c = both[i];
        rb_undef_alloc_func(c);
        rb_include_module(c, rb_mEnumerable);
        rb_define_method(c, "[]", view_aref, 1);
        rb_define_method(c, "size", view_size, 0);
        rb_define_method(c, "length", view_size, 0);
        rb_define_method(c, "each", view_each, 0);
        rb_define_method(c, "to_json", view_to_json, -1);
    }
    rb_define_method(cObject, "key?", view_key_p, 1);
    rb_define_method(cObject, "dig", view_dig, -1);
    rb_define_method(cArray, "dig", view_dig, -1);
    rb_define_method(cObject, "keys", view_keys, 0);
    rb_define_method(cObject, "to_h", view_materialize, 0);
    rb_define_method(cArray, "to_a", view_materialize, 0);
    rb_define_singleton_method(mJdoc, "parse", m_parse, -1);
}

