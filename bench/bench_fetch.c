/* SPDX-License-Identifier: MIT */
/* Workload "fetch": parse + the 5-10 typed paths of bench/paths/NAME.txt per
 * document (corpus file NAME.json), jdoc vs simdjson, µs per document. */
#include "bench_fetchcore.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

int bench_fetch(const bench_ctx *ctx)
{
    printf("\n== fetch: parse + every path of bench/paths/NAME.txt read as its typed value, us per document\n");
    bench_print_impls();
    printf("jdoc:ptr  jdoc_pointer per path from the root (the pointer is parsed on every call)\n"
           "jdoc:path jdoc_path_compile once (outside timing) + jdoc_fetch_path per path\n"
           "jdoc:many the same compiled paths, all at once with jdoc_fetch_many from the root\n"
           "OD:ptr    simdjson On Demand iterate + doc.at_pointer per path (3.0.1 rewinds to the root each call)\n"
           "OD:nav    On Demand iterate + doc.rewind() + find_field_unordered / array walk per pointer step\n"
           "DOM:ptr   simdjson DOM parse + root.at_pointer per path\n"
           "Every variant's values were checked equal to jdoc:path's before timing. Cells: median ~ IQR/median.\n"
           "jdoc/sj: best jdoc time / best simdjson time (lower is better; goal <= 0.5); allocs: allocations per\n"
           "parse+fetches after warm-up; peakB/B: most bytes jdoc held / input bytes.\n");
    char **lists;
    int nl = pathlist_dir(ctx->paths_dir, &lists);
    if (nl <= 0) {
        printf("fetch: no path lists in %s (%s): use --paths DIR\n", ctx->paths_dir,
               nl < 0 ? strerror(errno) : "no .txt files");
        if (nl == 0)
            free(lists);
        return 1;
    }
    char tsv_path[4096];
    FILE *tsv = bench_tsv_open(ctx, "fetch", tsv_path, sizeof tsv_path);
    peer_simdjson *peer = peer_simdjson_new();
    bench_unit u = { .metric = "us_per_doc", .unit = "us", .per_call = 1, .scale = 1000 };
    enum { W = 24 };
    fetch_print_header(W);
    bench_geo geo = { 0 }, geo_var[2] = { { 0 } };
    double worst = 0;
    char worst_name[300] = "";
    int measured = 0, rc = 0;
    for (int i = 0; i < nl && rc == 0; i++) {
        pathlist pl;
        if (pathlist_load(lists[i], &pl) != 0)
            continue;
        char input[4096], label[300];
        snprintf(label, sizeof label, "%s.json", pl.name);
        if (ctx->filter && !strstr(label, ctx->filter)) {
            pathlist_free(&pl);
            continue;
        }
        bench_file f;
        if (pathlist_input(ctx->corpus, pl.name, input, sizeof input) != 0 || bench_file_load(input, &f) != 0) {
            printf("%-*s skipped: no %s.json under %s/standard or %s/docker\n", W, label, pl.name, ctx->corpus,
                   ctx->corpus);
            pathlist_free(&pl);
            continue;
        }
        fetch_result res;
        int r = fetch_measure(ctx, "fetch", label, W, &pl, &f, peer, &u, tsv, &res);
        if (r < 0)
            rc = 1;
        if (r == 0) {
            measured++;
            if (res.row.ratio_sj > 0) {
                bench_geo_add(&geo, res.row.ratio_sj);
                bench_geo_add(&geo_var[0], res.t[FETCH_JDOC_PTR] / res.row.t_sj);
                bench_geo_add(&geo_var[1], res.t[FETCH_JDOC_PATH] / res.row.t_sj);
                if (res.row.ratio_sj > worst) {
                    worst = res.row.ratio_sj;
                    snprintf(worst_name, sizeof worst_name, "%s", label);
                }
            }
            char ad[320];
            snprintf(ad, sizeof ad, "fetch %s", label);
            bench_goal_alloc(ad, res.allocs);
        }
        bench_file_free(&f);
        pathlist_free(&pl);
    }
    bench_list_free(lists, nl);
    if (rc == 0 && geo.n) {
        double g = bench_geo_mean(&geo);
        printf("%-*s %8s %5s", W, "GEOMEAN of jdoc/sj", "", "");
        for (int i = 0; i < 5; i++)
            printf(" %14s", "");
        printf(" %8.3f %6.2fx  (%d documents; worst %.3f on %s)\n", g, 1.0 / g, geo.n, worst, worst_name);
        printf("by jdoc variant, geomean of time / best simdjson: jdoc:ptr %.3f, jdoc:path %.3f (better: %s)\n",
               bench_geo_mean(&geo_var[0]), bench_geo_mean(&geo_var[1]),
               bench_geo_mean(&geo_var[0]) < bench_geo_mean(&geo_var[1]) ? "jdoc:ptr" : "jdoc:path");
        char detail[512];
        snprintf(detail, sizeof detail, "%d documents; worst %.3f (%s)", geo.n, worst, worst_name);
        bench_goal_report(GOAL_FETCH, g, g <= 0.5, detail);
    } else if (rc == 0 && measured) {
        printf("fetch: simdjson n/a: no ratios\n");
    }
    if (tsv) {
        fclose(tsv);
        printf("TSV: %s\n", tsv_path);
    }
    peer_simdjson_free(peer);
    return rc;
}
