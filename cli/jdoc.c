/* SPDX-License-Identifier: MIT */
/* jdoc: print values of a JSON document (or of a stream of them) by path,
 * validate it, or pretty-print it. See `jdoc --help` and docs/cli.md. */
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "cli.h"
#include "feed.h"

static const char usage_text[] =
    "Usage: jdoc [OPTIONS] FILE|- [PATH...]\n"
    "Print the value at each PATH of the JSON document in FILE (- for stdin), one\n"
    "line per path, in the order given. Without PATH, validate the document and\n"
    "pretty-print it (2-space indentation, strings and numbers as in the source).\n"
    "\n"
    "Paths:\n"
    "  Oj::Doc style by default: /a/2/b, array indices 1-based, \"/\" is the root,\n"
    "  \\/ is a '/' inside a key, \\\\ a backslash, .. goes up one level.\n"
    "  -p, --pointer        RFC 6901 JSON Pointers instead: /a/1/b, indices\n"
    "                       0-based, \"\" is the root, ~1 is '/', ~0 is '~'\n"
    "  A PATH that starts with $ is a JSONPath query (RFC 9535), e.g.\n"
    "  '$[*].Id', '$[?@.State == \"running\"].Names[0]', '$..IPAddress':\n"
    "  each node it selects is printed on its own line, in order; no node\n"
    "  prints nothing (exit 0). See docs/jsonpath.md.\n"
    "  -q, --jsonpath       every PATH is a JSONPath query\n"
    "      --with-path      before each value: its path (normalized path for\n"
    "                       queries, the PATH as given otherwise) and a tab\n"
    "      --count          per PATH, the number of nodes it selects (0 or 1\n"
    "                       for Oj paths and pointers); no PATH: the root's\n"
    "                       members or elements\n"
    "      --keys           per PATH, the member names of each object it\n"
    "                       selects, decoded, one per line; no PATH: the root's\n"
    "      --paths-from F   more paths from file F (- for stdin), one per line,\n"
    "                       after the command line's; empty lines are skipped\n"
    "\n"
    "Output, one line per path (a path that leads nowhere: an empty line):\n"
    "  (default)            compact JSON: containers minified, strings and\n"
    "                       numbers as in the source\n"
    "  -r, --raw            strings decoded, without quotes; the rest compact\n"
    "  -c, --compact        compact JSON, as jq -c (with no PATH: the whole\n"
    "                       document on one line instead of pretty-printed)\n"
    "      --canonical      through the typed getters: integers in decimal;\n"
    "                       other numbers as the shortest text that reads back\n"
    "                       as the same double, positional with a fraction part\n"
    "                       for exponents -7..15 (0.5, 1.0, -0.0, 0.0000001),\n"
    "                       else d.ddde+x (1e+22, 5e-324); beyond double range\n"
    "                       (1e400): the source text and a warning, exit status\n"
    "                       unchanged; strings decoded and re-escaped (\\\" \\\\ \\b\n"
    "                       \\f \\n \\r \\t, other controls \\u00xx, the rest as is)\n"
    "  -t, --type           the type: null bool int uint double string array\n"
    "                       object\n"
    "  With no PATH, -r, -c, --canonical and -t print the whole document on\n"
    "  one line.\n"
    "\n"
    "Checking:\n"
    "      --validate       check the whole document (RFC 8259) before anything\n"
    "                       else; with no PATH print nothing: exit 0 or 1\n"
    "      --max-depth N    nesting limit (default 1024)\n"
    "  Without --validate, a path query checks what indexing checks (brackets,\n"
    "  strings, UTF-8, depth), the way to each value, each scalar it prints, and\n"
    "  with -c everything it prints; a container is otherwise printed as it is.\n"
    "\n"
    "Streams:\n"
    "      --ndjson         FILE holds documents separated by whitespace or by\n"
    "                       nothing ({...}{...}): the paths are answered for each\n"
    "                       in turn; with no PATH each is validated and printed\n"
    "                       compact on a line. A damaged document is reported\n"
    "                       (byte offset, line:column, document number), prints\n"
    "                       empty lines in place of its output, and the stream\n"
    "                       goes on; the exit status is then 1. Pipes, FIFOs and\n"
    "                       sockets are read as the bytes arrive: each document\n"
    "                       is answered and flushed as soon as it is complete.\n"
    "\n"
    "Kernels and information:\n"
    "      --kernel NAME    force the stage-1 kernel: scalar sse42 avx2 avx512 neon\n"
    "                       neon_nopmull, or auto (the best one, or $JDOC_KERNEL)\n"
    "      --kernels        list them: NAME supported|unsupported|not compiled\n"
    "      --version        print the version and the kernel in use\n"
    "  -h, --help           this help\n"
    "\n"
    "Exit status: 0 all well; 1 invalid JSON; 2 usage error, malformed path,\n"
    "unreadable file, 4 GiB or more, out of memory, write error; 3 a path not\n"
    "found. When several apply: 2 over 1 over 3 over 0. A closed output pipe\n"
    "ends jdoc by SIGPIPE, silently, as it does jq.\n"
    "\n"
    "Examples:\n"
    "  jdoc containers.json /1/Names/1             name of the first container\n"
    "  docker inspect x | jdoc -r - /1/State/Status               running\n"
    "  jdoc -p --ndjson events.ndjson /status /id  two lines per event\n"
    "  jdoc -r containers.json /1/Labels/com.docker.compose.service\n"
    "  jdoc --canonical prices.json /total         1e+22 for 10000000000000000000000\n"
    "  jdoc -r containers.json '$[*].Names[0]'     every container's first name\n"
    "  jdoc --count containers.json '$[?@.State == \"running\"]'\n"
    "  jdoc --validate config.json && echo valid\n"
    "  jdoc config.json                            pretty-print\n";

typedef struct qpath {
    const char *text;   /* as given, for messages and jdoc_explain */
    size_t len;
    jdoc_query *query;  /* a JSONPath query, or NULL for an Oj path / pointer */
    jdoc_query_iter *it;
} qpath;

typedef enum { OUT_COMPACT, OUT_RAW, OUT_CANONICAL, OUT_TYPE } out_mode;

typedef struct ctx {
    out_mode mode;
    bool pointer, validate, ndjson;
    bool jsonpath, with_path, count, keys, compact;
    bool any_query;
    jdoc_value cur_node;   /* the query node being printed, for messages */
    const char *file;   /* as given */
    const char *name;   /* for messages */
    qpath *paths;
    size_t np;
    jdoc_path **compiled;
    jdoc_value *vals;
    jdoc_status *sts;
    jdoc_parser *p;
    input in;
    linemap lm;
    feed *f;          /* --ndjson: the documents, and lines and columns */
    sbuf out;
    bool tty;
    size_t doc_off;   /* in a stream: where the current document starts */
    unsigned seen;   /* bit per exit status that happened */
} ctx;

static void note(ctx *c, int rc) { c->seen |= 1u << rc; }

static int final_status(const ctx *c)
{
    static const int order[] = { RC_USAGE, RC_INVALID, RC_MISSING };
    for (size_t i = 0; i < sizeof order / sizeof *order; i++)
        if (c->seen & (1u << order[i]))
            return order[i];
    return RC_OK;
}

/* Before a message: on a terminal, let the lines printed so far come first. */
static void before_message(ctx *c)
{
    if (c->tty) {
        sb_flush(&c->out);
        fflush(stdout);
    }
}

static void kernel_list(FILE *f, const char *sep)
{
    for (int k = JDOC_KERNEL_AUTO + 1; k < JDOC_KERNEL_COUNT; k++) {
        const char *st = jdoc_kernel_supported((jdoc_kernel_id)k)  ? "supported"
                         : jdoc_kernel_compiled((jdoc_kernel_id)k) ? "unsupported"
                                                                   : "not compiled";
        fprintf(f, "%s%s %s", k > 1 ? sep : "", jdoc_kernel_id_name((jdoc_kernel_id)k), st);
    }
}

static _Noreturn void usage_error(const char *fmt, const char *arg)
{
    fputs("jdoc: ", stderr);
    fprintf(stderr, fmt, arg);
    fputs(" (see jdoc --help)\n", stderr);
    exit(RC_USAGE);
}

static void where(ctx *c, size_t off, size_t *line, size_t *col)
{
    if (c->f)
        feed_where(c->f, off, line, col);
    else
        linemap_at(&c->lm, off, line, col);
}

/* `jdoc: FILE:LINE:COLUMN (byte N): [document K: ]message` */
static void report_invalid(ctx *c, size_t off, size_t docno, const char *msg, const char *path)
{
    size_t line, col;
    where(c, off, &line, &col);
    before_message(c);
    fprintf(stderr, "jdoc: %s:%zu:%zu (byte %zu): ", c->name, line, col, off);
    if (docno)
        fprintf(stderr, "document %zu: ", docno);
    if (path)
        fprintf(stderr, "%.*s: ", (int)strlen(path), path);
    fprintf(stderr, "%s\n", msg);
    note(c, RC_INVALID);
}

/* `jdoc: FILE: [document K (line L): ]PATH: message` */
static void report_path(ctx *c, size_t docno, const qpath *q, const char *msg)
{
    before_message(c);
    fprintf(stderr, "jdoc: %s: ", c->name);
    if (docno) {
        size_t line, col;
        where(c, c->doc_off, &line, &col);
        fprintf(stderr, "document %zu (line %zu): ", docno, line);
    }
    fwrite(q->text, 1, q->len, stderr);
    fprintf(stderr, ": %s\n", msg);
}

/* Fatal library conditions that are not about the JSON text. */
static void check_fatal(jdoc_status st)
{
    if (st == JDOC_ERR_NOMEM)
        die_nomem();
    if (st == JDOC_ERR_CAPACITY) {
        fputs("jdoc: document too large (4 GiB or more)\n", stderr);
        exit(RC_USAGE);
    }
}

/* The first error of the document, found by a full validation: used when a
 * walk met a malformation, for its exact place and message. */
static void report_document_error(ctx *c, const jdoc_doc *d, size_t base, size_t docno, const walk_err *we)
{
    jdoc_status st = jdoc_validate(d);
    check_fatal(st);
    if (st != JDOC_OK) {
        const jdoc_error *e = jdoc_last_error(jdoc_doc_parser(d));
        report_invalid(c, base + e->offset, docno, e->message, NULL);
    } else {
        report_invalid(c, base + we->offset, docno, we->message, NULL);
    }
}

/* A fetch that failed for another reason than "not found", or a scalar that
 * is not JSON: jdoc_explain says where and why. */
static void report_fetch_error(ctx *c, jdoc_value root, size_t base, size_t docno, const qpath *q,
                               jdoc_status st)
{
    check_fatal(st);
    jdoc_error e = { st, jdoc_offset(root), jdoc_status_str(st), "" };
    char where[256];
    jdoc_status x;
    if (q->query)   /* a node of a query: the node itself is explained */
        x = jdoc_explain(c->cur_node, "", 0, JDOC_SYNTAX_POINTER, &e, where, sizeof where);
    else
        x = jdoc_explain(root, q->text, q->len, c->pointer ? JDOC_SYNTAX_POINTER : JDOC_SYNTAX_OJ, &e, where,
                         sizeof where);
    if (x == JDOC_OK || x == JDOC_ERR_NOT_FOUND) {   /* explain found nothing wrong: keep what we know */
        e.code = st;
        e.message = jdoc_status_str(st);
    }
    char path[1024];
    if (q->query)
        jdoc_query_iter_path(q->it, path, sizeof path);
    else
        snprintf(path, sizeof path, "%.*s", (int)(q->len < 1000 ? q->len : 1000), q->text);
    report_invalid(c, base + e.offset, docno, e.message ? e.message : jdoc_status_str(e.code), path);
}

/* One value as one line (without the newline) in c->out; false after
 * reporting an error (the partial text is taken back). `validated`: the whole
 * document passed jdoc_validate, nothing can fail, so the text may be
 * flushed as it grows. */
static bool emit_value(ctx *c, jdoc_value v, jdoc_value root, size_t base, size_t docno, const qpath *q,
                       bool validated)
{
    size_t mark = c->out.len;
    jdoc_type t = jdoc_typeof(v);
    jdoc_status st = JDOC_OK;
    walk_err we = { JDOC_OK, 0, NULL };
    if (t == JDOC_INVALID) {
        report_fetch_error(c, root, base, docno, q, JDOC_ERR_SYNTAX);
        return false;
    }
    if (t == JDOC_STRING && c->mode != OUT_CANONICAL) {
        /* decoding checks the escapes; --raw prints the decoded text */
        const char *s;
        size_t len;
        st = jdoc_get_string(v, &s, &len);
        if (st != JDOC_OK) {
            report_fetch_error(c, root, base, docno, q, st);
            return false;
        }
        if (c->mode == OUT_RAW) {
            sb_put(&c->out, s, len);
            return true;
        }
    }
    switch (c->mode) {
    case OUT_TYPE:
        sb_puts(&c->out, jdoc_type_name(t));
        return true;
    case OUT_CANONICAL: {
        bool inexact = false;
        st = emit_canonical(&c->out, v, validated, &inexact, &we);
        if (st == JDOC_OK && inexact) {
            report_path(c, docno, q, "number beyond double range, copied from the source");
        }
        break;
    }
    default:
        st = emit_compact(&c->out, v);
        break;
    }
    if (st != JDOC_OK) {
        c->out.len = mark;
        check_fatal(st);
        if (t != JDOC_ARRAY && t != JDOC_OBJECT) {   /* a scalar: say which path, exactly where */
            report_fetch_error(c, root, base, docno, q, st);
            return false;
        }
        if (we.st == JDOC_OK)
            we = (walk_err){ st, jdoc_offset(v), jdoc_status_str(st) };
        report_document_error(c, root.doc, base, docno, &we);
        return false;
    }
    return true;
}

static void newline(ctx *c)
{
    sb_putc(&c->out, '\n');
    if (c->out.len >= (1u << 16))
        sb_flush(&c->out);
}

static void empty_lines(ctx *c, size_t n)
{
    for (size_t i = 0; i < n; i++)
        newline(c);
}

/* Lines a document prints: one per path, or one for the whole document
 * (none when only validating). */
static size_t lines_per_doc(const ctx *c)
{
    if (!c->np)
        return c->validate || c->keys ? 0 : 1;
    size_t n = 0;
    for (size_t i = 0; i < c->np; i++)
        n += !c->paths[i].query && !c->keys;
    return n;
}

/* "an array of 3 elements", for messages */
static void describe(jdoc_value v, char *buf, size_t cap)
{
    jdoc_type t = jdoc_typeof(v);
    size_t n = jdoc_count(v);
    if (t == JDOC_ARRAY)
        snprintf(buf, cap, "an array of %zu element%s", n, n == 1 ? "" : "s");
    else if (t == JDOC_OBJECT)
        snprintf(buf, cap, "an object of %zu member%s", n, n == 1 ? "" : "s");
    else
        snprintf(buf, cap, "%s %s", t == JDOC_INT || t == JDOC_UINT ? "an" : "a",
                 t == JDOC_INT || t == JDOC_UINT || t == JDOC_DOUBLE ? "number" : jdoc_type_name(t));
}

static bool oj_zero_step(const char *t, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (t[i] == '0' && (i == 0 || t[i - 1] == '/') && (i + 1 == n || t[i + 1] == '/'))
            return true;
    return false;
}

/* "not found", then where the walk stopped, what is there, and hints for
 * the usual mistakes. */
static void report_not_found(ctx *c, size_t docno, const qpath *q, jdoc_value root)
{
    report_path(c, docno, q, "not found");
    jdoc_syntax syn = c->pointer ? JDOC_SYNTAX_POINTER : JDOC_SYNTAX_OJ;
    jdoc_error e;
    char where[512], what[64];
    jdoc_status st = jdoc_explain(root, q->text, q->len, syn, &e, where, sizeof where);
    if (st == JDOC_ERR_NOT_FOUND) {
        jdoc_value at;
        jdoc_status fs = c->pointer ? jdoc_pointer(root, where, strlen(where), &at) : jdoc_fetch(root, where, &at);
        if (fs == JDOC_OK) {
            describe(at, what, sizeof what);
            fprintf(stderr, "jdoc:   stopped at %s%s, %s: %s\n", c->pointer && !*where ? "\"\"" : where,
                    (c->pointer && !*where) || !strcmp(where, "/") ? " (the root)" : "", what, e.message);
            if (!c->pointer && jdoc_typeof(at) == JDOC_ARRAY && oj_zero_step(q->text, q->len))
                fputs("jdoc:   hint: Oj paths count from 1 (/1 is the first element); -p reads 0-based JSON\n"
                      "jdoc:   Pointers, and JSONPath counts from 0 too ($[0])\n", stderr);
        }
    }
    if (q->len > 1 && q->text[0] == '.' && q->text[1] != '.' && q->text[1] != '/')
        fputs("jdoc:   hint: jq's .a.b is not a path here: write /a/b (Oj path) or '$.a.b' (JSONPath)\n", stderr);
    char name[4096];
    if (q->len < sizeof name) {
        memcpy(name, q->text, q->len);
        name[q->len] = 0;
        if (access(name, F_OK) == 0)
            fprintf(stderr, "jdoc:   hint: '%s' is a file, but jdoc reads one FILE: the arguments after it are paths\n",
                    name);
    }
}

/* The member names of an object, one per line; false (and a message) for
 * anything else. */
static void emit_keys(ctx *c, jdoc_value v, size_t docno, const qpath *q)
{
    jdoc_iter it;
    if (jdoc_typeof(v) != JDOC_OBJECT) {
        char what[64];
        describe(v, what, sizeof what);
        char msg[96];
        snprintf(msg, sizeof msg, "--keys: %s, not an object", what);
        report_path(c, docno, q, msg);
        note(c, RC_MISSING);
        return;
    }
    jdoc_iter_init(v, &it);
    while (jdoc_iter_next(&it, NULL)) {
        const char *k;
        size_t n;
        jdoc_status st = jdoc_iter_key(&it, &k, &n);
        check_fatal(st);
        if (st != JDOC_OK) {
            report_invalid(c, jdoc_offset(v), docno, "bad escape in a member name", NULL);
            return;
        }
        sb_put(&c->out, k, n);
        newline(c);
    }
    if (it.status != JDOC_OK)
        report_invalid(c, jdoc_offset(v), docno, "malformed object", NULL);
}

/* A JSONPath query over one document: each node on its own line. */
static void answer_query(ctx *c, qpath *q, jdoc_value root, size_t base, size_t docno)
{
    jdoc_status st;
    if (!q->it)
        q->it = jdoc_query_iter_new(q->query, root, &st);
    else
        st = jdoc_query_iter_reset(q->it, root);
    if (!q->it || st != JDOC_OK) {
        check_fatal(st);
        fprintf(stderr, "jdoc: %s: cannot run the query: %s\n", c->name, jdoc_status_str(st));
        note(c, RC_USAGE);
        return;
    }
    size_t n = 0;
    jdoc_value v;
    while (jdoc_query_iter_next(q->it, &v)) {
        n++;
        if (c->count)
            continue;
        if (c->keys) {
            emit_keys(c, v, docno, q);
            continue;
        }
        c->cur_node = v;
        if (c->with_path) {
            char path[256];
            size_t pl = jdoc_query_iter_path(q->it, path, sizeof path);
            if (pl < sizeof path) {
                sb_put(&c->out, path, pl);
            } else {
                sb_reserve(&c->out, pl + 1);
                jdoc_query_iter_path(q->it, c->out.p + c->out.len, pl + 1);
                c->out.len += pl;
            }
            sb_putc(&c->out, '\t');
        }
        size_t mark = c->out.len;
        if (!emit_value(c, v, root, base, docno, q, false))
            c->out.len = mark;
        newline(c);
    }
    st = jdoc_query_iter_status(q->it);
    if (st != JDOC_OK) {
        check_fatal(st);
        walk_err we = { st, jdoc_offset(root), "malformed document met by the query" };
        report_document_error(c, root.doc, base, docno, &we);
    }
    if (c->count) {
        char num[24];
        snprintf(num, sizeof num, "%zu", n);
        sb_puts(&c->out, num);
        newline(c);
    }
}

/* Answer the paths (or print the document) for one parsed document. `base`
 * is the offset of the document's input in the buffer, docno its number in
 * a stream (0 for a single document). */
static void answer(ctx *c, jdoc_doc *d, size_t base, size_t docno)
{
    jdoc_value root = jdoc_root(d);
    if (c->validate || c->np == 0) {
        jdoc_status st = jdoc_validate(d);
        check_fatal(st);
        if (st != JDOC_OK) {
            const jdoc_error *e = jdoc_last_error(c->p);
            report_invalid(c, base + e->offset, docno, e->message, NULL);
            if (docno)
                empty_lines(c, lines_per_doc(c));
            return;
        }
    }
    if (c->np == 0 && (c->count || c->keys)) {
        static const qpath rootq = { "$", 1, NULL, NULL };
        if (c->keys) {
            emit_keys(c, root, docno, &rootq);
        } else {
            char num[24];
            jdoc_type t = jdoc_typeof(root);
            snprintf(num, sizeof num, "%zu", t == JDOC_ARRAY || t == JDOC_OBJECT ? jdoc_count(root) : (size_t)0);
            sb_puts(&c->out, num);
            newline(c);
        }
        return;
    }
    if (c->np == 0) {
        if (c->validate)
            return;
        const qpath rootpath = c->pointer ? (qpath){ "", 0, NULL, NULL } : (qpath){ "/", 1, NULL, NULL };
        walk_err we = { JDOC_OK, 0, NULL };
        if (c->ndjson || c->mode != OUT_COMPACT || c->compact) {
            emit_value(c, root, root, base, docno, &rootpath, true);
        } else if (emit_pretty(&c->out, root, true, &we) != JDOC_OK) {
            check_fatal(we.st);   /* validated: only memory can fail */
            report_invalid(c, base + we.offset, docno, we.message, NULL);
        }
        newline(c);
        return;
    }
    /* all paths from one parse: in one pass over the root's members when it is an object */
    jdoc_status st;
    if (c->np > 1 && !c->any_query && jdoc_typeof(root) == JDOC_OBJECT) {
        jdoc_fetch_many(root, (const jdoc_path *const *)c->compiled, c->np, c->vals, c->sts);
    } else {
        for (size_t i = 0; i < c->np; i++)
            if (!c->paths[i].query)
                c->sts[i] = jdoc_fetch_path(root, c->compiled[i], &c->vals[i]);
    }
    for (size_t i = 0; i < c->np; i++) {
        if (c->paths[i].query) {
            answer_query(c, &c->paths[i], root, base, docno);
            continue;
        }
        st = c->sts[i];
        if (c->count && (st == JDOC_OK || st == JDOC_ERR_NOT_FOUND)) {
            sb_putc(&c->out, st == JDOC_OK ? '1' : '0');
        } else if (c->keys && st == JDOC_OK) {
            emit_keys(c, c->vals[i], docno, &c->paths[i]);
            continue;
        } else if (st == JDOC_OK) {
            if (c->with_path) {
                sb_put(&c->out, c->paths[i].text, c->paths[i].len);
                sb_putc(&c->out, '\t');
            }
            emit_value(c, c->vals[i], root, base, docno, &c->paths[i], false);
        } else if (st == JDOC_ERR_NOT_FOUND) {
            report_not_found(c, docno, &c->paths[i], root);
            note(c, RC_MISSING);
        } else {
            report_fetch_error(c, root, base, docno, &c->paths[i], st);
        }
        newline(c);
    }
}

static void run_single(ctx *c)
{
    jdoc_doc *d;
    jdoc_status st = jdoc_parse(c->p, c->in.data, c->in.len, &d);
    check_fatal(st);
    if (st != JDOC_OK) {
        const jdoc_error *e = jdoc_last_error(c->p);
        report_invalid(c, e->offset, 0, e->message, NULL);
        return;
    }
    answer(c, d, 0, 0);
}

/* The documents of the stream as they come: read incrementally from a pipe
 * and answered (and flushed) one by one, or all from the mapped file. */
static void run_stream(ctx *c)
{
    c->f = feed_new(c->p, c->in.data, c->in.len, c->in.fd);
    bool live = feed_live(c->f);
    feed_item it;
    while (feed_next(c->f, &it)) {
        if (it.st != JDOC_OK) {
            check_fatal(it.st);
            report_invalid(c, it.err_offset, it.docno, it.message, NULL);
            empty_lines(c, lines_per_doc(c));
        } else {
            c->doc_off = it.start;
            answer(c, it.doc, it.base, it.docno);
        }
        if (live) {   /* the answers of a document go out before waiting for the next */
            sb_flush(&c->out);
            fflush(stdout);
        }
        if (ferror(stdout))   /* e.g. the reader went away: stop reading */
            break;
    }
    int e = feed_read_errno(c->f);
    if (e) {
        before_message(c);
        fprintf(stderr, "jdoc: %s: read error: %s\n", c->name, strerror(e));
        note(c, RC_USAGE);
    }
}

/* ---- command line ---- */

typedef struct args {
    const char *file;
    const char **pos;   /* paths given on the command line */
    size_t npos;
    const char **from;  /* --paths-from files */
    size_t nfrom;
    const char *kernel;
    uint32_t max_depth;
    bool kernels, version;
} args;

static bool takes_value(const char *name)
{
    return !strcmp(name, "--paths-from") || !strcmp(name, "--kernel") || !strcmp(name, "--max-depth");
}

static uint32_t parse_depth(const char *s)
{
    char *end;
    errno = 0;
    unsigned long long v = strtoull(s, &end, 10);
    if (!*s || *end || errno || v == 0 || v > UINT32_MAX || *s == '-' || *s == '+')
        usage_error("--max-depth: '%s' is not a number from 1 to 4294967295", s);
    return (uint32_t)v;
}

static void set_mode(ctx *c, out_mode m, const char *opt)
{
    if (c->mode != OUT_COMPACT && c->mode != m)
        usage_error("%s: only one of --raw, --canonical and --type", opt);
    c->mode = m;
}

static void parse_args(ctx *c, args *a, int argc, char **argv)
{
    a->pos = xrealloc(NULL, (size_t)argc * sizeof *a->pos);
    a->from = xrealloc(NULL, (size_t)argc * sizeof *a->from);
    bool opts = true;
    for (int i = 1; i < argc; i++) {
        char *arg = argv[i];
        if (!opts || arg[0] != '-' || arg[1] == 0) {   /* "-" is stdin: an operand */
            if (!a->file)
                a->file = arg;
            else
                a->pos[a->npos++] = arg;
            continue;
        }
        if (!strcmp(arg, "--")) {
            opts = false;
            continue;
        }
        if (arg[1] != '-') {   /* bundled short flags: -pr */
            for (const char *s = arg + 1; *s; s++) {
                switch (*s) {
                case 'p': c->pointer = true; break;
                case 'r': set_mode(c, OUT_RAW, "-r"); break;
                case 'c': c->compact = true; break;
                case 'q': c->jsonpath = true; break;
                case 't': set_mode(c, OUT_TYPE, "-t"); break;
                case 'h': fputs(usage_text, stdout); exit(fflush(stdout) ? RC_USAGE : RC_OK);
                default: {
                    char o[3] = { '-', *s, 0 };
                    usage_error("unknown option '%s'", o);
                }
                }
            }
            continue;
        }
        /* long options, --name=value or --name value */
        char name[32];
        const char *val = NULL;
        char *eq = strchr(arg, '=');
        size_t nl = eq ? (size_t)(eq - arg) : strlen(arg);
        if (nl >= sizeof name)
            usage_error("unknown option '%s'", arg);
        memcpy(name, arg, nl);
        name[nl] = 0;
        if (takes_value(name)) {
            if (eq)
                val = eq + 1;
            else if (i + 1 < argc)
                val = argv[++i];
            else
                usage_error("%s needs a value", name);
        } else if (eq) {
            usage_error("%s takes no value", name);
        }
        if (!strcmp(name, "--pointer")) c->pointer = true;
        else if (!strcmp(name, "--raw")) set_mode(c, OUT_RAW, name);
        else if (!strcmp(name, "--canonical")) set_mode(c, OUT_CANONICAL, name);
        else if (!strcmp(name, "--compact")) c->compact = true;
        else if (!strcmp(name, "--jsonpath")) c->jsonpath = true;
        else if (!strcmp(name, "--with-path")) c->with_path = true;
        else if (!strcmp(name, "--count")) c->count = true;
        else if (!strcmp(name, "--keys")) c->keys = true;
        else if (!strcmp(name, "--type")) set_mode(c, OUT_TYPE, name);
        else if (!strcmp(name, "--validate")) c->validate = true;
        else if (!strcmp(name, "--ndjson")) c->ndjson = true;
        else if (!strcmp(name, "--paths-from")) a->from[a->nfrom++] = val;
        else if (!strcmp(name, "--kernel")) a->kernel = val;
        else if (!strcmp(name, "--max-depth")) a->max_depth = parse_depth(val);
        else if (!strcmp(name, "--kernels")) a->kernels = true;
        else if (!strcmp(name, "--version")) a->version = true;
        else if (!strcmp(name, "--help")) {
            fputs(usage_text, stdout);
            exit(fflush(stdout) ? RC_USAGE : RC_OK);
        } else
            usage_error("unknown option '%s'", arg);
    }
}

static jdoc_parser *make_parser(const args *a)
{
    jdoc_options opt = { 0 };
    opt.max_depth = a->max_depth;
    if (a->kernel && strcmp(a->kernel, "auto") != 0) {
        opt.kernel = jdoc_kernel_from_name(a->kernel);
        if (opt.kernel == JDOC_KERNEL_COUNT || !jdoc_kernel_supported(opt.kernel)) {
            fprintf(stderr, "jdoc: --kernel %s: %s; kernels: ", a->kernel,
                    opt.kernel == JDOC_KERNEL_COUNT ? "unknown kernel" : "not supported here");
            kernel_list(stderr, ", ");
            fputs("\n", stderr);
            exit(RC_USAGE);
        }
    }
    jdoc_status st;
    jdoc_parser *p = jdoc_parser_new_ex(&opt, &st);
    if (!p) {
        check_fatal(st);
        const char *env = getenv("JDOC_KERNEL");
        if (st == JDOC_ERR_UNSUPPORTED && !a->kernel && env) {
            fprintf(stderr, "jdoc: JDOC_KERNEL=%s: unknown or not supported here; kernels: ", env);
            kernel_list(stderr, ", ");
            fputs("\n", stderr);
        } else {
            fprintf(stderr, "jdoc: cannot create a parser: %s\n", jdoc_status_str(st));
        }
        exit(RC_USAGE);
    }
    return p;
}

/* The paths, in order: the command line's, then each --paths-from file's. */
static void collect_paths(ctx *c, const args *a, input *from_in)
{
    size_t cap = a->npos + 16;
    c->paths = xrealloc(NULL, cap * sizeof *c->paths);
    for (size_t i = 0; i < a->npos; i++)
        c->paths[c->np++] = (qpath){ a->pos[i], strlen(a->pos[i]), NULL, NULL };
    for (size_t f = 0; f < a->nfrom; f++) {
        const char *fn = a->from[f];
        if (!strcmp(fn, "-") && !strcmp(c->file, "-"))
            usage_error("--paths-from %s: stdin is already the document", fn);
        int e = input_open(&from_in[f], fn);
        if (e) {
            fprintf(stderr, "jdoc: --paths-from %s: %s\n", fn, strerror(e));
            exit(RC_USAGE);
        }
        const char *s = from_in[f].data, *end = s + from_in[f].len;
        while (s < end) {
            const char *nl = memchr(s, '\n', (size_t)(end - s));
            const char *le = nl ? nl : end;
            size_t len = (size_t)(le - s);
            if (len && s[len - 1] == '\r')
                len--;
            if (len) {
                if (c->np == cap) {
                    cap *= 2;
                    c->paths = xrealloc(c->paths, cap * sizeof *c->paths);
                }
                c->paths[c->np++] = (qpath){ s, len, NULL, NULL };
            }
            s = nl ? nl + 1 : end;
        }
    }
}

/* A JSONPath query; a bad one is shown with a caret under the offending byte. */
static bool compile_query(ctx *c, qpath *q)
{
    jdoc_error err;
    q->query = jdoc_query_compile(q->text, q->len, NULL, &err);
    if (q->query) {
        c->any_query = true;
        return true;
    }
    check_fatal(err.code);
    fprintf(stderr, "jdoc: invalid JSONPath query (byte %zu): %s\n", err.offset, err.message);
    if (q->len < 200 && !memchr(q->text, '\n', q->len)) {
        fprintf(stderr, "  %.*s\n  ", (int)q->len, q->text);
        for (size_t k = 0; k < err.offset; k++)   /* one column per code point, tabs kept */
            if (((unsigned char)q->text[k] & 0xC0) != 0x80)
                fputc(q->text[k] == '\t' ? '\t' : ' ', stderr);
        fputs("^\n", stderr);
    }
    return false;
}

/* Compile every path once; all malformed ones are reported, then exit 2. */
static void compile_paths(ctx *c)
{
    size_t n = c->np ? c->np : 1;
    c->compiled = xrealloc(NULL, n * sizeof *c->compiled);
    c->vals = xrealloc(NULL, n * sizeof *c->vals);
    c->sts = xrealloc(NULL, n * sizeof *c->sts);
    bool bad = false;
    for (size_t i = 0; i < c->np; i++) {
        const char *t = c->paths[i].text;
        size_t len = c->paths[i].len;
        c->compiled[i] = NULL;
        if (c->jsonpath || (len && t[0] == '$')) {
            if (!compile_query(c, &c->paths[i]))
                bad = true;
            continue;
        }
        jdoc_syntax syn = c->pointer ? JDOC_SYNTAX_POINTER : JDOC_SYNTAX_OJ;
        /* From the root, an absolute Oj path and the same path relative are
         * equal; jdoc_fetch_many batches only relative ones. ("//a" starts with
         * an empty key: it keeps its slash.) */
        if (syn == JDOC_SYNTAX_OJ && len >= 1 && t[0] == '/' && (len == 1 || t[1] != '/')) {
            t++;
            len--;
        }
        jdoc_status st;
        c->compiled[i] = jdoc_path_compile(t, len, syn, &st);
        if (!c->compiled[i]) {
            check_fatal(st);
            fputs("jdoc: ", stderr);
            fwrite(c->paths[i].text, 1, c->paths[i].len, stderr);
            fprintf(stderr, ": %s%s\n", jdoc_status_str(st),
                    c->pointer && c->paths[i].len && c->paths[i].text[0] != '/'
                        ? " (a JSON Pointer starts with '/')" : "");
            bad = true;
        }
    }
    if (bad)
        exit(RC_USAGE);
}

/* --kernels and --version: no document involved. */
static int info(const args *a)
{
    if (a->kernels) {
        kernel_list(stdout, "\n");
        putchar('\n');
    } else {
        jdoc_parser *p = make_parser(a);
        printf("jdoc %s (kernel %s)\n", jdoc_version(), jdoc_kernel_name(p));
        jdoc_parser_free(p);
    }
    return fflush(stdout) || ferror(stdout) ? RC_USAGE : RC_OK;
}

int main(int argc, char **argv)
{
    ctx c = { 0 };
    args a = { 0 };
    input *from_in = NULL;
    signal(SIGPIPE, SIG_DFL);   /* a closed pipe ends jdoc quietly, as it does jq and cat */
    parse_args(&c, &a, argc, argv);
    if (a.kernels || a.version) {
        note(&c, info(&a));
        goto done;
    }
    if (!a.file)
        usage_error("%s", "no FILE given");

    c.file = a.file;
    c.name = strcmp(a.file, "-") ? a.file : "<stdin>";
    from_in = xrealloc(NULL, (a.nfrom ? a.nfrom : 1) * sizeof *from_in);
    collect_paths(&c, &a, from_in);
    compile_paths(&c);
    c.p = make_parser(&a);

    int e = c.ndjson ? input_open_stream(&c.in, a.file) : input_open(&c.in, a.file);
    if (e) {
        fprintf(stderr, "jdoc: %s: %s\n", c.name,
                e == ENOMEM  ? "out of memory"
                : e == EFBIG ? "4 GiB or more: too large (the limit is 4 GiB - 1 bytes)"
                             : strerror(e));
        note(&c, RC_USAGE);
        goto done;
    }
    linemap_init(&c.lm, c.in.data, c.in.len);
    c.tty = isatty(STDOUT_FILENO);

    if (c.ndjson)
        run_stream(&c);
    else
        run_single(&c);

    sb_flush(&c.out);
    int werr = fflush(stdout) != 0 ? errno : ferror(stdout) ? (sb_write_errno ? sb_write_errno : EIO) : 0;
    if (werr) {
        if (werr != EPIPE)   /* the reader went away (| head): not worth a message */
            fprintf(stderr, "jdoc: write error: %s\n", strerror(werr));
        note(&c, RC_USAGE);
    }

done:
    for (size_t i = 0; i < c.np; i++) {
        jdoc_path_free(c.compiled ? c.compiled[i] : NULL);
        jdoc_query_iter_free(c.paths[i].it);
        jdoc_query_free(c.paths[i].query);
    }
    for (size_t f = 0; from_in && f < a.nfrom; f++)
        input_close(&from_in[f]);
    free(from_in);
    free(c.compiled);
    free(c.vals);
    free(c.sts);
    free(c.paths);
    free(a.pos);
    free(a.from);
    sb_free(&c.out);
    feed_free(c.f);
    jdoc_parser_free(c.p);
    input_close(&c.in);
    return final_status(&c);
}
