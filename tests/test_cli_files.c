/* SPDX-License-Identifier: MIT */
/* The command-line tool on mapped files (the tool named by $JDOC_CLI, which
 * `make test` sets to this build's; else build/jdoc): a file whose last byte
 * ends a page is read without touching the next one. The CLI's options and
 * output are tested by tests/cli/run.sh. */
#include "limits.h"

/* Run the CLI with argv; its stdout into out (NUL-terminated). Returns the exit status. */
static int run_cli(char *const argv[], char *out, size_t cap)
{
    int fds[2];
    cr_assert_eq(pipe(fds), 0);
    pid_t pid = fork();
    cr_assert_geq(pid, 0);
    if (pid == 0) {
        int null = open("/dev/null", O_WRONLY);
        dup2(fds[1], 1);
        dup2(null, 2);
        close(fds[0]);
        execv(argv[0], argv);
        _exit(127);
    }
    close(fds[1]);
    size_t n = 0;
    ssize_t r;
    while (n + 1 < cap && (r = read(fds[0], out + n, cap - 1 - n)) > 0)
        n += (size_t)r;
    out[n] = 0;
    close(fds[0]);
    int status;
    waitpid(pid, &status, 0);
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

/* A file of exactly `size` bytes: spaces, then `tail`. */
static void write_file(const char *path, size_t size, const char *tail)
{
    FILE *f = fopen(path, "wb");
    cr_assert_not_null(f);
    for (size_t i = strlen(tail); i < size; i++)
        fputc(' ', f);
    fputs(tail, f);
    fclose(f);
}

/* Answer: the CLI maps regular files; a file whose last byte ends a page is
 * read without touching the next one (the tool answers, exit 0; or reports
 * the damage, exit 1; never a signal). $JDOC_CLI must name a tool when set
 * (`make test` sets it: a sanitized build tests its own tool); without it,
 * skipped when build/jdoc is not built. */
Test(cli, mapped_file_ending_at_a_page)
{
    const char *env = getenv("JDOC_CLI"), *cli = env && *env ? env : "build/jdoc";
    if (access(cli, X_OK) != 0) {
        if (env && *env)
            cr_assert_fail("JDOC_CLI=%s is not an executable", cli);
        cr_skip_test("%s not built (set JDOC_CLI)", cli);
    }
    char dir[] = "/tmp/jdoc_cli_XXXXXX";
    cr_assert_not_null(mkdtemp(dir));
    size_t pg = (size_t)sysconf(_SC_PAGESIZE);
    static const struct {
        size_t pages;
        const char *tail, *opt, *path, *out;
        int rc;
    } cases[] = {
        { 1, "{\"a\":[1,2,\"x\"]}", NULL, "/a/3", "\"x\"\n", 0 },
        { 1, "12345", NULL, "/", "12345\n", 0 },
        { 2, "{\"a\":[1,2,\"x\"]}", "--validate", NULL, "", 0 },
        { 1, "{\"a\":[1,2,\"x", "--validate", NULL, "", 1 },
        { 2, "\"\xe2\x82", "--validate", NULL, "", 1 },
        { 1, "1\n[2]\ntrue", "--ndjson", "/", "1\n[2]\ntrue\n", 0 },
        { 1, "{\"a\":tru", NULL, "/a", "", 1 },
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        char file[64], out[256];
        snprintf(file, sizeof file, "%s/f%zu.json", dir, i);
        write_file(file, cases[i].pages * pg, cases[i].tail);
        char *argv[6];
        int a = 0;
        argv[a++] = (char *)cli;
        if (cases[i].opt)
            argv[a++] = (char *)cases[i].opt;
        argv[a++] = file;
        if (cases[i].path)
            argv[a++] = (char *)cases[i].path;
        argv[a] = NULL;
        int rc = run_cli(argv, out, sizeof out);
        cr_expect_eq(rc, cases[i].rc, "case %zu (%s): exit %d", i, cases[i].tail, rc);
        cr_expect_str_eq(out, cases[i].out, "case %zu (%s)", i, cases[i].tail);
        unlink(file);
    }
    rmdir(dir);
}
