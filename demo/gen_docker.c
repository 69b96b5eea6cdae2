/* SPDX-License-Identifier: MIT */
/* gen_docker: deterministic, realistic Docker Engine API responses (container
 * lists, `docker inspect` output, event streams) for the demo and the tests.
 * Same arguments, same bytes, on every machine: a fixed-seed PRNG, integers only. */
#include <inttypes.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char usage[] =
    "usage: gen_docker [--seed N] MODE\n"
    "  list N            GET /containers/json?all=1 with N containers (compact, as the daemon sends it)\n"
    "  inspect           `docker inspect` of one container (a one-element array, 4-space indentation)\n"
    "  inspect-array N   `docker inspect` of N containers\n"
    "  events N          N lines of GET /events (NDJSON)\n";

/* ---- PRNG: splitmix64 ---- */

static uint64_t rng_state = 1;

static uint64_t rnd(void)
{
    uint64_t z = (rng_state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

static uint32_t below(uint32_t n) { return (uint32_t)(rnd() % n); }
static bool chance(uint32_t percent) { return below(100) < percent; }

/* Hex digits from a private generator seeded by `seed`, so a given name
 * (image, project) always gets the same digest whatever was drawn before. */
static void hex_seeded(char *out, int n, uint64_t seed)
{
    static const char digits[] = "0123456789abcdef";
    uint64_t saved = rng_state;
    rng_state = seed;
    for (int i = 0; i < n; i++)
        out[i] = digits[rnd() & 15];
    out[n] = 0;
    rng_state = saved;
}

static void hex_random(char *out, int n) { hex_seeded(out, n, rnd()); }

static uint64_t hash(const char *s)
{
    uint64_t h = 0xcbf29ce484222325ull;
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 0x100000001b3ull;
    return h;
}

/* ---- JSON writer: encoding/json's output (HTML-safe escaping, MarshalIndent) ---- */

typedef struct writer {
    int indent;        /* 0: compact */
    int depth;
    bool first[64];    /* no member written yet at this depth */
    bool after_key;
} writer;

static writer W;

static void newline_indent(void)
{
    putchar('\n');
    for (int i = 0; i < W.depth * W.indent; i++)
        putchar(' ');
}

static void sep(void)
{
    if (W.after_key) {
        W.after_key = false;
        return;
    }
    if (W.depth == 0)
        return;
    if (!W.first[W.depth])
        putchar(',');
    W.first[W.depth] = false;
    if (W.indent)
        newline_indent();
}

static void quoted(const char *s)
{
    putchar('"');
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\')
            printf("\\%c", c);
        else if (c == '\n')
            fputs("\\n", stdout);
        else if (c == '\r')
            fputs("\\r", stdout);
        else if (c == '\t')
            fputs("\\t", stdout);
        else if (c < 0x20 || c == '<' || c == '>' || c == '&')
            printf("\\u%04x", c);
        else
            putchar(c);
    }
    putchar('"');
}

static void open_(char c)
{
    sep();
    putchar(c);
    W.first[++W.depth] = true;
}

static void close_(char c)
{
    bool empty = W.first[W.depth];
    W.depth--;
    if (!empty && W.indent)
        newline_indent();
    putchar(c);
}

#define OBJ() open_('{')
#define END() close_('}')
#define ARR() open_('[')
#define AEND() close_(']')

static void key(const char *k)
{
    sep();
    quoted(k);
    fputs(W.indent ? ": " : ":", stdout);
    W.after_key = true;
}

static void str(const char *s) { sep(); quoted(s); }
/* A string whose JSON escaping is written out already (\u00e9, \ud83d\udc33). */
static void str_escaped(const char *s) { sep(); printf("\"%s\"", s); }
static void num(int64_t v) { sep(); printf("%" PRId64, v); }
static void boolean(bool b) { sep(); fputs(b ? "true" : "false", stdout); }
static void null_(void) { sep(); fputs("null", stdout); }

static void kstr(const char *k, const char *v) { key(k); str(v); }
static void knum(const char *k, int64_t v) { key(k); num(v); }
static void kbool(const char *k, bool v) { key(k); boolean(v); }
static void knull(const char *k) { key(k); null_(); }
static void kemptyobj(const char *k) { key(k); OBJ(); END(); }

static void kstrf(const char *k, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void kstrf(const char *k, const char *fmt, ...)
{
    char buf[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    kstr(k, buf);
}

/* ---- the world: compose projects, services, images ---- */

typedef struct port { int priv, pub; const char *type; } port;      /* pub 0: not published */
typedef struct mount { const char *type, *name, *src, *dst, *mode; bool rw; } mount;  /* name: volume suffix */
typedef struct label { const char *k, *v; bool escaped; } label;

typedef struct image {
    const char *ref;
    const char *path;          /* entrypoint / Path */
    const char *args;          /* rest of the command line */
    const char *user, *workdir;
    const label labels[6];
    const char *env[8];
    bool healthcheck;
} image;

static const image images[] = {
    /* 0 */ { "nginx:1.25-alpine", "/docker-entrypoint.sh", "nginx -g 'daemon off;'", "", "",
              { { "maintainer", "NGINX Docker Maintainers <docker-maint@nginx.com>", false } },
              { "NGINX_VERSION=1.25.3", "NJS_VERSION=0.8.2", "PKG_RELEASE=1" }, false },
    /* 1 */ { "registry.example.com/shop/api:1.8.3", "sh", "-c \"exec gunicorn -b 0.0.0.0:8000 --workers 4 shop.wsgi\"",
              "app", "/srv/app",
              { { "org.opencontainers.image.created", "2024-01-10T08:31:12Z", false },
                { "org.opencontainers.image.source", "https://git.example.com/shop/api?ref=main&rev=4f1c2a9", false },
                { "org.opencontainers.image.title", "shop-api", false },
                { "org.opencontainers.image.version", "1.8.3", false } },
              { "PYTHONUNBUFFERED=1", "LANG=C.UTF-8", "GPG_KEY=A035C8C19219BA821ECEA86B64E628F8D684696D",
                "PYTHON_VERSION=3.12.1", "DJANGO_SETTINGS_MODULE=shop.settings.production" }, true },
    /* 2 */ { "registry.example.com/shop/api:1.8.3", "celery", "-A shop worker --loglevel=info --concurrency=8",
              "app", "/srv/app",
              { { "org.opencontainers.image.created", "2024-01-10T08:31:12Z", false },
                { "org.opencontainers.image.source", "https://git.example.com/shop/api?ref=main&rev=4f1c2a9", false },
                { "org.opencontainers.image.title", "shop-api", false },
                { "org.opencontainers.image.version", "1.8.3", false } },
              { "PYTHONUNBUFFERED=1", "LANG=C.UTF-8", "PYTHON_VERSION=3.12.1", "C_FORCE_ROOT=false" }, false },
    /* 3 */ { "postgres:16.1", "docker-entrypoint.sh", "postgres", "", "",
              { { 0 } },
              { "GOSU_VERSION=1.16", "LANG=en_US.utf8", "PG_MAJOR=16", "PG_VERSION=16.1-1.pgdg120+1",
                "PGDATA=/var/lib/postgresql/data" }, true },
    /* 4 */ { "redis:7.2-alpine", "docker-entrypoint.sh", "redis-server --appendonly yes", "", "/data",
              { { 0 } },
              { "REDIS_VERSION=7.2.3", "REDIS_DOWNLOAD_URL=http://download.redis.io/releases/redis-7.2.3.tar.gz" }, false },
    /* 5 */ { "prom/prometheus:v2.48.1", "/bin/prometheus",
              "--config.file=/etc/prometheus/prometheus.yml --storage.tsdb.path=/prometheus --web.enable-lifecycle",
              "nobody", "/prometheus",
              { { "maintainer", "The Prometheus Authors <prometheus-developers@googlegroups.com>", false },
                { "org.opencontainers.image.source", "https://github.com/prometheus/prometheus", false } },
              { 0 }, false },
    /* 6 */ { "grafana/grafana:10.2.3", "/run.sh", "", "472", "/usr/share/grafana",
              { { "maintainer", "Grafana Labs <hello@grafana.com>", false } },
              { "GF_PATHS_CONFIG=/etc/grafana/grafana.ini", "GF_PATHS_DATA=/var/lib/grafana",
                "GF_PATHS_HOME=/usr/share/grafana", "GF_PATHS_LOGS=/var/log/grafana",
                "GF_PATHS_PLUGINS=/var/lib/grafana/plugins", "GF_PATHS_PROVISIONING=/etc/grafana/provisioning" }, true },
    /* 7 */ { "prom/node-exporter:v1.7.0", "/bin/node_exporter", "--path.rootfs=/host", "nobody", "",
              { { "maintainer", "The Prometheus Authors <prometheus-developers@googlegroups.com>", false } },
              { 0 }, false },
    /* 8 */ { "gcr.io/cadvisor/cadvisor:v0.47.2", "/usr/bin/cadvisor", "-logtostderr", "", "",
              { { 0 } }, { "CADVISOR_HEALTHCHECK_URL=http://localhost:8080/healthz" }, true },
    /* 9 */ { "wordpress:6.4-apache", "docker-entrypoint.sh", "apache2-foreground", "", "/var/www/html",
              { { 0 } },
              { "PHPIZE_DEPS=autoconf dpkg-dev file g++ gcc libc-dev make pkg-config re2c", "PHP_INI_DIR=/usr/local/etc/php",
                "APACHE_CONFDIR=/etc/apache2", "PHP_VERSION=8.2.14", "WORDPRESS_DB_HOST=mariadb" }, false },
    /* 10 */ { "mariadb:11.2", "docker-entrypoint.sh", "mariadbd", "", "",
               { { "org.opencontainers.image.authors", "MariaDB Community", false },
                 { "org.opencontainers.image.licenses", "GPL-2.0", false },
                 { "org.opencontainers.image.title", "MariaDB Database", false },
                 { "org.opencontainers.image.version", "11.2.2", false } },
               { "GOSU_VERSION=1.17", "LANG=C.UTF-8", "MARIADB_VERSION=1:11.2.2+maria~ubu2204" }, true },
    /* 11 */ { "jellyfin/jellyfin:10.8.13", "/jellyfin/jellyfin", "--datadir /config --cachedir /cache --ffmpeg /usr/lib/jellyfin-ffmpeg/ffmpeg",
               "", "",
               { { "org.opencontainers.image.description", "The Free Software Media System \\ud83c\\udfac", true },
                 { "org.opencontainers.image.authors", "Ren\\u00e9 Lef\\u00e8vre \\u003crene@example.org\\u003e", true } },
               { "HEALTHCHECK_URL=http://localhost:8096/health", "DEBIAN_FRONTEND=noninteractive",
                 "LC_ALL=en_US.UTF-8", "JELLYFIN_DATA_DIR=/config", "JELLYFIN_CACHE_DIR=/cache" }, true },
    /* 12 */ { "traefik:v2.10", "/entrypoint.sh", "--providers.docker=true --providers.docker.exposedbydefault=false --entrypoints.web.address=:80 --entrypoints.websecure.address=:443",
               "", "",
               { { "org.opencontainers.image.description", "A modern reverse-proxy", false },
                 { "org.opencontainers.image.title", "Traefik", false },
                 { "org.opencontainers.image.url", "https://traefik.io", false },
                 { "org.opencontainers.image.vendor", "Traefik Labs", false },
                 { "org.opencontainers.image.version", "v2.10.7", false } },
               { 0 }, false },
    /* standalone */
    /* 13 */ { "alpine:3.19", "/bin/sh", "", "", "", { { 0 } }, { 0 }, false },
    /* 14 */ { "busybox:1.36", "sleep", "3600", "", "", { { 0 } }, { 0 }, false },
    /* 15 */ { "ubuntu:22.04", "bash", "", "", "",
               { { "org.opencontainers.image.ref.name", "ubuntu", false },
                 { "org.opencontainers.image.version", "22.04", false } }, { 0 }, false },
    /* 16 */ { "registry:2", "/entrypoint.sh", "/etc/docker/registry/config.yml", "", "", { { 0 } },
               { "OTEL_TRACES_EXPORTER=none" }, false },
    /* 17 */ { "portainer/portainer-ce:2.19.4", "/portainer", "", "", "/",
               { { "com.docker.desktop.extension.api.version", ">= 0.2.2", false },
                 { "org.opencontainers.image.title", "Portainer", false },
                 { "org.opencontainers.image.vendor", "Portainer.io", false } },
               { 0 }, false },
};

typedef struct service {
    const char *name;
    int image;
    port ports[3];
    mount mounts[3];
    const char *depends_on;
} service;

typedef struct project {
    const char *name;
    const char *compose_version;   /* 1.x: underscores in names, fewer labels */
    const label extra[3];
    service svc[6];
} project;

static const project projects[] = {
    { "shop", "2.24.5", { { 0 } },
      { { "web", 0, { { 80, 8080, "tcp" }, { 443, 8443, "tcp" } },
          { { "bind", NULL, "/srv/shop/nginx/conf.d", "/etc/nginx/conf.d", "ro", false } }, "api:service_started:false" },
        { "api", 1, { { 8000, 0, "tcp" } }, { { 0 } }, "db:service_healthy:false,cache:service_started:false" },
        { "worker", 2, { { 0 } }, { { 0 } }, "db:service_healthy:false,cache:service_started:false" },
        { "db", 3, { { 5432, 0, "tcp" } }, { { "volume", "pgdata", NULL, "/var/lib/postgresql/data", "z", true } }, "" },
        { "cache", 4, { { 6379, 0, "tcp" } }, { { "volume", "redis", NULL, "/data", "z", true } }, "" } } },
    { "monitoring", "2.20.2", { { 0 } },
      { { "prometheus", 5, { { 9090, 9090, "tcp" } },
          { { "bind", NULL, "/srv/monitoring/prometheus.yml", "/etc/prometheus/prometheus.yml", "ro", false },
            { "volume", "prometheus", NULL, "/prometheus", "z", true } }, "" },
        { "grafana", 6, { { 3000, 3000, "tcp" } }, { { "volume", "grafana", NULL, "/var/lib/grafana", "z", true } },
          "prometheus:service_started:false" },
        { "node-exporter", 7, { { 9100, 0, "tcp" } }, { { "bind", NULL, "/", "/host", "ro", false } }, "" },
        { "cadvisor", 8, { { 8080, 0, "tcp" } },
          { { "bind", NULL, "/var/run", "/var/run", "ro", false }, { "bind", NULL, "/sys", "/sys", "ro", false } }, "" } } },
    { "blog", "1.29.2", { { 0 } },
      { { "wordpress", 9, { { 80, 8081, "tcp" } }, { { "volume", "wp", NULL, "/var/www/html", "rw", true } }, "" },
        { "mariadb", 10, { { 3306, 0, "tcp" } }, { { "volume", "db", NULL, "/var/lib/mysql", "rw", true } }, "" } } },
    { "media", "2.24.5", { { "com.example.owner", "Ren\\u00e9 Lef\\u00e8vre", true }, { "com.example.tier", "home", false } },
      { { "jellyfin", 11, { { 8096, 8096, "tcp" }, { 7359, 0, "udp" } },
          { { "volume", "config", NULL, "/config", "z", true }, { "bind", NULL, "/srv/media", "/media", "ro", false } }, "" } } },
    { "proxy", "2.23.3",
      { { "traefik.enable", "true", false }, { "traefik.http.routers.dashboard.rule", "Host(`traefik.example.com`) && PathPrefix(`/api`)", false } },
      { { "traefik", 12, { { 80, 80, "tcp" }, { 443, 443, "tcp" } },
          { { "bind", NULL, "/var/run/docker.sock", "/var/run/docker.sock", "ro", false } }, "" } } },
};
#define NPROJ (int)(sizeof projects / sizeof *projects)

static const int standalone_images[] = { 13, 14, 15, 16, 17 };

static const char *const adjectives[] = {
    "admiring", "affectionate", "agitated", "amazing", "angry", "awesome", "blissful", "bold", "brave",
    "charming", "clever", "compassionate", "competent", "cool", "dazzling", "determined", "eager",
    "ecstatic", "elastic", "elegant", "epic", "focused", "friendly", "frosty", "gallant", "gifted",
    "goofy", "happy", "hopeful", "infallible", "jolly", "keen", "kind", "laughing", "loving", "magical",
    "modest", "nifty", "nostalgic", "pensive", "quirky", "relaxed", "serene", "sharp", "stoic",
    "suspicious", "tender", "trusting", "vibrant", "wizardly", "youthful", "zealous"
};
static const char *const surnames[] = {
    "albattani", "allen", "archimedes", "banach", "bardeen", "bhabha", "booth", "bose", "brahmagupta",
    "carson", "chandrasekhar", "chaplygin", "curie", "darwin", "dijkstra", "einstein", "euler", "fermat",
    "feynman", "galileo", "goldberg", "goodall", "hamilton", "hawking", "heisenberg", "hodgkin", "hopper",
    "hypatia", "jang", "johnson", "kalam", "kepler", "knuth", "lamarr", "lovelace", "mayer", "mcclintock",
    "meitner", "montalcini", "napier", "newton", "noether", "pasteur", "payne", "poincare", "ramanujan",
    "ritchie", "shannon", "sinoussi", "swartz", "tesla", "thompson", "torvalds", "turing", "wozniak"
};
#define NADJ (sizeof adjectives / sizeof *adjectives)
#define NSUR (sizeof surnames / sizeof *surnames)

/* "now" for every generated answer: 2024-01-15 15:00:00 UTC */
#define NOW 1705330800
/* the daemon's nanoseconds are not worth a PRNG draw each: derived from the seconds */
#define NANOS(t) ((uint32_t)(((uint64_t)(t) * 2654435761u) % 1000000000u))

typedef enum { RUNNING, EXITED, CREATED, PAUSED, RESTARTING, DEAD } state_t;
static const char *const state_names[] = { "running", "exited", "created", "paused", "restarting", "dead" };

typedef struct container {
    char id[65];
    char name[96];      /* without the leading '/' */
    const project *proj;    /* NULL: not from compose */
    const service *svc;     /* NULL: standalone */
    const image *img;
    int number;
    bool oneoff;
    char config_hash[65];
    int64_t created, started, finished;
    state_t state;
    int exit_code;
    int health;             /* 0 none, 1 healthy, 2 unhealthy, 3 starting */
    const char *netmode;    /* "bridge", "host", or NULL: <project>_default */
    int net;                /* 0 bridge, 1 + project index */
    int host;               /* last IPv4 byte */
    char endpoint[65];
} container;

static void image_id(const image *img, char out[72])
{
    char h[65];
    hex_seeded(h, 64, hash(img->ref));
    snprintf(out, 72, "sha256:%s", h);
}

static void network_id(int net, char out[65]) { hex_seeded(out, 64, 0x6e6574ull + (uint64_t)net * 7919); }

static bool is_v1(const project *p) { return p && p->compose_version[0] == '1'; }

/* Make container number i (0 = newest). */
static void make_container(container *c, int i, int per_service[][6], int *standalone)
{
    memset(c, 0, sizeof *c);
    hex_random(c->id, 64);
    hex_random(c->endpoint, 64);
    c->created = NOW - 600 - (int64_t)i * 2750 - below(2400);
    if (chance(18)) {
        int k = (*standalone)++;
        c->img = &images[standalone_images[below(sizeof standalone_images / sizeof *standalone_images)]];
        /* distinct names, in an order that does not look sequential */
        size_t a = (size_t)k * 7 % NADJ, s = ((size_t)k * 11 + (size_t)k / NADJ) % NSUR;
        if ((size_t)k < NADJ * NSUR)
            snprintf(c->name, sizeof c->name, "%s_%s", adjectives[a], surnames[s]);
        else
            snprintf(c->name, sizeof c->name, "%s_%s%d", adjectives[a], surnames[s], k);
        c->netmode = chance(15) ? "host" : "bridge";
        c->net = 0;
    } else {
        int pi = (int)below(NPROJ);
        const project *p = &projects[pi];
        int ns = 0;
        while (ns < 6 && p->svc[ns].name)
            ns++;
        int si = (int)below((uint32_t)ns);
        c->proj = p;
        c->svc = &p->svc[si];
        c->img = &images[c->svc->image];
        c->number = ++per_service[pi][si];
        c->oneoff = chance(3);
        const char *sepc = is_v1(p) ? "_" : "-";
        if (c->oneoff) {
            char h[13];
            hex_random(h, 12);
            snprintf(c->name, sizeof c->name, "%s%s%s%srun%s%s", p->name, sepc, c->svc->name, sepc, sepc, h);
        } else {
            snprintf(c->name, sizeof c->name, "%s%s%s%s%d", p->name, sepc, c->svc->name, sepc, c->number);
        }
        char seed[64];
        snprintf(seed, sizeof seed, "%s/%s", p->name, c->svc->name);
        hex_seeded(c->config_hash, 64, hash(seed));
        c->net = 1 + pi;
    }
    c->host = 2 + i % 250;
    uint32_t r = below(100);
    c->state = r < 72 ? RUNNING : r < 90 ? EXITED : r < 94 ? CREATED : r < 97 ? PAUSED : r < 99 ? RESTARTING : DEAD;
    if (c->oneoff && c->state == RUNNING)
        c->state = EXITED;
    c->started = c->state == CREATED ? 0 : c->created + 1 + below(30);
    c->finished = c->state == EXITED || c->state == DEAD ? c->started + 60 + below((uint32_t)(NOW - c->started - 59)) : 0;
    static const int codes[] = { 0, 0, 0, 1, 137, 143, 2, 255 };
    c->exit_code = c->state == EXITED ? codes[below(8)] : c->state == RESTARTING ? 1 : 0;
    if (c->img->healthcheck && c->state == RUNNING) {
        uint32_t h = below(20);
        c->health = h < 16 ? 1 : h < 18 ? 2 : 3;
    }
}

/* units.HumanDuration, as `docker ps` prints it */
static void human_duration(char *out, size_t cap, int64_t s)
{
    int64_t m = s / 60, h = m / 60;
    if (s < 1)
        snprintf(out, cap, "Less than a second");
    else if (s == 1)
        snprintf(out, cap, "1 second");
    else if (s < 60)
        snprintf(out, cap, "%" PRId64 " seconds", s);
    else if (m == 1)
        snprintf(out, cap, "About a minute");
    else if (m < 60)
        snprintf(out, cap, "%" PRId64 " minutes", m);
    else if (h == 1)
        snprintf(out, cap, "About an hour");
    else if (h < 48)
        snprintf(out, cap, "%" PRId64 " hours", h);
    else if (h < 24 * 7 * 2)
        snprintf(out, cap, "%" PRId64 " days", h / 24);
    else if (h < 24 * 30 * 2)
        snprintf(out, cap, "%" PRId64 " weeks", h / 24 / 7);
    else
        snprintf(out, cap, "%" PRId64 " months", h / 24 / 30);
}

static void status_text(const container *c, char *out, size_t cap)
{
    char d[48];
    switch (c->state) {
    case RUNNING:
        human_duration(d, sizeof d, NOW - c->started);
        snprintf(out, cap, "Up %s%s", d,
                 c->health == 1 ? " (healthy)" : c->health == 2 ? " (unhealthy)" : c->health == 3 ? " (health: starting)" : "");
        break;
    case PAUSED:
        human_duration(d, sizeof d, NOW - c->started);
        snprintf(out, cap, "Up %s (Paused)", d);
        break;
    case EXITED:
        human_duration(d, sizeof d, NOW - c->finished);
        snprintf(out, cap, "Exited (%d) %s ago", c->exit_code, d);
        break;
    case RESTARTING:
        snprintf(out, cap, "Restarting (%d) %u seconds ago", c->exit_code, 1 + (unsigned)(c->created % 50));
        break;
    case CREATED: snprintf(out, cap, "Created"); break;
    case DEAD: snprintf(out, cap, "Dead"); break;
    }
}

static void command_line(const container *c, char *out, size_t cap)
{
    snprintf(out, cap, "%s%s%s", c->img->path, c->img->args[0] ? " " : "", c->img->args);
}

static bool has_net(const container *c) { return c->state == RUNNING || c->state == PAUSED || c->state == RESTARTING; }

static void net_name(const container *c, char *out, size_t cap)
{
    if (c->netmode)
        snprintf(out, cap, "%s", c->netmode);
    else
        snprintf(out, cap, "%s_default", c->proj->name);
}

static int subnet(const container *c) { return c->net == 0 ? 17 : 17 + c->net; }

/* ---- labels: collected, then written sorted by key as encoding/json does with maps ---- */

typedef struct kv {
    char k[96];
    char v[256];
    bool escaped;
} kv;

static int kv_cmp(const void *a, const void *b) { return strcmp(((const kv *)a)->k, ((const kv *)b)->k); }

static int add(kv *l, int n, const char *k, const char *v, bool escaped)
{
    snprintf(l[n].k, sizeof l[n].k, "%s", k);
    snprintf(l[n].v, sizeof l[n].v, "%s", v);
    l[n].escaped = escaped;
    return n + 1;
}

/* The labels an image carries (its Dockerfile's LABEL lines), after l[0..n). */
static int image_labels(const image *img, kv *l, int n)
{
    for (int i = 0; i < 6 && img->labels[i].k; i++)
        n = add(l, n, img->labels[i].k, img->labels[i].v, img->labels[i].escaped);
    return n;
}

/* A container's labels: its image's, then compose's, sorted by key. */
static int container_labels(const container *c, kv *l)
{
    int n = image_labels(c->img, l, 0);
    if (c->proj) {
        const project *p = c->proj;
        char buf[256];
        n = add(l, n, "com.docker.compose.config-hash", c->config_hash, false);
        snprintf(buf, sizeof buf, "%d", c->number);
        n = add(l, n, "com.docker.compose.container-number", buf, false);
        n = add(l, n, "com.docker.compose.oneoff", c->oneoff ? "True" : "False", false);
        n = add(l, n, "com.docker.compose.project", p->name, false);
        snprintf(buf, sizeof buf, is_v1(p) ? "docker-compose.yml" : "/srv/%s/compose.yaml", p->name);
        n = add(l, n, "com.docker.compose.project.config_files", buf, false);
        snprintf(buf, sizeof buf, "/srv/%s", p->name);
        n = add(l, n, "com.docker.compose.project.working_dir", buf, false);
        n = add(l, n, "com.docker.compose.service", c->svc->name, false);
        n = add(l, n, "com.docker.compose.version", p->compose_version, false);
        if (!is_v1(p)) {
            n = add(l, n, "com.docker.compose.depends_on", c->svc->depends_on, false);
            image_id(c->img, buf);
            n = add(l, n, "com.docker.compose.image", buf, false);
        }
        for (int i = 0; i < 3 && p->extra[i].k; i++)
            n = add(l, n, p->extra[i].k, p->extra[i].v, p->extra[i].escaped);
    }
    qsort(l, (size_t)n, sizeof *l, kv_cmp);
    return n;
}

static void write_map(const kv *l, int n)
{
    OBJ();
    for (int i = 0; i < n; i++) {
        key(l[i].k);
        if (l[i].escaped)
            str_escaped(l[i].v);
        else
            str(l[i].v);
    }
    END();
}

/* ---- NetworkSettings.Networks ---- */

/* The member `netname` of NetworkSettings.Networks: the container's endpoint,
 * as /containers/json and docker inspect write it (inspect also has the
 * compose aliases). A host-network container has no address of its own. */
static void network_endpoint(const container *c, const char *netname, bool aliases)
{
    char buf[160], nid[65];
    bool host = c->netmode && !strcmp(c->netmode, "host");
    bool up = has_net(c) && !host;
    key(netname);
    OBJ();
    if (c->proj && !is_v1(c->proj))
        kemptyobj("IPAMConfig");
    else
        knull("IPAMConfig");
    knull("Links");
    if (aliases && c->proj) {
        key("Aliases");
        ARR();
        str(c->name);
        str(c->svc->name);
        snprintf(buf, sizeof buf, "%.12s", c->id);
        str(buf);
        AEND();
    } else {
        knull("Aliases");
    }
    network_id(host ? 99 : c->net, nid);
    kstr("NetworkID", nid);
    kstr("EndpointID", has_net(c) ? c->endpoint : "");
    if (up) {
        kstrf("Gateway", "172.%d.0.1", subnet(c));
        kstrf("IPAddress", "172.%d.0.%d", subnet(c), c->host);
        knum("IPPrefixLen", 16);
    } else {
        kstr("Gateway", "");
        kstr("IPAddress", "");
        knum("IPPrefixLen", 0);
    }
    kstr("IPv6Gateway", "");
    kstr("GlobalIPv6Address", "");
    knum("GlobalIPv6PrefixLen", 0);
    if (up)
        kstrf("MacAddress", "02:42:ac:%02x:00:%02x", subnet(c), c->host);
    else
        kstr("MacAddress", "");
    knull("DriverOpts");
    END();
}

/* ---- GET /containers/json ---- */

static void mount_source(const container *c, const mount *m, char *out, size_t cap)
{
    if (m->src)
        snprintf(out, cap, "%s", m->src);
    else
        snprintf(out, cap, "/var/lib/docker/volumes/%s_%s/_data", c->proj->name, m->name);
}

/* The Mounts array, the same in /containers/json and docker inspect. */
static void write_mounts(const container *c)
{
    char buf[512];
    key("Mounts");
    ARR();
    for (int i = 0; c->svc && i < 3 && c->svc->mounts[i].type; i++) {
        const mount *m = &c->svc->mounts[i];
        OBJ();
        kstr("Type", m->type);
        if (m->name)
            kstrf("Name", "%s_%s", c->proj->name, m->name);
        mount_source(c, m, buf, sizeof buf);
        kstr("Source", buf);
        kstr("Destination", m->dst);
        if (m->name)
            kstr("Driver", "local");
        kstr("Mode", m->mode);
        kbool("RW", m->rw);
        kstr("Propagation", m->name ? "" : "rprivate");
        END();
    }
    AEND();
}

static void list_entry(const container *c)
{
    char buf[512], iid[72];
    kv labels[32];
    OBJ();
    kstr("Id", c->id);
    key("Names");
    ARR();
    snprintf(buf, sizeof buf, "/%s", c->name);
    str(buf);
    AEND();
    kstr("Image", c->img->ref);
    image_id(c->img, iid);
    kstr("ImageID", iid);
    command_line(c, buf, sizeof buf);
    kstr("Command", buf);
    knum("Created", c->created);
    key("Ports");
    ARR();
    /* a stopped container lists no ports; a published one is listed for IPv4 and IPv6 */
    for (int i = 0; c->svc && has_net(c) && i < 3 && c->svc->ports[i].priv; i++) {
        const port *p = &c->svc->ports[i];
        for (int v6 = 0; v6 < (p->pub ? 2 : 1); v6++) {
            OBJ();
            if (p->pub)
                kstr("IP", v6 ? "::" : "0.0.0.0");
            knum("PrivatePort", p->priv);
            if (p->pub)
                knum("PublicPort", p->pub);
            kstr("Type", p->type);
            END();
        }
    }
    AEND();
    key("Labels");
    write_map(labels, container_labels(c, labels));
    kstr("State", state_names[c->state]);
    status_text(c, buf, sizeof buf);
    kstr("Status", buf);
    key("HostConfig");
    OBJ();
    net_name(c, buf, sizeof buf);
    kstr("NetworkMode", buf);
    END();
    key("NetworkSettings");
    OBJ();
    key("Networks");
    OBJ();
    network_endpoint(c, buf, false);
    END();
    END();
    write_mounts(c);
    END();
}

static void gen_list(int n)
{
    int per_service[NPROJ][6];
    int standalone = 0;
    memset(per_service, 0, sizeof per_service);
    W = (writer){ 0 };
    ARR();
    for (int i = 0; i < n; i++) {
        container c;
        make_container(&c, i, per_service, &standalone);
        list_entry(&c);
    }
    AEND();
    putchar('\n');
}

/* ---- docker inspect ---- */

static void rfc3339(char *out, size_t cap, int64_t t, uint32_t nanos)
{
    /* civil from days (H. Hinnant), integers only */
    int64_t days = t / 86400, secs = t % 86400;
    int64_t z = days + 719468, era = z / 146097, doe = z - era * 146097;
    int64_t yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
    int64_t y = yoe + era * 400, doy = doe - (365 * yoe + yoe / 4 - yoe / 100), mp = (5 * doy + 2) / 153;
    int64_t d = doy - (153 * mp + 2) / 5 + 1, m = mp < 10 ? mp + 3 : mp - 9;
    if (m <= 2)
        y++;
    snprintf(out, cap, "%04" PRId64 "-%02" PRId64 "-%02" PRId64 "T%02" PRId64 ":%02" PRId64 ":%02" PRId64 ".%09uZ", y, m,
             d, secs / 3600, secs / 60 % 60, secs % 60, nanos);
}

/* Split an argument string on spaces, keeping "quoted parts" whole (quotes dropped). */
static int split_args(const char *s, char out[][160], int max)
{
    int n = 0;
    while (*s && n < max) {
        while (*s == ' ')
            s++;
        if (!*s)
            break;
        int k = 0;
        bool q = false;
        for (; *s && (q || *s != ' '); s++) {
            if (*s == '"') {
                q = !q;
                continue;
            }
            if (k < 159)
                out[n][k++] = *s;
        }
        out[n++][k] = 0;
    }
    return n;
}

static void host_config(const container *c, const char *netname)
{
    key("HostConfig");
    OBJ();
    bool binds = false;
    for (int i = 0; c->svc && i < 3 && c->svc->mounts[i].type; i++)
        binds |= c->svc->mounts[i].src != NULL;
    if (binds) {
        key("Binds");
        ARR();
        for (int i = 0; i < 3 && c->svc->mounts[i].type; i++)
            if (c->svc->mounts[i].src) {
                char b[256];
                snprintf(b, sizeof b, "%s:%s:%s", c->svc->mounts[i].src, c->svc->mounts[i].dst, c->svc->mounts[i].mode);
                str(b);
            }
        AEND();
    } else {
        knull("Binds");
    }
    kstr("ContainerIDFile", "");
    key("LogConfig");
    OBJ();
    kstr("Type", "json-file");
    key("Config");
    OBJ();
    if (c->proj) {
        kstr("max-file", "3");
        kstr("max-size", "10m");
    }
    END();
    END();
    kstr("NetworkMode", netname);
    key("PortBindings");
    OBJ();
    for (int i = 0; c->svc && i < 3 && c->svc->ports[i].priv; i++) {
        const port *p = &c->svc->ports[i];
        if (!p->pub)
            continue;
        char k[32], v[16];
        snprintf(k, sizeof k, "%d/%s", p->priv, p->type);
        snprintf(v, sizeof v, "%d", p->pub);
        key(k);
        ARR();
        OBJ();
        kstr("HostIp", "");
        kstr("HostPort", v);
        END();
        AEND();
    }
    END();
    key("RestartPolicy");
    OBJ();
    kstr("Name", c->proj ? "unless-stopped" : "no");
    knum("MaximumRetryCount", 0);
    END();
    kbool("AutoRemove", false);
    kstr("VolumeDriver", "");
    knull("VolumesFrom");
    key("ConsoleSize");
    ARR();
    num(0);
    num(0);
    AEND();
    knull("CapAdd");
    knull("CapDrop");
    kstr("CgroupnsMode", "private");
    key("Dns");
    ARR();
    AEND();
    key("DnsOptions");
    ARR();
    AEND();
    key("DnsSearch");
    ARR();
    AEND();
    knull("ExtraHosts");
    knull("GroupAdd");
    kstr("IpcMode", "private");
    kstr("Cgroup", "");
    knull("Links");
    knum("OomScoreAdj", 0);
    kstr("PidMode", "");
    kbool("Privileged", false);
    kbool("PublishAllPorts", false);
    kbool("ReadonlyRootfs", false);
    knull("SecurityOpt");
    kstr("UTSMode", "");
    kstr("UsernsMode", "");
    knum("ShmSize", 67108864);
    kstr("Runtime", "runc");
    kstr("Isolation", "");
    knum("CpuShares", 0);
    knum("Memory", c->svc && c->svc->image == 3 ? 2147483648 : 0);
    knum("NanoCpus", c->svc && c->svc->image == 2 ? 2000000000 : 0);
    kstr("CgroupParent", "");
    knum("BlkioWeight", 0);
    knull("BlkioWeightDevice");
    knull("BlkioDeviceReadBps");
    knull("BlkioDeviceWriteBps");
    knull("BlkioDeviceReadIOps");
    knull("BlkioDeviceWriteIOps");
    knum("CpuPeriod", 0);
    knum("CpuQuota", 0);
    knum("CpuRealtimePeriod", 0);
    knum("CpuRealtimeRuntime", 0);
    kstr("CpusetCpus", "");
    kstr("CpusetMems", "");
    knull("Devices");
    knull("DeviceCgroupRules");
    knull("DeviceRequests");
    knum("MemoryReservation", 0);
    knum("MemorySwap", c->svc && c->svc->image == 3 ? 4294967296 : 0);
    knull("MemorySwappiness");
    knull("OomKillDisable");
    knull("PidsLimit");
    knull("Ulimits");
    knum("CpuCount", 0);
    knum("CpuPercent", 0);
    knum("IOMaximumIOps", 0);
    knum("IOMaximumBandwidth", 0);
    static const char *const masked[] = { "/proc/asound", "/proc/acpi", "/proc/kcore", "/proc/keys",
                                          "/proc/latency_stats", "/proc/timer_list", "/proc/timer_stats",
                                          "/proc/sched_debug", "/proc/scsi", "/sys/firmware", "/sys/devices/virtual/powercap" };
    key("MaskedPaths");
    ARR();
    for (size_t i = 0; i < sizeof masked / sizeof *masked; i++)
        str(masked[i]);
    AEND();
    static const char *const ro[] = { "/proc/bus", "/proc/fs", "/proc/irq", "/proc/sys", "/proc/sysrq-trigger" };
    key("ReadonlyPaths");
    ARR();
    for (size_t i = 0; i < sizeof ro / sizeof *ro; i++)
        str(ro[i]);
    AEND();
    END();
}

static void inspect_one(const container *c)
{
    char buf[1024], iid[72], netname[96], t1[40], t2[40];
    char args[16][160];
    kv labels[32];
    net_name(c, netname, sizeof netname);
    image_id(c->img, iid);
    OBJ();
    kstr("Id", c->id);
    rfc3339(buf, sizeof buf, c->created, NANOS(c->created));
    kstr("Created", buf);
    kstr("Path", c->img->path);
    key("Args");
    ARR();
    int na = split_args(c->img->args, args, 16);
    for (int i = 0; i < na; i++)
        str(args[i]);
    AEND();

    key("State");
    OBJ();
    kstr("Status", state_names[c->state]);
    kbool("Running", c->state == RUNNING || c->state == PAUSED || c->state == RESTARTING);
    kbool("Paused", c->state == PAUSED);
    kbool("Restarting", c->state == RESTARTING);
    kbool("OOMKilled", c->exit_code == 137 && c->created % 3 == 0);
    kbool("Dead", c->state == DEAD);
    knum("Pid", has_net(c) ? 1000 + (int64_t)(c->created % 60000) : 0);
    knum("ExitCode", c->exit_code);
    kstr("Error", c->state == DEAD ? "container did not stop within 10 seconds: driver \"overlay2\" failed to remove root filesystem" : "");
    if (c->started)
        rfc3339(t1, sizeof t1, c->started, NANOS(c->started + 1));
    else
        snprintf(t1, sizeof t1, "0001-01-01T00:00:00Z");
    if (c->finished)
        rfc3339(t2, sizeof t2, c->finished, NANOS(c->finished + 2));
    else
        snprintf(t2, sizeof t2, "0001-01-01T00:00:00Z");
    kstr("StartedAt", t1);
    kstr("FinishedAt", t2);
    if (c->img->healthcheck && c->health) {
        key("Health");
        OBJ();
        kstr("Status", c->health == 1 ? "healthy" : c->health == 2 ? "unhealthy" : "starting");
        knum("FailingStreak", c->health == 2 ? 3 + (int64_t)(c->created % 40) : 0);
        key("Log");
        ARR();
        for (int i = 0; i < (c->health == 3 ? 1 : 5); i++) {
            int64_t at = NOW - 150 + i * 30;
            OBJ();
            rfc3339(t1, sizeof t1, at, NANOS(at));
            rfc3339(t2, sizeof t2, at, NANOS(at) / 2 + 500000000u);
            kstr("Start", t1);
            kstr("End", t2);
            knum("ExitCode", c->health == 2 ? 1 : 0);
            kstr("Output", c->health == 2 ? "curl: (7) Failed to connect to localhost port 8000 after 0 ms: Connection refused\n" : "");
            END();
        }
        AEND();
        END();
    }
    END();

    kstr("Image", iid);
    kstrf("ResolvConfPath", "/var/lib/docker/containers/%s/resolv.conf", c->id);
    kstrf("HostnamePath", "/var/lib/docker/containers/%s/hostname", c->id);
    kstrf("HostsPath", "/var/lib/docker/containers/%s/hosts", c->id);
    kstrf("LogPath", "/var/lib/docker/containers/%s/%s-json.log", c->id, c->id);
    kstrf("Name", "/%s", c->name);
    knum("RestartCount", c->state == RESTARTING ? 4 : 0);
    kstr("Driver", "overlay2");
    kstr("Platform", "linux");
    kstr("MountLabel", "");
    kstr("ProcessLabel", "");
    kstr("AppArmorProfile", "docker-default");
    knull("ExecIDs");
    host_config(c, netname);

    char layer[65], lower[4][65];
    hex_random(layer, 64);
    for (int i = 0; i < 4; i++)
        hex_random(lower[i], 64);
    key("GraphDriver");
    OBJ();
    key("Data");
    OBJ();
    kstrf("LowerDir",
          "/var/lib/docker/overlay2/%s-init/diff:/var/lib/docker/overlay2/%s/diff:/var/lib/docker/overlay2/%s/diff:"
          "/var/lib/docker/overlay2/%s/diff:/var/lib/docker/overlay2/%s/diff",
          layer, lower[0], lower[1], lower[2], lower[3]);
    kstrf("MergedDir", "/var/lib/docker/overlay2/%s/merged", layer);
    kstrf("UpperDir", "/var/lib/docker/overlay2/%s/diff", layer);
    kstrf("WorkDir", "/var/lib/docker/overlay2/%s/work", layer);
    END();
    kstr("Name", "overlay2");
    END();

    write_mounts(c);

    key("Config");
    OBJ();
    snprintf(buf, sizeof buf, "%.12s", c->id);
    kstr("Hostname", buf);
    kstr("Domainname", "");
    kstr("User", c->img->user);
    kbool("AttachStdin", false);
    kbool("AttachStdout", !c->proj);
    kbool("AttachStderr", !c->proj);
    if (c->svc && c->svc->ports[0].priv) {
        key("ExposedPorts");
        OBJ();
        for (int i = 0; i < 3 && c->svc->ports[i].priv; i++) {
            char k[32];
            snprintf(k, sizeof k, "%d/%s", c->svc->ports[i].priv, c->svc->ports[i].type);
            kemptyobj(k);
        }
        END();
    }
    kbool("Tty", !c->proj && c->img->args[0] == 0);
    kbool("OpenStdin", !c->proj && c->img->args[0] == 0);
    kbool("StdinOnce", false);
    key("Env");
    ARR();
    if (c->proj) {
        snprintf(buf, sizeof buf, "COMPOSE_PROJECT_NAME=%s", c->proj->name);
        str(buf);
        if (c->svc->image == 1 || c->svc->image == 2) {
            str("DATABASE_URL=postgres://shop:s3cr3t@db:5432/shop?sslmode=disable&connect_timeout=5");
            str("REDIS_URL=redis://cache:6379/0");
            str("ALLOWED_HOSTS=shop.example.com,api.shop.example.com");
        }
        if (c->svc->image == 3) {
            str("POSTGRES_USER=shop");
            str("POSTGRES_DB=shop");
            str("POSTGRES_PASSWORD_FILE=/run/secrets/db_password");
        }
    }
    str("PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin");
    for (int i = 0; i < 8 && c->img->env[i]; i++)
        str(c->img->env[i]);
    AEND();
    key("Cmd");
    if (na) {
        ARR();
        for (int i = 0; i < na; i++)
            str(args[i]);
        AEND();
    } else {
        null_();
    }
    if (c->img->healthcheck) {
        key("Healthcheck");
        OBJ();
        key("Test");
        ARR();
        str("CMD-SHELL");
        str("curl -fsS http://localhost:8000/healthz || exit 1");
        AEND();
        knum("Interval", 30000000000);
        knum("Timeout", 5000000000);
        knum("StartPeriod", 10000000000);
        knum("Retries", 3);
        END();
    }
    kstr("Image", c->img->ref);
    if (c->svc && c->svc->mounts[0].type) {
        key("Volumes");
        OBJ();
        for (int i = 0; i < 3 && c->svc->mounts[i].type; i++)
            if (c->svc->mounts[i].name)
                kemptyobj(c->svc->mounts[i].dst);
        END();
    } else {
        knull("Volumes");
    }
    kstr("WorkingDir", c->img->workdir);
    key("Entrypoint");
    ARR();
    str(c->img->path);
    AEND();
    knull("OnBuild");
    key("Labels");
    write_map(labels, container_labels(c, labels));
    if (c->state == EXITED || c->state == DEAD)
        kstr("StopSignal", "SIGQUIT");
    END();

    bool host = c->netmode && !strcmp(c->netmode, "host");
    bool up = has_net(c) && !host;
    char sandbox[65];
    hex_random(sandbox, 64);
    key("NetworkSettings");
    OBJ();
    kstr("Bridge", "");
    kstr("SandboxID", has_net(c) ? sandbox : "");
    kbool("HairpinMode", false);
    kstr("LinkLocalIPv6Address", "");
    knum("LinkLocalIPv6PrefixLen", 0);
    key("Ports");
    OBJ();
    for (int i = 0; up && c->svc && i < 3 && c->svc->ports[i].priv; i++) {
        const port *p = &c->svc->ports[i];
        char k[32], v[16];
        snprintf(k, sizeof k, "%d/%s", p->priv, p->type);
        key(k);
        if (!p->pub) {
            null_();
            continue;
        }
        snprintf(v, sizeof v, "%d", p->pub);
        ARR();
        OBJ();
        kstr("HostIp", "0.0.0.0");
        kstr("HostPort", v);
        END();
        OBJ();
        kstr("HostIp", "::");
        kstr("HostPort", v);
        END();
        AEND();
    }
    END();
    kstr("SandboxKey", has_net(c) ? (snprintf(buf, sizeof buf, "/var/run/docker/netns/%.12s", sandbox), buf) : "");
    knull("SecondaryIPAddresses");
    knull("SecondaryIPv6Addresses");
    bool bridge = up && c->net == 0;
    kstr("EndpointID", bridge ? c->endpoint : "");
    kstr("Gateway", bridge ? "172.17.0.1" : "");
    kstr("GlobalIPv6Address", "");
    knum("GlobalIPv6PrefixLen", 0);
    if (bridge)
        kstrf("IPAddress", "172.17.0.%d", c->host);
    else
        kstr("IPAddress", "");
    knum("IPPrefixLen", bridge ? 16 : 0);
    kstr("IPv6Gateway", "");
    if (bridge)
        kstrf("MacAddress", "02:42:ac:11:00:%02x", c->host);
    else
        kstr("MacAddress", "");
    key("Networks");
    OBJ();
    network_endpoint(c, netname, true);
    END();
    END();
    END();
}

static void gen_inspect(int n)
{
    int per_service[NPROJ][6];
    int standalone = 0;
    memset(per_service, 0, sizeof per_service);
    W = (writer){ .indent = 4 };
    ARR();
    for (int i = 0; i < n; i++) {
        container c;
        make_container(&c, i, per_service, &standalone);
        inspect_one(&c);
    }
    AEND();
    putchar('\n');
}

/* ---- GET /events ---- */

static void event_head(const char *status, const char *id, const char *from, const char *type, const char *action)
{
    W = (writer){ 0 };
    OBJ();
    if (status) {
        kstr("status", status);
        kstr("id", id);
        if (from)
            kstr("from", from);
    }
    kstr("Type", type);
    kstr("Action", action);
    key("Actor");
    OBJ();
    kstr("ID", id);
    key("Attributes");
}

/* The event clock, in nanoseconds: strictly increasing, as the daemon's. */
static int64_t clock_ns = (int64_t)(NOW - 3600) * 1000000000;

static void event_tail(void)
{
    clock_ns += 1000000 + below(1500000000);
    END();   /* Actor */
    kstr("scope", "local");
    knum("time", clock_ns / 1000000000);
    knum("timeNano", clock_ns);
    END();
    putchar('\n');
}

static void container_event(const container *c, const char *action, const kv *extra, int nextra)
{
    kv a[48];
    int n = container_labels(c, a);
    n = add(a, n, "image", c->img->ref, false);
    n = add(a, n, "name", c->name, false);
    for (int i = 0; i < nextra; i++)
        a[n++] = extra[i];
    qsort(a, (size_t)n, sizeof *a, kv_cmp);
    event_head(action, c->id, c->img->ref, "container", action);
    write_map(a, n);
    event_tail();
}

static void network_event(const container *c, const char *action)
{
    char name[96], nid[65];
    kv a[3];
    net_name(c, name, sizeof name);
    network_id(c->net, nid);
    int n = add(a, 0, "container", c->id, false);
    n = add(a, n, "name", name, false);
    n = add(a, n, "type", "bridge", false);
    event_head(NULL, nid, NULL, "network", action);
    write_map(a, n);
    event_tail();
}

static void gen_events(int n)
{
    enum { POOL = 16 };
    int per_service[NPROJ][6];
    int standalone = 0;
    memset(per_service, 0, sizeof per_service);
    container pool[POOL];
    int phase[POOL];   /* where each container is in its life: 0 created ... */
    for (int i = 0; i < POOL; i++) {
        make_container(&pool[i], i, per_service, &standalone);
        phase[i] = 0;
    }
    for (int emitted = 0; emitted < n;) {
        int i = (int)below(POOL);
        container *c = &pool[i];
        kv extra[3];
        int ne = 0;
        char buf[64];
        switch (phase[i]) {
        case 0:
            if (chance(30)) {   /* the image is pulled first */
                kv a[8];
                int na = image_labels(c->img, a, 0);
                snprintf(buf, sizeof buf, "%s", c->img->ref);
                char *colon = strrchr(buf, ':');
                if (colon)
                    *colon = 0;
                na = add(a, na, "name", buf, false);
                qsort(a, (size_t)na, sizeof *a, kv_cmp);
                event_head("pull", c->img->ref, NULL, "image", "pull");
                write_map(a, na);
                event_tail();
                emitted++;
                if (emitted == n)
                    break;
            }
            container_event(c, "create", NULL, 0);
            phase[i] = 1;
            break;
        case 1:
            network_event(c, "connect");
            phase[i] = 2;
            break;
        case 2:
            container_event(c, "start", NULL, 0);
            phase[i] = c->img->healthcheck ? 3 : 4;
            break;
        case 3:
            container_event(c, "health_status: healthy", NULL, 0);
            phase[i] = 4;
            break;
        case 4:
            if (chance(40)) {   /* docker exec */
                char execid[65];
                hex_random(execid, 64);
                extra[ne++] = (kv){ "execID", "", false };
                snprintf(extra[0].v, sizeof extra[0].v, "%s", execid);
                container_event(c, "exec_create: sh -c \"ps aux\"", extra, ne);
                emitted++;
                if (emitted == n)
                    break;
                container_event(c, "exec_start: sh -c \"ps aux\"", extra, ne);
                emitted++;
                if (emitted == n)
                    break;
                extra[ne++] = (kv){ "exitCode", "0", false };
                container_event(c, "exec_die", extra, ne);
                break;
            }
            extra[ne++] = (kv){ "signal", "15", false };
            container_event(c, "kill", extra, ne);
            phase[i] = 5;
            break;
        case 5:
            snprintf(buf, sizeof buf, "%d", c->exit_code);
            extra[ne++] = (kv){ "exitCode", "", false };
            snprintf(extra[0].v, sizeof extra[0].v, "%s", buf);
            container_event(c, "die", extra, ne);
            phase[i] = 6;
            break;
        case 6:
            network_event(c, "disconnect");
            phase[i] = 7;
            break;
        case 7:
            container_event(c, "stop", NULL, 0);
            phase[i] = 8;
            break;
        default:
            container_event(c, "destroy", NULL, 0);
            make_container(c, (int)below(1000), per_service, &standalone);   /* a new one takes its place */
            phase[i] = 0;
            break;
        }
        emitted++;
    }
}

int main(int argc, char **argv)
{
    int a = 1;
    if (a + 1 < argc && !strcmp(argv[a], "--seed")) {
        rng_state = strtoull(argv[a + 1], NULL, 10);
        a += 2;
    }
    if (a >= argc) {
        fputs(usage, stderr);
        return 2;
    }
    const char *mode = argv[a];
    bool counted = strcmp(mode, "inspect") != 0;
    long n = 1;
    if (counted) {
        char *end;
        if (a + 1 >= argc || (n = strtol(argv[a + 1], &end, 10)) < 0 || *end || n > 10000000) {
            fputs(usage, stderr);
            return 2;
        }
    }
    static char obuf[1 << 16];
    setvbuf(stdout, obuf, _IOFBF, sizeof obuf);
    if (!strcmp(mode, "list"))
        gen_list((int)n);
    else if (!strcmp(mode, "inspect") || !strcmp(mode, "inspect-array"))
        gen_inspect((int)n);
    else if (!strcmp(mode, "events"))
        gen_events((int)n);
    else {
        fputs(usage, stderr);
        return 2;
    }
    if (fflush(stdout) != 0 || ferror(stdout)) {
        perror("gen_docker: write error");
        return 1;
    }
    return 0;
}
