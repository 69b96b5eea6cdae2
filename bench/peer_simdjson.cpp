/* SPDX-License-Identifier: MIT */
/* simdjson peer for the benchmarks: On Demand iterate() and DOM parse over a
 * padded copy of the input, with parsers reused; C linkage (peer_simdjson.h). */
#include "peer_simdjson.h"

#include <new>
#include <simdjson.h>

#define PEER_STR2(x) #x
#define PEER_STR(x) PEER_STR2(x)
#ifndef PEER_CXXFLAGS_STR
#define PEER_CXXFLAGS_STR ""
#endif

struct peer_simdjson {
    simdjson::ondemand::parser od;
    simdjson::dom::parser dom;
    simdjson::padded_string input;
};

extern "C" {

int peer_simdjson_available(void) { return 1; }

const char *peer_simdjson_version(void) { return PEER_STR(SIMDJSON_VERSION); }

const char *peer_simdjson_impl(void)
{
    static std::string name = simdjson::get_active_implementation()->name();
    return name.c_str();
}

const char *peer_simdjson_impl_desc(void)
{
    static std::string d = simdjson::get_active_implementation()->description();
    return d.c_str();
}

const char *peer_simdjson_compiler(void) { return "g++ " __VERSION__ " " PEER_CXXFLAGS_STR; }

peer_simdjson *peer_simdjson_new(void) { return new (std::nothrow) peer_simdjson(); }

void peer_simdjson_free(peer_simdjson *p) { delete p; }

int peer_simdjson_set_input(peer_simdjson *p, const char *json, size_t len)
{
    try {
        p->input = simdjson::padded_string(json, len);
    } catch (...) {
        return -1;
    }
    return p->input.size() == len ? 0 : -1;
}

int64_t peer_simdjson_iterate(peer_simdjson *p)
{
    auto doc = p->od.iterate(p->input);
    if (doc.error())
        return -(int64_t)doc.error();
    auto t = doc.type();
    if (t.error())
        return -(int64_t)t.error();
    return (int64_t)t.value_unsafe();
}

int64_t peer_simdjson_dom(peer_simdjson *p)
{
    simdjson::dom::element root;
    auto err = p->dom.parse(p->input).get(root);
    if (err)
        return -(int64_t)err;
    return (int64_t)(unsigned char)root.type();
}

const char *peer_simdjson_error_message(int64_t rc)
{
    return rc < 0 ? simdjson::error_message((simdjson::error_code)(-rc)) : "ok";
}

} /* extern "C" */
