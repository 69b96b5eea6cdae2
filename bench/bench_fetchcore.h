/* SPDX-License-Identifier: MIT */
/* Fetch by path, shared by workloads "fetch" and "small": path lists
 * (bench/paths/...), the jdoc and simdjson variants, check, timing, report. */
#ifndef JDOC_BENCH_FETCHCORE_H
#define JDOC_BENCH_FETCHCORE_H

#include "bench.h"
#include "peer_simdjson.h"

#define FETCH_MAX_PATHS 32

/* A path list file: lines "T /json/pointer" (T: s string, i int64, u uint64,
 * d double, b bool); '#' comments and blank lines are skipped. */
typedef struct pathlist {
    char path[4096];  /* the list file */
    char name[256];   /* its base name without .txt: the corpus file is NAME.json */
    int n;
    char types[FETCH_MAX_PATHS];
    char *ptrs[FETCH_MAX_PATHS];
    size_t lens[FETCH_MAX_PATHS];
    int lines[FETCH_MAX_PATHS];
} pathlist;

/** Load a list; prints the problem and returns -1 on a malformed line. */
int pathlist_load(const char *path, pathlist *pl);
void pathlist_free(pathlist *pl);
/** The .txt files of a directory, sorted (bench_list_dir); -1 if it cannot be opened. */
int pathlist_dir(const char *dir, char ***lists);
/** <corpus>/standard/NAME.json or <corpus>/docker/NAME.json into out; -1 if neither exists. */
int pathlist_input(const char *corpus, const char *name, char *out, size_t cap);

enum { FETCH_JDOC_PTR, FETCH_JDOC_PATH, FETCH_JDOC_MANY, FETCH_OD_PTR, FETCH_OD_NAV, FETCH_DOM_PTR, FETCH_NV };

typedef struct fetch_result {
    bench_row row;
    double t[FETCH_NV]; /* median ns per call of each variant (0: not measured) */
    double allocs;    /* allocations per call after warm-up, worst jdoc variant */
    double heap_bpb;  /* peak bytes held by jdoc / input bytes */
    double idx_bpb;   /* jdoc_doc_index_size * 8 / input bytes */
} fetch_result;

/** The table header for fetch_measure rows (the file column `name_w` wide). */
void fetch_print_header(int name_w);
/** Check every implementation's values equal to jdoc's, then time parse + all
 *  paths per call; print one table row and write the TSV rows (file label
 *  `label`). Returns 0, 1 when the file was skipped (message printed), or -1
 *  when the values differ or an implementation fails (message printed: the
 *  caller aborts the workload). */
int fetch_measure(const bench_ctx *ctx, const char *workload, const char *label, int name_w, const pathlist *pl,
                  const bench_file *f, peer_simdjson *peer, const bench_unit *u, FILE *tsv, fetch_result *res);

#endif /* JDOC_BENCH_FETCHCORE_H */
