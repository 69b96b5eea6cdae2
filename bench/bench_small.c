/* SPDX-License-Identifier: MIT */
/* Workload "small": parse + the 3 fields of bench/paths/small/NAME.txt of a
 * small Docker response (docker/NAME.json), parsers reused, ns per call. */
#include "bench_fetchcore.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

int bench_small(const bench_ctx *ctx)
{
    printf("\n== small: parse + 3 typed fields of a small Docker response, ns per call (parsers reused)\n");
    bench_print_impls();
    printf("Variants as in fetch (jdoc:ptr, jdoc:path, OD:ptr, OD:nav, DOM:ptr), values checked equal first.\n"
           "jdoc/sj: best jdoc / best simdjson; goal: best jdoc / best On Demand <= 0.8 (1.25x faster) on each file.\n");
    char dir[4200];
    snprintf(dir, sizeof dir, "%s/small", ctx->paths_dir);
    char **lists;
    int nl = pathlist_dir(dir, &lists);
    if (nl <= 0) {
        printf("small: no path lists in %s (%s): use --paths DIR\n", dir, nl < 0 ? strerror(errno) : "no .txt files");
        if (nl == 0)
            free(lists);
        return 1;
    }
    char tsv_path[4096];
    FILE *tsv = bench_tsv_open(ctx, "small", tsv_path, sizeof tsv_path);
    peer_simdjson *peer = peer_simdjson_new();
    bench_unit u = { .metric = "ns_per_call", .unit = "ns", .per_call = 1, .scale = 1 };
    enum { W = 24 };
    fetch_print_header(W);
    bench_geo geo_od = { 0 }, geo_sj = { 0 };
    double worst = 0;
    char worst_name[300] = "", per_file[1024] = "";
    int rc = 0, all_met = 1;
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
            printf("%-*s skipped: no %s.json under %s/docker\n", W, label, pl.name, ctx->corpus);
            pathlist_free(&pl);
            continue;
        }
        fetch_result res;
        int r = fetch_measure(ctx, "small", label, W, &pl, &f, peer, &u, tsv, &res);
        if (r < 0)
            rc = 1;
        if (r == 0) {
            if (res.row.ratio_od > 0) {
                bench_geo_add(&geo_od, res.row.ratio_od);
                bench_geo_add(&geo_sj, res.row.ratio_sj);
                all_met &= res.row.ratio_od <= 0.8;
                if (res.row.ratio_od > worst) {
                    worst = res.row.ratio_od;
                    snprintf(worst_name, sizeof worst_name, "%s", label);
                }
                size_t l = strlen(per_file);
                snprintf(per_file + l, sizeof per_file - l, "%s%s %.3f", l ? ", " : "", label, res.row.ratio_od);
            }
            char ad[320];
            snprintf(ad, sizeof ad, "small %s", label);
            bench_goal_alloc(ad, res.allocs);
        }
        bench_file_free(&f);
        pathlist_free(&pl);
    }
    bench_list_free(lists, nl);
    if (rc == 0 && geo_od.n) {
        double g = bench_geo_mean(&geo_od);
        printf("GEOMEAN: best jdoc / best On Demand %.3f (%.2fx faster), / best simdjson %.3f; worst vs OD %.3f on %s\n",
               g, 1.0 / g, bench_geo_mean(&geo_sj), worst, worst_name);
        char detail[1200];
        snprintf(detail, sizeof detail, "jdoc/OD per file: %s; geomean shown", per_file);
        bench_goal_report(GOAL_SMALL, g, all_met, detail);
    }
    if (tsv) {
        fclose(tsv);
        printf("TSV: %s\n", tsv_path);
    }
    peer_simdjson_free(peer);
    return rc;
}
