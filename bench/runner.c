/* SPDX-License-Identifier: MIT */
/* The benchmark's runner: command line, environment, interleaved samples,
 * value checks, reports, TSV, goals, files and the counting allocator. */
#include "bench.h"

#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <sched.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#ifndef BENCH_CFLAGS_STR
#define BENCH_CFLAGS_STR "(unknown)"
#endif
#ifndef BENCH_PATHS_DIR
#define BENCH_PATHS_DIR "bench/paths"
#endif

bench_opts bench_o = { .corpus = "../shared/corpus", .out = "build/bench", .paths = BENCH_PATHS_DIR };
volatile uint64_t bench_sink;

static const struct workload {
    const char *name, *what;
    int (*run)(void);
} workloads[] = {
    { "stage1", "jdoc_parse per kernel vs simdjson's class, memcpy floor, parts, corpus files", bench_stage1 },
    { "memory", "peak heap per input byte, allocations per parse after warm-up and at +1%", bench_memory },
    { "fetch", "parse + the typed paths of paths/NAME.txt vs simdjson On Demand / DOM", bench_fetch },
    { "small", "parse + 3 fields of small Docker responses (paths/small/NAME.txt)", bench_small },
    { "hotloop", "5 fields of every element of generated Docker arrays", bench_hotloop },
    { "streams", "one field of each of 100k NDJSON Docker events", bench_streams },
    { "query", "JSONPath: a wildcard query against the hand loop, a descendant query against the parse", bench_query },
};
#define NW (int)(sizeof workloads / sizeof workloads[0])

/* ---- Recorder ---- */

void bench_rec_line(bench_rec *r, const char *fmt, ...)
{
    va_list ap;
    for (;;) {
        va_start(ap, fmt);
        int n = vsnprintf(r->buf + r->len, r->cap - r->len, fmt, ap);
        va_end(ap);
        if (n >= 0 && r->len + (size_t)n + 1 < r->cap) {
            r->len += (size_t)n;
            r->buf[r->len++] = '\n';
            r->buf[r->len] = 0;
            return;
        }
        r->cap = r->cap ? 2 * r->cap : 4096;
        if (n < 0 || !(r->buf = realloc(r->buf, r->cap)))
            abort(); /* out of memory in the check: no way to compare */
    }
}

/* 0 when a and b recorded the same values; else the first differing line of each and its number. */
static int rec_diff(const bench_rec *a, const bench_rec *b, size_t *item, char *va, char *vb, int cap)
{
    size_t i = 0, line = 0, start = 0;
    for (; i < a->len && i < b->len && a->buf[i] == b->buf[i]; i++)
        if (a->buf[i] == '\n')
            line++, start = i + 1;
    if (i == a->len && i == b->len)
        return a->sum != b->sum; /* the same values: only a light-mode digest can differ */
    const char *pa = start < a->len ? a->buf + start : "(none)", *pb = start < b->len ? b->buf + start : "(none)";
    *item = line;
    snprintf(va, (size_t)cap, "%.*s", (int)strcspn(pa, "\n"), pa);
    snprintf(vb, (size_t)cap, "%.*s", (int)strcspn(pb, "\n"), pb);
    return 1;
}

/* ---- Runner ---- */

static uint64_t clock_ns(clockid_t id)
{
    struct timespec ts;
    clock_gettime(id, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}
static uint64_t now_ns(void) { return clock_ns(CLOCK_MONOTONIC); }
static uint64_t sample_clock(void) { return clock_ns(bench_o.wall_clock ? CLOCK_MONOTONIC : CLOCK_THREAD_CPUTIME_ID); }

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double quantile(const double *s, int n, double q)
{
    double pos = q * (n - 1);
    int i = (int)pos;
    return i >= n - 1 ? s[n - 1] : s[i] + (pos - i) * (s[i + 1] - s[i]);
}

void bench_run(bench_case *c, int n)
{
    double worst = 0;
    for (int k = 0; k < n; k++) {
        if (c[k].skip)
            continue;
        uint64_t acc = 0, calls = 0, t0 = now_ns(), t;
        do /* warm-up, then calibration over about half a sample */
            acc += c[k].fn(&c[k]), calls++;
        while (calls < 2 || (double)(now_ns() - t0) < bench_o.warmup_ns);
        calls = 0, t0 = now_ns();
        do
            acc += c[k].fn(&c[k]), calls++, t = now_ns();
        while ((double)(t - t0) < bench_o.sample_ns / 2);
        bench_sink += acc;
        c[k].est = (double)(t - t0) / (double)calls;
        c[k].iters = 1 + (uint64_t)(bench_o.sample_ns / c[k].est);
        if ((double)(c[k].iters + 1) * c[k].est > worst)
            worst = (double)(c[k].iters + 1) * c[k].est;
    }
    int rounds = worst > 0 ? (int)(bench_o.budget_ns / worst) : 1;
    rounds = rounds < bench_o.min_rounds ? bench_o.min_rounds : rounds > bench_o.max_rounds ? bench_o.max_rounds : rounds;
    rounds |= 1; /* odd: the median is a sample */
    double *s = calloc((size_t)n * (size_t)rounds, sizeof *s);
    if (!s)
        abort();
    for (int r = 0; r < rounds; r++)
        for (int j = 0; j < n; j++) {
            bench_case *x = &c[(j + r) % n];
            if (x->skip)
                continue;
            uint64_t acc = x->est < bench_o.sample_ns ? x->fn(x) : 0; /* re-warm after the previous case */
            uint64_t t0 = sample_clock();
            for (uint64_t i = 0; i < x->iters; i++)
                acc += x->fn(x);
            s[(x - c) * rounds + r] = (double)(sample_clock() - t0) / (double)x->iters;
            bench_sink += acc;
        }
    for (int k = 0; k < n; k++) {
        if (c[k].skip)
            continue;
        double *v = s + k * rounds;
        qsort(v, (size_t)rounds, sizeof *v, cmp_double);
        c[k].min = v[0], c[k].max = v[rounds - 1];
        c[k].med = quantile(v, rounds, 0.5), c[k].q1 = quantile(v, rounds, 0.25), c[k].q3 = quantile(v, rounds, 0.75);
    }
    free(s);
}

static bool compared(const bench_case *c) { return !c->skip && c->fam >= FAM_JDOC; }

int bench_measure(const char *wl, const char *file, bench_case *c, int n, int ref,
                  void (*describe)(size_t item, char *buf, size_t cap, const void *ud), const void *ud)
{
    int rc = 0;
    for (int k = 0; k < n; k++) {
        c[k].rec = (bench_rec){ .full = 1 };
        c[k].failed = 0;
        if (!c[k].skip)
            bench_sink += c[k].fn(&c[k]);
    }
    if (c[ref].failed) {
        const jdoc_error *e = c[ref].p ? jdoc_last_error(c[ref].p) : NULL;
        printf("%s: skipped: %s fails (%s at offset %zu)\n", file, c[ref].label, e ? e->message : "?",
               e ? e->offset : 0);
        rc = 1;
    }
    for (int k = 0; k < n && !rc; k++) {
        size_t item = 0;
        char va[160] = "", vb[160] = "", where[512] = "";
        if (!compared(&c[k]) || k == ref)
            continue;
        if (c[k].failed) {
            printf("\n%s: ABORTED on %s: %s failed: %s\n", wl, file, c[k].label,
                   c[k].fam == FAM_JDOC ? "jdoc" : peer_simdjson_error(c[k].err));
            rc = -1;
        } else if (rec_diff(&c[k].rec, &c[ref].rec, &item, va, vb, (int)sizeof va) || c[k].count != c[ref].count) {
            if (describe)
                describe(item, where, sizeof where, ud);
            printf("\n%s: ABORTED on %s, values differ, no timing: %s and %s disagree at value #%zu %s\n"
                   "  %-10s %s\n  %-10s %s\n  (counts %zu and %zu)\n",
                   wl, file, c[k].label, c[ref].label, item + 1, where, c[k].label, va, c[ref].label, vb,
                   c[k].count, c[ref].count);
            rc = -1;
        }
    }
    uint64_t want = c[ref].rec.sum;
    for (int k = 0; k < n; k++)
        free(c[k].rec.buf), c[k].rec = (bench_rec){ 0 }; /* light mode from here */
    if (rc)
        return rc;
    bench_run(c, n);
    for (int k = 0; k < n; k++)
        if (compared(&c[k]) && (c[k].failed || c[k].rec.sum != want)) {
            printf("\n%s: ABORTED on %s: %s %s during timing\n", wl, file, c[k].label,
                   c[k].failed ? "failed" : "read other values");
            return -1;
        }
    return 0;
}

bench_best bench_best_of(const bench_case *c, int n)
{
    bench_best b = { -1, -1, -1, -1, 0, 0, 0, 0 };
    for (int k = 0; k < n; k++) {
        if (c[k].skip || c[k].med <= 0)
            continue;
        int *i = c[k].fam == FAM_JDOC ? &b.jdoc : c[k].fam == FAM_OD ? &b.od : c[k].fam == FAM_DOM ? &b.dom : NULL;
        double *t = c[k].fam == FAM_JDOC ? &b.t_jdoc : c[k].fam == FAM_OD ? &b.t_od : &b.t_dom;
        if (i && (*i < 0 || c[k].med < *t))
            *i = k, *t = c[k].med;
    }
    b.sj = b.od >= 0 && (b.dom < 0 || b.t_od <= b.t_dom) ? b.od : b.dom;
    b.t_sj = b.sj < 0 ? 0 : c[b.sj].med;
    return b;
}

/* ---- Reports ---- */

double bench_value(const bench_unit *u, double ns)
{
    return ns <= 0 ? 0 : u->rate ? u->per * u->scale * 1e9 / ns : ns / u->per / u->scale;
}

void bench_head(int w, const char *name, const bench_case *c, int n)
{
    printf("%-*s", w, name);
    for (int k = 0; k < n; k++)
        printf(" %10.10s", c[k].label);
    printf(" %5s", "IQR");
}

void bench_cells(const bench_unit *u, const bench_case *c, int n)
{
    double iqr = 0;
    for (int k = 0; k < n; k++) {
        if (c[k].skip || c[k].med <= 0) {
            printf(" %10s", c[k].why ? c[k].why : "err");
            continue;
        }
        double v = bench_value(u, c[k].med);
        printf(v >= 9999.5 ? " %10.0f" : v >= 99.95 ? " %10.1f" : v >= 9.995 ? " %10.2f" : " %10.3f", v);
        if ((c[k].q3 - c[k].q1) / c[k].med > iqr)
            iqr = (c[k].q3 - c[k].q1) / c[k].med;
    }
    printf(" %4.0f%%", 100 * iqr);
}

double bench_row(FILE *tsv, const char *wl, const char *file, const bench_unit *u, const bench_case *c, int n)
{
    bench_best b = bench_best_of(c, n);
    double x = b.sj >= 0 && b.jdoc >= 0 ? b.t_sj / b.t_jdoc : 0;
    bench_cells(u, c, n);
    if (x > 0)
        printf(" %6.3fx", x);
    else
        printf(" %7s", "n/a");
    bench_tsv_cases(tsv, wl, file, u, c, n);
    return x;
}

FILE *bench_tsv(const char *wl)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s.tsv", bench_o.out, wl);
    mkdir(bench_o.out, 0777);
    FILE *t = fopen(path, "w");
    if (!t)
        printf("warning: cannot write %s (%s)\n", path, strerror(errno));
    else
        fprintf(t, "workload\tfile\timpl\tmetric\tmedian\tmin\tmax\tunit\tratio\n");
    return t;
}

void bench_tsv_cases(FILE *t, const char *wl, const char *file, const bench_unit *u, const bench_case *c, int n)
{
    bench_best b = bench_best_of(c, n);
    for (int k = 0; t && k < n; k++) {
        if (c[k].skip || c[k].med <= 0)
            continue;
        fprintf(t, "%s\t%s\t%s\t%s\t%.6g\t%.6g\t%.6g\t%s\t", wl, file, c[k].impl, u->metric, bench_value(u, c[k].med),
                bench_value(u, u->rate ? c[k].max : c[k].min), bench_value(u, u->rate ? c[k].min : c[k].max), u->unit);
        if (b.sj >= 0)
            fprintf(t, "%.4f\n", c[k].med / b.t_sj);
        else
            fprintf(t, "-\n");
    }
}

void bench_tsv_value(FILE *t, const char *wl, const char *file, const char *impl, const char *metric, double v,
                     const char *unit)
{
    if (t)
        fprintf(t, "%s\t%s\t%s\t%s\t%.6g\t%.6g\t%.6g\t%s\t-\n", wl, file, impl, metric, v, v, v, unit);
}

static struct goal {
    char name[24], what[96], detail[256];
    double measured, target;
    bool higher;
} goals[24];
static int ngoals;

static void goal_line(const char *prefix, const struct goal *g)
{
    bool met = g->higher ? g->measured >= g->target : g->measured <= g->target;
    printf("%s%-10s %-44s %8.3f  goal %s %-5g %-7s %s\n", prefix, g->name, g->what, g->measured,
           g->higher ? ">=" : "<=", g->target, met ? "MET" : "NOT MET", g->detail);
}

void bench_goal(const char *name, const char *what, double measured, double target, bool higher, const char *detail)
{
    struct goal *g = &goals[ngoals < 23 ? ngoals++ : 23];
    snprintf(g->name, sizeof g->name, "%s", name);
    snprintf(g->what, sizeof g->what, "%s", what);
    snprintf(g->detail, sizeof g->detail, "%s", detail ? detail : "");
    g->measured = measured, g->target = target, g->higher = higher;
    goal_line("goal ", g);
}

void bench_goal_geo(const char *name, const char *what, const bench_geo *g, double target, bool higher)
{
    char d[256];
    snprintf(d, sizeof d, "geomean of %d files; worst %.3f on %s", g->n, g->worst, g->worst_at);
    if (g->n)
        bench_goal(name, what, bench_geo_mean(g), target, higher, d);
}

void bench_goals_print(void)
{
    printf("\n== goals (measured in this run; ratios of times in the same run)\n");
    for (int i = 0; i < ngoals; i++)
        goal_line("", &goals[i]);
    if (!ngoals)
        printf("(none measured: workloads not run, or simdjson n/a)\n");
}

void bench_geo_add(bench_geo *g, double x, bool higher, const char *where)
{
    if (!(x > 0))
        return;
    if (!g->n || (higher ? x < g->worst : x > g->worst))
        g->worst = x, snprintf(g->worst_at, sizeof g->worst_at, "%s", where);
    g->log_sum += log(x), g->n++;
}
double bench_geo_mean(const bench_geo *g) { return g->n ? exp(g->log_sum / g->n) : 0; }

/* ---- Files ---- */

int bench_load(const char *path, bench_file *f)
{
    memset(f, 0, sizeof *f);
    FILE *fp = fopen(path, "rb");
    struct stat sb;
    if (!fp || fstat(fileno(fp), &sb) != 0 || !S_ISREG(sb.st_mode)) {
        printf("%s: cannot read (%s)\n", path, strerror(errno ? errno : EINVAL));
        if (fp)
            fclose(fp);
        return -1;
    }
    f->len = (size_t)sb.st_size;
    f->data = aligned_alloc(64, (f->len + 64) / 64 * 64);
    if (!f->data || fread(f->data, 1, f->len, fp) != f->len) {
        printf("%s: cannot read (%s)\n", path, f->data ? "short read" : "out of memory");
        fclose(fp);
        return free(f->data), f->data = NULL, -1;
    }
    fclose(fp);
    f->data[f->len] = 0;
    const char *slash = strrchr(path, '/');
    f->name = strdup(slash ? slash + 1 : path);
    return 0;
}

void bench_file_free(bench_file *f)
{
    free(f->name), free(f->data);
    memset(f, 0, sizeof *f);
}

static int cmp_str(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

int bench_list(const char *dir, const char *suffix, char ***paths)
{
    DIR *d = opendir(dir);
    *paths = NULL;
    if (!d) {
        printf("%s: cannot open (%s)\n", dir, strerror(errno));
        return -1;
    }
    char **v = NULL;
    int n = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        size_t l = strlen(e->d_name), sl = suffix ? strlen(suffix) : 0;
        char p[4096];
        struct stat sb;
        snprintf(p, sizeof p, "%s/%s", dir, e->d_name);
        if (e->d_name[0] == '.' || (suffix && (l < sl || strcmp(e->d_name + l - sl, suffix))) ||
            (bench_o.filter && !strstr(e->d_name, bench_o.filter)) || stat(p, &sb) != 0 || !S_ISREG(sb.st_mode))
            continue;
        char **nv = realloc(v, (size_t)(n + 1) * sizeof *v);
        if (!nv)
            break;
        v = nv;
        v[n++] = strdup(p);
    }
    closedir(d);
    if (n)
        qsort(v, (size_t)n, sizeof *v, cmp_str);
    *paths = v;
    return n;
}

void bench_list_free(char **paths, int n)
{
    for (int i = 0; i < n; i++)
        free(paths[i]);
    free(paths);
}

int bench_load_data(const char *name, bench_file *f)
{
    char path[4096];
    if (bench_o.data)
        snprintf(path, sizeof path, "%s/%s", bench_o.data, name);
    else
        snprintf(path, sizeof path, "%s/data/%s", bench_o.out, name);
    if (access(path, R_OK) != 0) {
        printf("%s: missing (`make bench-data` generates it with gen_docker): skipped\n", path);
        return -1;
    }
    return bench_load(path, f);
}

/* ---- The simdjson peer ---- */

peer_simdjson *bench_peer(const char *impl, const char *what)
{
    const char *why = "peer not built";
    peer_simdjson *p = peer_available() ? peer_simdjson_new(impl, &why) : NULL;
    if (!p)
        printf("simdjson %s: skipped: %s\n", what, why);
    return p;
}

void bench_peer_free(peer_simdjson *p)
{
    if (p)
        peer_simdjson_free(p);
}

uint64_t bench_peer_fn(bench_case *c)
{
    c->rec.sum = 0;
    int64_t rc = peer_simdjson_run(c->peer, c->op, c->shape, &c->rec);
    if (rc < 0)
        return c->failed = 1, c->err = rc, 0;
    c->count = (size_t)rc;
    return c->rec.sum ^ (uint64_t)rc;
}

/* ---- Counting allocator (a size header per block; 16 bytes keep the alignment) ---- */

static void *count_realloc(void *ud, void *p, size_t n)
{
    bench_alloc *c = ud;
    size_t old = 0;
    if (p)
        p = (char *)p - 16, memcpy(&old, p, sizeof old);
    char *b = realloc(p, n + 16);
    if (!b)
        return NULL;
    memcpy(b, &n, sizeof n);
    c->allocs++;
    c->live += n - old;
    if (c->live > c->peak)
        c->peak = c->live;
    return b + 16;
}
static void *count_malloc(void *ud, size_t n) { return count_realloc(ud, NULL, n); }
static void count_free(void *ud, void *p)
{
    bench_alloc *c = ud;
    size_t n;
    if (!p)
        return;
    memcpy(&n, (char *)p - 16, sizeof n);
    c->live -= n;
    free((char *)p - 16);
}

jdoc_parser *bench_counting_parser(bench_alloc *c, jdoc_kernel_id k)
{
    *c = (bench_alloc){ .a = { count_malloc, count_realloc, count_free, c } };
    jdoc_options o = { .kernel = k, .allocator = &c->a };
    return jdoc_parser_new(&o);
}

double bench_allocs_per_call(bench_alloc *a, bench_case *c, int calls)
{
    uint64_t before = a->allocs;
    for (int i = 0; i < calls; i++)
        bench_sink += c->fn(c);
    return (double)(a->allocs - before) / calls;
}

/* ---- Command line and environment ---- */

static void usage(FILE *out)
{
    fprintf(out, "usage: bench [--corpus DIR] [--out DIR] [--data DIR] [--paths DIR] [--filter S] [--quick]\n"
                 "             [--clock cpu|wall] [WORKLOAD...]\n"
                 "  --corpus DIR  corpus root with standard/ and docker/ (default ../shared/corpus)\n"
                 "  --out DIR     TSV files, one per workload (default build/bench)\n"
                 "  --data DIR    generated Docker data (default OUT/data)\n"
                 "  --paths DIR   path lists of fetch and small (default " BENCH_PATHS_DIR ")\n"
                 "  --filter S    only files whose name contains S\n"
                 "  --quick       a smoke run: few short samples, rough numbers\n"
                 "  --clock C     cpu: samples timed by thread CPU time (default); wall: monotonic clock\n"
                 "workloads (default: all):\n");
    for (int i = 0; i < NW; i++)
        fprintf(out, "  %-8s %s\n", workloads[i].name, workloads[i].what);
}

static void print_env(void)
{
    char date[64], model[256] = "unknown", line[1024];
    time_t now = time(NULL);
    strftime(date, sizeof date, "%Y-%m-%d %H:%M:%S UTC", gmtime(&now));
    FILE *fp = fopen("/proc/cpuinfo", "r");
    while (fp && fgets(line, sizeof line, fp))
        if (!strncmp(line, "model name", 10) && strchr(line, ':')) {
            snprintf(model, sizeof model, "%s", strchr(line, ':') + 2);
            model[strcspn(model, "\n")] = 0;
            break;
        }
    if (fp)
        fclose(fp);
    cpu_set_t set;
    CPU_ZERO(&set);
    int ncpu = sched_getaffinity(0, sizeof set, &set) == 0 ? CPU_COUNT(&set) : 0;
    double load[3] = { 0 };
    if (getloadavg(load, 3) != 3)
        load[0] = -1;
    printf("jdoc benchmark, %s\ncpu:      %s, %ld online, %s; load %.2f (other processes: expect noise)\n", date, model,
           sysconf(_SC_NPROCESSORS_ONLN), ncpu == 1 ? "pinned to one" : "NOT pinned", load[0]);
    printf("build:    gcc %s, CFLAGS %s; jdoc %s\n", __VERSION__, BENCH_CFLAGS_STR, jdoc_version());
    jdoc_parser *p = jdoc_parser_new(NULL);
    const char *dflt = p ? jdoc_kernel_name(p) : "?";
    printf("kernels:  default %s (%s); compiled:", dflt, getenv("JDOC_KERNEL") ? "set by JDOC_KERNEL" : "the best here");
    for (int k = JDOC_KERNEL_AUTO + 1; k < JDOC_KERNEL_COUNT; k++)
        if (jdoc_kernel_compiled((jdoc_kernel_id)k))
            printf(" %s%s", jdoc_kernel_id_name((jdoc_kernel_id)k),
                   jdoc_kernel_supported((jdoc_kernel_id)k) ? "" : " (not runnable here)");
    printf("\n");
    if (peer_available())
        printf("simdjson: %s, default implementation %s, On Demand compiled for %s; %s\n", peer_simdjson_info(0),
               peer_simdjson_info(1), peer_simdjson_info(2), peer_simdjson_info(3));
    else
        printf("simdjson: n/a (peer not built: simdjson.h, libsimdjson or g++ missing): jdoc-only numbers\n");
    printf("method:   warm-up %.0f ms per case; samples of >= %.1f ms; %d..%d samples per case within %.0f ms,\n"
           "          cases interleaved round by round; medians; %s clock\n",
           bench_o.warmup_ns / 1e6, bench_o.sample_ns / 1e6, bench_o.min_rounds, bench_o.max_rounds,
           bench_o.budget_ns / 1e6, bench_o.wall_clock ? "wall (monotonic)" : "thread CPU time");
    fp = fopen(strcat(strcpy(line, bench_o.out), "/meta.tsv"), "w"); /* for bench/chart.sh */
    if (fp) {
        fprintf(fp, "cpu\t%s\ndate\t%.10s\njdoc_kernel\t%s\nsimdjson\t%s %s\n", model, date, dflt, peer_available() ? peer_simdjson_info(0) : "n/a",
                peer_available() ? peer_simdjson_info(1) : "");
        fclose(fp);
    }
    jdoc_parser_free(p);
}

int main(int argc, char **argv)
{
    const char *sel[16];
    int nsel = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        const char **opt = !strcmp(a, "--corpus") ? &bench_o.corpus : !strcmp(a, "--out") ? &bench_o.out
                         : !strcmp(a, "--data") ? &bench_o.data : !strcmp(a, "--paths") ? &bench_o.paths
                         : !strcmp(a, "--filter") ? &bench_o.filter : NULL;
        if (opt && v)
            *opt = v, i++;
        else if (!strcmp(a, "--quick"))
            bench_o.quick = true;
        else if (!strcmp(a, "--clock") && v && (!strcmp(v, "cpu") || !strcmp(v, "wall")))
            bench_o.wall_clock = !strcmp(argv[++i], "wall");
        else if (!strcmp(a, "-h") || !strcmp(a, "--help"))
            return usage(stdout), 0;
        else if (a[0] != '-' && nsel < 16)
            sel[nsel++] = a;
        else
            return usage(stderr), 2;
    }
    for (int s = 0; s < nsel; s++) {
        int i = 0;
        while (i < NW && strcmp(workloads[i].name, sel[s]))
            i++;
        if (i == NW)
            return fprintf(stderr, "bench: unknown workload '%s'\n", sel[s]), usage(stderr), 2;
    }
    if (bench_o.quick)
        bench_o.warmup_ns = 1e6, bench_o.sample_ns = 0.5e6, bench_o.budget_ns = 5e6, bench_o.min_rounds = 3,
        bench_o.max_rounds = 5;
    else
        bench_o.warmup_ns = 10e6, bench_o.sample_ns = 2e6, bench_o.budget_ns = 400e6, bench_o.min_rounds = 9,
        bench_o.max_rounds = 41;
    mkdir(bench_o.out, 0777);
    print_env();
    int rc = 0;
    uint64_t t0 = now_ns();
    for (int i = 0; i < NW; i++) {
        bool run = nsel == 0;
        for (int s = 0; s < nsel; s++)
            run |= !strcmp(sel[s], workloads[i].name);
        if (!run)
            continue;
        uint64_t t = now_ns();
        printf("\n== %s: %s\n", workloads[i].name, workloads[i].what);
        if (workloads[i].run() != 0)
            rc = 1;
        printf("(%s: %.1f s)\n", workloads[i].name, (double)(now_ns() - t) / 1e9);
        fflush(stdout);
    }
    bench_goals_print();
    printf("total: %.1f s\n", (double)(now_ns() - t0) / 1e9);
    return rc;
}
