/* SPDX-License-Identifier: MIT */
/* Document streams: NDJSON, concatenated JSON, damaged documents in the middle. */
#include <criterion/criterion.h>
#include <sys/mman.h>
#include <unistd.h>
#include "internal.h"
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
        if (!jdoc_kernel_supported((jdoc_kernel_id)k)) {
            tu_note_kernel_skip((jdoc_kernel_id)k);
            continue;
        }
        jdoc_parser *p = tu_parser((jdoc_kernel_id)k);
        seen t;
        drain(p, b, n, &t, NULL);
        if (k == JDOC_KERNEL_SCALAR)
            *s = t;
        else
            cr_expect(t.ok == s->ok && t.bad == s->bad && memcmp(t.offsets, s->offsets, sizeof t.offsets) == 0 &&
                          memcmp(t.codes, s->codes, sizeof t.codes) == 0,
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
    /* a scalar ends where a structural character or a quote starts */
    stream_str("1[\"d\"]true\"a\"null{}-2.5[]", &s);
    cr_expect_eq(s.ok, 8);
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
    TU_REQUIRE_CORPUS();
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
    TU_REQUIRE_CORPUS();
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
        if (!jdoc_kernel_supported((jdoc_kernel_id)k)) {
            tu_note_kernel_skip((jdoc_kernel_id)k);
            continue;
        }
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
        if (!jdoc_kernel_supported((jdoc_kernel_id)k)) {
            tu_note_kernel_skip((jdoc_kernel_id)k);
            continue;
        }
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

/* A stream of several MB, so that documents, scalars, strings and damaged
 * documents fall across the 1 MiB indexing windows: every document comes out
 * exactly once, as jdoc_parse sees it alone, on every kernel. */
Test(stream, long_stream_across_windows, .timeout = 60)
{
    size_t cap = 5u << 20, len = 0;
    char *b = malloc(cap);
    uint64_t seed = 42;
    int expect_ok = 0, expect_bad = 0;
    size_t *starts = malloc(sizeof(size_t) * 200000), *ends = malloc(sizeof(size_t) * 200000);
    bool *bad = malloc(200000);
    int nd = 0;
    while (len + 4096 < cap) {
        uint64_t r = tu_rand(&seed);
        char doc[4096];
        int dl;
        switch (r % 8) {
        case 0: dl = snprintf(doc, sizeof doc, "%llu", (unsigned long long)(r >> 20)); break;
        case 1: dl = snprintf(doc, sizeof doc, "\"s\\\"%llu\\u00e9\"", (unsigned long long)(r >> 40)); break;
        case 2: dl = snprintf(doc, sizeof doc, "true"); break;
        case 3: {
            /* a big object: makes the windows fall inside documents */
            int k = (int)(r >> 8) % 200;
            dl = snprintf(doc, sizeof doc, "{\"id\":%d,\"v\":[", k);
            for (int i = 0; i < k && dl < 3900; i++)
                dl += snprintf(doc + dl, sizeof doc - (size_t)dl, "%s{\"x\":\"%d\"}", i ? "," : "", i);
            dl += snprintf(doc + dl, sizeof doc - (size_t)dl, "]}");
            break;
        }
        case 4:   /* damaged: a mismatched bracket, invalid UTF-8, an unterminated string */
            dl = snprintf(doc, sizeof doc, "%s",
                          (const char *[]){ "{\"a\":[1,2}", "[\"\xff\"]", "[\"abc" }[(r >> 5) % 3]);
            break;
        default: dl = snprintf(doc, sizeof doc, "[%llu,{\"k\":null}]", (unsigned long long)(r >> 30)); break;
        }
        bool dmg = r % 8 == 4;
        starts[nd] = len;
        memcpy(b + len, doc, (size_t)dl);
        len += (size_t)dl;
        ends[nd] = len;
        bad[nd++] = dmg;
        expect_bad += dmg;
        expect_ok += !dmg;
        /* separators: a newline after damaged documents (they resync at the
         * end of their line), else a newline, spaces, or nothing between
         * brackets */
        bool bracketed = doc[0] == '{' || doc[0] == '[';
        if (dmg || r % 3 == 0 || !bracketed)
            b[len++] = '\n';
        else if (r % 3 == 1)
            b[len++] = ' ';
    }
    char *exact = malloc(len);
    memcpy(exact, b, len);
    jdoc_parser *solo = jdoc_parser_new(NULL);
    for (int k = JDOC_KERNEL_SCALAR; k < JDOC_KERNEL_COUNT; k++) {
        if (!jdoc_kernel_supported((jdoc_kernel_id)k)) {
            tu_note_kernel_skip((jdoc_kernel_id)k);
            continue;
        }
        for (int wi = 0; wi < 3; wi++) {
        jdoc_parser *p = tu_parser((jdoc_kernel_id)k);
        /* the default 1 MiB window, and small ones: many window ends */
        static const size_t windows[3] = { 0, 64 * 1024, 192 };
        p->st.window = windows[wi];
        cr_assert_eq(jdoc_stream_begin(p, exact, len), JDOC_OK);
        jdoc_doc *d;
        jdoc_status st;
        int i = 0, fails = 0, good = 0;
        while (jdoc_stream_next(p, &d, &st) && fails < 5) {
            cr_assert_lt(i, nd, "[%s] more documents than written", jdoc_kernel_name(p));
            good += st == JDOC_OK;
            if (bad[i]) {
                /* the error jdoc_parse gives the document alone */
                jdoc_doc *alone;
                jdoc_status want = jdoc_parse(solo, exact + starts[i], ends[i] - starts[i], &alone);
                if (st == JDOC_OK || st != want) {
                    cr_expect_fail("[%s] document %d (damaged): %s, alone %s", jdoc_kernel_name(p), i + 1,
                                   jdoc_status_str(st), jdoc_status_str(want));
                    fails++;
                }
            } else if (st != JDOC_OK) {
                cr_expect_fail("[%s] document %d at %zu: %s at %zu", jdoc_kernel_name(p), i + 1, starts[i],
                               jdoc_last_error(p)->message, jdoc_last_error(p)->offset);
                fails++;
            } else {
                const char *raw;
                size_t rl;
                cr_assert_eq(jdoc_get_raw(jdoc_root(d), &raw, &rl), JDOC_OK);
                if (raw != exact + starts[i] || rl != ends[i] - starts[i] || jdoc_validate(d) != JDOC_OK) {
                    cr_expect_fail("[%s] document %d: got %zu bytes at %zu, want %zu at %zu", jdoc_kernel_name(p),
                                   i + 1, rl, (size_t)(raw - exact), ends[i] - starts[i], starts[i]);
                    fails++;
                }
            }
            i++;
        }
        cr_expect_eq(i, nd, "[%s] %d documents of %d (window %zu)", jdoc_kernel_name(p), i, nd, windows[wi]);
        cr_expect_eq(good, expect_ok, "[%s] %d good documents of %d (window %zu)", jdoc_kernel_name(p), good,
                     expect_ok, windows[wi]);
        jdoc_parser_free(p);
        }
    }
    cr_log_info("%d documents (%d damaged) in %zu bytes", nd, expect_bad, len);
    cr_expect_gt(len, (size_t)4 << 20);
    jdoc_parser_free(solo);
    free(exact);
    free(b);
    free(starts);
    free(ends);
    free(bad);
}

/* The first 8 documents of buf[0..n) read with indexing windows of `window`
 * bytes: each one's status, its offset (the error's for a damaged one) and
 * message (empty when whole); returns how many. */
static size_t first_docs(jdoc_parser *p, size_t window, const char *buf, size_t n, jdoc_status *sts, size_t *offs,
                         const char **msgs)
{
    p->st.window = window;
    cr_assert_eq(jdoc_stream_begin(p, buf, n), JDOC_OK);
    jdoc_doc *d;
    jdoc_status st;
    size_t c = 0;
    while (c < 8 && jdoc_stream_next(p, &d, &st)) {
        sts[c] = st;
        msgs[c] = st == JDOC_OK ? "" : jdoc_last_error(p)->message;
        offs[c++] = st == JDOC_OK ? jdoc_stream_offset(p) : jdoc_last_error(p)->offset;
    }
    return c;
}

/* A line whose token ends in a byte that cannot start UTF-8 (F8), with that
 * byte at every place against small indexing windows: a SIMD kernel sees the
 * bad byte only at the byte after it, which may lie in the next window, so
 * the token must not be judged before that byte is indexed. Every kernel
 * reports what the scalar kernel reports (found by fuzz_kernels). */
Test(stream, bad_utf8_token_at_a_window_end)
{
    char buf[512];
    for (int kid = JDOC_KERNEL_SSE42; kid < JDOC_KERNEL_COUNT; kid++) {
        if (!jdoc_kernel_supported((jdoc_kernel_id)kid))
            continue;
        jdoc_parser *ps = tu_parser(JDOC_KERNEL_SCALAR), *pk = tu_parser((jdoc_kernel_id)kid);
        for (size_t window = 64; window <= 256; window *= 2)
            for (size_t lead = 0; lead < 140; lead++) {
                size_t n = 0;
                memset(buf, ' ', lead);
                n = lead;
                n += (size_t)snprintf(buf + n, sizeof buf - n, "{\"x\":1}\n\xf8  \"T\": 1\n[2]\n\xf8\n3\n");
                jdoc_status sts[2][8];
                size_t offs[2][8], cnt[2];
                const char *msgs[2][8];
                cnt[0] = first_docs(ps, window, buf, n, sts[0], offs[0], msgs[0]);
                cnt[1] = first_docs(pk, window, buf, n, sts[1], offs[1], msgs[1]);
                cr_assert_eq(cnt[0], cnt[1], "%s window %zu lead %zu: %zu documents, scalar %zu",
                             pk->k->name, window, lead, cnt[1], cnt[0]);
                for (size_t i = 0; i < cnt[0]; i++)
                    cr_assert(sts[0][i] == sts[1][i] && offs[0][i] == offs[1][i],
                              "%s window %zu lead %zu document %zu: %s at %zu, scalar %s at %zu", pk->k->name,
                              window, lead, i + 1, jdoc_status_str(sts[1][i]), offs[1][i],
                              jdoc_status_str(sts[0][i]), offs[0][i]);
            }
        jdoc_parser_free(ps);
        jdoc_parser_free(pk);
    }
}

/* A byte that cannot be UTF-8 (FF) as the entry that shows a document
 * damaged, at every place against small indexing windows: a SIMD kernel
 * writes an entry for it (a scalar after a string, or a string's quote before
 * it) and sees the bad byte only with the next block, where the scalar kernel
 * stops at it. The damage found from such an entry is not the scalar kernel's
 * answer; every kernel reports the same status, offset and message (found by
 * fuzz_kernels: a ':' inside an array before the byte, a bare byte root). */
Test(stream, entry_at_a_bad_byte_at_a_window_end)
{
    static const char *const lines[] = {
        "[\"k\": false,\n  \"Dead\": false,\n  \"At\"\xff: 1]\n",   /* ':' in an array, then a scalar at FF */
        "\\\"\xff\xff\xff\xff 0]\n",                              /* a bare '\' root, then a string of FF */
        "{\"a\": 1 \"b\"\xff}\n",                                  /* a missing ',' found at FF's entry */
        "[1, 2]\xff\n",
        "[1, 2, \xf0\x9f\x98 3]\n",   /* a scalar at a 4-byte lead cut short: its entry 3 bytes before a window end */
        "[\"k\"\xe0\xa4: 1]\n",        /* a 3-byte lead cut short after a key */
        "[1, 2 \xf0\x9f\x98 3]\n",    /* a missing ',' found at the entry of a cut 4-byte lead */
    };
    char buf[512];
    for (int kid = JDOC_KERNEL_SSE42; kid < JDOC_KERNEL_COUNT; kid++) {
        if (!jdoc_kernel_supported((jdoc_kernel_id)kid))
            continue;
        jdoc_parser *ps = tu_parser(JDOC_KERNEL_SCALAR), *pk = tu_parser((jdoc_kernel_id)kid);
        for (size_t li = 0; li < sizeof lines / sizeof *lines; li++)
            for (size_t window = 64; window <= 256; window *= 2)
                for (size_t lead = 0; lead < 140; lead++) {
                    memset(buf, ' ', lead);
                    size_t n = lead + (size_t)snprintf(buf + lead, sizeof buf - lead, "%s[2]\n3\n", lines[li]);
                    jdoc_status sts[2][8];
                    size_t offs[2][8], cnt[2];
                    const char *msgs[2][8];
                    cnt[0] = first_docs(ps, window, buf, n, sts[0], offs[0], msgs[0]);
                    cnt[1] = first_docs(pk, window, buf, n, sts[1], offs[1], msgs[1]);
                    cr_assert_eq(cnt[0], cnt[1], "%s line %zu window %zu lead %zu: %zu documents, scalar %zu",
                                 pk->k->name, li, window, lead, cnt[1], cnt[0]);
                    cr_assert_geq(cnt[0], 3, "line %zu lead %zu: the documents after the damaged line", li, lead);
                    for (size_t i = 0; i < cnt[0]; i++)
                        cr_assert(sts[0][i] == sts[1][i] && offs[0][i] == offs[1][i] &&
                                      strcmp(msgs[0][i], msgs[1][i]) == 0,
                                  "%s line %zu window %zu lead %zu document %zu: %s at %zu (%s), scalar %s at %zu (%s)",
                                  pk->k->name, li, window, lead, i + 1, jdoc_status_str(sts[1][i]), offs[1][i],
                                  msgs[1][i], jdoc_status_str(sts[0][i]), offs[0][i], msgs[0][i]);
                }
        jdoc_parser_free(ps);
        jdoc_parser_free(pk);
    }
}
