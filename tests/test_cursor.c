/* SPDX-License-Identifier: MIT */
/* The Oj::Doc cursor, dump, path_of and explain, checked against Oj::Doc's
 * documented results. */
#include <criterion/criterion.h>
#include "testutil.h"

/* jdoc_cursor_fetch writes the cursor's scratch frames: its signature says so. */
_Static_assert(_Generic(&jdoc_cursor_fetch, jdoc_status (*)(jdoc_cursor *, const char *, jdoc_value *): 1, default: 0),
               "jdoc_cursor_fetch takes a non-const cursor");

static jdoc_parser *P;
static jdoc_doc *D;
static jdoc_cursor *C;

static void open_doc(const char *s)
{
    if (!P)
        P = jdoc_parser_new(NULL);
    jdoc_cursor_free(C);
    cr_assert_eq(jdoc_parse(P, s, strlen(s), &D), JDOC_OK, "%s", s);
    C = jdoc_cursor_new(D);
    cr_assert_not_null(C);
}
static void fini(void)
{
    jdoc_cursor_free(C);
    C = NULL;
    jdoc_parser_free(P);
    P = NULL;
}
TestSuite(cursor, .fini = fini);

static void expect_where(const char *want)
{
    char buf[256];
    size_t n = jdoc_cursor_where(C, buf, sizeof buf);
    cr_expect_str_eq(buf, want);
    cr_expect_eq(n, strlen(want));
}
static void expect_dump(jdoc_value v, const char *want)
{
    char buf[256];
    size_t n = jdoc_dump(v, buf, sizeof buf);
    cr_expect_str_eq(buf, want);
    cr_expect_eq(n, strlen(want));
}

Test(cursor, oj_doc_examples)
{
    /* Oj::Doc.open('{"one":[1,2]') { |doc| doc.move('/one/2'); doc.where? }  #=> "/one/2" */
    open_doc("{\"one\":[1,2]}");
    cr_assert_eq(jdoc_cursor_move(C, "/one/2"), JDOC_OK);
    expect_where("/one/2");
    uint64_t idx;
    const char *k;
    size_t kl;
    cr_assert_eq(jdoc_cursor_local_key(C, &k, &kl, &idx), JDOC_OK);
    cr_expect_eq(idx, 2);
    cr_expect_null(k);
    /* home; where? #=> "/" ; local_key at root is nil */
    jdoc_cursor_home(C);
    expect_where("/");
    cr_expect_eq(jdoc_cursor_local_key(C, &k, &kl, &idx), JDOC_ERR_NOT_FOUND);
    cr_assert_eq(jdoc_cursor_move(C, "one"), JDOC_OK);
    cr_assert_eq(jdoc_cursor_local_key(C, &k, &kl, &idx), JDOC_OK);
    cr_expect(kl == 3 && memcmp(k, "one", 3) == 0);
    /* relative fetch with '..' from the cursor */
    jdoc_value v;
    cr_assert_eq(jdoc_cursor_fetch(C, "2", &v), JDOC_OK);
    expect_dump(v, "2");
    cr_assert_eq(jdoc_cursor_fetch(C, "../one/1", &v), JDOC_OK);
    expect_dump(v, "1");
    cr_expect_eq(jdoc_cursor_fetch(C, "../../x", &v), JDOC_ERR_NOT_FOUND);
    expect_where("/one");   /* fetch does not move */
    /* a failed move does not move */
    cr_expect_eq(jdoc_cursor_move(C, "3"), JDOC_ERR_NOT_FOUND);
    expect_where("/one");
    cr_assert_eq(jdoc_cursor_move(C, ".."), JDOC_OK);
    expect_where("/");
    cr_expect_eq(jdoc_cursor_move(C, ".."), JDOC_ERR_NOT_FOUND);
}

typedef struct acc {
    char text[1024];
} acc;

static int record_leaf(jdoc_cursor *c, void *ud)
{
    acc *a = ud;
    char w[128], d[128];
    jdoc_cursor_where(c, w, sizeof w);
    jdoc_dump(jdoc_cursor_value(c), d, sizeof d);
    snprintf(a->text + strlen(a->text), sizeof a->text - strlen(a->text), "%s=%s;", w, d);
    return 0;
}

Test(cursor, each_leaf_and_each_child)
{
    /* Oj::Doc.open('[3,[2,1]]') each_leaf: "/1" => 3, "/2/1" => 2, "/2/2" => 1 */
    open_doc("[3,[2,1]]");
    acc a = { "" };
    cr_assert_eq(jdoc_cursor_each_leaf(C, record_leaf, &a), JDOC_OK);
    cr_expect_str_eq(a.text, "/1=3;/2/1=2;/2/2=1;");
    expect_where("/");
    /* each_child('/2') yields /2/1 and /2/2 */
    cr_assert_eq(jdoc_cursor_move(C, "/2"), JDOC_OK);
    a.text[0] = 0;
    cr_assert_eq(jdoc_cursor_each_child(C, record_leaf, &a), JDOC_OK);
    cr_expect_str_eq(a.text, "/2/1=2;/2/2=1;");
    expect_where("/2");
    /* empty containers are not leaves; keys with '/' are escaped in where */
    open_doc("{\"a/b\":{\"c\":[]},\"d\":{},\"e\":[[],[null]],\"f\":\"x\"}");
    a.text[0] = 0;
    cr_assert_eq(jdoc_cursor_each_leaf(C, record_leaf, &a), JDOC_OK);
    cr_expect_str_eq(a.text, "/e/2/1=null;/f=\"x\";");
    cr_assert_eq(jdoc_cursor_move(C, "/a\\/b/c"), JDOC_OK);
    expect_where("/a\\/b/c");
    /* a scalar root is its own leaf */
    open_doc("42");
    a.text[0] = 0;
    cr_assert_eq(jdoc_cursor_each_leaf(C, record_leaf, &a), JDOC_OK);
    cr_expect_str_eq(a.text, "/=42;");
}

static int stop_at_two(jdoc_cursor *c, void *ud)
{
    (void)c;
    return ++*(int *)ud == 2;
}

/* each_leaf on a 1000-deep document: one leaf, with its whole path */
typedef struct deep_seen {
    int leaves;
    size_t depth, where_len;
    bool where_ok;
    char value[16];
} deep_seen;

static int deep_leaf(jdoc_cursor *c, void *ud)
{
    deep_seen *s = ud;
    char w[2100];
    s->leaves++;
    s->depth = jdoc_cursor_depth(c);
    s->where_len = jdoc_cursor_where(c, w, sizeof w);
    s->where_ok = s->where_len == 2000;
    for (size_t i = 0; s->where_ok && i < 2000; i += 2)
        s->where_ok = w[i] == '/' && w[i + 1] == '1';
    jdoc_dump(jdoc_cursor_value(c), s->value, sizeof s->value);
    return 0;
}

Test(cursor, stopping_and_deep_documents)
{
    open_doc("[1,2,3,4]");
    int n = 0;
    cr_assert_eq(jdoc_cursor_each_leaf(C, stop_at_two, &n), JDOC_OK);
    cr_expect_eq(n, 2);
    expect_where("/");
    n = 0;
    cr_assert_eq(jdoc_cursor_each_child(C, stop_at_two, &n), JDOC_OK);
    cr_expect_eq(n, 2);
    expect_where("/");
    /* a key that does not decode: path_of writes its raw text */
    open_doc("{\"a\\x\":[1]}");
    jdoc_value v;
    char buf[32];
    jdoc_iter it;
    cr_assert_eq(jdoc_iter_init(jdoc_root(D), &it), JDOC_OK);
    cr_assert(jdoc_iter_next(&it, &v));
    cr_expect_eq(jdoc_path_of(v, JDOC_SYNTAX_OJ, buf, sizeof buf), 5);
    cr_expect_str_eq(buf, "/a\\\\x");
    cr_expect_eq(jdoc_path_of(v, JDOC_SYNTAX_POINTER, buf, sizeof buf), 4);
    cr_expect_str_eq(buf, "/a\\x");
    /* 1000 levels: no recursion, where? is long */
    char deep[2100];
    memset(deep, '[', 1000);
    deep[1000] = '7';
    memset(deep + 1001, ']', 1000);
    deep[2001] = 0;
    open_doc(deep);
    deep_seen s = { 0 };
    cr_assert_eq(jdoc_cursor_each_leaf(C, deep_leaf, &s), JDOC_OK);
    cr_expect_eq(s.leaves, 1);
    cr_expect_eq(s.depth, 1000);
    cr_expect_eq(s.where_len, 2000);
    cr_expect(s.where_ok, "where? of the leaf is not \"/1\" 1000 times");
    cr_expect_str_eq(s.value, "7");
    cr_expect_eq(jdoc_cursor_where(C, NULL, 0), 1);
    /* and back down by the path where? gave */
    char *w = malloc(2001);
    cr_assert_eq(jdoc_cursor_move(C, "/1"), JDOC_OK);
    jdoc_cursor_home(C);
    for (int i = 0; i < 1000; i++)
        memcpy(w + 2 * i, "/1", 2);
    w[2000] = 0;
    cr_assert_eq(jdoc_cursor_move(C, w), JDOC_OK);
    cr_expect_eq(jdoc_cursor_depth(C), 1000);
    expect_dump(jdoc_cursor_value(C), "7");
    free(w);
}

/* A callback that leaves the cursor one level up (against the contract):
 * each_leaf puts it back at the leaf's depth and the walk goes on. */
static int leaf_then_up(jdoc_cursor *c, void *ud)
{
    record_leaf(c, ud);
    jdoc_cursor_up(c);
    return 0;
}

Test(cursor, each_leaf_restores_the_depth)
{
    open_doc("[[1,2],{\"a\":[3]},4]");
    acc a = { "" };
    cr_assert_eq(jdoc_cursor_each_leaf(C, leaf_then_up, &a), JDOC_OK);
    cr_expect_str_eq(a.text, "/1/1=1;/1/2=2;/2/a/1=3;/3=4;");
    expect_where("/");
    /* a key with a backslash is written \\ in where?, so the path leads back */
    open_doc("{\"a\\\\b\":{\"c/d\":5}}");
    a.text[0] = 0;
    cr_assert_eq(jdoc_cursor_each_leaf(C, record_leaf, &a), JDOC_OK);
    cr_expect_str_eq(a.text, "/a\\\\b/c\\/d=5;");
    cr_assert_eq(jdoc_cursor_move(C, "/a\\\\b/c\\/d"), JDOC_OK);
    expect_dump(jdoc_cursor_value(C), "5");
}

Test(cursor, dump_path_of_and_explain)
{
    open_doc(" { \"a\" : [ 1 , \"x y\" , { \"b/c\" : null , \"~\" : [ ] } ] , \"n\" : 01 } ");
    jdoc_value r = jdoc_root(D), v;
    expect_dump(r, "{\"a\":[1,\"x y\",{\"b/c\":null,\"~\":[]}],\"n\":01}");
    char small[8];
    cr_expect_eq(jdoc_dump(r, small, sizeof small), 42);
    cr_expect_str_eq(small, "{\"a\":[1");
    char buf[128];
    cr_assert_eq(jdoc_pointer(r, "/a/2/~0", 7, &v), JDOC_OK);
    jdoc_path_of(v, JDOC_SYNTAX_POINTER, buf, sizeof buf);
    cr_expect_str_eq(buf, "/a/2/~0");
    jdoc_path_of(v, JDOC_SYNTAX_OJ, buf, sizeof buf);
    cr_expect_str_eq(buf, "/a/3/~");
    cr_assert_eq(jdoc_fetch(r, "/a/3/b\\/c", &v), JDOC_OK);
    jdoc_path_of(v, JDOC_SYNTAX_OJ, buf, sizeof buf);
    cr_expect_str_eq(buf, "/a/3/b\\/c");
    jdoc_path_of(r, JDOC_SYNTAX_OJ, buf, sizeof buf);
    cr_expect_str_eq(buf, "/");
    jdoc_path_of(r, JDOC_SYNTAX_POINTER, buf, sizeof buf);
    cr_expect_str_eq(buf, "");
    jdoc_error e;
    cr_expect_eq(jdoc_explain(r, "/a/3/zz", 7, JDOC_SYNTAX_OJ, &e, buf, sizeof buf), JDOC_ERR_NOT_FOUND);
    cr_expect_str_eq(buf, "/a/3");
    cr_expect_str_eq(e.message, "no such member");
    cr_expect_eq(e.offset, strlen(" { \"a\" : [ 1 , \"x y\" , "));
    cr_expect_eq(jdoc_explain(r, "/a/9", 4, JDOC_SYNTAX_OJ, &e, buf, sizeof buf), JDOC_ERR_NOT_FOUND);
    cr_expect_str_eq(e.message, "index out of range");
    cr_expect_eq(jdoc_explain(r, "/n", 2, JDOC_SYNTAX_OJ, &e, buf, sizeof buf), JDOC_ERR_NUMBER);
    cr_expect_str_eq(buf, "/n");
    cr_expect_str_eq(e.path, "/n");
    cr_expect_eq(e.offset, strlen(" { \"a\" : [ 1 , \"x y\" , { \"b/c\" : null , \"~\" : [ ] } ] , \"n\" : 0"));
    cr_expect_eq(jdoc_explain(r, "/a/1", 4, JDOC_SYNTAX_OJ, &e, buf, sizeof buf), JDOC_OK);
    cr_expect_eq(jdoc_explain(r, "a~", 2, JDOC_SYNTAX_POINTER, &e, buf, sizeof buf), JDOC_ERR_PATH);
}
