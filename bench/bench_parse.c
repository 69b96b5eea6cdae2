/* SPDX-License-Identifier: MIT */
/* Workload "parse": stage-1 throughput (jdoc_parse, one reused parser per
 * kernel) per corpus file, next to memchr/memcpy floors and simdjson. */
#include "bench.h"
#include "peer_simdjson.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "jdoc.h"

static const char *const corpora[] = { "standard", "docker" };
#define NCORPORA (sizeof corpora / sizeof corpora[0])

/* The file being measured, shared by every column. */
typedef struct input {
    const char *data;
    size_t len;
    char *dst;            /* memcpy destination, len bytes */
    int absent;           /* a byte value that does not occur in data */
} input;

typedef enum col_kind { COL_MEMCHR, COL_MEMCPY, COL_JDOC, COL_OD, COL_DOM } col_kind;

typedef struct column {
    col_kind kind;
    char label[32];      /* table header */
    const char *impl;    /* TSV impl */
    const char *kernel;  /* TSV kernel */
    const input *in;
    jdoc_parser *parser; /* COL_JDOC */
    peer_simdjson *peer; /* COL_OD, COL_DOM */
    int failed;          /* an error was returned during timing */
    bench_geo geo[NCORPORA];
    /* per file */
    bool skip;
    const char *skip_text; /* cell text when skipped: "err" or "n/a" */
    double med, lo, hi;  /* GB/s: median, min, max */
    double iqr_lo, iqr_hi; /* GB/s: first and third quartile */
} column;

static uint64_t run_memchr(void *v)
{
    const column *c = v;
    return (uintptr_t)memchr(c->in->data, c->in->absent, c->in->len);
}

static uint64_t run_memcpy(void *v)
{
    const column *c = v;
    memcpy(c->in->dst, c->in->data, c->in->len);
    return (unsigned char)c->in->dst[c->in->len / 2];
}

static uint64_t run_jdoc(void *v)
{
    column *c = v;
    jdoc_doc *d;
    jdoc_status s = jdoc_parse(c->parser, c->in->data, c->in->len, &d);
    c->failed |= s != JDOC_OK;
    return (uintptr_t)d + (uint64_t)s;
}

static uint64_t run_od(void *v)
{
    column *c = v;
    int64_t rc = peer_simdjson_iterate(c->peer);
    c->failed |= rc < 0;
    return (uint64_t)rc;
}

static uint64_t run_dom(void *v)
{
    column *c = v;
    int64_t rc = peer_simdjson_dom(c->peer);
    c->failed |= rc < 0;
    return (uint64_t)rc;
}

static const bench_fn col_fn[] = { run_memchr, run_memcpy, run_jdoc, run_od, run_dom };

static int find_absent_byte(const char *data, size_t len)
{
    bool seen[256] = { false };
    for (size_t i = 0; i < len; i++)
        seen[(unsigned char)data[i]] = true;
    for (int b = 0; b < 256; b++)
        if (!seen[b])
            return b;
    return -1;
}

static void print_cell(double med, double lo, double hi, bool all_samples)
{
    printf(" %7.2f ~%3.0f%%%c", med, med > 0 ? 100.0 * (hi - lo) / med : 0.0, all_samples ? '*' : ' ');
}

static void print_na(const char *what) { printf(" %13s ", what); }

enum { NAME_W = 30 };

static void print_header(const column *cols, int ncols, int best, int od, int dom)
{
    printf("%-*s %9s %6s", NAME_W, "file", "bytes", "idxB/B");
    for (int i = 0; i < ncols; i++)
        printf(" %13s ", cols[i].label);
    if (best >= 0) {
        if (od >= 0)
            printf(" %8.8s/OD", cols[best].kernel);
        if (dom >= 0)
            printf(" %7.7s/DOM", cols[best].kernel);
    }
    printf("\n");
}

static int parse_corpus(const bench_ctx *ctx, size_t ci, column *cols, int ncols, int best, int od,
                        int dom, FILE *tsv, bench_geo (*ratio_od)[NCORPORA],
                        bench_geo (*ratio_dom)[NCORPORA])
{
    char dir[4096];
    snprintf(dir, sizeof dir, "%s/%s", ctx->corpus, corpora[ci]);
    char **paths;
    int n = bench_list_dir(dir, &paths);
    if (n < 0) {
        printf("\n[%s] skipped: cannot open %s (%s)\n", corpora[ci], dir, strerror(errno));
        return 0;
    }
    printf("\n[%s] %s: %d files. Cells: median GB/s ~ IQR/median of the samples (TSV: min, max).\n",
           corpora[ci], dir, n);
    print_header(cols, ncols, best, od, dom);
    bench_geo geo_idx = { 0 };
    bench_geo geo_best_od = { 0 }, geo_best_dom = { 0 };
    int measured = 0, n_taken = 0, n_switched = 0, n_all = 0;
    for (int fi = 0; fi < n; fi++) {
        bench_file f;
        const char *name = strrchr(paths[fi], '/') + 1;
        if (ctx->filter && !strstr(name, ctx->filter))
            continue;
        if (bench_file_load(paths[fi], &f) != 0) {
            printf("%-*s skipped: cannot read (%s)\n", NAME_W, name, strerror(errno));
            continue;
        }
        input in = { .data = f.data, .len = f.len };
        char notes[512] = "";
        in.absent = find_absent_byte(f.data, f.len);
        in.dst = aligned_alloc(64, (f.len + 64) / 64 * 64);
        if (!in.dst || in.absent < 0 || f.len == 0) {
            printf("%-*s skipped: %s\n", NAME_W, name,
                   f.len == 0 ? "empty" : !in.dst ? "out of memory" : "every byte value occurs (memchr)");
            free(in.dst);
            bench_file_free(&f);
            continue;
        }
        /* The peer's padded copy, made once outside the timing. */
        bool peer_input_ok = cols[od].peer && peer_simdjson_set_input(cols[od].peer, f.data, f.len) == 0;
        if (cols[od].peer && !peer_input_ok)
            snprintf(notes, sizeof notes, " [simdjson: cannot make padded_string]");
        /* Check every implementation once before timing. */
        size_t idx_entries = 0;
        bool skip_file = false;
        for (int i = 0; i < ncols && !skip_file; i++) {
            column *c = &cols[i];
            c->in = &in;
            c->skip = false;
            c->skip_text = "err";
            c->failed = 0;
            if (c->kind == COL_JDOC) {
                jdoc_doc *d;
                jdoc_status s = jdoc_parse(c->parser, f.data, f.len, &d);
                if (s != JDOC_OK) {
                    const jdoc_error *e = jdoc_last_error(c->parser);
                    if (i == best) {
                        printf("%-*s skipped: not one JSON document (jdoc_parse, %s: %s at offset %zu)\n",
                               NAME_W, name, c->kernel, e->message, e->offset);
                        skip_file = true;
                    } else {
                        c->skip = true;
                        size_t l = strlen(notes);
                        snprintf(notes + l, sizeof notes - l, " [%s: %s]", c->label, e->message);
                    }
                    continue;
                }
                size_t entries = jdoc_doc_index_size(d);
                if (idx_entries && entries != idx_entries) {
                    size_t l = strlen(notes);
                    snprintf(notes + l, sizeof notes - l, " [%s: index size %zu differs: %zu]", c->label,
                             entries, idx_entries);
                }
                if (!idx_entries || i == best)
                    idx_entries = entries;
            } else if (c->kind == COL_OD || c->kind == COL_DOM) {
                if (!peer_input_ok) {
                    c->skip = true;
                    c->skip_text = c->peer ? "err" : "n/a";
                    continue;
                }
                int64_t rc = c->kind == COL_OD ? peer_simdjson_iterate(c->peer) : peer_simdjson_dom(c->peer);
                if (rc < 0) {
                    c->skip = true;
                    size_t l = strlen(notes);
                    snprintf(notes + l, sizeof notes - l, " [%s: %s]", c->label,
                             peer_simdjson_error_message(rc));
                }
            }
        }
        if (skip_file) {
            free(in.dst);
            bench_file_free(&f);
            continue;
        }

        bench_case cases[16];
        for (int i = 0; i < ncols; i++)
            cases[i] = (bench_case){ .name = cols[i].label, .fn = col_fn[cols[i].kind], .ctx = &cols[i],
                                     .bytes = f.len, .skip = cols[i].skip };
        bench_run_interleaved(cases, (size_t)ncols, &ctx->opts);

        double idx_bpb = (double)idx_entries * 8.0 / (double)f.len;
        bench_geo_add(&geo_idx, idx_bpb);
        printf("%-*s %9zu %6.3f", NAME_W, name, f.len, idx_bpb);
        for (int i = 0; i < ncols; i++) {
            column *c = &cols[i];
            if (c->skip) {
                print_na(c->skip_text);
                continue;
            }
            if (c->failed) {
                c->skip = true;
                print_na("err");
                size_t l = strlen(notes);
                snprintf(notes + l, sizeof notes - l, " [%s: error during timing]", c->label);
                continue;
            }
            c->med = bench_gbps(f.len, cases[i].st.median);
            c->lo = bench_gbps(f.len, cases[i].st.max);
            c->hi = bench_gbps(f.len, cases[i].st.min);
            bench_geo_add(&c->geo[ci], c->med);
            c->iqr_lo = bench_gbps(f.len, cases[i].st.q3);
            c->iqr_hi = bench_gbps(f.len, cases[i].st.q1);
            print_cell(c->med, c->iqr_lo, c->iqr_hi, cases[i].st.all_samples);
            n_taken += cases[i].st.taken;
            n_switched += cases[i].st.switched;
            n_all += cases[i].st.all_samples;
        }
        /* TSV: one row per measured column; ratio = its time / the fastest simdjson's. */
        double sj_best = 0;
        for (int i = 0; i < ncols; i++)
            if ((cols[i].kind == COL_OD || cols[i].kind == COL_DOM) && !cols[i].skip && cols[i].med > sj_best)
                sj_best = cols[i].med;
        for (int i = 0; tsv && i < ncols; i++) {
            column *c = &cols[i];
            if (c->skip)
                continue;
            char impl[64];
            if (c->kind == COL_JDOC)
                snprintf(impl, sizeof impl, "jdoc:%s", c->kernel);
            else
                snprintf(impl, sizeof impl, "%s", c->impl);
            fprintf(tsv, "parse\t%s/%s\t%s\tgbps\t%.4f\t%.4f\t%.4f\tGB/s\t", corpora[ci], name, impl, c->med, c->lo,
                    c->hi);
            if (sj_best > 0)
                fprintf(tsv, "%.4f\n", sj_best / c->med);
            else
                fprintf(tsv, "-\n");
        }
        if (tsv && best >= 0) {
            char file[300], impl[64];
            snprintf(file, sizeof file, "%s/%s", corpora[ci], name);
            snprintf(impl, sizeof impl, "jdoc:%s", cols[best].kernel);
            bench_tsv_value(tsv, "parse", file, impl, "index_bytes_per_byte", idx_bpb, "B/B");
        }
        for (int i = 0; i < ncols; i++) {
            if (cols[i].kind != COL_JDOC || cols[i].skip)
                continue;
            if (od >= 0 && !cols[od].skip)
                bench_geo_add(&ratio_od[i][ci], cols[i].med / cols[od].med);
            if (dom >= 0 && !cols[dom].skip)
                bench_geo_add(&ratio_dom[i][ci], cols[i].med / cols[dom].med);
        }
        if (best >= 0 && !cols[best].skip) {
            if (od >= 0) {
                if (cols[od].skip) {
                    printf(" %11s", "n/a");
                } else {
                    printf(" %10.2fx", cols[best].med / cols[od].med);
                    bench_geo_add(&geo_best_od, cols[best].med / cols[od].med);
                }
            }
            if (dom >= 0) {
                if (cols[dom].skip) {
                    printf(" %11s", "n/a");
                } else {
                    printf(" %10.2fx", cols[best].med / cols[dom].med);
                    bench_geo_add(&geo_best_dom, cols[best].med / cols[dom].med);
                }
            }
        }
        printf("%s\n", notes);
        fflush(stdout);
        measured++;
        free(in.dst);
        bench_file_free(&f);
    }
    bench_list_free(paths, n);
    if (!measured)
        return 0;
    char gname[64];
    snprintf(gname, sizeof gname, "GEOMEAN (%d files)", measured);
    printf("%-*s %9s %6.3f", NAME_W, gname, "", bench_geo_mean(&geo_idx));
    for (int i = 0; i < ncols; i++) {
        if (cols[i].geo[ci].n == 0)
            print_na("n/a");
        else
            printf(" %13.2f ", bench_geo_mean(&cols[i].geo[ci]));
    }
    if (best >= 0) {
        const bench_geo *g[2] = { &geo_best_od, &geo_best_dom };
        for (int k = 0; k < 2; k++) {
            if (g[k]->n)
                printf(" %10.2fx", bench_geo_mean(g[k]));
            else
                printf(" %11s", "n/a");
        }
    }
    printf("\n");
    if (ctx->opts.cpu_clock)
        printf("samples: %d taken, %d of them with the thread switched out (kept: timed by its CPU time)\n",
               n_taken, n_switched);
    else
        printf("samples: %d taken, %d left out (thread switched out during the sample); "
               "%d cells with too few clean samples, over all samples (*)\n",
               n_taken, n_switched, n_all);
    return measured;
}

int bench_parse(const bench_ctx *ctx)
{
    column cols[16];
    int ncols = 0, best = -1, od = -1, dom = -1;
    memset(cols, 0, sizeof cols);

    cols[ncols++] = (column){ .kind = COL_MEMCHR, .label = "memchr", .impl = "memchr", .kernel = "-" };
    cols[ncols++] = (column){ .kind = COL_MEMCPY, .label = "memcpy", .impl = "memcpy", .kernel = "-" };

    /* Kernels from slowest to fastest; the parser picked by AUTO is "best". */
    static const jdoc_kernel_id order[] = { JDOC_KERNEL_SCALAR, JDOC_KERNEL_NEON_NOPMULL, JDOC_KERNEL_SSE42,
                                            JDOC_KERNEL_NEON, JDOC_KERNEL_AVX2, JDOC_KERNEL_AVX512 };
    jdoc_options dflt = { .kernel = JDOC_KERNEL_AUTO };
    jdoc_parser *ap = jdoc_parser_new(&dflt);
    const char *auto_name = ap ? jdoc_kernel_name(ap) : "";
    for (size_t k = 0; k < sizeof order / sizeof order[0]; k++) {
        if (!jdoc_kernel_supported(order[k]))
            continue;
        jdoc_options o = { .kernel = order[k] };
        jdoc_status st;
        jdoc_parser *p = jdoc_parser_new_ex(&o, &st);
        if (!p) {
            printf("jdoc kernel %s: jdoc_parser_new failed (%s), skipped\n", jdoc_kernel_id_name(order[k]),
                   jdoc_status_str(st));
            continue;
        }
        column *c = &cols[ncols];
        *c = (column){ .kind = COL_JDOC, .impl = "jdoc", .kernel = jdoc_kernel_name(p), .parser = p };
        snprintf(c->label, sizeof c->label, "jdoc:%s", c->kernel);
        if (strcmp(c->kernel, auto_name) == 0)
            best = ncols;
        ncols++;
    }
    jdoc_parser_free(ap);
    if (best < 0)
        best = ncols - 1;

    /* The simdjson columns are always there; without the peer they say n/a. */
    peer_simdjson *peer = peer_simdjson_new();
    od = ncols;
    cols[ncols++] = (column){ .kind = COL_OD, .label = "simdjson:OD", .impl = "simdjson_ondemand_iterate",
                              .kernel = peer_simdjson_impl(), .peer = peer };
    dom = ncols;
    cols[ncols++] = (column){ .kind = COL_DOM, .label = "simdjson:DOM", .impl = "simdjson_dom_parse",
                              .kernel = peer_simdjson_impl(), .peer = peer };

    printf("\n== parse: stage 1 throughput, GB/s = 10^9 input bytes/s (higher is better)\n");
    printf("memchr: search for a byte absent from the file; memcpy: copy to another buffer (the floor);\n"
           "jdoc:K: jdoc_parse with kernel K forced, one parser reused; idxB/B: jdoc_doc_index_size*8/bytes\n"
           "(index + jump table, 4 bytes per entry each, of the %s kernel);\n",
           cols[best].kernel);
    if (peer)
        printf("simdjson:OD: ondemand::parser::iterate() + doc.type() (its stage 1); simdjson:DOM: "
               "dom::parser::parse;\nboth on a padded_string made once, parsers reused. %s/OD, %s/DOM: "
               "jdoc:%s / simdjson, same run.\n",
               cols[best].kernel, cols[best].kernel, cols[best].kernel);
    else
        printf("simdjson: n/a (peer not built: simdjson header, library or g++ missing)\n");

    FILE *tsv = NULL;
    char tsv_path[4096];
    snprintf(tsv_path, sizeof tsv_path, "%s/parse.tsv", ctx->out_dir);
    if (bench_mkdir_p(ctx->out_dir) == 0)
        tsv = fopen(tsv_path, "w");
    if (!tsv)
        printf("warning: cannot write %s (%s)\n", tsv_path, strerror(errno));
    else
        fprintf(tsv, "workload\tfile\timpl\tmetric\tmedian\tmin\tmax\tunit\tratio\n");

    bench_geo ratio_od[16][NCORPORA], ratio_dom[16][NCORPORA];
    memset(ratio_od, 0, sizeof ratio_od);
    memset(ratio_dom, 0, sizeof ratio_dom);
    int counts[NCORPORA];
    for (size_t ci = 0; ci < NCORPORA; ci++)
        counts[ci] = parse_corpus(ctx, ci, cols, ncols, best, od, dom, tsv, ratio_od, ratio_dom);

    /* Summary: geomeans per corpus, and jdoc/simdjson ratios. */
    printf("\n== parse summary: geomean over files (GB/s), and geomean of per-file ratios jdoc/simdjson\n");
    printf("%-16s", "column");
    for (size_t ci = 0; ci < NCORPORA; ci++)
        printf(" %10s  %9s %9s", corpora[ci], "/OD", "/DOM");
    printf("\n");
    for (int i = 0; i < ncols; i++) {
        printf("%-16s", cols[i].label);
        for (size_t ci = 0; ci < NCORPORA; ci++) {
            if (!counts[ci] || !cols[i].geo[ci].n)
                printf(" %10s ", "n/a");
            else
                printf(" %10.2f ", bench_geo_mean(&cols[i].geo[ci]));
            if (cols[i].kind == COL_JDOC && ratio_od[i][ci].n)
                printf(" %8.3fx", bench_geo_mean(&ratio_od[i][ci]));
            else
                printf(" %9s", cols[i].kind == COL_JDOC ? "n/a" : "");
            if (cols[i].kind == COL_JDOC && ratio_dom[i][ci].n)
                printf(" %8.3fx", bench_geo_mean(&ratio_dom[i][ci]));
            else
                printf(" %9s", cols[i].kind == COL_JDOC ? "n/a" : "");
        }
        printf("\n");
    }
    if (tsv) {
        fclose(tsv);
        printf("TSV: %s\n", tsv_path);
    }

    for (int i = 0; i < ncols; i++)
        if (cols[i].kind == COL_JDOC)
            jdoc_parser_free(cols[i].parser);
    peer_simdjson_free(peer);
    return 0;
}
