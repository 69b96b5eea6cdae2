/* SPDX-License-Identifier: MIT */
/* Error returns that only damaged documents reach. Stage 1 checks brackets,
 * strings and UTF-8 but not the grammar between entries, so `{"a" 1}` or
 * `[1 2]` parse; everything that walks them must say JDOC_ERR_SYNTAX (or the
 * documented answer), never a value. Also jdoc_validate on trusted UTF-8 and
 * jdoc_explain on a bad escape or a non-value. */
#include <criterion/criterion.h>
#include "internal.h"
#include "testutil.h"

static jdoc_parser *P;
static void fini(void)
{
    jdoc_parser_free(P);
    P = NULL;
}
TestSuite(errors, .fini = fini);

static jdoc_doc *open_with(const char *s, bool trust)
{
    jdoc_parser_free(P);
    jdoc_options o = { .trust_utf8 = trust };
    P = jdoc_parser_new(&o);
    cr_assert_not_null(P);
    jdoc_doc *d;
    cr_assert_eq(jdoc_parse(P, s, strlen(s), &d), JDOC_OK, "%s: %s", s, jdoc_last_error(P)->message);
    return d;
}
static jdoc_doc *open_doc(const char *s) { return open_with(s, false); }

/* Answer: with trust_utf8 the parse accepts bad UTF-8; jdoc_validate then
 * finds it: a bad byte at its offset, a sequence cut by the end of the input
 * at its lead byte. */
Test(errors, validate_finds_utf8_that_was_trusted)
{
    static const struct {
        const char *doc;
        size_t off;
    } cases[] = {
        { "[\"a\xff\"]", 3 },          /* a byte that never occurs */
        { "[\"\xc3\"]", 2 },           /* a lead byte followed by a quote */
        { "[\"\xed\xa0\x80\"]", 2 },   /* a surrogate */
        { "[\"\xe2\x82\"]", 2 },        /* cut by the quote: at the lead byte */
        { "{\"\xf0\x9f\x98\":1}", 2 },  /* in a key */
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        jdoc_parser_free(P);
        jdoc_options o = { .trust_utf8 = true };
        P = jdoc_parser_new(&o);
        jdoc_doc *d;
        jdoc_status st = jdoc_parse(P, cases[i].doc, strlen(cases[i].doc), &d);
        cr_assert_eq(st, JDOC_OK, "case %zu: trusted UTF-8 is not checked at parse", i);
        cr_expect_eq(jdoc_validate(d), JDOC_ERR_UTF8, "case %zu", i);
        cr_expect_eq(jdoc_last_error(P)->offset, cases[i].off, "case %zu: offset %zu", i, jdoc_last_error(P)->offset);
    }
    /* a valid document with multibyte text validates */
    jdoc_doc *d = open_with("[\"\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80\"]", true);
    cr_expect_eq(jdoc_validate(d), JDOC_OK);
    /* a sequence cut by the end of the buffer cannot end a document that
     * parses (it would be inside a string, or text after the root): the
     * checker itself, on buffers that end inside a sequence */
    static const char *const cut[] = { "ab\xc3", "\xe2\x82", "x\xf0\x9f\x98" };
    static const size_t cut_at[] = { 2, 0, 1 };
    for (int i = 0; i < 3; i++) {
        size_t err = 99;
        cr_expect_not(jdoc__utf8_check((const uint8_t *)cut[i], strlen(cut[i]), &err), "cut %d", i);
        cr_expect_eq(err, cut_at[i], "cut %d: %zu", i, err);
    }
    size_t err = 99;
    cr_expect_not(jdoc__utf8_check((const uint8_t *)"ab\x80", 3, &err));
    cr_expect_eq(err, 2);
    cr_expect(jdoc__utf8_check((const uint8_t *)"a\xc3\xa9", 3, &err));
}

/* Answer: jdoc_fetch_many from a malformed object: the paths it could not
 * resolve before the damage are JDOC_ERR_SYNTAX, those found before it are
 * found. */
Test(errors, fetch_many_on_a_malformed_object)
{
    const char *exprs[] = { "a", "zz", "b/1" };
    jdoc_path *paths[3];
    for (int i = 0; i < 3; i++)
        paths[i] = jdoc_path_compile(exprs[i], strlen(exprs[i]), JDOC_SYNTAX_OJ, NULL);
    static const char *const docs[] = {
        "{\"a\":1,\"b\":[7] \"c\":2}",   /* a member without a comma */
        "{\"a\":1,\"b\":[7],3}",         /* a member without a key */
        "{\"a\":1,\"b\":[7],\"c\"}",     /* a key without a value */
        "{\"a\":1,\"b\":[7],\"c\":}",    /* a colon without a value */
        "{\"a\":1,\"b\":[7],3:4}",       /* a key that is not a string */
    };
    for (size_t k = 0; k < sizeof docs / sizeof *docs; k++) {
        jdoc_doc *d = open_doc(docs[k]);
        jdoc_value v[3];
        jdoc_status st[3];
        cr_expect_eq(jdoc_fetch_many(jdoc_root(d), (const jdoc_path *const *)paths, 3, v, st), JDOC_ERR_SYNTAX,
                     "%s", docs[k]);
        cr_expect_eq(st[0], JDOC_OK, "%s", docs[k]);
        cr_expect_eq(st[1], JDOC_ERR_SYNTAX, "%s: zz %s", docs[k], jdoc_status_str(st[1]));
        cr_expect_eq(st[2], JDOC_OK, "%s", docs[k]);
        cr_expect(!jdoc_exists(v[1]));
        /* one by one: the same answers */
        jdoc_value w;
        cr_expect_eq(jdoc_fetch_path(jdoc_root(d), paths[1], &w), JDOC_ERR_SYNTAX, "%s", docs[k]);
    }
    for (int i = 0; i < 3; i++)
        jdoc_path_free(paths[i]);
}

/* Answer: a closing bracket, ',' or ':' where a value should start is
 * JDOC_ERR_SYNTAX for the element or member there and for any after it. */
Test(errors, no_value_where_one_starts)
{
    static const struct { const char *doc, *ptr; } c[] = {
        { "[1,]", "/1" },          { "[1,]", "/2" },      { "[[1,],2]", "/0/1" },
        { "{\"a\":[1,]}", "/a/1" }, { "[1,,2]", "/2" },    { "[1,:]", "/1" },
        { "{\"a\":1,\"b\":[7,]}", "/b/1" },
    };
    for (size_t k = 0; k < sizeof c / sizeof *c; k++) {
        jdoc_doc *d = open_doc(c[k].doc);
        jdoc_value v;
        jdoc_status st = jdoc_pointer(jdoc_root(d), c[k].ptr, strlen(c[k].ptr), &v);
        cr_expect_eq(st, JDOC_ERR_SYNTAX, "%s %s: %s", c[k].doc, c[k].ptr, jdoc_status_str(st));
    }
}

/* Answer: ".." needs the parent; in a malformed container the parent is not
 * found and ".." is JDOC_ERR_NOT_FOUND; so is ".." from the root. */
Test(errors, parent_in_a_malformed_container)
{
    jdoc_doc *d = open_doc("[[1,2] 3, [4]]");
    jdoc_value r = jdoc_root(d), v, w;
    cr_assert_eq(jdoc_fetch(r, "/1/2", &v), JDOC_OK);
    cr_expect_eq(jdoc_fetch(v, "..", &w), JDOC_OK);
    cr_expect_eq(jdoc_offset(w), 1);
    /* the element after the damage: its parent cannot be found */
    jdoc_doc *d2 = open_doc("{\"a\" 1, \"b\":[5]}");
    r = jdoc_root(d2);
    cr_expect_eq(jdoc_fetch(r, "/b", &v), JDOC_ERR_SYNTAX);
    cr_expect_eq(jdoc_fetch(r, "..", &v), JDOC_ERR_NOT_FOUND);
    jdoc_doc *d3 = open_doc("[1 [2]]");
    jdoc_iter it;
    cr_assert_eq(jdoc_iter_init(jdoc_root(d3), &it), JDOC_OK);
    cr_expect_not(jdoc_iter_next(&it, &v));
    cr_expect_eq(it.status, JDOC_ERR_SYNTAX);
    /* the scalar right after the root bracket of a damaged array: its parent
     * walk stops at the damage */
    jdoc_doc *d4 = open_doc("{\"k\":1 \"x\":[[9]]}");
    r = jdoc_root(d4);
    char where[32];
    cr_expect_eq(jdoc_explain(r, "/x/1/1", 6, JDOC_SYNTAX_OJ, NULL, where, sizeof where), JDOC_ERR_SYNTAX);
}

/* Answer: the cursor on damaged containers: first_child, next_sibling, move,
 * fetch, each_child and each_leaf say JDOC_ERR_SYNTAX and do not move. */
Test(errors, cursor_on_damaged_containers)
{
    static const char *const docs[] = {
        "{\"a\" 1}", "{1:2}", "{\"a\":}", "[1 2]", "[1 2 3]", "[1,]", "{\"a\":1,2}", "{\"a\":1 \"b\":2}", "[1,2 3]",
    };
    for (size_t k = 0; k < sizeof docs / sizeof *docs; k++) {
        jdoc_doc *d = open_doc(docs[k]);
        jdoc_cursor *c = jdoc_cursor_new(d);
        cr_assert_not_null(c);
        jdoc_status st = jdoc_cursor_first_child(c);
        while (st == JDOC_OK)
            st = jdoc_cursor_next_sibling(c);
        cr_expect_eq(st, JDOC_ERR_SYNTAX, "%s: walk %s", docs[k], jdoc_status_str(st));
        jdoc_cursor_home(c);
        size_t n = 0;
        cr_expect_eq(jdoc_cursor_each_leaf(c, NULL, NULL), JDOC_ERR_ARG);
        cr_expect_eq(jdoc_cursor_each_child(c, NULL, NULL), JDOC_ERR_ARG);
        cr_expect_eq(jdoc_cursor_each_child(c, NULL, &n), JDOC_ERR_ARG);
        jdoc_value v;
        st = jdoc_cursor_fetch(c, docs[k][0] == '{' ? "zz" : "3", &v);
        cr_expect_eq(st, JDOC_ERR_SYNTAX, "%s: fetch %s", docs[k], jdoc_status_str(st));
        cr_expect(!jdoc_exists(v));
        cr_expect_eq(jdoc_cursor_move(c, docs[k][0] == '{' ? "zz" : "3"), JDOC_ERR_SYNTAX, "%s", docs[k]);
        cr_expect_eq(jdoc_cursor_depth(c), 0);
        jdoc_cursor_free(c);
    }
}

static int count_leaf(jdoc_cursor *c, void *ud)
{
    (void)c;
    ++*(int *)ud;
    return 0;
}

/* Answer: each_leaf and each_child report the damage they meet after the
 * leaves before it; the cursor is back where it started. */
Test(errors, cursor_walks_stop_at_damage)
{
    jdoc_doc *d = open_doc("[1,[2,3 4],5]");
    jdoc_cursor *c = jdoc_cursor_new(d);
    int n = 0;
    cr_expect_eq(jdoc_cursor_each_leaf(c, count_leaf, &n), JDOC_ERR_SYNTAX);
    cr_expect_eq(n, 3);   /* 1, 2 and 3: the damage is after 3 */
    cr_expect_eq(jdoc_cursor_depth(c), 0);
    cr_assert_eq(jdoc_cursor_move(c, "/2"), JDOC_OK);
    n = 0;
    cr_expect_eq(jdoc_cursor_each_child(c, count_leaf, &n), JDOC_ERR_SYNTAX);
    cr_expect_eq(n, 2);
    cr_expect_eq(jdoc_cursor_depth(c), 1);
    jdoc_cursor_free(c);
    /* a key that does not decode: where? shows its raw text, local_key says
     * JDOC_ERR_STRING */
    d = open_doc("{\"a\\x\":1}");
    c = jdoc_cursor_new(d);
    cr_assert_eq(jdoc_cursor_first_child(c), JDOC_OK);
    char w[32];
    cr_expect_eq(jdoc_cursor_where(c, w, sizeof w), 5);
    cr_expect_str_eq(w, "/a\\\\x");
    const char *k;
    size_t kl;
    uint64_t idx;
    cr_expect_eq(jdoc_cursor_local_key(c, &k, &kl, &idx), JDOC_ERR_STRING);
    cr_expect_eq(jdoc_cursor_next_sibling(c), JDOC_ERR_NOT_FOUND);
    cr_expect_eq(jdoc_cursor_up(c), JDOC_OK);
    cr_expect_eq(jdoc_cursor_up(c), JDOC_ERR_NOT_FOUND);
    cr_expect_eq(jdoc_cursor_next_sibling(c), JDOC_ERR_NOT_FOUND);
    cr_expect_eq(jdoc_cursor_local_key(c, &k, &kl, NULL), JDOC_ERR_ARG);
    jdoc_cursor_free(c);
    /* a scalar has no children */
    d = open_doc("[7]");
    c = jdoc_cursor_new(d);
    cr_assert_eq(jdoc_cursor_first_child(c), JDOC_OK);
    cr_expect_eq(jdoc_cursor_first_child(c), JDOC_ERR_NOT_FOUND);
    n = 0;
    cr_expect_eq(jdoc_cursor_each_child(c, count_leaf, &n), JDOC_OK);
    cr_expect_eq(n, 0);
    cr_expect_eq(jdoc_cursor_move(c, "x"), JDOC_ERR_NOT_FOUND);
    cr_expect_eq(jdoc_cursor_move(c, "/1/1"), JDOC_ERR_NOT_FOUND);
    cr_expect_eq(jdoc_cursor_move(c, "/\xff/\\"), JDOC_ERR_NOT_FOUND);
    jdoc_cursor_free(c);
}

/* Answer: jdoc_explain on a string with a bad escape is JDOC_ERR_STRING at
 * the backslash; on a token that is not a value JDOC_ERR_SYNTAX "not a JSON
 * value"; on a container met malformed on the way JDOC_ERR_SYNTAX; ".."
 * above the root JDOC_ERR_NOT_FOUND; a step into a scalar "not a container". */
Test(errors, explain_bad_escape_and_non_values)
{
    const char *doc = "{\"s\":\"ab\\qc\",\"t\":tru,\"u\":\"\\ud800\",\"m\":[1 2],\"n\":-,\"x\":1}";
    jdoc_doc *d = open_doc(doc);
    jdoc_value r = jdoc_root(d);
    jdoc_error e;
    char where[64];
    cr_expect_eq(jdoc_explain(r, "/s", 2, JDOC_SYNTAX_OJ, &e, where, sizeof where), JDOC_ERR_STRING);
    cr_expect_str_eq(e.message, "bad escape in string");
    cr_expect_eq(e.offset, (size_t)(strstr(doc, "\\q") - doc));
    cr_expect_str_eq(where, "/s");
    cr_expect_eq(jdoc_explain(r, "/u", 2, JDOC_SYNTAX_OJ, &e, where, sizeof where), JDOC_ERR_STRING);
    cr_expect_eq(e.offset, (size_t)(strstr(doc, "\\ud800") - doc));
    cr_expect_eq(jdoc_explain(r, "/t", 2, JDOC_SYNTAX_OJ, &e, where, sizeof where), JDOC_ERR_SYNTAX);
    cr_expect_str_eq(e.message, "not a JSON value");
    cr_expect_eq(e.offset, (size_t)(strstr(doc, "tru") - doc));
    cr_expect_eq(jdoc_explain(r, "/n", 2, JDOC_SYNTAX_OJ, &e, where, sizeof where), JDOC_ERR_NUMBER);
    cr_expect_str_eq(e.message, "malformed number");
    cr_expect_eq(jdoc_explain(r, "/m/2", 4, JDOC_SYNTAX_OJ, &e, where, sizeof where), JDOC_ERR_SYNTAX);
    cr_expect_str_eq(e.message, "malformed container on the path");
    cr_expect_str_eq(where, "/m");
    cr_expect_eq(jdoc_explain(r, "/x/1", 4, JDOC_SYNTAX_OJ, &e, where, sizeof where), JDOC_ERR_NOT_FOUND);
    cr_expect_str_eq(e.message, "not a container");
    cr_expect_eq(jdoc_explain(r, "..", 2, JDOC_SYNTAX_OJ, &e, where, sizeof where), JDOC_ERR_NOT_FOUND);
    cr_expect_str_eq(e.message, "'..' above the root");
    cr_expect_eq(jdoc_explain(r, "/m/x", 4, JDOC_SYNTAX_OJ, &e, where, sizeof where), JDOC_ERR_NOT_FOUND);
    cr_expect_str_eq(e.message, "not an index into an array");
    cr_expect_eq(jdoc_explain(r, "/a~2", 4, JDOC_SYNTAX_POINTER, &e, where, sizeof where), JDOC_ERR_PATH);
    cr_expect_str_eq(e.message, "malformed path");
    cr_expect_eq(jdoc_explain(r, NULL, 1, JDOC_SYNTAX_OJ, &e, where, sizeof where), JDOC_ERR_ARG);
    /* the getters agree */
    jdoc_value v;
    const char *s;
    size_t n;
    cr_assert_eq(jdoc_fetch(r, "/s", &v), JDOC_OK);
    cr_expect_eq(jdoc_get_string(v, &s, &n), JDOC_ERR_STRING);
    cr_assert_eq(jdoc_fetch(r, "/t", &v), JDOC_OK);
    cr_expect_eq(jdoc_typeof(v), JDOC_INVALID);
    bool b;
    cr_expect_eq(jdoc_get_bool(v, &b), JDOC_ERR_SYNTAX);
    cr_expect_eq(jdoc_validate(d), JDOC_ERR_STRING);
}

/* Answer: iteration over a damaged container stops with it->status
 * JDOC_ERR_SYNTAX after the elements before the damage; jdoc_count counts
 * those. */
Test(errors, iteration_stops_at_damage)
{
    static const struct {
        const char *doc;
        int before;
    } cases[] = {
        { "[1,]", 0 }, { "{\"a\":1,}", 0 }, { "[1,2 3]", 1 }, { "[1,,2]", 1 }, { "{\"a\":1,\"b\"}", 1 },
        { "{\"a\":1,\"b\":}", 1 }, { "{\"a\":1 \"b\":2}", 0 }, { "{1:2}", 0 }, { "[:]", 0 },
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        jdoc_doc *d = open_doc(cases[i].doc);
        jdoc_iter it;
        jdoc_value v;
        cr_assert_eq(jdoc_iter_init(jdoc_root(d), &it), JDOC_OK);
        int n = 0;
        while (jdoc_iter_next(&it, &v))
            n++;
        cr_expect_eq(it.status, JDOC_ERR_SYNTAX, "%s", cases[i].doc);
        cr_expect_eq(n, cases[i].before, "%s: %d elements", cases[i].doc, n);
        cr_expect_not(jdoc_iter_next(&it, &v), "%s: goes on after the damage", cases[i].doc);
        cr_expect_eq(jdoc_count(jdoc_root(d)), (size_t)cases[i].before, "%s", cases[i].doc);
    }
}

/* Answer: a literal must end at a delimiter: `truex`, `nullnull`, `false0`
 * are not values (JDOC_INVALID, JDOC_ERR_SYNTAX from jdoc_get_bool), a
 * literal at the very end of the input is one. */
Test(errors, literals_end_at_a_delimiter)
{
    jdoc_doc *d = open_doc("[truex,nullnull,false0,true,null,false]");
    jdoc_iter it;
    jdoc_value v;
    bool b;
    static const jdoc_type want[] = { JDOC_INVALID, JDOC_INVALID, JDOC_INVALID, JDOC_BOOL, JDOC_NULL, JDOC_BOOL };
    cr_assert_eq(jdoc_iter_init(jdoc_root(d), &it), JDOC_OK);
    for (int i = 0; jdoc_iter_next(&it, &v); i++) {
        cr_expect_eq(jdoc_typeof(v), want[i], "element %d: %s", i, jdoc_type_name(jdoc_typeof(v)));
        if (want[i] == JDOC_INVALID)
            cr_expect_eq(jdoc_get_bool(v, &b), JDOC_ERR_SYNTAX, "element %d", i);
    }
    cr_expect_eq(jdoc_validate(d), JDOC_ERR_SYNTAX);
    d = open_doc("true");
    cr_expect_eq(jdoc_typeof(jdoc_root(d)), JDOC_BOOL);
    cr_expect_eq(jdoc_get_bool(jdoc_root(d), &b), JDOC_OK);
    cr_expect(b);
}

/* Answer: a handle made by hand (jdoc_value's fields are visible) on an
 * entry that is not a value, or on a value behind damage no walk gets past:
 * ".." is JDOC_ERR_NOT_FOUND, jdoc_path_of gives the steps down to where its
 * search stopped ("" when that is the root); nothing crashes. */
Test(errors, parent_of_handles_made_by_hand)
{
    jdoc_doc *d = open_doc("{\"a\":[1,2]}");
    jdoc_value r = jdoc_root(d), v = r, w;
    char buf[32];
    /* entries: { "a : [ 1 , 2 ] } : the colon (2) and the comma (5) */
    for (uint32_t e = 0; e < (uint32_t)jdoc_doc_index_size(d); e++) {
        v.idx = e;
        jdoc_status st = jdoc_fetch(v, "..", &w);
        if (e == 2 || e == 5) {
            cr_expect_eq(st, JDOC_ERR_NOT_FOUND, "entry %u", e);
            jdoc_path_of(v, JDOC_SYNTAX_OJ, buf, sizeof buf);
            cr_expect_str_eq(buf, e == 2 ? "" : "/a", "entry %u: %s", e, buf);
        }
    }
    /* [1 2, 3]: the walk stops at the missing comma; 3's parent is not found */
    d = open_doc("[1 2, 3]");
    v = jdoc_root(d);
    v.idx = 4;
    cr_assert_eq(jdoc_get_raw(v, &(const char *){ 0 }, &(size_t){ 0 }), JDOC_OK);
    cr_expect_eq(jdoc_fetch(v, "..", &w), JDOC_ERR_NOT_FOUND);
    cr_expect_eq(jdoc_fetch(v, "../1", &w), JDOC_ERR_NOT_FOUND);
}
