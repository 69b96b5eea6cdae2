/* SPDX-License-Identifier: MIT */
/* Stand-in for peer_simdjson.cpp when simdjson (header, library or g++) is
 * missing: everything reports "n/a" so the benchmark still builds and runs. */
#include "peer_simdjson.h"

int peer_simdjson_available(void) { return 0; }
const char *peer_simdjson_version(void) { return "n/a"; }
const char *peer_simdjson_impl(void) { return "n/a"; }
const char *peer_simdjson_impl_desc(void) { return "n/a"; }
const char *peer_simdjson_builtin(void) { return "n/a"; }
const char *peer_simdjson_compiler(void) { return "n/a"; }
int peer_simdjson_threads(void) { return 0; }
peer_simdjson *peer_simdjson_new(void) { return NULL; }
void peer_simdjson_free(peer_simdjson *p) { (void)p; }
int peer_simdjson_set_input(peer_simdjson *p, const char *json, size_t len)
{
    (void)p, (void)json, (void)len;
    return -1;
}
int64_t peer_simdjson_iterate(peer_simdjson *p)
{
    (void)p;
    return -1;
}
int64_t peer_simdjson_dom(peer_simdjson *p)
{
    (void)p;
    return -1;
}
const char *peer_simdjson_error_message(int64_t rc)
{
    (void)rc;
    return "simdjson not available";
}
int peer_simdjson_set_paths(peer_simdjson *p, size_t n, const char *const *ptrs, const size_t *lens,
                            const char *types)
{
    (void)p, (void)n, (void)ptrs, (void)lens, (void)types;
    return -1;
}
int64_t peer_simdjson_fetch(peer_simdjson *p, int mode, bench_rec *r)
{
    (void)p, (void)mode, (void)r;
    return -1;
}
int64_t peer_simdjson_hot(peer_simdjson *p, int mode, int shape, bench_rec *r)
{
    (void)p, (void)mode, (void)shape, (void)r;
    return -1;
}
int64_t peer_simdjson_stream(peer_simdjson *p, int mode, const char *field, bench_rec *r)
{
    (void)p, (void)mode, (void)field, (void)r;
    return -1;
}
