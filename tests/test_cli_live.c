/* SPDX-License-Identifier: MIT */
/* The jdoc tool on live input, run as a child process: answers while the
 * writer pauses, bounded memory on long streams, piped and mapped input
 * alike, the 4 GiB rejection, SIGPIPE, deep pretty-printing. The tool is the
 * one this build made (JDOC_CLI, set by cli/cli.mk; $JDOC_CLI overrides). */
#include <criterion/criterion.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#ifndef JDOC_CLI
#define JDOC_CLI "build/jdoc"
#endif

/* No .timeout on these tests (see test_limits.c): every wait below has its own. */

static const char *cli(void)
{
    const char *e = getenv("JDOC_CLI");
    return e && *e ? e : JDOC_CLI;
}

/* Under valgrind (--trace-children), the tool runs under it too: memory and
 * time limits mean nothing there, and long streams take minutes. */
static bool under_valgrind(void)
{
    const char *p = getenv("LD_PRELOAD");
    return p && strstr(p, "vgpreload");
}

#if defined(__SANITIZE_ADDRESS__)
#define SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define SANITIZED 1
#endif
#endif
#ifndef SANITIZED
#define SANITIZED 0
#endif

/* Memory limit for the tool, in KiB: ASan's shadow memory and quarantine
 * raise the floor. */
static long rss_limit_kib(long plain) { return SANITIZED ? plain + 32 * 1024 : plain; }

typedef struct child {
    pid_t pid;
    int in, out, err;   /* our ends of its stdin, stdout, stderr pipes, or -1 */
    char errbuf[8192];  /* its stderr, once it ended (the start of it) */
} child;

/* Start the tool with args (NULL-terminated, without argv[0]). stdin_fd and
 * stdout_fd: a descriptor to give it, or -1 for a pipe to us. stderr is a pipe. */
static child spawn(const char *const *args, int stdin_fd, int stdout_fd)
{
    int pin[2] = { -1, -1 }, pout[2] = { -1, -1 }, perr[2];
    if (stdin_fd < 0)
        cr_assert(pipe(pin) == 0);
    if (stdout_fd < 0)
        cr_assert(pipe(pout) == 0);
    cr_assert(pipe(perr) == 0);
    const char *argv[64] = { cli() };
    size_t n = 1;
    while (args[n - 1] && n < 63) {
        argv[n] = args[n - 1];
        n++;
    }
    argv[n] = NULL;
    pid_t pid = fork();
    cr_assert(pid >= 0);
    if (pid == 0) {
        signal(SIGPIPE, SIG_DFL);   /* ignored signals would stay ignored across exec */
        dup2(stdin_fd >= 0 ? stdin_fd : pin[0], 0);
        dup2(stdout_fd >= 0 ? stdout_fd : pout[1], 1);
        dup2(perr[1], 2);
        for (int fd = 3; fd < 256; fd++)
            close(fd);
        execv(argv[0], (char *const *)argv);
        _exit(127);
    }
    child c = { pid, -1, -1, perr[0], "" };
    if (stdin_fd < 0) {
        close(pin[0]);
        c.in = pin[1];
    }
    if (stdout_fd < 0) {
        close(pout[1]);
        c.out = pout[0];
    }
    close(perr[1]);
    return c;
}

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + t.tv_nsec / 1e9;
}

static void put(int fd, const char *s)
{
    size_t n = strlen(s);
    while (n) {
        ssize_t w = write(fd, s, n);
        cr_assert(w > 0, "write to the tool: %s", strerror(errno));
        s += w;
        n -= (size_t)w;
    }
}

/* Read what arrives on fd within ms milliseconds (less if `want` bytes came). */
static size_t get(int fd, char *buf, size_t cap, size_t want, int ms)
{
    size_t len = 0;
    double end = now() + ms / 1000.0;
    while (len < want && len < cap) {
        int left = (int)((end - now()) * 1000);
        if (left <= 0)
            break;
        struct pollfd p = { fd, POLLIN, 0 };
        if (poll(&p, 1, left) <= 0)
            break;
        ssize_t r = read(fd, buf + len, cap - len);
        if (r <= 0)
            break;
        len += (size_t)r;
    }
    return len;
}

/* Expect exactly `text` on fd within ms milliseconds. */
static void expect_now(int fd, const char *text, int ms)
{
    char buf[4096];
    size_t want = strlen(text);
    size_t n = get(fd, buf, sizeof buf, want, ms);
    cr_assert(n == want && memcmp(buf, text, want) == 0,
              "expected '%s' while the input is still open, got %zu bytes: '%.*s'", text, n, (int)n, buf);
}

/* Expect nothing on fd for ms milliseconds. */
static void expect_quiet(int fd, int ms)
{
    char buf[256];
    size_t n = get(fd, buf, sizeof buf, 1, ms);
    cr_assert(n == 0, "nothing should be printed yet, got '%.*s'", (int)n, buf);
}

/* Wait for the child with a deadline (then kill it); status and usage out. */
static int finish(child *c, struct rusage *ru, int seconds)
{
    struct rusage dummy;
    int st = 0;
    double end = now() + seconds;
    for (;;) {
        pid_t r = wait4(c->pid, &st, WNOHANG, ru ? ru : &dummy);
        if (r == c->pid)
            break;
        if (now() > end) {
            kill(c->pid, SIGKILL);
            waitpid(c->pid, &st, 0);
            cr_assert_fail("the tool did not end within %d s", seconds);
        }
        usleep(2000);
    }
    if (c->in >= 0)
        close(c->in);
    if (c->out >= 0)
        close(c->out);
    size_t n = get(c->err, c->errbuf, sizeof c->errbuf - 1, sizeof c->errbuf - 1, 1000);
    c->errbuf[n] = 0;
    close(c->err);
    return st;
}

static const char *err_text(const child *c) { return c->errbuf; }

/* ---- answers while the input is open ---- */

Test(live, answers_arrive_while_the_writer_pauses)
{
    const char *args[] = { "-r", "--ndjson", "-", "/status", NULL };
    child c = spawn(args, -1, -1);
    put(c.in, "{\"status\":\"start\",\"id\":\"a1\"}\n");
    expect_now(c.out, "start\n", 10000);
    /* half a document: nothing, until the rest comes */
    put(c.in, "{\"status\":\"di");
    expect_quiet(c.out, 300);
    put(c.in, "e\"}\n");
    expect_now(c.out, "die\n", 10000);
    /* a document over several lines, and two without a newline between */
    put(c.in, "{\n  \"status\": \"stop\"\n");
    expect_quiet(c.out, 200);
    put(c.in, "}\n{\"status\":\"a\"}{\"status\":\"b\"");
    expect_now(c.out, "stop\na\n", 10000);
    put(c.in, "}");
    expect_now(c.out, "b\n", 10000);
    close(c.in);
    c.in = -1;
    int st = finish(&c, NULL, 30);
    cr_assert(WIFEXITED(st) && WEXITSTATUS(st) == 0, "status %d: %s", st, err_text(&c));
}

Test(live, a_bare_scalar_waits_for_its_end)
{
    const char *args[] = { "--ndjson", "-", NULL };
    child c = spawn(args, -1, -1);
    put(c.in, "12");
    expect_quiet(c.out, 300);
    put(c.in, "3 \"x");
    expect_now(c.out, "123\n", 10000);
    put(c.in, "y\"[1,");
    expect_now(c.out, "\"xy\"\n", 10000);
    put(c.in, "2]tru");
    expect_now(c.out, "[1,2]\n", 10000);
    close(c.in);
    c.in = -1;
    char out[64];
    size_t n = get(c.out, out, sizeof out, 1, 10000);   /* the damaged last one: an empty line */
    cr_assert(n == 1 && out[0] == '\n', "got %zu bytes", n);
    int st = finish(&c, NULL, 30);
    cr_assert(WIFEXITED(st) && WEXITSTATUS(st) == 1, "status %d", st);
    cr_assert(strstr(err_text(&c), "document 4"));
}

Test(live, a_damaged_document_does_not_hold_back_the_next)
{
    const char *args[] = { "-r", "--ndjson", "-", "/id", NULL };
    child c = spawn(args, -1, -1);
    put(c.in, "{\"id\":1}\n{\"id\":2,]\n");
    expect_now(c.out, "1\n\n", 10000);
    put(c.in, "{\"id\":3}\n");
    expect_now(c.out, "3\n", 10000);
    close(c.in);
    c.in = -1;
    int st = finish(&c, NULL, 30);
    cr_assert(WIFEXITED(st) && WEXITSTATUS(st) == 1);
    cr_assert(strstr(err_text(&c), "<stdin>:2:9 (byte 17): document 2: "));
}

/* A line cut short outside a string is damaged at its newline: the next line
 * is answered as soon as it is complete, with the input still open, and the
 * cut line reported once, with its line. */
Test(live, a_line_cut_outside_a_string_does_not_hold_back_the_next)
{
    const char *args[] = { "-r", "--ndjson", "-", "/a", NULL };
    child c = spawn(args, -1, -1);
    put(c.in, "{\"a\":1}\n");
    expect_now(c.out, "1\n", 10000);
    put(c.in, "{\"a\":2\n");
    /* the next line could still close it ("}"): nothing yet */
    expect_quiet(c.out, 300);
    put(c.in, "{\"a\":3}\n");
    expect_now(c.out, "\n3\n", 10000);
    expect_now(c.err, "jdoc: <stdin>:2:7 (byte 14): document 2: document not closed at the end of its line\n", 10000);
    put(c.in, "{\"a\":4}\n");
    expect_now(c.out, "4\n", 10000);
    close(c.in);
    c.in = -1;
    int st = finish(&c, NULL, 30);
    cr_assert(WIFEXITED(st) && WEXITSTATUS(st) == 1, "status %d: %s", st, err_text(&c));
    cr_assert(!*err_text(&c), "one message only, more came: '%s'", err_text(&c));
}

/* A FIFO or a Unix socket named on the command line, and a socket as stdin,
 * are read as they come too. */
Test(live, fifo_and_socket)
{
    char dir[] = "/tmp/jdoc-live.XXXXXX";
    cr_assert(mkdtemp(dir));
    char fifo[64];
    snprintf(fifo, sizeof fifo, "%s/fifo", dir);
    cr_assert(mkfifo(fifo, 0600) == 0);
    const char *args[] = { "-r", "--ndjson", fifo, "/a", NULL };
    child c = spawn(args, open("/dev/null", O_RDONLY), -1);
    int w = -1;   /* once the tool has opened it for reading */
    for (double end = now() + 10; w < 0 && now() < end; usleep(10000))
        w = open(fifo, O_WRONLY | O_NONBLOCK);
    cr_assert(w >= 0, "the tool did not open the FIFO: %s", strerror(errno));
    fcntl(w, F_SETFL, 0);
    put(w, "{\"a\":\"one\"}\n");
    expect_now(c.out, "one\n", 10000);
    put(w, "{\"a\":\"two\"}");
    expect_now(c.out, "two\n", 10000);
    close(w);
    int st = finish(&c, NULL, 30);
    cr_assert(WIFEXITED(st) && WEXITSTATUS(st) == 0);
    unlink(fifo);
    rmdir(dir);

    /* a listening socket: jdoc connects and reads what it is sent */
    char dir2[] = "/tmp/jdoc-live.XXXXXX";
    cr_assert(mkdtemp(dir2));
    struct sockaddr_un sa = { .sun_family = AF_UNIX };
    snprintf(sa.sun_path, sizeof sa.sun_path, "%s/sock", dir2);
    int l = socket(AF_UNIX, SOCK_STREAM, 0);
    cr_assert(l >= 0 && bind(l, (struct sockaddr *)&sa, sizeof sa) == 0 && listen(l, 1) == 0);
    const char *args1[] = { "-r", "--ndjson", sa.sun_path, "/a", NULL };
    child u = spawn(args1, open("/dev/null", O_RDONLY), -1);
    struct pollfd pl = { l, POLLIN, 0 };
    cr_assert(poll(&pl, 1, 10000) == 1, "jdoc did not connect: %s", err_text(&u));
    int a = accept(l, NULL, NULL);
    cr_assert(a >= 0);
    put(a, "{\"a\":\"sock\"}\n");
    expect_now(u.out, "sock\n", 10000);
    close(a);
    close(l);
    st = finish(&u, NULL, 30);
    cr_assert(WIFEXITED(st) && WEXITSTATUS(st) == 0, "status %d: %s", st, err_text(&u));
    unlink(sa.sun_path);
    rmdir(dir2);

    int sv[2];
    cr_assert(socketpair(AF_UNIX, SOCK_STREAM, 0, sv) == 0);
    const char *args2[] = { "-r", "--ndjson", "-", "/a", NULL };
    child s = spawn(args2, sv[1], -1);
    close(sv[1]);
    put(sv[0], "{\"a\":\"three\"}\n");
    expect_now(s.out, "three\n", 10000);
    close(sv[0]);
    st = finish(&s, NULL, 30);
    cr_assert(WIFEXITED(st) && WEXITSTATUS(st) == 0);
}

/* ---- memory on a long stream ---- */

/* An event like the Docker Engine's, about 700 bytes, numbered i. */
static size_t event(char *buf, size_t cap, unsigned long i)
{
    static const char *const st[] = { "create", "start", "die", "stop", "destroy" };
    return (size_t)snprintf(buf, cap,
        "{\"status\":\"%s\",\"id\":\"%064lx\",\"from\":\"local/busybox:1\",\"Type\":\"container\","
        "\"Action\":\"%s\",\"Actor\":{\"ID\":\"%064lx\",\"Attributes\":{"
        "\"com.docker.compose.project\":\"shop\",\"com.docker.compose.service\":\"api\","
        "\"com.docker.compose.container-number\":\"%lu\",\"com.docker.compose.oneoff\":\"False\","
        "\"com.docker.compose.config-hash\":\"2efba22b68c8fe8ec04279a4605617d715579f6f1e5fc5e4b87af2c99813c795\","
        "\"image\":\"local/busybox:1\",\"name\":\"shop-api-%lu\",\"exitCode\":\"%lu\"}},"
        "\"scope\":\"local\",\"time\":%lu,\"timeNano\":%lu000000123}\n",
        st[i % 5], i, st[i % 5], i, i % 7 + 1, i % 7 + 1, i % 3, 1700000000 + i, 1700000000 + i);
}

Test(live, a_long_stream_stays_in_a_fixed_rss)
{
    if (under_valgrind())
        cr_skip_test("the tool runs under valgrind here: its memory is valgrind's");
    const unsigned long total = 128ul << 20;   /* bytes of events: four times the limit below */
    const char *args[] = { "-r", "--ndjson", "-", "/status", "/Actor/Attributes/exitCode", NULL };
    child c = spawn(args, -1, -1);
    fcntl(c.in, F_SETFL, O_NONBLOCK);
    char ev[2048], out[1 << 16], last[64] = "";
    size_t evlen = 0, evoff = 0, lines = 0, lastlen = 0;
    unsigned long sent = 0, n = 0;
    bool open_in = true;
    for (;;) {
        struct pollfd p[2] = { { c.out, POLLIN, 0 }, { open_in ? c.in : -1, POLLOUT, 0 } };
        cr_assert(poll(p, 2, 30000) > 0, "the tool stalled");
        if (p[0].revents) {
            ssize_t r = read(c.out, out, sizeof out);
            if (r <= 0)
                break;
            for (ssize_t k = 0; k < r; k++) {
                if (out[k] == '\n') {
                    lines++;
                    last[lastlen < sizeof last ? lastlen : sizeof last - 1] = 0;
                    lastlen = 0;
                } else if (lastlen < sizeof last - 1) {
                    last[lastlen++] = out[k];
                }
            }
        }
        if (open_in && p[1].revents) {
            for (;;) {
                if (evoff == evlen) {
                    if (sent >= total) {
                        close(c.in);
                        c.in = -1;
                        open_in = false;
                        break;
                    }
                    evlen = event(ev, sizeof ev, n++);
                    evoff = 0;
                }
                ssize_t w = write(c.in, ev + evoff, evlen - evoff);
                if (w <= 0)
                    break;
                evoff += (size_t)w;
                sent += (unsigned long)w;
            }
        }
    }
    struct rusage ru;
    int st = finish(&c, &ru, 60);
    cr_assert(WIFEXITED(st) && WEXITSTATUS(st) == 0, "status %d: %s", st, err_text(&c));
    cr_assert_eq(lines, 2 * n, "%zu lines for %lu events", lines, n);
    cr_assert_str_eq(last, (n - 1) % 3 == 0 ? "0" : (n - 1) % 3 == 1 ? "1" : "2");
    long limit = rss_limit_kib(32 * 1024);
    cr_assert(ru.ru_maxrss < limit, "max RSS %ld KiB for a %lu MiB stream (limit %ld KiB)", ru.ru_maxrss,
              total >> 20, limit);
}

/* The rest of a damaged line is skipped as it comes, however long: nothing
 * of it is kept. */
Test(live, a_long_damaged_line_stays_in_a_fixed_rss)
{
    if (under_valgrind())
        cr_skip_test("the tool runs under valgrind here: its memory is valgrind's");
    const size_t total = 128u << 20;
    const char *args[] = { "-r", "--ndjson", "-", "/a", NULL };
    child c = spawn(args, -1, -1);
    put(c.in, "{\"a\":1]");
    expect_now(c.out, "\n", 10000);
    static char junk[1 << 16];
    memset(junk, 'x', sizeof junk);
    junk[sizeof junk - 1] = 0;
    for (size_t sent = 0; sent < total; sent += sizeof junk - 1)
        put(c.in, junk);
    put(c.in, "\n{\"a\":5}\n");
    expect_now(c.out, "5\n", 10000);
    close(c.in);
    c.in = -1;
    struct rusage ru;
    int st = finish(&c, &ru, 60);
    cr_assert(WIFEXITED(st) && WEXITSTATUS(st) == 1, "status %d: %s", st, err_text(&c));
    cr_assert(strstr(err_text(&c), "<stdin>:1:7 (byte 6): document 1: "), "message '%s'", err_text(&c));
    long limit = rss_limit_kib(32 * 1024);
    cr_assert(ru.ru_maxrss < limit, "max RSS %ld KiB for a damaged line of %zu MiB (limit %ld KiB)", ru.ru_maxrss,
              total >> 20, limit);
}

/* ---- piped in small pieces = mapped in one go ---- */

static const char *const pieces[] = {
    "{\"a\":1}", "{\"b\":[1,2,{\"c\":\"x\"}]}", "[1,\n2]", "\"str\"", "12", "tru", "{\"a\":2", "{\"a\":1]",
    "}", "]", "{\"s\":\"a\\\"b\"}", "{\"s\":\"bad\n\"}", "\\\"", "{\"x\":\n 1\n}", "null", " ", "\n", "\r\n",
    "{\"u\":\"\xff\"}", "{\"e\":\"\\\n\"}", "[[[]]]", "{\"k\" 1}", ":", ",", "\"\\u12\"", "{\"p\":\"{[\\\"]}\"}",
    "{\"a\":\"\xc3\xa9\"}",
    /* long enough for the eight-byte skips, with what matters at every position */
    "{\"l\":\"0123456789abcdef\\\"0123456789\\\\\",\"m\":[\"{[\",\"]}\"],\"n\":[[0,1,2,3,4,5,6,7,8,{}]]}",
    "[\"0123456789abcdefghij\n\"]", "{\"k\":[1,2,3,4,5,6,7,8,9,10,11]]}",
    /* values that fail only when fetched, on a later line of their document:
     * their line and column count from the document's start */
    "{\"a\":tru}", "{\"b\":1,\n \"a\":\n  1.5e}", "[\n{\"a\":[1,\n2e]}]", "{\"a\":[1,\n2\n3]}",
    /* damage on a later line of a document, and after a whole one on its line */
    "{\"x\":\n 1,\n]", "{\"a\":1}{\"a\":", "{\"a\":1} ]",
};

static uint64_t rng_state;
static unsigned rnd(unsigned n)
{
    rng_state = rng_state * 6364136223846793005ull + 1442695040888963407ull;
    return (unsigned)(rng_state >> 33) % n;
}

/* Run the tool on `file` (mapped), or on its bytes through a pipe in writes
 * of 1 to `most` bytes with pauses; out, err and status of the run. */
static void run_on(const char *file, const char *data, size_t len, bool piped, size_t most, const char *path,
                   char *out, size_t *outlen, char *err, size_t *errlen, int *status)
{
    const char *args[] = { "--ndjson", piped ? "-" : file, path, NULL };
    int nul = open("/dev/null", O_RDONLY);
    child c = spawn(args, piped ? -1 : nul, -1);
    close(nul);
    if (piped) {
        for (size_t i = 0; i < len;) {
            size_t k = 1 + rnd((unsigned)most);
            if (k > len - i)
                k = len - i;
            cr_assert(write(c.in, data + i, k) == (ssize_t)k);
            i += k;
            if (rnd(3) == 0)
                usleep(300);   /* so that the tool reads the pieces apart */
        }
        close(c.in);
        c.in = -1;
    }
    *outlen = get(c.out, out, 65536, 65536, 10000);
    *status = finish(&c, NULL, 30);
    *errlen = strlen(c.errbuf);
    memcpy(err, c.errbuf, *errlen);
}

Test(live, piped_in_pieces_prints_what_the_mapped_file_prints)
{
    char dir[] = "/tmp/jdoc-live.XXXXXX";
    cr_assert(mkdtemp(dir));
    char file[64];
    snprintf(file, sizeof file, "%s/s.ndjson", dir);
    static char data[4096], o1[65536], o2[65536], e1[65536], e2[65536], e1s[65536];
    int rounds = under_valgrind() ? 8 : 150;
    for (int seed = 0; seed < rounds; seed++) {
        rng_state = (uint64_t)seed * 0x9e3779b97f4a7c15ull + 1;
        size_t len = 0;
        for (unsigned k = 1 + rnd(20); k > 0; k--) {
            const char *p = pieces[rnd(sizeof pieces / sizeof *pieces)];
            static const char *const sep[] = { "", " ", "\n", "\n" };
            const char *s = sep[rnd(4)];
            memcpy(data + len, p, strlen(p));
            len += strlen(p);
            memcpy(data + len, s, strlen(s));
            len += strlen(s);
        }
        FILE *f = fopen(file, "wb");
        cr_assert(f && fwrite(data, 1, len, f) == len && fclose(f) == 0);
        const char *path = seed % 3 == 0 ? "/a" : seed % 3 == 1 ? "--validate" : "/b";
        size_t n1, n2, m1, m2;
        int s1, s2;
        /* writes of a few bytes, of up to a few documents, or all at once */
        size_t most = seed % 4 == 3 ? len : seed % 4 == 2 ? 64 : 8;
        run_on(file, data, len, false, most, path, o1, &n1, e1, &m1, &s1);
        run_on(file, data, len, true, most, path, o2, &n2, e2, &m2, &s2);
        /* the file's name in messages is <stdin> when piped */
        size_t m1s = 0, fl = strlen(file);
        for (size_t i = 0; i < m1;) {
            if (i + fl <= m1 && memcmp(e1 + i, file, fl) == 0) {
                memcpy(e1s + m1s, "<stdin>", 7);
                m1s += 7;
                i += fl;
            } else {
                e1s[m1s++] = e1[i++];
            }
        }
        cr_assert(s1 == s2 && n1 == n2 && memcmp(o1, o2, n1) == 0 && m1s == m2 && memcmp(e1s, e2, m2) == 0,
                  "seed %d, input '%.*s': mapped (status %d) printed '%.*s' / '%.*s', piped (status %d) '%.*s' / '%.*s'",
                  seed, (int)len, data, s1, (int)n1, o1, (int)m1s, e1s, s2, (int)n2, o2, (int)m2, e2);
    }
    unlink(file);
    rmdir(dir);
}

/* ---- standard input that is a file ---- */

/* It is mapped like a named file, from where it stands when part of it was read. */
Test(live, stdin_file_from_where_it_stands)
{
    char dir[] = "/tmp/jdoc-live.XXXXXX";
    cr_assert(mkdtemp(dir));
    char file[64];
    snprintf(file, sizeof file, "%s/two.json", dir);
    FILE *f = fopen(file, "wb");
    cr_assert(f && fputs("{\"a\":1}\n{\"a\":[2,3]}\n", f) >= 0 && fclose(f) == 0);
    for (int at = 0; at < 2; at++) {
        int fd = open(file, O_RDONLY);
        cr_assert(fd >= 0 && lseek(fd, at ? 8 : 0, SEEK_SET) == (at ? 8 : 0));
        const char *one[] = { "-", "/a", NULL };
        const char *stream[] = { "--ndjson", "-", "/a", NULL };
        child c = spawn(at ? one : stream, fd, -1);
        close(fd);
        char out[64];
        size_t n = get(c.out, out, sizeof out, sizeof out, 10000);
        int st = finish(&c, NULL, 30);
        const char *want = at ? "[2,3]\n" : "1\n[2,3]\n";
        cr_assert(n == strlen(want) && memcmp(out, want, n) == 0, "at %d: '%.*s'", at ? 8 : 0, (int)n, out);
        cr_assert(WIFEXITED(st) && WEXITSTATUS(st) == 0, "status %d: %s", st, err_text(&c));
    }
    unlink(file);
    rmdir(dir);
}

/* ---- 4 GiB ---- */

Test(live, four_gib_is_rejected_from_the_size_without_reading)
{
    char dir[] = "/tmp/jdoc-live.XXXXXX";
    cr_assert(mkdtemp(dir));
    char file[64];
    snprintf(file, sizeof file, "%s/big.json", dir);
    int fd = open(file, O_CREAT | O_WRONLY | O_TRUNC, 0600);
    cr_assert(fd >= 0);
    cr_assert(ftruncate(fd, (off_t)4 << 30) == 0, "a sparse file of 4 GiB: %s", strerror(errno));
    close(fd);
    for (int way = 0; way < 3; way++) {
        /* named, as stdin (a regular file there is a file too), as a stream */
        const char *named[] = { file, "/a", NULL };
        const char *in[] = { "-", "/a", NULL };
        const char *stream[] = { "--ndjson", file, "/a", NULL };
        int sfd = way == 1 ? open(file, O_RDONLY) : open("/dev/null", O_RDONLY);
        double t0 = now();
        child c = spawn(way == 0 ? named : way == 1 ? in : stream, sfd, -1);
        close(sfd);
        struct rusage ru;
        int st = finish(&c, &ru, 60);
        double t = now() - t0;
        const char *err = err_text(&c);
        cr_assert(WIFEXITED(st) && WEXITSTATUS(st) == 2, "way %d: status %d", way, st);
        cr_assert(strstr(err, way == 1 ? "<stdin>" : file) && strstr(err, "4 GiB"), "way %d: message '%s'", way,
                  err);
        if (!under_valgrind()) {
            cr_assert(ru.ru_maxrss < rss_limit_kib(16 * 1024), "way %d: max RSS %ld KiB: it read the file", way,
                      ru.ru_maxrss);
            cr_assert(t < 5.0, "way %d: %.1f s: it read the file", way, t);
        }
    }
    unlink(file);
    rmdir(dir);
}

/* ---- a reader that goes away ---- */

static void ends_by_sigpipe(const char *const *args, int stdin_fd, bool live)
{
    child c = spawn(args, stdin_fd, -1);
    if (live) {
        char buf[64];
        put(c.in, "{\"a\":1}\n");
        cr_assert(get(c.out, buf, sizeof buf, 2, 10000) == 2);
    }
    close(c.out);   /* the reader goes away */
    c.out = -1;
    if (live) {
        /* the next answer cannot be written: the end, with stdin still open */
        put(c.in, "{\"a\":2}\n");
    }
    int st = finish(&c, NULL, 30);
    cr_assert(WIFSIGNALED(st) && WTERMSIG(st) == SIGPIPE, "status %d, want the SIGPIPE signal", st);
    const char *err = err_text(&c);
    cr_assert(!*err, "no message wanted: '%s'", err);
}

Test(live, a_closed_output_pipe_ends_jdoc_by_sigpipe)
{
    char dir[] = "/tmp/jdoc-live.XXXXXX";
    cr_assert(mkdtemp(dir));
    char file[64];
    snprintf(file, sizeof file, "%s/list.ndjson", dir);
    FILE *f = fopen(file, "wb");
    cr_assert(f);
    char ev[2048];
    for (unsigned long i = 0; i < 5000; i++)
        fwrite(ev, 1, event(ev, sizeof ev, i), f);
    cr_assert(fclose(f) == 0);
    const char *stream[] = { "--ndjson", file, NULL };
    ends_by_sigpipe(stream, open("/dev/null", O_RDONLY), false);
    const char *live[] = { "--ndjson", "-", "/a", NULL };
    ends_by_sigpipe(live, -1, true);
    unlink(file);
    rmdir(dir);
}

/* ---- pretty-printing deep nesting ---- */

Test(live, pretty_printing_30000_levels_flushes_as_it_closes)
{
    if (under_valgrind())
        cr_skip_test("900 MB of output under valgrind take too long");
    const size_t depth = 30000;
    char dir[] = "/tmp/jdoc-live.XXXXXX";
    cr_assert(mkdtemp(dir));
    char file[64];
    snprintf(file, sizeof file, "%s/deep.json", dir);
    FILE *f = fopen(file, "wb");
    cr_assert(f);
    for (size_t i = 0; i < depth; i++)
        fputc('[', f);
    for (size_t i = 0; i < depth; i++)
        fputc(']', f);
    cr_assert(fclose(f) == 0);
    const char *args[] = { "--max-depth", "40000", file, NULL };
    int nul = open("/dev/null", O_RDONLY);
    child c = spawn(args, nul, -1);
    close(nul);
    /* the output: line k (0-based) of the opening ones is 2k spaces and '[',
     * the innermost "[]", then the closing lines back out */
    size_t want = 0;
    for (size_t k = 0; k + 1 < depth; k++)
        want += 2 * (2 * k + 2);
    want += 2 * (depth - 1) + 3;
    static char buf[1 << 16];
    size_t got = 0;
    char lastc = 0;
    ssize_t r;
    double end = now() + 120;
    for (;;) {
        struct pollfd p = { c.out, POLLIN, 0 };
        cr_assert(poll(&p, 1, 30000) == 1 && now() < end, "the tool stalled after %zu bytes", got);
        if ((r = read(c.out, buf, sizeof buf)) <= 0)
            break;
        got += (size_t)r;
        lastc = buf[r - 1];
    }
    struct rusage ru;
    int st = finish(&c, &ru, 120);
    cr_assert(WIFEXITED(st) && WEXITSTATUS(st) == 0, "status %d: %s", st, err_text(&c));
    cr_assert_eq(got, want, "%zu bytes, want %zu", got, want);
    cr_assert_eq(lastc, '\n');
    long limit = rss_limit_kib(32 * 1024);
    cr_assert(ru.ru_maxrss < limit, "max RSS %ld KiB for %zu MB of output (limit %ld KiB)", ru.ru_maxrss,
              got >> 20, limit);
    unlink(file);
    rmdir(dir);
}
