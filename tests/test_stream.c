/* SPDX-License-Identifier: MIT */
/* Document streams: NDJSON, concatenated JSON, damaged documents in the middle. */
#include <criterion/criterion.h>
#include <sys/mman.h>
#include <unistd.h>
#include "testutil.h"

typedef struct seen {
    int ok, bad;
    size_t offsets[64];
    jdoc_status codes[64];
} seen;

static void drain(jdoc_parser *p, const char *buf, size_t len, seen *s, const char *path)
{
    memset(s, 0, sizeof *s);
    cr_assert_eq(jdoc_stream_begin(p, buf, len), JDOC_OK);
    jdoc_doc *d;
    jdoc_status st;
    while (jdoc_stream_next(p, &d, &st)) {
        int k = s->ok + s->bad;
        if (st == JDOC_OK) {
            cr_assert_not_null(d);
            cr_expect_eq(jdoc_validate(d), JDOC_OK, "document %d invalid: %s", k + 1, jdoc_last_error(p)->message);
            if (path) {
                jdoc_value v;
                cr_expect_eq(jdoc_pointer(jdoc_root(d), path, strlen(path), &v), JDOC_OK, "document %d: %s", k + 1,
                             path);
            }
            s->ok++;
        } else {
            cr_assert_null(d);
            if (s->bad < 64) {
                s->offsets[s->bad] = jdoc_last_error(p)->offset;
                s->codes[s->bad] = st;
            }
            s->bad++;
        }
        cr_expect_eq(jdoc_stream_count(p), (size_t)(s->ok + s->bad));
        cr_assert_lt(s->ok + s->bad, 100000, "runaway stream");
    }
}

static void stream_str(const char *text, seen *s)
{
    size_t n = strlen(text);
    char *b = malloc(n ? n : 1);
    memcpy(b, text, n);
    for (int k = JDOC_KERNEL_SCALAR; k < JDOC_KERNEL_COUNT; k++) {
        if (!jdoc_kernel_supported((jdoc_kernel_id)k))
            continue;
        jdoc_parser *p = tu_parser((jdoc_kernel_id)k);
        seen t;
        drain(p, b, n, &t, NULL);
        if (k == JDOC_KERNEL_SCALAR)
            *s = t;
        else
            cr_expect(t.ok == s->ok && t.bad == s->bad && memcmp(t.offsets, s->offsets, sizeof t.offsets) == 0,
                      "[%s] differs from scalar on %s", jdoc_kernel_name(p), text);
        jdoc_parser_free(p);
    }
    free(b);
}

Test(stream, separators)
{
    seen s;
    stream_str("{\"a\":1}\n{\"a\":2}\n", &s);
    cr_expect_eq(s.ok, 2);
    stream_str("{\"a\":1}{\"a\":2}[3] 4 \"five\"true\n\n null", &s);
    cr_expect_eq(s.ok, 7);
    cr_expect_eq(s.bad, 0);
    stream_str("", &s);
    cr_expect_eq(s.ok + s.bad, 0);
    stream_str("  \n \n", &s);
    cr_expect_eq(s.ok + s.bad, 0);
}

Test(stream, damaged_documents_are_reported_and_skipped)
{
    seen s;
    /* mismatched bracket in the 2nd of 3 */
    stream_str("{\"a\":1}\n{\"a\":[2}\n{\"a\":3}\n", &s);
    cr_expect_eq(s.ok, 2);
    cr_expect_eq(s.bad, 1);
    cr_expect_eq(s.offsets[0], 15);
    cr_expect_eq(s.codes[0], JDOC_ERR_SYNTAX);
    /* an unterminated string runs to the end of the buffer: it swallows the line */
    stream_str("[1]\n[\"abc]\n[3]\n", &s);
    cr_expect_eq(s.ok, 2);
    cr_expect_eq(s.bad, 1);
    /* invalid UTF-8 in the middle */
    stream_str("[1]\n[\"\xff\"]\n[3]\n", &s);
    cr_expect_eq(s.ok, 2);
    cr_expect_eq(s.bad, 1);
    cr_expect_eq(s.codes[0], JDOC_ERR_UTF8);
    cr_expect_eq(s.offsets[0], 6);
    /* a proxy's text in the middle of an event stream */
    stream_str("{\"id\":1}\nInternal Server Error\n{\"id\":2}", &s);
    cr_expect_eq(s.ok, 2);
    cr_expect_eq(s.bad, 1);
    /* unclosed at the end */
    stream_str("[1]\n{\"a\":", &s);
    cr_expect_eq(s.ok, 1);
    cr_expect_eq(s.bad, 1);
    cr_expect_eq(s.offsets[0], 9);
    /* depth */
    char deep[3000];
    memset(deep, '[', 2000);
    strcpy(deep + 2000, "\n[1]\n");
    stream_str(deep, &s);
    cr_expect_eq(s.ok, 1);
    cr_expect_eq(s.bad, 1);
    cr_expect_eq(s.codes[0], JDOC_ERR_DEPTH);
    /* several errors, each reported once */
    stream_str("]\n[1]\n}\n[2]\n\xc0\n[3]", &s);
    cr_expect_eq(s.ok, 3);
    cr_expect_eq(s.bad, 3);
}

Test(stream, jsonchecker_streams)
{
    if (!tu_corpus_present())
        cr_skip_test("../shared/corpus not present");
    const char *files[] = { "pass01.ndjson", "pass02.ndjson", "fail01.ndjson" };
    jdoc_parser *p = jdoc_parser_new(NULL);
    for (int i = 0; i < 3; i++) {
        char path[256];
        snprintf(path, sizeof path, CORPUS "/conformance/jsonchecker/%s", files[i]);
        size_t len;
        char *b = tu_read(path, &len);
        seen s;
        drain(p, b, len, &s, NULL);
        if (i < 2)
            cr_expect(s.bad == 0 && s.ok > 0, "%s: %d ok %d bad", files[i], s.ok, s.bad);
        else
            cr_expect(s.bad > 0, "%s: no damaged document found", files[i]);
        free(b);
    }
    jdoc_parser_free(p);
}

Test(stream, docker_and_amazon_streams)
{
    if (!tu_corpus_present())
        cr_skip_test("../shared/corpus not present");
    struct {
        const char *file, *path;
        int docs;
    } cases[] = {
        { CORPUS "/docker/events.ndjson", "/Type", 8 },
        { CORPUS "/docker/image_pull.ndjson", "/status", 238 },
        { CORPUS "/docker/image_pull_concatenated.txt", "/status", -1 },
        { CORPUS "/standard/amazon_cellphones.ndjson", "", 793 },
    };
    for (int k = JDOC_KERNEL_SCALAR; k < JDOC_KERNEL_COUNT; k++) {
        if (!jdoc_kernel_supported((jdoc_kernel_id)k))
            continue;
        jdoc_parser *p = tu_parser((jdoc_kernel_id)k);
        for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
            size_t len;
            char *b = tu_read(cases[i].file, &len);
            cr_assert(b, "%s", cases[i].file);
            seen s;
            drain(p, b, len, &s, cases[i].path);
            cr_expect_eq(s.bad, 0, "%s", cases[i].file);
            if (cases[i].docs > 0)
                cr_expect_eq(s.ok, cases[i].docs, "%s: %d documents", cases[i].file, s.ok);
            else /* concatenated: as many documents as '{"status"' */
            {
                int n = 0;
                for (const char *q = b; (q = memmem(q, len - (size_t)(q - b), "{\"status\"", 9)); q++)
                    n++;
                cr_expect_eq(s.ok, n, "%s: %d documents, %d expected", cases[i].file, s.ok, n);
            }
            free(b);
        }
        jdoc_parser_free(p);
    }
}

Test(stream, ends_before_an_unreadable_page)
{
    long pg = sysconf(_SC_PAGESIZE);
    char *m = mmap(NULL, (size_t)pg * 2, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    cr_assert(m != MAP_FAILED);
    mprotect(m + pg, (size_t)pg, PROT_NONE);
    const char *text = "{\"a\":1}\n[2]\n3";
    size_t n = strlen(text);
    memcpy(m + pg - n, text, n);
    for (int k = JDOC_KERNEL_SCALAR; k < JDOC_KERNEL_COUNT; k++) {
        if (!jdoc_kernel_supported((jdoc_kernel_id)k))
            continue;
        jdoc_parser *p = tu_parser((jdoc_kernel_id)k);
        seen s;
        drain(p, m + pg - n, n, &s, NULL);
        cr_expect_eq(s.ok, 3);
        jdoc_parser_free(p);
    }
    munmap(m, (size_t)pg * 2);
}

Test(stream, parse_ends_a_stream)
{
    jdoc_parser *p = jdoc_parser_new(NULL);
    jdoc_doc *d;
    jdoc_status st;
    cr_assert_eq(jdoc_stream_begin(p, "1 2", 3), JDOC_OK);
    cr_assert(jdoc_stream_next(p, &d, &st));
    cr_assert_eq(jdoc_parse(p, "[]", 2, &d), JDOC_OK);
    cr_expect(!jdoc_stream_next(p, &d, &st));
    cr_expect_eq(st, JDOC_ERR_ARG);
    jdoc_parser_free(p);
}
