/* SPDX-License-Identifier: MIT */
/* `make check-docker`: the C API on a Docker Engine answer. Usage:
 *   check_api FILE TSV
 * TSV (from expect.py, Python's json module): Oj path, JSON Pointer, kind,
 * payload per value. Every value is fetched three ways (jdoc_fetch, a
 * compiled path, jdoc_pointer) and read through its typed getter; the last
 * line is `FILE: N values x 3, M wrong`, and the exit status 1 when M > 0. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "jdoc.h"

static char *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "check_api: %s: %s\n", path, strerror(errno));
        exit(2);
    }
    size_t cap = 1 << 16, n = 0;
    char *b = malloc(cap);
    size_t r;
    while (b && (r = fread(b + n, 1, cap - n, f)) > 0) {
        n += r;
        if (n == cap)
            b = realloc(b, cap *= 2);
    }
    fclose(f);
    if (!b) {
        fputs("check_api: out of memory\n", stderr);
        exit(2);
    }
    *len = n;
    return b;
}

static int unhex(char c) { return c <= '9' ? c - '0' : c - 'a' + 10; }

/* Does v hold what the kind and payload say? NULL if so, else why not. */
static const char *check(jdoc_value v, char kind, const char *pay, char *why, size_t cap)
{
    jdoc_status st = JDOC_OK;
    switch (kind) {
    case 's': {
        const char *s;
        size_t n, want = strlen(pay) / 2;
        if ((st = jdoc_get_string(v, &s, &n)) != JDOC_OK)
            break;
        bool eq = n == want;
        for (size_t i = 0; eq && i < n; i++)
            eq = (unsigned char)s[i] == (unsigned)(unhex(pay[2 * i]) * 16 + unhex(pay[2 * i + 1]));
        if (!eq)
            snprintf(why, cap, "string '%.*s'", (int)(n < 200 ? n : 200), s);
        return eq ? NULL : why;
    }
    case 'i': {
        if (pay[0] != '-' && strtoull(pay, NULL, 10) > INT64_MAX) {
            uint64_t u;
            if ((st = jdoc_get_uint64(v, &u)) == JDOC_OK && u != strtoull(pay, NULL, 10))
                snprintf(why, cap, "uint64 %" PRIu64, u);
            else if (st == JDOC_OK)
                return NULL;
            break;
        }
        int64_t x;
        if ((st = jdoc_get_int64(v, &x)) != JDOC_OK)
            break;
        if (x != strtoll(pay, NULL, 10)) {
            snprintf(why, cap, "int64 %" PRId64, x);
            return why;
        }
        return NULL;
    }
    case 'd': {
        double x;
        if ((st = jdoc_get_double(v, &x)) != JDOC_OK)
            break;
        if (x != strtod(pay, NULL) || jdoc_typeof(v) != JDOC_DOUBLE) {
            snprintf(why, cap, "double %.17g (%s)", x, jdoc_type_name(jdoc_typeof(v)));
            return why;
        }
        return NULL;
    }
    case 'b': {
        bool b;
        if ((st = jdoc_get_bool(v, &b)) != JDOC_OK)
            break;
        if (b != (pay[0] == '1')) {
            snprintf(why, cap, "bool %d", b);
            return why;
        }
        return NULL;
    }
    case 'n':
        if (jdoc_typeof(v) == JDOC_NULL)
            return NULL;
        snprintf(why, cap, "a %s, not null", jdoc_type_name(jdoc_typeof(v)));
        return why;
    case 'a':
    case 'o':
        if (jdoc_typeof(v) == (kind == 'a' ? JDOC_ARRAY : JDOC_OBJECT) &&
            jdoc_count(v) == strtoull(pay, NULL, 10))
            return NULL;
        snprintf(why, cap, "a %s of %zu", jdoc_type_name(jdoc_typeof(v)), jdoc_count(v));
        return why;
    default:
        snprintf(why, cap, "unknown kind '%c' in the list", kind);
        return why;
    }
    snprintf(why, cap, "%s", jdoc_status_str(st));
    return why;
}

int main(int argc, char **argv)
{
    if (argc != 3) {
        fputs("usage: check_api FILE TSV\n", stderr);
        return 2;
    }
    size_t len, tlen;
    char *json = slurp(argv[1], &len);
    char *tsv = slurp(argv[2], &tlen);
    jdoc_parser *p = jdoc_parser_new(NULL);
    jdoc_doc *d;
    if (!p || jdoc_parse(p, json, len, &d) != JDOC_OK) {
        fprintf(stderr, "check_api: %s: %s\n", argv[1], p ? jdoc_last_error(p)->message : "no parser");
        return 1;
    }
    if (jdoc_validate(d) != JDOC_OK) {
        fprintf(stderr, "check_api: %s: invalid: %s\n", argv[1], jdoc_last_error(p)->message);
        return 1;
    }
    jdoc_value root = jdoc_root(d);
    size_t n = 0, bad = 0;
    for (char *line = tsv; line < tsv + tlen;) {
        char *nl = memchr(line, '\n', (size_t)(tsv + tlen - line));
        if (!nl)
            break;
        *nl = 0;
        char *f[4] = { line, NULL, NULL, NULL };
        for (int i = 1; i < 4; i++) {
            f[i] = strchr(f[i - 1], '\t');
            if (!f[i]) {
                fprintf(stderr, "check_api: %s: malformed line '%s'\n", argv[2], line);
                return 2;
            }
            *f[i]++ = 0;
        }
        line = nl + 1;
        n++;
        jdoc_status st;
        jdoc_path *cp = jdoc_path_compile(f[0], strlen(f[0]), JDOC_SYNTAX_OJ, &st);
        jdoc_value v[3];
        jdoc_status s[3];
        s[0] = jdoc_fetch(root, f[0], &v[0]);
        s[1] = cp ? jdoc_fetch_path(root, cp, &v[1]) : st;
        s[2] = jdoc_pointer(root, f[1], strlen(f[1]), &v[2]);
        jdoc_path_free(cp);
        static const char *const how[] = { "jdoc_fetch", "compiled path", "jdoc_pointer" };
        for (int k = 0; k < 3; k++) {
            char why[320];
            const char *w = s[k] == JDOC_OK ? check(v[k], f[2][0], f[3], why, sizeof why) : jdoc_status_str(s[k]);
            if (w) {
                if (bad++ < 20)
                    printf("FAIL: %s: %s %s: %s (json: kind %s, %.60s)\n", argv[1], how[k], k == 2 ? f[1] : f[0], w,
                           f[2], f[3]);
            }
        }
    }
    printf("%s: C API %zu values x 3, %zu wrong\n", argv[1], n, bad);
    jdoc_parser_free(p);
    free(json);
    free(tsv);
    return bad ? 1 : 0;
}
