/* SPDX-License-Identifier: MIT */
/*
 * Differential test of the JSONPath engine: the queries of the compliance
 * suite on their documents, and Docker-shaped queries on the Docker corpus,
 * under every kernel, against a plain recursive evaluator written here. The
 * evaluator reads the library's compiled form of the query (query/query.h)
 * but walks its own DOM (built with jdoc_iter), segment by segment as
 * RFC 9535 describes, so it shares nothing with the engine's walk. Nodes are
 * compared by their byte offset and their normalized path.
 */
#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include "testutil.h"
#include "jp_dom.h"
#include "query/query.h"

/* ---- the naive evaluator ---- */

typedef struct nl {
    size_t n, cap;
    tnode **v;
    char **path;
} nl;

static void nl_push(nl *l, tnode *x, char *path)
{
    if (l->n == l->cap) {
        l->cap = l->cap ? l->cap * 2 : 8;
        l->v = realloc(l->v, l->cap * sizeof *l->v);
        l->path = realloc(l->path, l->cap * sizeof *l->path);
    }
    l->v[l->n] = x;
    l->path[l->n++] = path;
}

static void nl_free(nl *l)
{
    for (size_t k = 0; k < l->n; k++)
        free(l->path[k]);
    free(l->v);
    free(l->path);
    memset(l, 0, sizeof *l);
}

static char *path_index(const char *base, size_t i)
{
    char *s = malloc(strlen(base) + 24);
    sprintf(s, "%s[%zu]", base, i);
    return s;
}

static char *path_name(const char *base, const char *k, size_t n)
{
    char *s = malloc(strlen(base) + 6 * n + 8), *o = s;
    o += sprintf(o, "%s['", base);
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)k[i];
        if (c == '\'' || c == '\\')
            o += sprintf(o, "\\%c", c);
        else if (c == '\b')
            o += sprintf(o, "\\b");
        else if (c == '\f')
            o += sprintf(o, "\\f");
        else if (c == '\n')
            o += sprintf(o, "\\n");
        else if (c == '\r')
            o += sprintf(o, "\\r");
        else if (c == '\t')
            o += sprintf(o, "\\t");
        else if (c < 0x20)
            o += sprintf(o, "\\u%04x", c);
        else
            *o++ = (char)c;
    }
    sprintf(o, "']");
    return s;
}

typedef struct ctx {
    tnode *root;
} ctx;

static bool filter_true(ctx *c, const jq_expr *x, tnode *at);

static void eval_query(ctx *c, const jq_path *q, tnode *start, const char *spath, nl *out);

/* The selector on one node, appended to out. */
static void select_children(ctx *c, const jq_sel *s, tnode *n, const char *p, nl *out)
{
    bool obj = n->t == JDOC_OBJECT, arr = n->t == JDOC_ARRAY;
    int64_t len = (int64_t)n->len;
    switch (s->kind) {
    case SEL_NAME:
        if (obj)
            for (size_t k = 0; k < n->len; k++)
                if (n->klen[k] == s->name.klen && memcmp(n->key[k], s->name.key, n->klen[k]) == 0) {
                    nl_push(out, n->kid[k], path_name(p, n->key[k], n->klen[k]));
                    break;
                }
        return;
    case SEL_WILD:
        for (size_t k = 0; k < n->len && (obj || arr); k++)
            nl_push(out, n->kid[k], obj ? path_name(p, n->key[k], n->klen[k]) : path_index(p, k));
        return;
    case SEL_INDEX: {
        int64_t i = s->index < 0 ? len + s->index : s->index;
        if (arr && i >= 0 && i < len)
            nl_push(out, n->kid[i], path_index(p, (size_t)i));
        return;
    }
    case SEL_SLICE: {
        if (!arr || s->step == 0)
            return;
        int64_t st = s->step;
        int64_t a = s->has_start ? s->start : st > 0 ? 0 : len - 1;
        int64_t b = s->has_end ? s->end : st > 0 ? len : -len - 1;
        if (a < 0)
            a += len;
        if (b < 0)
            b += len;
        if (st > 0) {
            int64_t lo = a < 0 ? 0 : a > len ? len : a, hi = b < 0 ? 0 : b > len ? len : b;
            for (int64_t i = lo; i < hi; i += st)
                nl_push(out, n->kid[i], path_index(p, (size_t)i));
        } else {
            int64_t hi = a < -1 ? -1 : a > len - 1 ? len - 1 : a, lo = b < -1 ? -1 : b > len - 1 ? len - 1 : b;
            for (int64_t i = hi; lo < i; i += st)
                nl_push(out, n->kid[i], path_index(p, (size_t)i));
        }
        return;
    }
    case SEL_FILTER:
        for (size_t k = 0; k < n->len && (obj || arr); k++)
            if (filter_true(c, s->filter, n->kid[k]))
                nl_push(out, n->kid[k], obj ? path_name(p, n->key[k], n->klen[k]) : path_index(p, k));
        return;
    }
}

static void descend(ctx *c, const jq_seg *g, tnode *n, const char *p, nl *out)
{
    for (uint32_t s = 0; s < g->nsel; s++)
        select_children(c, &g->sel[s], n, p, out);
    for (size_t k = 0; k < n->len; k++) {
        char *cp = n->t == JDOC_OBJECT ? path_name(p, n->key[k], n->klen[k]) : path_index(p, k);
        descend(c, g, n->kid[k], cp, out);
        free(cp);
    }
}

static void eval_query(ctx *c, const jq_path *q, tnode *start, const char *spath, nl *out)
{
    nl cur = { 0 };
    nl_push(&cur, start, strdup(spath));
    for (uint32_t k = 0; k < q->nseg; k++) {
        nl next = { 0 };
        for (size_t i = 0; i < cur.n; i++) {
            if (q->seg[k].desc)
                descend(c, &q->seg[k], cur.v[i], cur.path[i], &next);
            else
                for (uint32_t s = 0; s < q->seg[k].nsel; s++)
                    select_children(c, &q->seg[k].sel[s], cur.v[i], cur.path[i], &next);
        }
        nl_free(&cur);
        cur = next;
    }
    *out = cur;
}

/* values: a node, a literal, or nothing */
typedef struct val {
    int kind;   /* 0 nothing, 1 node, 2 literal */
    tnode *node;
    jq_val lit;
} val;

static size_t utf8_len(const char *s, size_t n)
{
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        k += ((unsigned char)s[i] & 0xC0) != 0x80;
    return k;
}

static val eval_val(ctx *c, const jq_expr *x, tnode *at);

static val num(int64_t n)
{
    val v = { 2, NULL, { 0 } };
    v.lit.kind = V_NUM;
    v.lit.isint = true;
    v.lit.i = n;
    v.lit.d = (double)n;
    return v;
}

static val eval_val(ctx *c, const jq_expr *x, tnode *at)
{
    val v = { 0, NULL, { 0 } };
    if (x->kind == X_LIT) {
        v.kind = 2;
        v.lit = x->lit;
        return v;
    }
    if (x->kind == X_QUERY) {
        nl r;
        eval_query(c, x->q, x->q->relative ? at : c->root, "$", &r);
        if (r.n == 1) {
            v.kind = 1;
            v.node = r.v[0];
        }
        nl_free(&r);
        return v;
    }
    /* functions with a value result */
    if (x->fn == FN_LENGTH) {
        val a = eval_val(c, x->args[0], at);
        if (a.kind == 2 && a.lit.kind == V_STR)
            return num((int64_t)utf8_len(a.lit.s, a.lit.n));
        if (a.kind == 1 && a.node->t == JDOC_STRING)
            return num((int64_t)utf8_len(a.node->s, a.node->n));
        if (a.kind == 1 && (a.node->t == JDOC_ARRAY || a.node->t == JDOC_OBJECT))
            return num((int64_t)a.node->len);
        return v;
    }
    nl r;
    eval_query(c, x->args[0]->q, x->args[0]->q->relative ? at : c->root, "$", &r);
    if (x->fn == FN_COUNT)
        v = num((int64_t)r.n);
    else if (r.n == 1)
        v.kind = 1, v.node = r.v[0];
    nl_free(&r);
    return v;
}

/* a literal as a DOM node, for uniform comparison */
static void lit_node(const jq_val *l, tnode *t)
{
    memset(t, 0, sizeof *t);
    switch (l->kind) {
    case V_NUM: t->t = JDOC_DOUBLE; t->isint = l->isint; t->i = l->i; t->d = l->d; break;
    case V_STR: t->t = JDOC_STRING; t->s = (char *)l->s; t->n = l->n; break;
    case V_TRUE: t->t = JDOC_BOOL; t->b = true; break;
    case V_FALSE: t->t = JDOC_BOOL; t->b = false; break;
    default: t->t = JDOC_NULL; break;
    }
}

static bool less(const tnode *a, const tnode *b)
{
    if (dom_isnum(a->t) && dom_isnum(b->t))
        return a->isint && b->isint ? a->i < b->i : a->d < b->d;
    if (a->t == JDOC_STRING && b->t == JDOC_STRING) {
        size_t n = a->n < b->n ? a->n : b->n;
        int r = memcmp(a->s, b->s, n);
        return r < 0 || (r == 0 && a->n < b->n);
    }
    return false;
}

static bool cmp(ctx *c, const jq_expr *x, tnode *at)
{
    val a = eval_val(c, x->args[0], at), b = eval_val(c, x->args[1], at);
    tnode la, lb;
    const tnode *na = a.kind == 1 ? a.node : &la, *nb = b.kind == 1 ? b.node : &lb;
    if (a.kind == 2)
        lit_node(&a.lit, &la);
    if (b.kind == 2)
        lit_node(&b.lit, &lb);
    bool eq, lt, gt;
    if (a.kind == 0 || b.kind == 0) {
        eq = a.kind == b.kind;
        lt = gt = false;
    } else {
        eq = dom_eq(na, nb);
        lt = less(na, nb);
        gt = less(nb, na);
    }
    switch (x->op) {
    case OP_EQ: return eq;
    case OP_NE: return !eq;
    case OP_LT: return lt;
    case OP_GT: return gt;
    case OP_LE: return lt || eq;
    default: return gt || eq;
    }
}

static void *std_malloc(void *ud, size_t n) { (void)ud; return malloc(n); }
static void *std_realloc(void *ud, void *p, size_t n) { (void)ud; return realloc(p, n); }
static void std_free(void *ud, void *p) { (void)ud; free(p); }
static const jdoc_allocator std_alloc = { std_malloc, std_realloc, std_free, NULL };

/* The library's I-Regexp matcher (the compliance suite checks it); the walk
 * around it is this file's. */
static bool regex_match(const char *pat, size_t pn, const char *s, size_t sn, bool full)
{
    bool nomem;
    jq_regex *r = jq__regex_compile(pat, pn, &std_alloc, &nomem);
    if (!r)
        return false;
    void *scratch = malloc(jq__regex_scratch(r));
    bool m = jq__regex_run(r, s, sn, full, scratch) == 1;
    free(scratch);
    jq__regex_free(r);
    return m;
}

static bool filter_true(ctx *c, const jq_expr *x, tnode *at)
{
    switch (x->kind) {
    case X_OR:
        for (uint32_t k = 0; k < x->n; k++)
            if (filter_true(c, x->args[k], at))
                return true;
        return false;
    case X_AND:
        for (uint32_t k = 0; k < x->n; k++)
            if (!filter_true(c, x->args[k], at))
                return false;
        return true;
    case X_NOT: return !filter_true(c, x->args[0], at);
    case X_CMP: return cmp(c, x, at);
    case X_TEST: {
        nl r;
        eval_query(c, x->q, x->q->relative ? at : c->root, "$", &r);
        bool some = r.n > 0;
        nl_free(&r);
        return some;
    }
    case X_FUNC: {
        val s = eval_val(c, x->args[0], at), p = eval_val(c, x->args[1], at);
        const char *ss = NULL, *ps = NULL;
        size_t sn = 0, pn = 0;
        if (s.kind == 1 && s.node->t == JDOC_STRING)
            ss = s.node->s, sn = s.node->n;
        if (s.kind == 2 && s.lit.kind == V_STR)
            ss = s.lit.s, sn = s.lit.n;
        if (p.kind == 1 && p.node->t == JDOC_STRING)
            ps = p.node->s, pn = p.node->n;
        if (p.kind == 2 && p.lit.kind == V_STR)
            ps = p.lit.s, pn = p.lit.n;
        if (!ss || !ps)
            return false;
        return regex_match(ps, pn, ss, sn, x->fn == FN_MATCH);
    }
    }
    return false;
}

/* ---- the comparison ---- */

/* Library and naive evaluator agree on q over document json? 0 when they
 * do; otherwise prints the difference. */
static int compare_one(jdoc_parser *p, const char *json, size_t len, const char *query, size_t qlen,
                       const char *label)
{
    jdoc_error err;
    jdoc_query *q = jdoc_query_compile(query, qlen, NULL, &err);
    if (!q)
        return 0;   /* invalid: the compliance test checks those */
    jdoc_doc *d;
    cr_assert_eq(jdoc_parse(p, json, len, &d), JDOC_OK, "%s", label);
    ctx c = { dom_build(jdoc_root(d)) };
    nl want;
    eval_query(&c, q->root, c.root, "$", &want);
    jdoc_query_iter *it = jdoc_query_iter_new(q, jdoc_root(d), NULL);
    jdoc_value v;
    size_t n = 0;
    int bad = 0;
    char path[1024];
    while (jdoc_query_iter_next(it, &v)) {
        jdoc_query_iter_path(it, path, sizeof path);
        if (n >= want.n || jdoc_offset(v) != want.v[n]->off || strcmp(path, want.path[n]) != 0) {
            fprintf(stderr, "%s: %.*s: node %zu: library %s at %zu, naive %s at %zu\n", label, (int)qlen, query, n,
                    path, jdoc_offset(v), n < want.n ? want.path[n] : "(none)", n < want.n ? want.v[n]->off : 0);
            bad = 1;
            break;
        }
        n++;
    }
    if (!bad && n != want.n) {
        fprintf(stderr, "%s: %.*s: library %zu nodes, naive %zu\n", label, (int)qlen, query, n, want.n);
        bad = 1;
    }
    cr_expect_eq(jdoc_query_iter_status(it), JDOC_OK);
    jdoc_query_iter_free(it);
    nl_free(&want);
    dom_free(c.root);
    jdoc_query_free(q);
    return bad;
}

static jdoc_kernel_id kernels[] = { JDOC_KERNEL_SCALAR, JDOC_KERNEL_SSE42, JDOC_KERNEL_AVX2, JDOC_KERNEL_AVX512,
                                    JDOC_KERNEL_NEON, JDOC_KERNEL_NEON_NOPMULL };

ParameterizedTestParameters(jsonpath_diff, compliance_queries)
{
    return cr_make_param_array(jdoc_kernel_id, kernels, sizeof kernels / sizeof *kernels);
}

ParameterizedTest(jdoc_kernel_id *k, jsonpath_diff, compliance_queries, .timeout = 120)
{
    if (!jdoc_kernel_supported(*k))
        cr_skip_test("kernel %s: not on this CPU or build", jdoc_kernel_id_name(*k));
    size_t len;
    char *json = tu_read(CORPUS "/jsonpath/cts.json", &len);
    if (!json)
        cr_skip_test(CORPUS "/jsonpath/cts.json is absent: the differential test over its queries was not run");
    jdoc_parser *p = tu_parser(*k), *pd = tu_parser(*k);
    jdoc_doc *d;
    cr_assert_eq(jdoc_parse(p, json, len, &d), JDOC_OK);
    jdoc_value tests;
    jdoc_pointer(jdoc_root(d), "/tests", 6, &tests);
    jdoc_iter it;
    jdoc_value t, sel, doc;
    jdoc_iter_init(tests, &it);
    size_t ran = 0, bad = 0;
    while (jdoc_iter_next(&it, &t)) {
        if (jdoc_pointer(t, "/document", 9, &doc) != JDOC_OK)
            continue;
        const char *s, *raw;
        size_t sl, rl;
        jdoc_pointer(t, "/selector", 9, &sel);
        jdoc_get_string(sel, &s, &sl);
        jdoc_get_raw(doc, &raw, &rl);
        bad += (size_t)compare_one(pd, raw, rl, s, sl, jdoc_kernel_id_name(*k));
        ran++;
    }
    fprintf(stderr, "jsonpath_diff %s: %zu compliance queries, %zu differ\n", jdoc_kernel_id_name(*k), ran, bad);
    cr_expect_eq(bad, 0);
    cr_expect_gt(ran, 400);
    jdoc_parser_free(p);
    jdoc_parser_free(pd);
    free(json);
}

/* Docker-shaped queries over every file of the Docker corpus. */
static const char *const docker_queries[] = {
    "$[*].Id", "$[*].Names[0]", "$..IPAddress", "$[?@.State == 'running'].Names[0]",
    "$..Mounts[?@.Type == 'bind'].Source", "$.NetworkSettings.Networks.*.IPAddress", "$[*].NetworkSettings.Networks.*.IPAddress",
    "$..*", "$..[0]", "$..[-1]", "$[*].Labels.*", "$[?@.Labels['com.docker.compose.service']].Id",
    "$..[?@.Type]", "$[?count(@.Ports[*]) > 1].Id", "$[-1:0:-2].Id", "$[::2]", "$..Ports[?@.PublicPort >= 8000]",
    "$[?length(@.Names) == 1 && !@.Labels.nope].Image", "$[?search(@.Image, 'ng.nx|postgres')].Image",
    "$..[?match(@, '[0-9a-f]{12}')]", "$..[?@ == $[0].State]", "$..[?@.Name && @.Driver]", "$..Config.Env[*]",
    "$..[?value(@..Type) == 'bind']", "$..['Id','Image','State']", "$.*.*", "$..[?length(@) > 3]",
    "$..[?@ != null && @ < 10]", "$..Spec..Image", "$..[?@.Status.State == 'running'].ID",
    "$..[?count(@.*) == 0]", "$..[?search(@, '\\\\p{Lu}{3}')]", "$[?@.Id > 'm'].Id", "$..Labels[?@ == 'web']",
    /* descendants inside filters and after other descendants, over large spans */
    "$..Mounts[?@..Source]", "$..[?@..IPAddress].Id", "$..Config..Image", "$..Spec[?@..Image]..Image",
    "$..Labels..*", "$..['Source','Destination']", "$..Networks..[?@.IPAddress]", "$..State..Status",
};

ParameterizedTestParameters(jsonpath_diff, docker_corpus)
{
    return cr_make_param_array(jdoc_kernel_id, kernels, sizeof kernels / sizeof *kernels);
}

ParameterizedTest(jdoc_kernel_id *k, jsonpath_diff, docker_corpus, .timeout = 120)
{
    if (!jdoc_kernel_supported(*k))
        cr_skip_test("kernel %s: not on this CPU or build", jdoc_kernel_id_name(*k));
    char **files = tu_list(CORPUS "/docker");
    if (!files)
        cr_skip_test(CORPUS "/docker is absent: the Docker differential test was not run");
    jdoc_parser *p = tu_parser(*k);
    size_t ran = 0, bad = 0;
    for (char **f = files; *f; f++) {
        size_t fl = strlen(*f);
        if (fl < 5 || strcmp(*f + fl - 5, ".json"))
            continue;
        size_t len;
        char *json = tu_read(*f, &len);
        for (size_t q = 0; q < sizeof docker_queries / sizeof *docker_queries; q++) {
            jdoc_error err;
            jdoc_query *cq = jdoc_query_compile(docker_queries[q], strlen(docker_queries[q]), NULL, &err);
            cr_assert(cq, "%s: %s at %zu", docker_queries[q], err.message, err.offset);
            jdoc_query_free(cq);
            bad += (size_t)compare_one(p, json, len, docker_queries[q], strlen(docker_queries[q]), *f);
            ran++;
        }
        free(json);
    }
    /* all the files in one array: large spans, where descendant names skip subtrees */
    size_t cap = 1 << 20, len = 0;
    char *all = malloc(cap);
    all[len++] = '[';
    for (char **f = files; *f; f++) {
        size_t fl = strlen(*f), n;
        if (fl < 5 || strcmp(*f + fl - 5, ".json"))
            continue;
        char *json = tu_read(*f, &n);
        if (len + n + 2 > cap)
            all = realloc(all, cap = 2 * (len + n + 2));
        if (len > 1)
            all[len++] = ',';
        memcpy(all + len, json, n);
        len += n;
        free(json);
    }
    all[len++] = ']';
    for (size_t q = 0; q < sizeof docker_queries / sizeof *docker_queries; q++) {
        bad += (size_t)compare_one(p, all, len, docker_queries[q], strlen(docker_queries[q]), "all Docker files");
        ran++;
    }
    free(all);
    fprintf(stderr, "jsonpath_diff %s: %zu Docker (file, query) pairs, %zu differ\n", jdoc_kernel_id_name(*k), ran, bad);
    cr_expect_eq(bad, 0);
    cr_expect_gt(ran, 100);
    jdoc_parser_free(p);
    tu_free_list(files);
}
