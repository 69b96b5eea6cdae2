/* SPDX-License-Identifier: MIT */
/* Inputs that end right before an unreadable page: no entry point of the
 * library reads past the input. */
#include "limits.h"

/* ======================================================================== */
/* Inputs that end at an unreadable page                                    */
/* ======================================================================== */

static void read_everything(jdoc_doc *d)
{
    char buf[256];
    jdoc_value root = jdoc_root(d);
    jdoc_validate(d);
    jdoc_dump(root, buf, sizeof buf);
    jdoc_iter it;
    jdoc_value vals[32];
    size_t n = 0;
    vals[n++] = root;
    if (jdoc_iter_init(root, &it) == JDOC_OK)
        while (n < 32 && jdoc_iter_next(&it, &vals[n]))
            n++;
    for (size_t i = 0; i < n; i++) {
        jdoc_value v = vals[i];
        bool b;
        int64_t x;
        uint64_t u;
        double f;
        const char *s;
        size_t l;
        jdoc_typeof(v);
        jdoc_get_bool(v, &b);
        jdoc_get_int64(v, &x);
        jdoc_get_uint64(v, &u);
        jdoc_get_double(v, &f);
        jdoc_get_string(v, &s, &l);
        jdoc_get_raw(v, &s, &l);
        jdoc_dump(v, buf, sizeof buf);
        jdoc_path_of(v, JDOC_SYNTAX_OJ, buf, sizeof buf);
        jdoc_error e;
        jdoc_explain(root, "/1", 2, JDOC_SYNTAX_OJ, &e, buf, sizeof buf);
    }
    /* several paths at once: the member keys compared a word at a time */
    jdoc_path *many[3] = { jdoc_path_compile("a", 1, JDOC_SYNTAX_OJ, NULL), jdoc_path_compile("b", 1, JDOC_SYNTAX_OJ, NULL),
                           jdoc_path_compile("k", 1, JDOC_SYNTAX_OJ, NULL) };
    for (size_t i = 0; i < n; i++) {
        jdoc_value got[3];
        jdoc_fetch_many(vals[i], (const jdoc_path *const *)many, 3, got, NULL);
    }
    for (int i = 0; i < 3; i++)
        jdoc_path_free(many[i]);
    jdoc_cursor *c = jdoc_cursor_new(d);
    size_t leaves = 0;
    jdoc_cursor_each_leaf(c, count_cb, &leaves);
    jdoc_cursor_free(c);
    /* a descendant segment of one name: a whole container scanned at once */
    jdoc_query *q = jdoc_query_compile("$..k", 4, NULL, NULL);
    jdoc_query_iter *qi = jdoc_query_iter_new(q, root, NULL);
    while (jdoc_query_iter_next(qi, NULL))
        jdoc_query_iter_path(qi, buf, sizeof buf);
    jdoc_query_iter_free(qi);
    jdoc_query_free(q);
}

/* Answer: no entry point reads past the input: parse (every kernel, UTF-8
 * checked or trusted), validate, every getter, dump, path_of, explain,
 * fetch_many, the cursor, and streams, on documents and fragments that end right before a
 * PROT_NONE page, each preceded by 0..70 spaces (so every SIMD tail length). */
Test(page_end, every_entry_point_that_reads_input)
{
    static const char *docs[] = {
        "[1,\"a\\u00e9\",true,{\"k\":-2.5e3},null,\"\xe2\x82\xac\"]", "123", "-0.5e-7", "true", "null", "false",
        "\"str\\n\"", "\"\xf0\x9f\x98\x80\"", "{\"a\":\"\\\\\"}", "[1,2", "\"abc", "tru", "1e", "\"\xe2\x82",
        "{\"a\":", "[1, 12345678901234567890123", "\"\\u12", "[\"\\", "1 2", "{\"a\":1}{\"b\":2}",
    };
    int checked = 0;
    for (int k = JDOC_KERNEL_SCALAR; k < JDOC_KERNEL_COUNT; k++) {
        if (!jdoc_kernel_supported((jdoc_kernel_id)k)) {
            tu_note_kernel_skip((jdoc_kernel_id)k);
            continue;
        }
        for (int trust = 0; trust < 2; trust++) {
            jdoc_parser *p = parser_k((jdoc_kernel_id)k, 0, trust);
            for (size_t i = 0; i < sizeof docs / sizeof *docs; i++) {
                size_t dl = strlen(docs[i]);
                for (size_t pad = 0; pad <= 70; pad += slow_env() ? 7 : 1) {
                    char *src = malloc(pad + dl);
                    memset(src, ' ', pad);
                    memcpy(src + pad, docs[i], dl);
                    pagebuf pb;
                    const char *in = page_end(&pb, src, pad + dl);
                    jdoc_doc *d;
                    if (jdoc_parse(p, in, pad + dl, &d) == JDOC_OK)
                        read_everything(d);
                    jdoc_status st;
                    jdoc_stream_begin(p, in, pad + dl);
                    while (jdoc_stream_next(p, &d, &st))
                        if (st == JDOC_OK)
                            read_everything(d);
                    page_free(&pb);
                    free(src);
                    checked++;
                }
            }
            jdoc_parser_free(p);
        }
    }
    cr_expect_gt(checked, 100);
}

/* Answer: a descendant query scans the bytes of the container it starts
 * from, up to its last byte and no further, whatever that container's
 * length (the whitespace inside it varies it over 64 lengths). */
Test(page_end, descendant_scan)
{
    static const char tail[] = "\"p\":[0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19],\"k\":{\"k\" :[{\"k\":1}]}}";
    int checked = 0;
    for (int k = JDOC_KERNEL_SCALAR; k < JDOC_KERNEL_COUNT; k++) {
        if (!jdoc_kernel_supported((jdoc_kernel_id)k))
            continue;
        jdoc_parser *p = parser_k((jdoc_kernel_id)k, 0, 0);
        for (size_t ws = 0; ws < 64; ws++) {
            size_t n = 1 + ws + strlen(tail);
            char *src = malloc(n);
            src[0] = '{';
            memset(src + 1, ' ', ws);
            memcpy(src + 1 + ws, tail, strlen(tail));
            pagebuf pb;
            const char *in = page_end(&pb, src, n);
            jdoc_doc *d;
            cr_assert_eq(jdoc_parse(p, in, n, &d), JDOC_OK);
            jdoc_query *q = jdoc_query_compile("$..k", 4, NULL, NULL);
            jdoc_query_iter *qi = jdoc_query_iter_new(q, jdoc_root(d), NULL);
            int nodes = 0;
            while (jdoc_query_iter_next(qi, NULL))
                nodes++;
            cr_assert_eq(nodes, 3);
            jdoc_query_iter_free(qi);
            jdoc_query_free(q);
            page_free(&pb);
            free(src);
            checked++;
        }
        jdoc_parser_free(p);
    }
    cr_expect_gt(checked, 63);
}
