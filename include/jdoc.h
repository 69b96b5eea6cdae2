/* SPDX-License-Identifier: MIT */
/*
 * jdoc.h - pull values out of JSON by path, fast.
 *
 * Stage 1 (jdoc_parse) scans the whole input once with SIMD and builds a
 * structural index; stage 2 (jdoc_fetch and friends) answers path queries
 * lazily from that index: only the values you fetch are ever converted.
 *
 * Ownership, once:
 *   - A jdoc_parser is created by jdoc_parser_new and freed by jdoc_parser_free.
 *     It owns every buffer jdoc allocates and reuses them from parse to parse.
 *   - The input of jdoc_parse is read in place: never copied, never modified,
 *     never read past `len`, no padding required. It must outlive the document.
 *   - A jdoc_doc belongs to its parser and is valid until that parser's next
 *     jdoc_parse or its jdoc_parser_free. Values, iterators, cursors and
 *     decoded strings borrow from the document and die with it.
 *   - A jdoc_path is owned by the caller (jdoc_path_free); it is independent of
 *     any parser or document and may be shared by threads.
 *
 * Threads: one parser per thread. A parsed document may be read from several
 * threads at once through jdoc_fetch/jdoc_pointer/jdoc_fetch_path/
 * jdoc_fetch_many, iteration (jdoc_iter_key_raw), jdoc_dump and the typed
 * getters, whatever its keys (matching a key, escaped or not, writes nothing),
 * EXCEPT that:
 *   - decoding a string with escapes (jdoc_get_string, jdoc_iter_key on an
 *     escaped key, jdoc_path_of and jdoc_explain through an escaped key)
 *     writes into the parser's scratch buffer;
 *   - jdoc_fetch/jdoc_pointer with a long path (more than 64 steps, or an
 *     expression of more than 1 KiB) and jdoc_explain compile the path with
 *     the parser's allocator, which is then called from several threads at
 *     once: malloc is thread-safe, a custom allocator must be too (or compile
 *     long paths once with jdoc_path_compile and use jdoc_fetch_path, which
 *     never allocates);
 *   - cursors and jdoc_validate write to the parser or the cursor.
 * For those, give each thread its own parser (or cursor), or read only
 * escape-free strings from shared documents. No function keeps global mutable
 * state other than the CPU feature set, detected once.
 *
 * The library never prints, never aborts, and never calls exit.
 */
#ifndef JDOC_H
#define JDOC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define JDOC_VERSION_MAJOR 0
#define JDOC_VERSION_MINOR 1
#define JDOC_VERSION_PATCH 0
#define JDOC_VERSION_STRING "0.1.0"
/** Version as one number: major * 10000 + minor * 100 + patch. */
#define JDOC_VERSION (JDOC_VERSION_MAJOR * 10000 + JDOC_VERSION_MINOR * 100 + JDOC_VERSION_PATCH)

#if defined(_WIN32)
#define JDOC_API
#else
#define JDOC_API __attribute__((visibility("default")))
#endif

/** The version of the library actually linked, e.g. "0.1.0". */
JDOC_API const char *jdoc_version(void);

/* ------------------------------------------------------------------------ */
/* Status codes                                                             */
/* ------------------------------------------------------------------------ */

typedef enum jdoc_status {
    JDOC_OK = 0,
    JDOC_ERR_SYNTAX,      /**< not JSON: unterminated string, raw control character in a string,
                               unbalanced or mismatched brackets, no value, text after the root
                               value; at fetch/validate time also any other grammar error */
    JDOC_ERR_UTF8,        /**< invalid UTF-8 (overlong, surrogate, > U+10FFFF, truncated, stray byte) */
    JDOC_ERR_DEPTH,       /**< nesting deeper than jdoc_options.max_depth */
    JDOC_ERR_CAPACITY,    /**< document of 4 GiB or more (offsets are 32-bit) */
    JDOC_ERR_NOMEM,       /**< an allocation failed; the parser stays usable */
    JDOC_ERR_ARG,         /**< a NULL or otherwise invalid argument */
    JDOC_ERR_UNSUPPORTED, /**< forced kernel unknown, not compiled in, or not runnable on this CPU */
    JDOC_ERR_NOT_FOUND,   /**< the path leads nowhere (missing key, index out of range) */
    JDOC_ERR_TYPE,        /**< the value exists but has another type than asked */
    JDOC_ERR_RANGE,       /**< the number does not fit the asked type (or beyond double range) */
    JDOC_ERR_PATH,        /**< malformed path expression */
    JDOC_ERR_NUMBER,      /**< malformed number, e.g. `01`, `1.`, `.5`, `+1`, `1e` (found at fetch) */
    JDOC_ERR_STRING,      /**< bad escape or lone surrogate in a string (found at fetch) */
    JDOC_STATUS_COUNT
} jdoc_status;

/** A static, human-readable name for a status ("ok", "syntax error", ...). Never NULL. */
JDOC_API const char *jdoc_status_str(jdoc_status s);

/** The last error of a parser. `offset` is a byte offset in the input of the
 *  operation that failed; `message` is a static string; `path` (stage 2 only,
 *  else "") is the Oj-style path at which a fetch failed, e.g.
 *  "/Containers/17/Ports/1/PublicPort", held in the parser. */
typedef struct jdoc_error {
    jdoc_status code;
    size_t offset;
    const char *message;
    const char *path;
} jdoc_error;

/* ------------------------------------------------------------------------ */
/* Parser and stage 1                                                       */
/* ------------------------------------------------------------------------ */

typedef struct jdoc_parser jdoc_parser;
typedef struct jdoc_doc jdoc_doc;

/** Stage-1 kernels. AUTO picks the best one this CPU runs, unless the
 *  environment variable JDOC_KERNEL names one. */
typedef enum jdoc_kernel_id {
    JDOC_KERNEL_AUTO = 0,
    JDOC_KERNEL_SCALAR,       /**< byte-at-a-time reference, every CPU */
    JDOC_KERNEL_SSE42,        /**< x86_64: SSE4.2 + PCLMULQDQ */
    JDOC_KERNEL_AVX2,         /**< x86_64: AVX2 + BMI1/2 + PCLMULQDQ */
    JDOC_KERNEL_AVX512,       /**< x86_64: AVX-512 F/BW/VL + PCLMULQDQ, OS-enabled ZMM state */
    JDOC_KERNEL_NEON,         /**< arm64: NEON + PMULL */
    JDOC_KERNEL_NEON_NOPMULL, /**< arm64: NEON, prefix XOR by shifts (CPUs without the crypto extension) */
    JDOC_KERNEL_COUNT
} jdoc_kernel_id;

/** Caller-supplied allocator. All of jdoc's memory goes through it when set. */
typedef struct jdoc_allocator {
    void *(*malloc)(void *ud, size_t size);
    void *(*realloc)(void *ud, void *ptr, size_t size);
    void (*free)(void *ud, void *ptr);
    void *ud;
} jdoc_allocator;

#define JDOC_DEFAULT_MAX_DEPTH 1024u

typedef struct jdoc_options {
    jdoc_kernel_id kernel;            /**< 0 = AUTO */
    uint32_t max_depth;               /**< 0 = JDOC_DEFAULT_MAX_DEPTH; nesting deeper is JDOC_ERR_DEPTH */
    bool trust_utf8;                  /**< true: skip UTF-8 validation (trusted input only) */
    const jdoc_allocator *allocator;  /**< NULL = malloc/realloc/free; copied at creation */
} jdoc_options;

/** Create a parser. `opt` may be NULL (defaults). Returns NULL when out of
 *  memory, when the options are invalid, or when the forced kernel (option or
 *  JDOC_KERNEL) is unknown or unsupported here; jdoc_parser_new_ex says which. */
JDOC_API jdoc_parser *jdoc_parser_new(const jdoc_options *opt);
/** As jdoc_parser_new, but reports why it failed in *st (may be NULL). */
JDOC_API jdoc_parser *jdoc_parser_new_ex(const jdoc_options *opt, jdoc_status *st);
/** Free a parser, its buffers and its document. NULL is allowed. */
JDOC_API void jdoc_parser_free(jdoc_parser *p);

/** Stage 1: index `json[0..len)` and check it (see the status codes).
 *  On JDOC_OK, *doc is the parsed document (owned by `p`, valid until the next
 *  jdoc_parse on `p` or jdoc_parser_free). On error, *doc is NULL and
 *  jdoc_last_error(p) has the code, byte offset and message. A length of
 *  4 GiB or more is JDOC_ERR_CAPACITY before anything is read or allocated.
 *  Memory: the index takes 5 bytes per structural entry, in one block that
 *  is sized from the input (about 1.25 bytes per input byte) and grows while
 *  indexing only for denser documents. The rule: after a parse, a document up
 *  to 1.5 times as large (at the same density) allocates nothing, and a
 *  larger one allocates once (at most a few times when it is much denser). */
JDOC_API jdoc_status jdoc_parse(jdoc_parser *p, const char *json, size_t len, jdoc_doc **doc);

/** The last error recorded by `p` (code JDOC_OK if none). Valid until the next call on `p`. */
JDOC_API const jdoc_error *jdoc_last_error(const jdoc_parser *p);

/** Name of the kernel the parser uses: "scalar", "sse42", "avx2", "avx512", "neon", "neon_nopmull". */
JDOC_API const char *jdoc_kernel_name(const jdoc_parser *p);
/** Name of a kernel id (NULL for an invalid id). */
JDOC_API const char *jdoc_kernel_id_name(jdoc_kernel_id k);
/** Kernel id from its name; JDOC_KERNEL_COUNT if unknown. */
JDOC_API jdoc_kernel_id jdoc_kernel_from_name(const char *name);
/** Is kernel `k` compiled into this library? */
JDOC_API bool jdoc_kernel_compiled(jdoc_kernel_id k);
/** Is kernel `k` compiled in and runnable on this CPU? */
JDOC_API bool jdoc_kernel_supported(jdoc_kernel_id k);

/** The parser that owns `d`, the input and its length. */
JDOC_API jdoc_parser *jdoc_doc_parser(const jdoc_doc *d);
JDOC_API const char *jdoc_doc_input(const jdoc_doc *d, size_t *len);
/** Number of structural index entries (for statistics). */
JDOC_API size_t jdoc_doc_index_size(const jdoc_doc *d);

/* ------------------------------------------------------------------------ */
/* Stage 2: values                                                          */
/* ------------------------------------------------------------------------ */

/** A small handle to one value of a document, passed by value. It is valid
 *  as long as its document. A zero-initialized jdoc_value is "no value".
 *  Using a value after its parser parsed again is detected: every function
 *  then answers JDOC_ERR_ARG (or "no value"), never another document's data. */
typedef struct jdoc_value {
    const jdoc_doc *doc;
    uint32_t idx; /* index entry of the value's first byte */
    uint32_t gen; /* the parse it belongs to */
} jdoc_value;

typedef enum jdoc_type {
    JDOC_NULL,
    JDOC_BOOL,
    JDOC_INT,     /**< integer that fits int64 */
    JDOC_UINT,    /**< integer that fits only uint64 */
    JDOC_DOUBLE,  /**< any other number (fraction, exponent, or too big for 64 bits) */
    JDOC_STRING,
    JDOC_ARRAY,
    JDOC_OBJECT,
    JDOC_INVALID  /**< no value, or a scalar that is not JSON (e.g. `tru`, `01`) */
} jdoc_type;

/** Name of a type: "null", "bool", "int", "uint", "double", "string", "array", "object", "invalid". */
JDOC_API const char *jdoc_type_name(jdoc_type t);

/** The root value of a document. */
JDOC_API jdoc_value jdoc_root(const jdoc_doc *d);

/** Fetch by an Oj::Doc path from `from`: "/" is the document root, "/a/2/b"
 *  is absolute, "a/2" is relative to `from`, array indices are 1-based, ".."
 *  goes up one level (within the path; above `from` only through a cursor),
 *  "\/" is a '/' inside a key, "\\" a backslash. NUL-terminated.
 *  Errors: JDOC_ERR_NOT_FOUND, JDOC_ERR_PATH, JDOC_ERR_SYNTAX (malformed
 *  document met on the way), JDOC_ERR_STRING (undecodable key met), JDOC_ERR_ARG. */
JDOC_API jdoc_status jdoc_fetch(jdoc_value from, const char *path, jdoc_value *out);

/** Fetch by an RFC 6901 JSON Pointer evaluated from `from`: "" is `from`,
 *  "/Id" its member Id, indices 0-based without leading zeros, "~0" is '~',
 *  "~1" is '/', "-" is never found. */
JDOC_API jdoc_status jdoc_pointer(jdoc_value from, const char *ptr, size_t len, jdoc_value *out);

/** Type of a value; numbers are classified by parsing them (no allocation). */
JDOC_API jdoc_type jdoc_typeof(jdoc_value v);

/** Typed getters. Each returns JDOC_OK, or JDOC_ERR_TYPE when the value has
 *  another type (null is its own type: missing, null and wrong type are always
 *  distinguishable), JDOC_ERR_RANGE when it does not fit, JDOC_ERR_ARG for a
 *  NULL output or no value. On a token that is not JSON at all (`01`, `tru`,
 *  `.5`): the number getters say JDOC_ERR_NUMBER, the others JDOC_ERR_SYNTAX. */
JDOC_API jdoc_status jdoc_get_bool(jdoc_value v, bool *out);
JDOC_API jdoc_status jdoc_get_int64(jdoc_value v, int64_t *out);
JDOC_API jdoc_status jdoc_get_uint64(jdoc_value v, uint64_t *out);
/** Correctly rounded (nearest, ties to even) for every input; integers too. */
JDOC_API jdoc_status jdoc_get_double(jdoc_value v, double *out);
/** Decoded UTF-8 of a string. Without escapes, a pointer into the input;
 *  with escapes, decoded into the parser's scratch memory, valid until the next
 *  jdoc_parse on the parser (decoding many strings keeps them all valid).
 *  Not NUL-terminated; may contain NUL bytes (`\u0000`). JDOC_ERR_STRING for a
 *  bad escape or a lone surrogate, JDOC_ERR_NOMEM if scratch memory cannot grow. */
JDOC_API jdoc_status jdoc_get_string(jdoc_value v, const char **s, size_t *len);
/** The exact source text of any value (strings with their quotes). */
JDOC_API jdoc_status jdoc_get_raw(jdoc_value v, const char **s, size_t *len);
/** Elements of an array, members of an object, 0 for a scalar. */
JDOC_API size_t jdoc_count(jdoc_value v);
/** Is this a value (not the zero handle)? */
static inline bool jdoc_exists(jdoc_value v) { return v.doc != 0; }

/** Byte offset of the value's first byte in the input. */
JDOC_API size_t jdoc_offset(jdoc_value v);

/* ------------------------------------------------------------------------ */
/* Iteration                                                                */
/* ------------------------------------------------------------------------ */

/** Iterator over an array's elements or an object's member values; keep it on
 *  the stack. It allocates nothing. */
typedef struct jdoc_iter {
    const jdoc_doc *doc;
    uint32_t pos;    /* index entry of the next element (or of the closing bracket) */
    uint32_t key;    /* index entry of the current member's key (objects) */
    uint32_t end;    /* index entry of the closing bracket */
    uint32_t n;      /* elements returned so far */
    uint32_t gen;    /* the parse it belongs to */
    bool object;
    jdoc_status status; /* JDOC_OK, or the syntax error that stopped iteration */
} jdoc_iter;

/** Start iterating `container`: JDOC_ERR_TYPE for a scalar. */
JDOC_API jdoc_status jdoc_iter_init(jdoc_value container, jdoc_iter *it);
/** Next element or member value into *val; false at the end (or on a malformed
 *  container: it->status then says why). */
JDOC_API bool jdoc_iter_next(jdoc_iter *it, jdoc_value *val);
/** Current member's decoded key (objects only; JDOC_ERR_TYPE for arrays). */
JDOC_API jdoc_status jdoc_iter_key(const jdoc_iter *it, const char **key, size_t *len);
/** Current member's key as written in the source, with its quotes (no decoding,
 *  no write to the parser: safe on shared documents). */
JDOC_API jdoc_status jdoc_iter_key_raw(const jdoc_iter *it, const char **key, size_t *len);

/* ------------------------------------------------------------------------ */
/* Compiled paths                                                           */
/* ------------------------------------------------------------------------ */

typedef struct jdoc_path jdoc_path;
typedef enum jdoc_syntax { JDOC_SYNTAX_OJ = 0, JDOC_SYNTAX_POINTER = 1 } jdoc_syntax;

/** Compile a path once for repeated use. Returns NULL and sets *st (may be
 *  NULL) to JDOC_ERR_PATH or JDOC_ERR_NOMEM. Uses malloc; free with jdoc_path_free. */
JDOC_API jdoc_path *jdoc_path_compile(const char *expr, size_t len, jdoc_syntax syntax, jdoc_status *st);
/** As jdoc_path_compile, with an allocator (NULL = malloc). */
JDOC_API jdoc_path *jdoc_path_compile_ex(const char *expr, size_t len, jdoc_syntax syntax,
                                         const jdoc_allocator *a, jdoc_status *st);
JDOC_API void jdoc_path_free(jdoc_path *p);
JDOC_API jdoc_status jdoc_fetch_path(jdoc_value from, const jdoc_path *p, jdoc_value *out);
/** Fetch n compiled paths from one value in one pass over its members
 *  (absolute paths too when `from` is the root).
 *  out[i] and each[i] (each may be NULL) get every path's value and status;
 *  returns JDOC_OK when all were found, else the first non-OK status. */
JDOC_API jdoc_status jdoc_fetch_many(jdoc_value from, const jdoc_path *const *paths, size_t n,
                                     jdoc_value *out, jdoc_status *each);

/** A compiled set of paths for a hot loop: the fields read from every element
 *  of a list. Compiled once (the expressions are copied; the set owns its
 *  memory, from malloc), then jdoc_pathset_fetch from each element visits its
 *  members once for all paths. Free with jdoc_pathset_free. Returns NULL and
 *  sets *st (may be NULL) to JDOC_ERR_PATH (with *bad, may be NULL, the index
 *  of the bad expression), JDOC_ERR_NOMEM or JDOC_ERR_ARG. */
typedef struct jdoc_pathset jdoc_pathset;
JDOC_API jdoc_pathset *jdoc_pathset_compile(const char *const *exprs, size_t n, jdoc_syntax syntax,
                                            jdoc_status *st, size_t *bad);
/** A set over paths the caller compiled (jdoc_path_compile) and keeps: the set
 *  refers to them, so they must outlive it, and jdoc_pathset_free leaves them
 *  alone. Returns NULL and sets *st (may be NULL) to JDOC_ERR_ARG (a NULL
 *  path) or JDOC_ERR_NOMEM. */
JDOC_API jdoc_pathset *jdoc_pathset_of(const jdoc_path *const *paths, size_t n, jdoc_status *st);
JDOC_API void jdoc_pathset_free(jdoc_pathset *set);
JDOC_API size_t jdoc_pathset_size(const jdoc_pathset *set);
/** out[i] and each[i] (each may be NULL) get path i's value and status;
 *  returns the number of paths found. Allocates nothing. */
JDOC_API size_t jdoc_pathset_fetch(jdoc_value from, const jdoc_pathset *set, jdoc_value *out, jdoc_status *each);

/** Full RFC 8259 check of everything stage 1 left to stage 2 (grammar, number
 *  syntax, escapes, literals, and UTF-8 if it was trusted at parse): JDOC_OK or
 *  the first error, with its offset in jdoc_last_error. */
JDOC_API jdoc_status jdoc_validate(const jdoc_doc *d);


/* ------------------------------------------------------------------------ */
/* JSONPath (RFC 9535)                                                      */
/* ------------------------------------------------------------------------ */

/** A compiled JSONPath query: all of RFC 9535 (names, wildcards, indices,
 *  slices, descendants, filters with comparisons, &&, ||, !, existence tests,
 *  and the functions length, count, match, search, value with I-Regexp
 *  patterns, RFC 9485). Independent of any parser or document; read-only once
 *  compiled, so it may be shared by threads. See docs/jsonpath.md. */
typedef struct jdoc_query jdoc_query;

/** Compile `expr[0..len)` (UTF-8, starting with '$'). Returns NULL on error
 *  and fills *err (may be NULL): code JDOC_ERR_PATH with `offset`, the byte
 *  offset in the query where it goes wrong, and a static `message`; or
 *  JDOC_ERR_NOMEM. `a` NULL = malloc. Free with jdoc_query_free. Filters,
 *  parentheses and function calls nest at most 64 deep. */
JDOC_API jdoc_query *jdoc_query_compile(const char *expr, size_t len, const jdoc_allocator *a, jdoc_error *err);
JDOC_API void jdoc_query_free(jdoc_query *q);
/** Does the query select at most one node (only names and indices)? */
JDOC_API bool jdoc_query_is_singular(const jdoc_query *q);

/** Evaluation of a query over one value: each node of the result in
 *  nodelist order, one at a time. The value `from` is the query argument:
 *  `$` (in the query and in normalized paths) is `from`. Allocated with the
 *  parser's allocator; its memory (frames, slice positions, matcher state)
 *  is kept across jdoc_query_iter_reset, so after warm-up nothing is
 *  allocated per node (nor per run), except for match()/search() with a
 *  pattern that is not a literal. Valid as long as the document and the
 *  query; not shared between threads. */
typedef struct jdoc_query_iter jdoc_query_iter;

/** Start evaluating q from `from`. NULL (and *st, may be NULL) on
 *  JDOC_ERR_ARG or JDOC_ERR_NOMEM. */
JDOC_API jdoc_query_iter *jdoc_query_iter_new(const jdoc_query *q, jdoc_value from, jdoc_status *st);
/** Start again from `from` (any document of the same parser's allocator). */
JDOC_API jdoc_status jdoc_query_iter_reset(jdoc_query_iter *it, jdoc_value from);
/** The next node into *out (may be NULL); false at the end or on an error
 *  (jdoc_query_iter_status then says which: JDOC_ERR_SYNTAX for a malformed
 *  document met on the way, JDOC_ERR_NOMEM, JDOC_ERR_ARG for a stale document). */
JDOC_API bool jdoc_query_iter_next(jdoc_query_iter *it, jdoc_value *out);
JDOC_API jdoc_status jdoc_query_iter_status(const jdoc_query_iter *it);
/** The normalized path (RFC 9535 2.7) of the node last returned, e.g.
 *  `$[3]['Names'][0]`, like snprintf: NUL-terminated when cap > 0, returns
 *  the full length ("" and 0 when there is no current node). */
JDOC_API size_t jdoc_query_iter_path(const jdoc_query_iter *it, char *buf, size_t cap);
JDOC_API void jdoc_query_iter_free(jdoc_query_iter *it);

/** Callback for jdoc_query_each: `it` gives the node's normalized path on
 *  request (jdoc_query_iter_path). Return nonzero to stop. */
typedef int (*jdoc_query_fn)(const jdoc_query_iter *it, jdoc_value v, void *ud);
/** Call fn on each node of q evaluated from `from`, in order. Returns JDOC_OK
 *  or the error that stopped the evaluation. */
JDOC_API jdoc_status jdoc_query_each(const jdoc_query *q, jdoc_value from, jdoc_query_fn fn, void *ud);

/* ------------------------------------------------------------------------ */
/* Diagnostics                                                              */
/* ------------------------------------------------------------------------ */

/** The path of value `v` from its document's root, in `syntax` (Oj: 1-based,
 *  "/" for the root; pointer: 0-based, "" for the root), written to buf
 *  (NUL-terminated when cap > 0, truncated to fit). Returns the full length.
 *  Costs a walk from the root. */
JDOC_API size_t jdoc_path_of(jdoc_value v, jdoc_syntax syntax, char *buf, size_t cap);

/** Explain a fetch: walk `path` (in `syntax`) from `from` as jdoc_fetch does,
 *  and when it lands on a scalar, check that scalar in full. Returns the same
 *  status as the fetch (or the scalar's JDOC_ERR_NUMBER / JDOC_ERR_STRING /
 *  JDOC_ERR_SYNTAX), fills *err (may be NULL) with the byte offset where the
 *  walk stopped or the error is, and writes to `where` the path of the last
 *  value reached (in `syntax`). For error messages; not for hot loops. */
JDOC_API jdoc_status jdoc_explain(jdoc_value from, const char *path, size_t len, jdoc_syntax syntax,
                                  jdoc_error *err, char *where, size_t cap);

/** A value as compact JSON: the source text without the whitespace outside
 *  strings (strings, numbers and literals as in the source). Like snprintf:
 *  writes at most cap - 1 bytes and a NUL (nothing when cap is 0) and returns
 *  the full length, so a buffer of (return value + 1) bytes holds it all.
 *  Iterative. */
JDOC_API size_t jdoc_dump(jdoc_value v, char *buf, size_t cap);

/* ------------------------------------------------------------------------ */
/* The Oj::Doc cursor                                                       */
/* ------------------------------------------------------------------------ */

/** A position in a document with the path that led there, as Ruby's Oj::Doc
 *  keeps one: home, move, where, local_key, relative fetch with "..", and
 *  iteration over children and leaves. Created with the parser's allocator,
 *  valid as long as its document; free with jdoc_cursor_free. */
typedef struct jdoc_cursor jdoc_cursor;

/** A cursor at the root of d; NULL when out of memory or d is not current. */
JDOC_API jdoc_cursor *jdoc_cursor_new(const jdoc_doc *d);
JDOC_API void jdoc_cursor_free(jdoc_cursor *c);
/** Back to the root (Oj::Doc#home). */
JDOC_API void jdoc_cursor_home(jdoc_cursor *c);
/** The value at the cursor. */
JDOC_API jdoc_value jdoc_cursor_value(const jdoc_cursor *c);
/** Depth of the cursor: 0 at the root. */
JDOC_API size_t jdoc_cursor_depth(const jdoc_cursor *c);
/** Move along an Oj path, relative to the cursor or absolute, ".." allowed
 *  (Oj::Doc#move). On error the cursor does not move. */
JDOC_API jdoc_status jdoc_cursor_move(jdoc_cursor *c, const char *path);
/** Fetch along an Oj path from the cursor without moving it; ".." climbs
 *  the cursor's own path (Oj::Doc#fetch). NULL or "" is the cursor's value.
 *  The position does not change, but the walk runs in the cursor's scratch
 *  frames: a cursor is not shared by threads, even for fetches. */
JDOC_API jdoc_status jdoc_cursor_fetch(jdoc_cursor *c, const char *path, jdoc_value *out);
/** The cursor's path, Oj syntax (Oj::Doc#where): "/" at the root, else
 *  "/Containers/2/Names/1"; a '/' in a key is written "\/". NUL-terminated
 *  when cap > 0; returns the full length. */
JDOC_API size_t jdoc_cursor_where(const jdoc_cursor *c, char *buf, size_t cap);
/** The key of the cursor's value in its object (*key, *len, decoded), or its
 *  1-based index in its array (*index; *key = NULL). JDOC_ERR_NOT_FOUND at the
 *  root (Oj::Doc#local_key). */
JDOC_API jdoc_status jdoc_cursor_local_key(const jdoc_cursor *c, const char **key, size_t *len, uint64_t *index);
/** Down to the first child (JDOC_ERR_NOT_FOUND when empty or a scalar), to the
 *  next sibling (JDOC_ERR_NOT_FOUND after the last), or up one level. */
JDOC_API jdoc_status jdoc_cursor_first_child(jdoc_cursor *c);
JDOC_API jdoc_status jdoc_cursor_next_sibling(jdoc_cursor *c);
JDOC_API jdoc_status jdoc_cursor_up(jdoc_cursor *c);

/** Callback for the each_* walks; the cursor is at the visited value. Return
 *  nonzero to stop the walk. Must not move the cursor (or must restore it). */
typedef int (*jdoc_visit_fn)(jdoc_cursor *c, void *ud);
/** Visit every child of the cursor's value, in document order (Oj::Doc#each_child). */
JDOC_API jdoc_status jdoc_cursor_each_child(jdoc_cursor *c, jdoc_visit_fn fn, void *ud);
/** Visit every leaf (every scalar: empty containers are not leaves, as in
 *  Oj::Doc) at or below the cursor's value, depth first, without recursion
 *  (Oj::Doc#each_leaf). The cursor returns to where it was. */
JDOC_API jdoc_status jdoc_cursor_each_leaf(jdoc_cursor *c, jdoc_visit_fn fn, void *ud);

/* ------------------------------------------------------------------------ */
/* Document streams (NDJSON, concatenated JSON)                             */
/* ------------------------------------------------------------------------ */

/** Start reading documents separated by whitespace (or not separated at all,
 *  like `{...}{...}`) from buf[0..len), in place (the buffer must outlive the
 *  stream), indexed a window of 256 KiB at a time as the documents are read:
 *  the index holds the document in progress and one window, not the buffer.
 *  Ends any previous document or stream of the parser. */
JDOC_API jdoc_status jdoc_stream_begin(jdoc_parser *p, const char *buf, size_t len);
/** The next document: returns false at the end of the buffer. Otherwise *st
 *  is JDOC_OK and *doc the document (valid until the next call on p), or an
 *  error for a damaged document: jdoc_last_error(p) then has the message and
 *  its byte offset in buf, *doc is NULL, and the next call goes on after it
 *  (after the end of its line when the damage leaves no better place). */
JDOC_API bool jdoc_stream_next(jdoc_parser *p, jdoc_doc **doc, jdoc_status *st);
/** Number of documents returned so far, damaged ones included (so the
 *  1-based number of the last one). */
JDOC_API size_t jdoc_stream_count(const jdoc_parser *p);
/** Byte offset in the stream of the last document returned (for a fed
 *  stream: bytes since jdoc_feed_begin). */
JDOC_API size_t jdoc_stream_offset(const jdoc_parser *p);
/** 1-based line of the stream (newlines before it, plus one) on which the
 *  last document returned starts; 0 before the first. Counted on demand, and
 *  for a fed stream as each piece is let go. */
JDOC_API size_t jdoc_stream_line(const jdoc_parser *p);

/*
 * Damaged documents, in jdoc_stream_next and jdoc_feed_next alike: besides
 * what jdoc_parse checks (UTF-8, strings, brackets, depth, a scalar root in
 * full), each entry of a container document must be able to follow the one
 * before it (a value after a value, a comma before a closing bracket, a key
 * that is not a string are damage); what only the context shows (a string
 * followed by ':' in an array, a key without its value) and the scalars
 * themselves are left to fetch time, as for jdoc_parse. A damaged document is returned once, with *st its
 * error and jdoc_last_error(p) the message and the stream offset where it is
 * (jdoc_stream_count: its number, jdoc_stream_line, jdoc_stream_offset: its
 * start); reading goes on at the line after the error's. When the damage
 * shows only past the end of the line the document starts on (a line cut
 * short, brackets that never close, a missing comma between documents), the
 * document is that line: the error is JDOC_ERR_SYNTAX "document not closed at
 * the end of its line" at its newline, and reading goes on at the next line.
 */

/* ------------------------------------------------------------------------ */
/* Live input: a stream fed in pieces                                       */
/* ------------------------------------------------------------------------ */

/** Start a stream whose bytes are handed over in pieces as they arrive (from
 *  read(2), a socket, an HTTP client's write callback): NDJSON or
 *  concatenated documents, as jdoc_stream_begin reads them. Ends any previous
 *  document or stream of the parser. The parser keeps a copy of only what it
 *  must (the document in progress at the end of a piece and at most 63 bytes
 *  not yet indexed): its memory is bounded by the longest document plus a
 *  256 KiB window, whatever the stream's length.
 *
 *      jdoc_feed_begin(p);
 *      while ((n = read(fd, buf, sizeof buf)) > 0) {
 *          jdoc_feed(p, buf, n);
 *          while (jdoc_feed_next(p, &doc, &st))
 *              use(doc, st);          // doc is NULL when st != JDOC_OK
 *      }
 *      jdoc_feed_close(p);
 *      while (jdoc_feed_next(p, &doc, &st))
 *          use(doc, st);
 */
JDOC_API jdoc_status jdoc_feed_begin(jdoc_parser *p);
/** Hand over the next `len` bytes of the stream. The piece is read in place:
 *  it must stay valid and unchanged until jdoc_feed_next returns false (or
 *  the next jdoc_feed, which then copies what is still needed of it). A
 *  document that lies whole in one piece is returned pointing into it; one
 *  spanning pieces is assembled in the parser. JDOC_ERR_ARG without a feed
 *  in progress or after jdoc_feed_close; JDOC_ERR_CAPACITY for 4 GiB or more. */
JDOC_API jdoc_status jdoc_feed(jdoc_parser *p, const char *chunk, size_t len);
/** The next document whose last byte has arrived, as jdoc_stream_next: true
 *  with *st JDOC_OK and *doc (valid until the next call on p), or an error
 *  for a damaged document (*doc NULL). False when everything fed has been
 *  read: feed more, or after jdoc_feed_close, the stream is over. Values'
 *  offsets (jdoc_offset) are relative to jdoc_doc_input(doc). */
JDOC_API bool jdoc_feed_next(jdoc_parser *p, jdoc_doc **doc, jdoc_status *st);
/** The input ends: the last document is whole or damaged without waiting for more. */
JDOC_API jdoc_status jdoc_feed_close(jdoc_parser *p);
/** Bytes the parser holds in its own memory for a fed stream (the document
 *  in progress and the bytes not yet indexed). */
JDOC_API size_t jdoc_feed_buffered(const jdoc_parser *p);

/* ------------------------------------------------------------------------ */
/* Live input: one document indexed while it arrives                        */
/* ------------------------------------------------------------------------ */

/** Start one document that arrives in pieces into a buffer of the caller's:
 *  jdoc_parse_more(p, buf, len) each time it grew, where buf[0..len) is
 *  everything received so far (buf may move between calls, e.g. by realloc;
 *  bytes passed before must not change), then jdoc_parse_end(p, buf, len,
 *  &doc) when it is complete. Each call indexes what is new (in blocks of 64
 *  bytes), so the parse is done soon after the last byte. The result, the
 *  index and every error (code, offset, message) are those of jdoc_parse on
 *  the whole buffer, which must then outlive the document. Ends any previous
 *  document or stream of the parser; jdoc_parse ends this one. */
JDOC_API jdoc_status jdoc_parse_begin(jdoc_parser *p);
/** JDOC_OK, or an error that is already certain (invalid UTF-8, a control
 *  character in a string: the same as jdoc_parse will say), which
 *  jdoc_parse_end repeats. JDOC_ERR_ARG without jdoc_parse_begin or when len
 *  is less than before. */
JDOC_API jdoc_status jdoc_parse_more(jdoc_parser *p, const char *buf, size_t len);
/** The document: as jdoc_parse(p, buf, len, doc). Ends the parse either way. */
JDOC_API jdoc_status jdoc_parse_end(jdoc_parser *p, const char *buf, size_t len, jdoc_doc **doc);

#ifdef __cplusplus
}
#endif
#endif /* JDOC_H */
