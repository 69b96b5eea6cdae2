/* SPDX-License-Identifier: MIT */
/* Workload "stage1": jdoc_parse with each kernel the CPU runs against
 * simdjson's implementation of the same class (On Demand iterate(), its stage
 * 1), simdjson DOM, memcpy of the same buffer, and the parts of jdoc_parse,
 * on every .json file of corpus/standard and corpus/docker. The only workload
 * that uses private hooks (src/internal.h), for the parts. */
#include "bench.h"
#include "internal.h"

#include <stdlib.h>
#include <string.h>

/* jdoc kernel -> simdjson implementation of the same ISA class ("": none); scalar's
 * (simdjson's fallback) is shown without a goal. */
static const struct pair {
    jdoc_kernel_id k;
    const char *impl, *sj, *sj_impl, *short_name;
} pairs[] = {
    { JDOC_KERNEL_SCALAR, "jdoc:scalar", "fallback", "simdjson_iterate:fallback", "fb" },
    { JDOC_KERNEL_SSE42, "jdoc:sse42", "westmere", "simdjson_iterate:westmere", "wsm" },
    { JDOC_KERNEL_AVX2, "jdoc:avx2", "haswell", "simdjson_iterate:haswell", "hsw" },
    { JDOC_KERNEL_AVX512, "jdoc:avx512", "icelake", "simdjson_iterate:icelake", "icl" },
    { JDOC_KERNEL_NEON, "jdoc:neon", "arm64", "simdjson_iterate:arm64", "arm64" },
    { JDOC_KERNEL_NEON_NOPMULL, "jdoc:neon_nopmull", "", "", "" },
};
#define NPAIRS (int)(sizeof pairs / sizeof pairs[0])

typedef struct input {
    const char *data;
    size_t len;
    char *dst;
} input;

static uint64_t run_memcpy(bench_case *c)
{
    const input *in = c->in;
    memcpy(in->dst, in->data, in->len);
    return (unsigned char)in->dst[in->len / 2];
}

static uint64_t run_jdoc(bench_case *c)
{
    const input *in = c->in;
    jdoc_doc *d;
    if (jdoc_parse(c->p, in->data, in->len, &d) != JDOC_OK)
        return c->failed = 1, 0;
    jdoc_type t = jdoc_typeof(jdoc_root(d)); /* the root's kind, as the simdjson cases return it */
    return t == JDOC_ARRAY ? '[' : t == JDOC_OBJECT ? '{' : 's';
}

/* Stage-1 parts: pieces of jdoc_parse with the default kernel, each timed next
 * to the whole parse and reported as its share of it. A part alone is an
 * internal hook of src/internal.h; one more part (e.g. the mask stage alone)
 * is one more function and one more line of parts[]. */
static uint64_t part_kernel(bench_case *c)
{
    const input *in = c->in;
    uint32_t n = 0;
    jdoc_status s = jdoc__stage1_kernel_only(c->p, jdoc__kernel_get(c->op), in->data, in->len, &n, NULL);
    c->failed |= s != JDOC_OK;
    return n;
}
static const struct part {
    const char *label, *impl;
    bench_fn fn;
} parts[] = {
    { "kernel", "jdoc_stage1_kernel_only", part_kernel },
};
#define NPARTS (int)(sizeof parts / sizeof parts[0])

enum { MAXC = 2 + 2 * NPAIRS + NPARTS, NRATIO = NPAIRS + 1 + NPARTS };
static const char *const corpora[] = { "standard", "docker" };

typedef struct state {
    bench_case c[MAXC];
    int n, best, dom, part0;
    int jd[NPAIRS], sj[NPAIRS]; /* case of each pair's jdoc kernel and simdjson class, -1 if not run */
    char rlabel[NRATIO][24];
    bench_geo gbps[3][MAXC], ratio[3][NRATIO]; /* per corpus and over both */
    FILE *tsv;
} state;

/* Ratios of one file: pair i's jdoc/simdjson time; DOM time / jdoc time; part share of parse. */
static void ratios(const state *s, double *r)
{
    for (int i = 0; i < NRATIO; i++)
        r[i] = 0;
    for (int i = 0; i < NPAIRS; i++)
        if (s->jd[i] >= 0 && s->sj[i] >= 0 && !s->c[s->jd[i]].skip && !s->c[s->sj[i]].skip)
            r[i] = s->c[s->jd[i]].med / s->c[s->sj[i]].med;
    if (s->dom >= 0 && !s->c[s->dom].skip)
        r[NPAIRS] = s->c[s->dom].med / s->c[s->best].med;
    for (int i = 0; i < NPARTS; i++)
        if (!s->c[s->part0 + i].skip)
            r[NPAIRS + 1 + i] = s->c[s->part0 + i].med / s->c[s->best].med;
}

static void pnum(double v)
{
    if (v > 0)
        printf(" %10.3f", v);
    else
        printf(" %10s", "n/a");
}

static void one_file(state *s, int ci, const char *path)
{
    bench_file f;
    if (bench_load(path, &f) != 0)
        return;
    input in = { f.data, f.len, aligned_alloc(64, (f.len + 64) / 64 * 64) };
    char notes[512] = "";
    size_t entries = 0;
    bool peer_ok = true;
    uint64_t root[MAXC];
    for (int k = 0; k < s->n; k++) {
        bench_case *c = &s->c[k];
        c->in = &in, c->failed = 0, c->skip = false, c->why = "err";
        if (c->peer && peer_ok && peer_simdjson_set_input(c->peer, f.data, f.len) != 0)
            peer_ok = false;
        if (c->peer && !peer_ok) {
            c->skip = true;
            continue;
        }
        root[k] = c->fn(c);
        if (c->fam == FAM_JDOC && !c->failed) {
            jdoc_doc *d;
            jdoc_parse(c->p, f.data, f.len, &d);
            if (entries && jdoc_doc_index_size(d) != entries)
                snprintf(notes + strlen(notes), sizeof notes - strlen(notes), " [%s: index size differs]", c->label);
            entries = jdoc_doc_index_size(d);
        }
        if (c->failed && k != s->best) {
            c->skip = true;
            snprintf(notes + strlen(notes), sizeof notes - strlen(notes), " [%s: %s]", c->label,
                     c->peer ? peer_simdjson_error(c->err) : "fails");
        }
    }
    for (int k = 0; k < s->n; k++) /* every check passed: the same root kind as the default kernel's */
        if (!s->c[k].skip && s->c[k].fam >= FAM_JDOC && root[k] != root[s->best]) {
            s->c[k].skip = true;
            snprintf(notes + strlen(notes), sizeof notes - strlen(notes), " [%s: other root]", s->c[k].label);
        }
    if (!in.dst || s->c[s->best].failed) {
        const jdoc_error *e = jdoc_last_error(s->c[s->best].p);
        printf("%-30s skipped: not one JSON document (%s at offset %zu)\n", f.name, e->message, e->offset);
        goto out;
    }
    bench_run(s->c, s->n);
    bench_unit u = { "gbps", "GB/s", 1, 1, true };
    u.per = (double)f.len;
    u.scale = 1e-9;
    printf("%-30s %9zu", f.name, f.len);
    bench_cells(&u, s->c, s->n);
    double r[NRATIO];
    ratios(s, r);
    char where[160];
    snprintf(where, sizeof where, "%s/%s", corpora[ci], f.name);
    for (int i = 0; i < NRATIO; i++) {
        if (!s->rlabel[i][0])
            continue;
        pnum(r[i]);
        bench_geo_add(&s->ratio[ci][i], r[i], i == NPAIRS, where);
        bench_geo_add(&s->ratio[2][i], r[i], i == NPAIRS, where);
        bench_tsv_value(s->tsv, "stage1", where, s->rlabel[i], i < NPAIRS ? "time_ratio" : i == NPAIRS ? "speedup" : "share_of_parse", r[i], "x");
    }
    printf("%s\n", notes);
    for (int k = 0; k < s->n; k++)
        if (!s->c[k].skip) {
            bench_geo_add(&s->gbps[ci][k], bench_value(&u, s->c[k].med), true, where);
            bench_geo_add(&s->gbps[2][k], bench_value(&u, s->c[k].med), true, where);
        }
    bench_tsv_cases(s->tsv, "stage1", where, &u, s->c, s->n);
    fflush(stdout);
out:
    free(in.dst);
    bench_file_free(&f);
}

static void head(const state *s)
{
    char name[64];
    snprintf(name, sizeof name, "%-30s %9s", "file", "bytes");
    bench_head(40, name, s->c, s->n);
    for (int i = 0; i < NRATIO; i++)
        if (s->rlabel[i][0])
            printf(" %10.10s", s->rlabel[i]);
    printf("\n");
}

int bench_stage1(void)
{
    static state s;
    memset(&s, 0, sizeof s);
    s.tsv = bench_tsv("stage1");
    bench_case *c = s.c;
    c[s.n++] = (bench_case){ .label = "memcpy", .impl = "memcpy", .fam = FAM_FLOOR, .fn = run_memcpy };
    jdoc_parser *dflt = jdoc_parser_new(NULL);
    const char *auto_name = dflt ? jdoc_kernel_name(dflt) : "";
    s.best = -1;
    for (int i = 0; i < NPAIRS; i++) {
        const struct pair *pr = &pairs[i];
        s.jd[i] = s.sj[i] = -1;
        if (!jdoc_kernel_compiled(pr->k))
            continue;
        if (!jdoc_kernel_supported(pr->k)) {
            printf("jdoc %s%s%s: skipped: not runnable on this CPU/OS\n", jdoc_kernel_id_name(pr->k),
                   pr->sj[0] ? " and simdjson " : "", pr->sj);
            continue;
        }
        jdoc_options o = { .kernel = pr->k };
        c[s.n] = (bench_case){ .label = jdoc_kernel_id_name(pr->k), .impl = pr->impl,
                               .fam = FAM_JDOC, .fn = run_jdoc, .p = jdoc_parser_new(&o) };
        if (!c[s.n].p)
            continue;
        if (!strcmp(auto_name, c[s.n].label))
            s.best = s.n;
        s.jd[i] = s.n++;
        if (!pr->sj[0] || !peer_available())
            continue;
        peer_simdjson *peer = bench_peer(pr->sj, pr->sj);
        if (!peer)
            continue;
        c[s.n] = (bench_case){ .label = pr->sj, .impl = pr->sj_impl, .fam = FAM_OD, .fn = bench_peer_fn,
                               .peer = peer, .op = PEER_ITERATE };
        s.sj[i] = s.n++;
        snprintf(s.rlabel[i], sizeof s.rlabel[i], "%s/%s", jdoc_kernel_id_name(pr->k), pr->short_name);
    }
    jdoc_parser_free(dflt);
    if (s.best < 0) {
        printf("stage1: no jdoc kernel runs here\n");
        return 1;
    }
    s.dom = -1;
    peer_simdjson *dom = bench_peer(NULL, "DOM");
    if (dom) {
        s.dom = s.n;
        c[s.n++] = (bench_case){ .label = "DOM", .impl = "simdjson_dom_parse", .fam = FAM_DOM, .fn = bench_peer_fn,
                                 .peer = dom, .op = PEER_DOM };
        snprintf(s.rlabel[NPAIRS], sizeof s.rlabel[0], "DOM/%s", c[s.best].label);
    }
    s.part0 = s.n;
    for (int i = 0; i < NPARTS; i++) {
        c[s.n++] = (bench_case){ .label = parts[i].label, .impl = parts[i].impl, .fam = FAM_PART, .fn = parts[i].fn,
                                 .p = c[s.best].p, .op = jdoc_kernel_from_name(c[s.best].label) };
        snprintf(s.rlabel[NPAIRS + 1 + i], sizeof s.rlabel[0], "%s/all", parts[i].label);
    }
    printf("GB/s = 10^9 input bytes/s, higher is better. jdoc cases: jdoc_parse with that kernel forced\n"
           "(jdoc_options.kernel), one parser each, reused; simdjson cases: On Demand iterate() + type() with the\n"
           "implementation of the same class selected in-process; DOM: dom::parser::parse, default implementation;\n"
           "memcpy of the same buffer: the floor. Ratios: K/cls = jdoc K time / simdjson class time (lower is\n"
           "better); DOM/K = DOM time / jdoc %s time; P/all = part P (with the %s kernel) / whole jdoc_parse\n"
           "(kernel/all: the kernel alone; the rest is the bracket pass + root checks).\n",
           c[s.best].label, c[s.best].label);
    for (int ci = 0; ci < 2; ci++) {
        char dir[4096], **paths;
        snprintf(dir, sizeof dir, "%s/%s", bench_o.corpus, corpora[ci]);
        int n = bench_list(dir, ".json", &paths);
        if (n < 0)
            continue;
        printf("\n[%s] %d files\n", corpora[ci], n);
        head(&s);
        for (int i = 0; i < n; i++)
            one_file(&s, ci, paths[i]);
        bench_list_free(paths, n);
    }
    printf("\ngeomeans (GB/s per case, then the ratios; worst file of each ratio below)\n");
    head(&s);
    static const char *const gname[3] = { "GEOMEAN standard", "GEOMEAN docker", "GEOMEAN both" };
    for (int g = 0; g < 3; g++) {
        if (!s.gbps[g][s.best].n)
            continue;
        printf("%-30s %9s", gname[g], "");
        for (int k = 0; k < s.n; k++)
            printf(" %10.3f", bench_geo_mean(&s.gbps[g][k]));
        printf(" %5s", "");
        for (int i = 0; i < NRATIO; i++)
            if (s.rlabel[i][0])
                pnum(bench_geo_mean(&s.ratio[g][i]));
        printf("\n");
    }
    for (int i = 0; i < NRATIO; i++)
        if (s.ratio[2][i].n)
            printf("worst %-14s %8.3f on %s\n", s.rlabel[i], s.ratio[2][i].worst, s.ratio[2][i].worst_at);
    for (int i = 1; i < NPAIRS; i++) { /* goals over both corpora */
        char what[64];
        snprintf(what, sizeof what, "time %s / simdjson %s iterate()", jdoc_kernel_id_name(pairs[i].k), pairs[i].sj);
        bench_goal_geo(s.rlabel[i], what, &s.ratio[2][i], pairs[i].k == JDOC_KERNEL_AVX2 ? 1.1 : 1.25, false);
    }
    bench_goal_geo("stage1/DOM", "simdjson DOM time / jdoc_parse time", &s.ratio[2][NPAIRS], 3, true);
    if (s.jd[0] >= 0)
        bench_goal_geo("scalar", "jdoc scalar kernel GB/s", &s.gbps[2][s.jd[0]], 0.6, true);
    for (int k = 0; k < s.n; k++) {
        if (c[k].fam == FAM_JDOC)
            jdoc_parser_free(c[k].p);
        bench_peer_free(c[k].peer);
    }
    if (s.tsv)
        fclose(s.tsv);
    return 0;
}
