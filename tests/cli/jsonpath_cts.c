/* SPDX-License-Identifier: MIT */
/* The JSONPath Compliance Test Suite through the jdoc tool: for each case,
 * `jdoc --with-path -q DOC QUERY`, then its lines (normalized path, tab,
 * value) compared with the expected nodes; invalid queries must exit 2.
 * Usage: jsonpath_cts JDOC CTS.JSON   (exit 0 when all pass; 77 and a message
 * when the suite is absent). */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include "jdoc.h"
#include "../jp_dom.h"

static char *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t cap = 1 << 16, n = 0;
    char *b = malloc(cap);
    size_t r;
    while ((r = fread(b + n, 1, cap - n, f)) > 0) {
        n += r;
        if (n == cap)
            b = realloc(b, cap *= 2);
    }
    fclose(f);
    *len = n;
    return b;
}

static jdoc_value ptr(jdoc_value v, const char *p)
{
    jdoc_value out;
    return jdoc_pointer(v, p, strlen(p), &out) == JDOC_OK ? out : (jdoc_value){ 0 };
}

/* Run jdoc; its stdout into *out (malloc'd), its exit status returned. The
 * query is an argument, or with `from` the name of a file holding it (for
 * queries with a NUL byte, which no argument can hold). */
static int run(const char *jdoc, const char *doc, const char *query, const char *from, char **out, size_t *olen)
{
    int fd[2];
    if (pipe(fd))
        return -1;
    pid_t pid = fork();
    if (pid == 0) {
        dup2(fd[1], 1);
        int null = open("/dev/null", O_WRONLY);
        dup2(null, 2);
        close(fd[0]);
        if (from)
            execl(jdoc, jdoc, "--with-path", "-q", "--paths-from", from, "--", doc, (char *)NULL);
        else
            execl(jdoc, jdoc, "--with-path", "-q", "--", doc, query, (char *)NULL);
        _exit(127);
    }
    close(fd[1]);
    size_t cap = 4096, n = 0;
    char *b = malloc(cap);
    ssize_t r;
    while ((r = read(fd[0], b + n, cap - n)) != 0) {
        if (r < 0) {
            if (errno == EINTR)
                continue;
            break;
        }
        n += (size_t)r;
        if (n == cap)
            b = realloc(b, cap *= 2);
    }
    close(fd[0]);
    int st;
    waitpid(pid, &st, 0);
    *out = b;
    *olen = n;
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* Do the output lines match the expected values and paths? */
static bool matches(const char *out, size_t olen, jdoc_value values, jdoc_value paths)
{
    size_t want = jdoc_count(values), got = 0;
    jdoc_iter iv, ip;
    jdoc_value v, p;
    jdoc_iter_init(values, &iv);
    jdoc_iter_init(paths, &ip);
    jdoc_parser *lp = jdoc_parser_new(NULL);
    bool ok = true;
    for (const char *s = out, *end = out + olen; ok && s < end;) {
        const char *nl = memchr(s, '\n', (size_t)(end - s));
        const char *tab = memchr(s, '\t', (size_t)((nl ? nl : end) - s));
        if (!nl || !tab || !jdoc_iter_next(&iv, &v) || !jdoc_iter_next(&ip, &p)) {
            ok = false;
            break;
        }
        got++;
        const char *ps;
        size_t pl;
        jdoc_get_string(p, &ps, &pl);
        if (pl != (size_t)(tab - s) || memcmp(ps, s, pl) != 0)
            ok = false;
        jdoc_doc *d;
        if (ok && jdoc_parse(lp, tab + 1, (size_t)(nl - tab - 1), &d) == JDOC_OK) {
            tnode *a = dom_build(jdoc_root(d)), *b = dom_build(v);
            ok = dom_eq(a, b);
            dom_free(a);
            dom_free(b);
        } else {
            ok = false;
        }
        s = nl + 1;
    }
    jdoc_parser_free(lp);
    return ok && got == want;
}

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: jsonpath_cts JDOC CTS.JSON\n");
        return 2;
    }
    size_t len;
    char *json = slurp(argv[2], &len);
    if (!json) {
        printf("check-cli-jsonpath: %s is absent: the JSONPath compliance suite was not run\n", argv[2]);
        return 77;
    }
    char docfile[] = "/tmp/jdoc-cts-XXXXXX";
    char qfile[] = "/tmp/jdoc-cts-q-XXXXXX";
    int dfd = mkstemp(docfile), qfd = mkstemp(qfile);
    if (dfd < 0 || qfd < 0)
        return 2;
    jdoc_parser *p = jdoc_parser_new(NULL);
    jdoc_doc *d;
    if (jdoc_parse(p, json, len, &d) != JDOC_OK)
        return 2;
    jdoc_iter it;
    jdoc_value t;
    jdoc_iter_init(ptr(jdoc_root(d), "/tests"), &it);
    size_t total = 0, failed = 0, skipped = 0, via_file = 0;
    while (jdoc_iter_next(&it, &t)) {
        total++;
        const char *s;
        size_t n;
        jdoc_get_string(ptr(t, "/name"), &s, &n);
        char *name = strndup(s, n);
        jdoc_get_string(ptr(t, "/selector"), &s, &n);
        const char *from = NULL;
        if (memchr(s, 0, n)) {   /* no NUL in a command-line argument: from a file */
            if (memchr(s, '\n', n) || ftruncate(qfd, 0) || pwrite(qfd, s, n, 0) != (ssize_t)n) {
                skipped++;
                free(name);
                continue;
            }
            from = qfile;
            via_file++;
        }
        char *sel = strndup(s, n);
        bool invalid = false;
        jdoc_value iv = ptr(t, "/invalid_selector");
        if (jdoc_exists(iv))
            jdoc_get_bool(iv, &invalid);
        const char *raw = "null";
        size_t rl = 4;
        if (!invalid)
            jdoc_get_raw(ptr(t, "/document"), &raw, &rl);
        if (ftruncate(dfd, 0) || pwrite(dfd, raw, rl, 0) != (ssize_t)rl)
            return 2;
        char *out = NULL;
        size_t olen = 0;
        int rc = run(argv[1], docfile, sel, from, &out, &olen);
        const char *why = NULL;
        if (invalid) {
            if (rc != 2 || olen)
                why = "an invalid query was not refused with exit 2";
        } else if (rc != 0) {
            why = "exit status not 0";
        } else {
            jdoc_value one = ptr(t, "/result");
            bool ok = false;
            if (jdoc_exists(one)) {
                ok = matches(out, olen, one, ptr(t, "/result_paths"));
            } else {
                jdoc_iter ia, ib;
                jdoc_value a, b;
                jdoc_iter_init(ptr(t, "/results"), &ia);
                jdoc_iter_init(ptr(t, "/results_paths"), &ib);
                while (!ok && jdoc_iter_next(&ia, &a) && jdoc_iter_next(&ib, &b))
                    ok = matches(out, olen, a, b);
            }
            if (!ok)
                why = "wrong output";
        }
        if (why) {
            failed++;
            printf("FAIL %s: %s: %s (exit %d)\n%.*s", name, sel, why, rc, (int)(olen < 400 ? olen : 400), out);
        }
        free(out);
        free(name);
        free(sel);
    }
    close(dfd);
    close(qfd);
    unlink(docfile);
    unlink(qfile);
    jdoc_parser_free(p);
    free(json);
    printf("check-cli-jsonpath: %zu passed, %zu failed, %zu not run (%zu queries with a NUL byte given by --paths-from)\n",
           total - failed - skipped, failed, skipped, via_file);
    return failed || skipped || total != 687 ? 1 : 0;
}
