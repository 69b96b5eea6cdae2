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
    "      --paths-from F   more paths from file F (- for stdin), one per line,\n"
    "                       after the command line's; empty lines are skipped\n"
    "\n"
    "Output, one line per path (a path that leads nowhere: an empty line):\n"
    "  (default)            compact JSON: containers minified, strings and\n"
    "                       numbers as in the source\n"
    "  -r, --raw            strings decoded, without quotes; the rest compact\n"
    "  -c, --canonical      through the typed getters: integers in decimal;\n"
    "                       other numbers as the shortest text that reads back\n"
    "                       as the same double, positional with a fraction part\n"
    "                       for exponents -7..15 (0.5, 1.0, -0.0, 0.0000001),\n"
    "                       else d.ddde+x (1e+22, 5e-324); beyond double range\n"
    "                       (1e400): the source text and a warning, exit status\n"
    "                       unchanged; strings decoded and re-escaped (\\\" \\\\ \\b\n"
    "                       \\f \\n \\r \\t, other controls \\u00xx, the rest as is)\n"
    "  -t, --type           the type: null bool int uint double string array\n"
    "                       object\n"
    "  With no PATH, -r, -c and -t print the whole document on one line.\n"
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
    "  jdoc -c prices.json /total                  1e+22 for 10000000000000000000000\n"
    "  jdoc --validate config.json && echo valid\n"
    "  jdoc config.json                            pretty-print\n";

typedef struct qpath {
    const char *text;   /* as given, for messages and jdoc_explain */
    size_t len;
} qpath;

typedef enum { OUT_COMPACT, OUT_RAW, OUT_CANONICAL, OUT_TYPE } out_mode;

typedef struct ctx {
    out_mode mode;
    bool pointer, validate, ndjson;
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
    jdoc_status x = jdoc_explain(root, q->text, q->len, c->pointer ? JDOC_SYNTAX_POINTER : JDOC_SYNTAX_OJ, &e,
                                 where, sizeof where);
    if (x == JDOC_OK || x == JDOC_ERR_NOT_FOUND) {   /* explain found nothing wrong: keep what we know */
        e.code = st;
        e.message = jdoc_status_str(st);
    }
    char path[1024];
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
static size_t lines_per_doc(const ctx *c) { return c->np ? c->np : c->validate ? 0 : 1; }

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
    if (c->np == 0) {
        if (c->validate)
            return;
        const qpath rootpath = c->pointer ? (qpath){ "", 0 } : (qpath){ "/", 1 };
        walk_err we = { JDOC_OK, 0, NULL };
        if (c->ndjson || c->mode != OUT_COMPACT) {
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
    if (c->np > 1 && jdoc_typeof(root) == JDOC_OBJECT) {
        jdoc_fetch_many(root, (const jdoc_path *const *)c->compiled, c->np, c->vals, c->sts);
    } else {
        for (size_t i = 0; i < c->np; i++)
            c->sts[i] = jdoc_fetch_path(root, c->compiled[i], &c->vals[i]);
    }
    for (size_t i = 0; i < c->np; i++) {
        st = c->sts[i];
        if (st == JDOC_OK) {
            emit_value(c, c->vals[i], root, base, docno, &c->paths[i], false);
        } else if (st == JDOC_ERR_NOT_FOUND) {
            report_path(c, docno, &c->paths[i], "not found");
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
                case 'c': set_mode(c, OUT_CANONICAL, "-c"); break;
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
        c->paths[c->np++] = (qpath){ a->pos[i], strlen(a->pos[i]) };
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
                c->paths[c->np++] = (qpath){ s, len };
            }
            s = nl ? nl + 1 : end;
        }
    }
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
    for (size_t i = 0; i < c.np; i++)
        jdoc_path_free(c.compiled[i]);
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
