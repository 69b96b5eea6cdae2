/* SPDX-License-Identifier: MIT */
/* Implementation of bench_util.h: the interleaved sample runner, file and
 * directory loading, and CPU/compiler/environment printing. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "bench_util.h"

#include <dirent.h>
#include <errno.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#ifndef BENCH_CFLAGS_STR
#define BENCH_CFLAGS_STR "(unknown)"
#endif
#ifndef BENCH_JDOC_CFLAGS_STR
#define BENCH_JDOC_CFLAGS_STR "(unknown)"
#endif

volatile uint64_t bench_sink;

/* Samples lost to preemption are replaced: up to this many times the planned rounds. */
#define BENCH_EXTRA_ROUNDS 2

/* ------------------------------------------------------------------------ */
/* Runner                                                                   */
/* ------------------------------------------------------------------------ */

bench_opts bench_opts_default(void)
{
    return (bench_opts){ .warmup_ns = 20e6, .min_sample_ns = 2e6, .budget_ns = 200e6,
                         .min_rounds = 7, .max_rounds = 41, .cpu_clock = true };
}

bench_opts bench_opts_quick(void)
{
    return (bench_opts){ .warmup_ns = 4e6, .min_sample_ns = 2e6, .budget_ns = 20e6,
                         .min_rounds = 5, .max_rounds = 7, .cpu_clock = true };
}

/* Call fn until at least `min_calls` calls and `ns` nanoseconds; returns the calls made. */
static uint64_t run_for(bench_case *c, double ns, uint64_t min_calls, uint64_t *elapsed)
{
    uint64_t acc = 0, calls = 0, t0 = bench_now_ns(), t;
    do {
        acc += c->fn(c->ctx);
        calls++;
        t = bench_now_ns();
    } while (calls < min_calls || (double)(t - t0) < ns);
    bench_sink += acc;
    if (elapsed)
        *elapsed = t - t0;
    return calls;
}

/* Context switches of this thread so far (preemptions and blocking). */
static long switches(void)
{
    struct rusage ru;
    if (getrusage(RUSAGE_THREAD, &ru) != 0)
        return 0;
    return ru.ru_nivcsw + ru.ru_nvcsw;
}

/* One sample: ns per call, by the wall clock or the thread's CPU time;
 * *clean = the thread was never switched out during it. */
static double timed_sample(bench_case *c, uint64_t iters, bool rewarm, bool cpu_clock, bool *clean)
{
    uint64_t acc = rewarm ? c->fn(c->ctx) : 0; /* untimed: re-warm after the previous case */
    long sw0 = switches();
    uint64_t t0 = cpu_clock ? bench_cpu_ns() : bench_now_ns();
    for (uint64_t i = 0; i < iters; i++)
        acc += c->fn(c->ctx);
    uint64_t t1 = cpu_clock ? bench_cpu_ns() : bench_now_ns();
    *clean = switches() == sw0;
    bench_sink += acc;
    return (double)(t1 - t0) / (double)iters;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double quantile(const double *sorted, int n, double q)
{
    double pos = q * (n - 1);
    int i = (int)pos;
    if (i >= n - 1)
        return sorted[n - 1];
    double f = pos - i;
    return sorted[i] * (1 - f) + sorted[i + 1] * f;
}

static void stats(double *s, int n, bench_stats *st)
{
    qsort(s, (size_t)n, sizeof *s, cmp_double);
    st->n = n;
    st->min = s[0];
    st->max = s[n - 1];
    st->median = quantile(s, n, 0.5);
    st->q1 = quantile(s, n, 0.25);
    st->q3 = quantile(s, n, 0.75);
}

int bench_run_interleaved(bench_case *cases, size_t n, const bench_opts *o)
{
    double worst = 0;
    for (size_t k = 0; k < n; k++) {
        bench_case *c = &cases[k];
        memset(&c->st, 0, sizeof c->st);
        if (c->skip)
            continue;
        run_for(c, o->warmup_ns, 2, NULL);
        uint64_t el;
        uint64_t calls = run_for(c, o->min_sample_ns / 2, 1, &el);
        c->est_ns = (double)el / (double)calls;
        double it = o->min_sample_ns / (c->est_ns > 1 ? c->est_ns : 1);
        c->st.iters = it < 1 ? 1 : (uint64_t)it + 1;
        double sample = (double)(c->st.iters + 1) * c->est_ns; /* + the untimed call */
        if (sample > worst)
            worst = sample;
    }
    int rounds = worst > 0 ? (int)(o->budget_ns / worst) : o->max_rounds;
    if (rounds > o->max_rounds)
        rounds = o->max_rounds;
    if (rounds < o->min_rounds)
        rounds = o->min_rounds;
    if (rounds % 2 == 0)
        rounds++;
    int max_total = rounds * (1 + BENCH_EXTRA_ROUNDS);
    /* Calls longer than a sample need no untimed re-warm call. */
    double planned = 0;
    for (size_t k = 0; k < n; k++)
        if (!cases[k].skip)
            planned += (double)(cases[k].st.iters + (cases[k].est_ns < o->min_sample_ns)) * cases[k].est_ns;
    planned *= rounds;
    uint64_t t_start = bench_now_ns();

    /* Per case: all samples, and the clean ones (not switched out). */
    double *all = calloc(n * (size_t)max_total, sizeof *all);
    double *clean = calloc(n * (size_t)max_total, sizeof *clean);
    int *nall = calloc(n, sizeof *nall), *nclean = calloc(n, sizeof *nclean);
    int *nswitched = calloc(n, sizeof *nswitched);
    if (!all || !clean || !nall || !nclean || !nswitched) {
        free(all), free(clean), free(nall), free(nclean), free(nswitched);
        return 0;
    }
    int r;
    for (r = 0; r < max_total; r++) {
        bool more = false;
        for (size_t j = 0; j < n; j++) {
            size_t k = (j + (size_t)r) % n;
            if (cases[k].skip || (r >= rounds && nclean[k] >= rounds))
                continue;
            bool ok;
            double v = timed_sample(&cases[k], cases[k].st.iters, cases[k].est_ns < o->min_sample_ns,
                                    o->cpu_clock, &ok);
            all[k * (size_t)max_total + (size_t)nall[k]++] = v;
            nswitched[k] += !ok;
            if (ok || o->cpu_clock) /* CPU time does not count the time switched out */
                clean[k * (size_t)max_total + (size_t)nclean[k]++] = v;
            more |= nclean[k] < rounds;
        }
        /* Retake left-out samples for at most as long again as planned. */
        if (r + 1 >= rounds && (!more || (double)(bench_now_ns() - t_start) > 2 * planned))
            break;
    }
    for (size_t k = 0; k < n; k++) {
        if (cases[k].skip)
            continue;
        bench_stats *st = &cases[k].st;
        int used_clean = nclean[k] >= (rounds + 1) / 2 && nclean[k] >= 3;
        if (used_clean)
            stats(clean + k * (size_t)max_total, nclean[k], st);
        else
            stats(all + k * (size_t)max_total, nall[k], st);
        st->taken = nall[k];
        st->switched = nswitched[k];
        st->all_samples = !used_clean;
    }
    free(all), free(clean), free(nall), free(nclean), free(nswitched);
    return r;
}

/* ------------------------------------------------------------------------ */
/* Files                                                                    */
/* ------------------------------------------------------------------------ */

int bench_file_load(const char *path, bench_file *f)
{
    memset(f, 0, sizeof *f);
    FILE *fp = fopen(path, "rb");
    if (!fp)
        return -1;
    struct stat sb;
    if (fstat(fileno(fp), &sb) != 0 || !S_ISREG(sb.st_mode)) {
        fclose(fp);
        errno = EINVAL;
        return -1;
    }
    size_t len = (size_t)sb.st_size;
    size_t cap = (len + 1 + 63) / 64 * 64;
    char *data = aligned_alloc(64, cap);
    if (!data) {
        fclose(fp);
        errno = ENOMEM;
        return -1;
    }
    size_t got = fread(data, 1, len, fp);
    fclose(fp);
    if (got != len) {
        free(data);
        errno = EIO;
        return -1;
    }
    data[len] = 0;
    const char *slash = strrchr(path, '/');
    f->path = strdup(path);
    f->name = strdup(slash ? slash + 1 : path);
    f->data = data;
    f->len = len;
    return 0;
}

void bench_file_free(bench_file *f)
{
    free(f->path);
    free(f->name);
    free(f->data);
    memset(f, 0, sizeof *f);
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

int bench_list_dir(const char *dir, char ***paths)
{
    *paths = NULL;
    DIR *d = opendir(dir);
    if (!d)
        return -1;
    char **v = NULL;
    int n = 0, cap = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (e->d_name[0] == '.')
            continue;
        size_t l = strlen(dir) + strlen(e->d_name) + 2;
        char *p = malloc(l);
        if (!p)
            break;
        snprintf(p, l, "%s/%s", dir, e->d_name);
        struct stat sb;
        if (stat(p, &sb) != 0 || !S_ISREG(sb.st_mode)) {
            free(p);
            continue;
        }
        if (n == cap) {
            cap = cap ? 2 * cap : 32;
            char **nv = realloc(v, (size_t)cap * sizeof *v);
            if (!nv) {
                free(p);
                break;
            }
            v = nv;
        }
        v[n++] = p;
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

int bench_mkdir_p(const char *dir)
{
    char buf[4096];
    size_t l = strlen(dir);
    if (l == 0 || l >= sizeof buf)
        return -1;
    memcpy(buf, dir, l + 1);
    for (size_t i = 1; i <= l; i++) {
        if (buf[i] == '/' || buf[i] == 0) {
            char c = buf[i];
            buf[i] = 0;
            if (mkdir(buf, 0777) != 0 && errno != EEXIST)
                return -1;
            buf[i] = c;
        }
    }
    return 0;
}

/* ------------------------------------------------------------------------ */
/* Environment                                                              */
/* ------------------------------------------------------------------------ */

const char *bench_cpu_model(void)
{
    static char model[256];
    if (model[0])
        return model;
    snprintf(model, sizeof model, "unknown");
    FILE *fp = fopen("/proc/cpuinfo", "r");
    if (!fp)
        return model;
    char line[1024];
    while (fgets(line, sizeof line, fp)) {
        if (strncmp(line, "model name", 10) != 0)
            continue;
        char *v = strchr(line, ':');
        if (!v)
            continue;
        v++;
        while (*v == ' ' || *v == '\t')
            v++;
        v[strcspn(v, "\n")] = 0;
        snprintf(model, sizeof model, "%s", v);
        break;
    }
    fclose(fp);
    return model;
}

static void print_affinity(FILE *out)
{
    cpu_set_t set;
    CPU_ZERO(&set);
    if (sched_getaffinity(0, sizeof set, &set) != 0) {
        fprintf(out, "unknown");
        return;
    }
    long online = sysconf(_SC_NPROCESSORS_ONLN);
    int count = CPU_COUNT(&set);
    const char *sep = "";
    for (int i = 0; i < CPU_SETSIZE; i++)
        if (CPU_ISSET(i, &set)) {
            fprintf(out, "%s%d", sep, i);
            sep = ",";
        }
    fprintf(out, count == 1 ? " (pinned)" : (count < online ? " (restricted)" : " (not pinned)"));
}

void bench_print_env(FILE *out)
{
    char date[64];
    time_t now = time(NULL);
    struct tm tm;
    gmtime_r(&now, &tm);
    strftime(date, sizeof date, "%Y-%m-%d %H:%M:%S UTC", &tm);
    fprintf(out, "date:        %s\n", date);
    fprintf(out, "cpu:         %s, %ld logical CPUs online, running on CPU ", bench_cpu_model(),
            sysconf(_SC_NPROCESSORS_ONLN));
    print_affinity(out);
    fprintf(out, "\n");
    double load[3];
    if (getloadavg(load, 3) == 3)
        fprintf(out, "load:        %.2f %.2f %.2f (1/5/15 min; above ~0 other processes share the CPUs: expect noise)\n",
                load[0], load[1], load[2]);
#if defined(__clang__)
    fprintf(out, "compiler:    clang %s\n", __clang_version__);
#elif defined(__GNUC__)
    fprintf(out, "compiler:    gcc %s\n", __VERSION__);
#else
    fprintf(out, "compiler:    unknown\n");
#endif
    fprintf(out, "CFLAGS:      %s\n", BENCH_CFLAGS_STR);
    fprintf(out, "JDOC_CFLAGS: %s\n", BENCH_JDOC_CFLAGS_STR);
}
