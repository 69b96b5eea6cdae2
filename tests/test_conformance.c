/* SPDX-License-Identifier: MIT */
/* JSONTestSuite and JSONChecker: y_ parse and validate, n_ fail one of them,
 * i_ get the same answer from every kernel this CPU runs. */
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

/* Every file on every kernel this CPU runs, checked by name: y_ (and the
 * jsonchecker pass files) accepted, n_ (fail files) rejected, i_ answered
 * the same way (status and offset) by every kernel. Returns the number of
 * files of each verdict, counted once per file (not per kernel). */
static void run_dir(const char *dir, bool checker, int *counts)
{
    char **list = tu_list(dir);
    cr_assert(list);
    jdoc_parser *ps[JDOC_KERNEL_COUNT] = { 0 };
    int nk = 0;
    for (int k = JDOC_KERNEL_SCALAR; k < JDOC_KERNEL_COUNT; k++) {
        if (!jdoc_kernel_supported((jdoc_kernel_id)k)) {
            tu_note_kernel_skip((jdoc_kernel_id)k);
            continue;
        }
        ps[nk++] = tu_parser((jdoc_kernel_id)k);
        cr_assert_not_null(ps[nk - 1]);
    }
    cr_assert_str_eq(jdoc_kernel_name(ps[0]), "scalar");
    for (char **f = list; *f; f++) {
        char *name = strrchr(*f, '/') + 1;
        if (checker && strstr(name, ".ndjson"))
            continue;     /* document streams, tested with the stream API */
        size_t len;
        char *b = tu_read(*f, &len);
        cr_assert(b, "%s", *f);
        bool want_ok = checker ? strncmp(name, "pass", 4) == 0 || checker_valid(name) : name[0] == 'y';
        bool defined = checker || name[0] == 'y' || name[0] == 'n';
        jdoc_status st0 = JDOC_OK;
        size_t off0 = 0;
        for (int i = 0; i < nk; i++) {
            jdoc_parser *p = ps[i];
            jdoc_status st;
            int ok = verdict(p, b, len, &st);
            const jdoc_error *e = jdoc_last_error(p);
            size_t off = ok ? 0 : e->offset;
            if (defined && want_ok)
                cr_expect(ok, "[%s] %s rejected: %s (%s at %zu)", jdoc_kernel_name(p), name, jdoc_status_str(st),
                          e->message, e->offset);
            else if (defined)
                cr_expect(!ok, "[%s] %s accepted", jdoc_kernel_name(p), name);
            if (!ok)
                cr_expect_leq(e->offset, len, "[%s] %s: offset %zu past the end", jdoc_kernel_name(p), name, off);
            if (i == 0) {
                st0 = st;
                off0 = off;
            } else {
                /* every kernel gives every file the scalar kernel's answer */
                cr_expect(st == st0 && off == off0, "[%s] %s: %s at %zu, scalar: %s at %zu", jdoc_kernel_name(p),
                          name, jdoc_status_str(st), off, jdoc_status_str(st0), off0);
            }
        }
        counts[defined ? want_ok : 2]++;
        free(b);
    }
    for (int i = 0; i < nk; i++)
        jdoc_parser_free(ps[i]);
    tu_free_list(list);
}

/* JSONTestSuite: 95 y_, 188 n_ and 35 i_ files */
Test(conformance, jsontestsuite)
{
    TU_REQUIRE_CORPUS();
    int counts[3] = { 0, 0, 0 };
    run_dir(CORPUS "/conformance/jsontestsuite", false, counts);
    cr_expect_geq(counts[1], 90, "%d y_ files", counts[1]);
    cr_expect_geq(counts[0], 180, "%d n_ files", counts[0]);
    cr_expect_geq(counts[2], 30, "%d i_ files", counts[2]);
}

Test(conformance, jsonchecker)
{
    TU_REQUIRE_CORPUS();
    int counts[3] = { 0, 0, 0 };
    run_dir(CORPUS "/conformance/jsonchecker", true, counts);
    cr_expect_geq(counts[1], 20, "%d valid files", counts[1]);
    cr_expect_geq(counts[0], 20, "%d invalid files", counts[0]);
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
