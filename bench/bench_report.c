/* SPDX-License-Identifier: MIT */
/* Shared reporting for the fetch-style workloads: best-column ratios, table
 * cells, TSV rows (workload, file, impl, metric, median, min, max, unit, ratio),
 * value-check failures, and the goals summary printed at the end of a run. */
#include "bench.h"
#include "peer_simdjson.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

void bench_print_impls(void)
{
    jdoc_parser *p = jdoc_parser_new(NULL);
    printf("jdoc kernel: %s (jdoc_parser_new(NULL): the best this CPU runs, unless JDOC_KERNEL is set)\n",
           p ? jdoc_kernel_name(p) : "(jdoc_parser_new failed)");
    jdoc_parser_free(p);
    if (peer_simdjson_available())
        printf("simdjson:    %s, stage 1 %s, On Demand compiled for %s%s\n", peer_simdjson_version(),
               peer_simdjson_impl(), peer_simdjson_builtin(),
               peer_simdjson_threads() ? " (threads compiled in, turned off)" : "");
    else
        printf("simdjson:    n/a (peer not built): simdjson columns say n/a, ratios and goals are not measured\n");
}

void bench_row_compute(const bench_col *cols, const bench_case *cases, int n, bench_row *row)
{
    *row = (bench_row){ .best_jdoc = -1, .best_sj = -1, .best_od = -1 };
    for (int i = 0; i < n; i++) {
        if (cases[i].skip || cases[i].st.n == 0)
            continue;
        double t = cases[i].st.median;
        if (cols[i].fam == FAM_JDOC) {
            if (row->best_jdoc < 0 || t < row->t_jdoc)
                row->best_jdoc = i, row->t_jdoc = t;
        } else {
            if (row->best_sj < 0 || t < row->t_sj)
                row->best_sj = i, row->t_sj = t;
            if (cols[i].fam == FAM_OD && (row->best_od < 0 || t < row->t_od))
                row->best_od = i, row->t_od = t;
        }
    }
    if (row->best_jdoc >= 0 && row->best_sj >= 0)
        row->ratio_sj = row->t_jdoc / row->t_sj;
    if (row->best_jdoc >= 0 && row->best_od >= 0)
        row->ratio_od = row->t_jdoc / row->t_od;
}

double bench_unit_value(const bench_unit *u, double ns)
{
    if (ns <= 0)
        return 0;
    if (u->rate)
        return u->per_call * u->scale * 1e9 / ns;
    return ns / u->per_call / u->scale;
}

void bench_print_num(double v, int width)
{
    if (v >= 9999.5)
        printf("%*.0f", width, v);
    else if (v >= 99.995)
        printf("%*.1f", width, v);
    else if (v >= 9.9995)
        printf("%*.2f", width, v);
    else
        printf("%*.3f", width, v);
}

void bench_print_head(const char *label) { printf(" %14s", label); }

void bench_print_cell(const bench_unit *u, const bench_case *c, const char *na)
{
    if (c->skip || c->st.n == 0) {
        printf(" %14s", na);
        return;
    }
    double med = c->st.median;
    printf(" ");
    bench_print_num(bench_unit_value(u, med), 9);
    printf(" ~%2.0f%%", med > 0 ? 100.0 * (c->st.q3 - c->st.q1) / med : 0.0);
}

FILE *bench_tsv_open(const bench_ctx *ctx, const char *workload, char *path, size_t cap)
{
    snprintf(path, cap, "%s/%s.tsv", ctx->out_dir, workload);
    FILE *tsv = NULL;
    if (bench_mkdir_p(ctx->out_dir) == 0)
        tsv = fopen(path, "w");
    if (!tsv) {
        printf("warning: cannot write %s (%s)\n", path, strerror(errno));
        return NULL;
    }
    fprintf(tsv, "workload\tfile\timpl\tmetric\tmedian\tmin\tmax\tunit\tratio\n");
    return tsv;
}

void bench_tsv_rows(FILE *tsv, const char *workload, const char *file, const bench_col *cols,
                    const bench_case *cases, int n, const bench_unit *u, const bench_row *row)
{
    if (!tsv)
        return;
    for (int i = 0; i < n; i++) {
        const bench_case *c = &cases[i];
        if (c->skip || c->st.n == 0)
            continue;
        double med = bench_unit_value(u, c->st.median);
        /* For rates the slowest sample is the minimum. */
        double lo = bench_unit_value(u, u->rate ? c->st.max : c->st.min);
        double hi = bench_unit_value(u, u->rate ? c->st.min : c->st.max);
        fprintf(tsv, "%s\t%s\t%s\t%s\t%.6g\t%.6g\t%.6g\t%s\t", workload, file, cols[i].impl, u->metric, med, lo, hi,
                u->unit);
        if (row->best_sj >= 0)
            fprintf(tsv, "%.4f\n", c->st.median / row->t_sj);
        else
            fprintf(tsv, "-\n");
    }
    fflush(tsv);
}

void bench_tsv_value(FILE *tsv, const char *workload, const char *file, const char *impl, const char *metric,
                     double v, const char *unit)
{
    if (tsv)
        fprintf(tsv, "%s\t%s\t%s\t%s\t%.6g\t%.6g\t%.6g\t%s\t-\n", workload, file, impl, metric, v, v, v, unit);
}

int bench_check_fail(const char *workload, const char *file, const char *impl, const char *ref,
                     const bench_rec *got, const bench_rec *want,
                     void (*describe)(size_t item, char *buf, size_t cap, void *ud), void *ud)
{
    size_t item = 0;
    char vg[160], vw[160], where[512] = "";
    if (!bench_rec_compare(got, want, &item, vg, vw, sizeof vg)) {
        /* Same values in full mode: the light-mode digests differ. */
        printf("\n%s: ABORTED on %s: %s's light-mode digest differs from %s's (same values in the check run)\n",
               workload, file, impl, ref);
        return -1;
    }
    if (describe)
        describe(item, where, sizeof where, ud);
    printf("\n%s: ABORTED on %s: values differ, so no timing: %s and %s disagree at value #%zu%s%s\n"
           "  %-14s %s\n  %-14s %s\n",
           workload, file, impl, ref, item + 1, where[0] ? " " : "", where, impl, vg, ref, vw);
    return -1;
}

/* ------------------------------------------------------------------------ */
/* Goals                                                                    */
/* ------------------------------------------------------------------------ */

static const char *const goal_text[GOAL_COUNT] = {
    [GOAL_FETCH] = "1. fetch:   parse + 5-10 typed paths per document, jdoc >= 2x faster than the best simdjson\n"
                   "            (geomean over documents of time ratios jdoc/best-simdjson <= 0.5)",
    [GOAL_HOTLOOP] = "2. hotloop: 5 fields of every container, jdoc >= 1.5x faster than simdjson On Demand\n"
                     "            (time ratio jdoc/OD <= 0.667 on each generated array)",
    [GOAL_SMALL] = "3. small:   parse + 3 fields of a small Docker response, jdoc >= 1.25x faster than On Demand\n"
                   "            (time ratio jdoc/best-OD <= 0.8 on each file)",
    [GOAL_STREAMS] = "4. streams: NDJSON events, one field each: no target given; time ratio jdoc/best-simdjson shown",
    [GOAL_ALLOC] = "5. alloc:   0 allocations per parse after warm-up (counting jdoc_allocator), all workloads run",
};

static struct {
    bool set;
    double ratio;
    int met;
    char detail[1024];
} goals[GOAL_COUNT];

void bench_goal_report(int goal, double ratio, int met, const char *detail)
{
    if (goal <= 0 || goal >= GOAL_COUNT)
        return;
    goals[goal].set = true;
    goals[goal].ratio = ratio;
    goals[goal].met = met;
    snprintf(goals[goal].detail, sizeof goals[goal].detail, "%s", detail);
}

static struct {
    int n;           /* measurements */
    char worst[256]; /* where the worst was measured */
    char workloads[256];
} alloc_seen;

void bench_goal_alloc(const char *where, double allocs_per_parse)
{
    if (!goals[GOAL_ALLOC].set || allocs_per_parse > goals[GOAL_ALLOC].ratio) {
        goals[GOAL_ALLOC].ratio = allocs_per_parse;
        snprintf(alloc_seen.worst, sizeof alloc_seen.worst, "%s", where);
    }
    goals[GOAL_ALLOC].set = true;
    goals[GOAL_ALLOC].met = goals[GOAL_ALLOC].ratio == 0;
    alloc_seen.n++;
    /* The workload is the first word of `where`. */
    char w[64];
    snprintf(w, sizeof w, "%.*s", (int)strcspn(where, " "), where);
    if (!strstr(alloc_seen.workloads, w)) {
        size_t l = strlen(alloc_seen.workloads);
        snprintf(alloc_seen.workloads + l, sizeof alloc_seen.workloads - l, "%s%s", l ? ", " : "", w);
    }
    if (goals[GOAL_ALLOC].ratio == 0)
        snprintf(goals[GOAL_ALLOC].detail, sizeof goals[GOAL_ALLOC].detail, "%d inputs in %s: none allocates",
                 alloc_seen.n, alloc_seen.workloads);
    else
        snprintf(goals[GOAL_ALLOC].detail, sizeof goals[GOAL_ALLOC].detail, "%d inputs in %s; worst: %s",
                 alloc_seen.n, alloc_seen.workloads, alloc_seen.worst);
}

void bench_goals_print(FILE *out)
{
    fprintf(out, "\n== goals (ratios are times jdoc/peer, same run: lower is better, 0.5 = jdoc twice as fast)\n");
    for (int g = 1; g < GOAL_COUNT; g++) {
        fprintf(out, "%s\n", goal_text[g]);
        if (!goals[g].set) {
            fprintf(out, "            -> not measured (workload not run, aborted, or simdjson n/a)\n");
            continue;
        }
        const char *verdict = goals[g].met == 1 ? "MET" : goals[g].met == 0 ? "NOT MET" : "informational";
        if (g == GOAL_ALLOC)
            fprintf(out, "            -> worst %.2f allocations per parse: %s\n               (%s)\n", goals[g].ratio,
                    verdict, goals[g].detail);
        else
            fprintf(out, "            -> ratio %.3f (jdoc %.2fx faster): %s  [%s]\n", goals[g].ratio,
                    goals[g].ratio > 0 ? 1.0 / goals[g].ratio : 0.0, verdict, goals[g].detail);
    }
}
