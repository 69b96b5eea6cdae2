/* SPDX-License-Identifier: MIT */
/* JSONTestSuite and JSONChecker: y_ parse and validate, n_ fail one of them,
 * i_ get a defined answer; on every kernel this CPU runs. */
#include <criterion/criterion.h>
#include <libgen.h>
#include "testutil.h"

/* jsonchecker files named fail* that are valid RFC 8259 documents */
static bool checker_valid(const char *name)
{
    static const char *const valid[] = { "fail01_EXCLUDE.json", "fail18_EXCLUDE.json", "fail39_EXCLUDE.json",
                                         "fail41_toolarge.json", "fail60.json", "fail73.json" };
    for (size_t i = 0; i < sizeof valid / sizeof *valid; i++)
        if (strcmp(name, valid[i]) == 0)
            return true;
    return false;
}

/* 1 valid, 0 invalid (as jdoc says) */
static int verdict(jdoc_parser *p, const char *b, size_t len, jdoc_status *st)
{
    jdoc_doc *d;
    *st = jdoc_parse(p, b, len, &d);
    if (*st == JDOC_OK)
        *st = jdoc_validate(d);
    return *st == JDOC_OK;
}

static void run_dir(const char *dir, bool checker, int *counts)
{
    char **list = tu_list(dir);
    cr_assert(list);
    for (int k = JDOC_KERNEL_SCALAR; k < JDOC_KERNEL_COUNT; k++) {
        if (!jdoc_kernel_supported((jdoc_kernel_id)k)) {
            tu_note_kernel_skip((jdoc_kernel_id)k);
            continue;
        }
        jdoc_parser *p = tu_parser((jdoc_kernel_id)k);
        for (char **f = list; *f; f++) {
            char *name = strrchr(*f, '/') + 1;
            if (checker && strstr(name, ".ndjson"))
                continue;     /* document streams, tested with the stream API */
            size_t len;
            char *b = tu_read(*f, &len);
            cr_assert(b, "%s", *f);
            jdoc_status st;
            int ok = verdict(p, b, len, &st);
            const jdoc_error *e = jdoc_last_error(p);
            if (checker) {
                bool want = strncmp(name, "pass", 4) == 0 || checker_valid(name);
                cr_expect_eq(ok, want, "[%s] %s: %s (%s at %zu)", jdoc_kernel_name(p), name, jdoc_status_str(st),
                             e->message, e->offset);
            } else if (name[0] == 'y') {
                cr_expect(ok, "[%s] %s: %s (%s at %zu)", jdoc_kernel_name(p), name, jdoc_status_str(st), e->message,
                          e->offset);
            } else if (name[0] == 'n') {
                cr_expect(!ok, "[%s] %s accepted", jdoc_kernel_name(p), name);
            } else {
                cr_expect(st < JDOC_STATUS_COUNT);   /* i_: any defined answer */
                if (!ok)
                    cr_expect_leq(e->offset, len);
            }
            counts[name[0] == 'y' || strncmp(name, "pass", 4) == 0]++;
            free(b);
        }
        jdoc_parser_free(p);
    }
    tu_free_list(list);
}

Test(conformance, jsontestsuite)
{
    TU_REQUIRE_CORPUS();
    int counts[2] = { 0, 0 };
    run_dir(CORPUS "/conformance/jsontestsuite", false, counts);
    cr_expect_gt(counts[1], 90);
}

Test(conformance, jsonchecker)
{
    TU_REQUIRE_CORPUS();
    int counts[2] = { 0, 0 };
    run_dir(CORPUS "/conformance/jsonchecker", true, counts);
    cr_expect_gt(counts[1], 20);
}

Test(conformance, corpus_validates)
{
    TU_REQUIRE_CORPUS();
    const char *dirs[] = { CORPUS "/standard", CORPUS "/docker" };
    jdoc_parser *p = jdoc_parser_new(NULL);
    for (int i = 0; i < 2; i++) {
        char **list = tu_list(dirs[i]);
        for (char **f = list; *f; f++) {
            if (strstr(*f, ".ndjson") || strstr(*f, ".txt"))
                continue;
            size_t len;
            char *b = tu_read(*f, &len);
            jdoc_status st;
            cr_expect(verdict(p, b, len, &st), "%s: %s (%s at %zu)", *f, jdoc_status_str(st),
                      jdoc_last_error(p)->message, jdoc_last_error(p)->offset);
            free(b);
        }
        tu_free_list(list);
    }
    jdoc_parser_free(p);
}
