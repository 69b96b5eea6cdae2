/* SPDX-License-Identifier: MIT */
/* Fallback Docker data for hotloop/streams when demo/gen_docker is missing:
 * deterministic (fixed-seed splitmix64), compact, Docker's field set. Also
 * `bench --gen MODE N` and the loader of the data make bench generated. */
#include "bench.h"

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

typedef struct sb {
    char *d;
    size_t len, cap;
    int oom;
} sb;

static void sb_grow(sb *b, size_t more)
{
    if (b->oom || b->len + more + 1 <= b->cap)
        return;
    size_t cap = b->cap ? b->cap : 1 << 16;
    while (cap < b->len + more + 1)
        cap *= 2;
    char *d = realloc(b->d, cap);
    if (!d) {
        b->oom = 1;
        return;
    }
    b->d = d;
    b->cap = cap;
}

static void sb_put(sb *b, const char *s)
{
    size_t n = strlen(s);
    sb_grow(b, n);
    if (b->oom)
        return;
    memcpy(b->d + b->len, s, n + 1);
    b->len += n;
}

static void sb_printf(sb *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void sb_printf(sb *b, const char *fmt, ...)
{
    char tmp[1024];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(tmp, sizeof tmp, fmt, ap);
    va_end(ap);
    if (n > 0)
        sb_put(b, tmp);
}

static uint64_t rng;

static uint64_t rnd(void)
{
    uint64_t z = (rng += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

static unsigned below(unsigned n) { return (unsigned)(rnd() % n); }

static void hex(char *out, int n)
{
    for (int i = 0; i < n; i++)
        out[i] = "0123456789abcdef"[rnd() & 15];
    out[n] = 0;
}

/* Compose projects and their services, with an image each. */
static const struct {
    const char *project, *service, *image, *cmd;
    int port;
} apps[] = {
    { "web", "nginx", "nginx:1.25.3", "/docker-entrypoint.sh nginx -g 'daemon off;'", 80 },
    { "web", "app", "registry.example.com/shop/app:4.12.0", "gunicorn -w 4 -b 0.0.0.0:8000 shop.wsgi", 8000 },
    { "web", "worker", "registry.example.com/shop/app:4.12.0", "celery -A shop worker -l info", 0 },
    { "db", "postgres", "postgres:16.1", "docker-entrypoint.sh postgres", 5432 },
    { "db", "redis", "redis:7.2-alpine", "docker-entrypoint.sh redis-server --appendonly yes", 6379 },
    { "monitoring", "prometheus", "prom/prometheus:v2.48.1", "/bin/prometheus --config.file=/etc/prometheus/prometheus.yml", 9090 },
    { "monitoring", "grafana", "grafana/grafana:10.2.3", "/run.sh", 3000 },
    { "proxy", "traefik", "traefik:v2.10", "/entrypoint.sh traefik", 443 },
};
#define NAPPS (sizeof apps / sizeof apps[0])
static const char *const states[] = { "running", "running", "running", "running", "exited", "restarting", "paused", "created" };

typedef struct ctr {
    char id[65], image_id[65], net_id[65], ep_id[65], hash[65];
    unsigned app, num, ip, created;
    const char *state;
    int compose;  /* has compose labels */
} ctr;

static void make_ctr(ctr *c, unsigned i)
{
    hex(c->id, 64);
    hex(c->image_id, 64);
    hex(c->net_id, 64);
    hex(c->ep_id, 64);
    hex(c->hash, 64);
    c->app = below(NAPPS);
    c->num = 1 + i / NAPPS;
    c->ip = 2 + i % 250;
    c->created = 1705300000u + below(100000);
    c->state = states[below(8)];
    c->compose = below(100) < 85;
}

static void labels(sb *b, const ctr *c)
{
    if (!c->compose) {
        sb_put(b, below(2) ? "{}" : "{\"maintainer\":\"ops@example.com\"}");
        return;
    }
    sb_printf(b, "{\"com.docker.compose.config-hash\":\"%s\",\"com.docker.compose.container-number\":\"%u\","
                 "\"com.docker.compose.oneoff\":\"False\",\"com.docker.compose.project\":\"%s\","
                 "\"com.docker.compose.service\":\"%s\",\"com.docker.compose.version\":\"2.23.3\"}",
              c->hash, c->num, apps[c->app].project, apps[c->app].service);
}

static void name(char *out, size_t cap, const ctr *c)
{
    snprintf(out, cap, "/%s-%s-%u", apps[c->app].project, apps[c->app].service, c->num);
}

static void network(sb *b, const ctr *c)
{
    sb_printf(b, "{\"%s_default\":{\"IPAMConfig\":null,\"Links\":null,\"Aliases\":null,\"NetworkID\":\"%s\","
                 "\"EndpointID\":\"%s\",\"Gateway\":\"172.18.0.1\",\"IPAddress\":\"172.18.0.%u\",\"IPPrefixLen\":16,"
                 "\"MacAddress\":\"02:42:ac:12:00:%02x\"}}",
              apps[c->app].project, c->net_id, c->ep_id, c->ip, c->ip);
}

static void mounts(sb *b, const ctr *c)
{
    if (apps[c->app].port == 0 || below(3) == 0) {
        sb_put(b, "[]");
        return;
    }
    sb_printf(b, "[{\"Type\":\"volume\",\"Name\":\"%s_%s-data\",\"Source\":\"/var/lib/docker/volumes/%s_%s-data/_data\","
                 "\"Destination\":\"/data\",\"Driver\":\"local\",\"Mode\":\"z\",\"RW\":true,\"Propagation\":\"\"}]",
              apps[c->app].project, apps[c->app].service, apps[c->app].project, apps[c->app].service);
}

static void list_item(sb *b, unsigned i)
{
    ctr c;
    make_ctr(&c, i);
    char nm[128];
    name(nm, sizeof nm, &c);
    sb_printf(b, "{\"Id\":\"%s\",\"Names\":[\"%s\"],\"Image\":\"%s\",\"ImageID\":\"sha256:%s\",\"Command\":\"%s\","
                 "\"Created\":%u,\"Ports\":",
              c.id, nm, apps[c.app].image, c.image_id, apps[c.app].cmd, c.created);
    if (apps[c.app].port && !strcmp(c.state, "running"))
        sb_printf(b, "[{\"IP\":\"0.0.0.0\",\"PrivatePort\":%d,\"PublicPort\":%d,\"Type\":\"tcp\"}]", apps[c.app].port,
                  apps[c.app].port + 10000 + (int)i);
    else
        sb_put(b, "[]");
    sb_put(b, ",\"Labels\":");
    labels(b, &c);
    char status[64];
    unsigned h = 1 + below(48);
    if (!strcmp(c.state, "running"))
        snprintf(status, sizeof status, "Up %u hours", h);
    else if (!strcmp(c.state, "exited"))
        snprintf(status, sizeof status, "Exited (0) %u hours ago", h);
    else if (!strcmp(c.state, "paused"))
        snprintf(status, sizeof status, "Up %u hours (Paused)", h);
    else if (!strcmp(c.state, "restarting"))
        snprintf(status, sizeof status, "Restarting (1) %u seconds ago", h);
    else
        snprintf(status, sizeof status, "Created");
    sb_printf(b, ",\"State\":\"%s\",\"Status\":\"%s\",\"HostConfig\":{\"NetworkMode\":\"%s_default\"},"
                 "\"NetworkSettings\":{\"Networks\":",
              c.state, status, apps[c.app].project);
    network(b, &c);
    sb_put(b, "},\"Mounts\":");
    mounts(b, &c);
    sb_put(b, "}");
}

static void inspect_item(sb *b, unsigned i)
{
    ctr c;
    make_ctr(&c, i);
    char nm[128];
    name(nm, sizeof nm, &c);
    int running = !strcmp(c.state, "running");
    sb_printf(b, "{\"Id\":\"%s\",\"Created\":\"2024-01-15T12:%02u:%02u.%09uZ\",\"Path\":\"/docker-entrypoint.sh\","
                 "\"Args\":[\"%s\"],\"State\":{\"Status\":\"%s\",\"Running\":%s,\"Paused\":false,\"Restarting\":false,"
                 "\"OOMKilled\":false,\"Dead\":false,\"Pid\":%u,\"ExitCode\":0,\"Error\":\"\","
                 "\"StartedAt\":\"2024-01-15T12:00:01.5Z\",\"FinishedAt\":\"0001-01-01T00:00:00Z\"},"
                 "\"Image\":\"sha256:%s\",",
              c.id, below(60), below(60), below(1000000000u), apps[c.app].service, c.state, running ? "true" : "false",
              running ? 1000 + below(60000) : 0, c.image_id);
    sb_printf(b, "\"ResolvConfPath\":\"/var/lib/docker/containers/%s/resolv.conf\","
                 "\"HostnamePath\":\"/var/lib/docker/containers/%s/hostname\","
                 "\"HostsPath\":\"/var/lib/docker/containers/%s/hosts\","
                 "\"LogPath\":\"/var/lib/docker/containers/%s/%s-json.log\",",
              c.id, c.id, c.id, c.id, c.id);
    sb_printf(b, "\"Name\":\"%s\",\"RestartCount\":0,\"Driver\":\"overlay2\",\"Platform\":\"linux\",\"MountLabel\":\"\","
                 "\"ProcessLabel\":\"\",\"AppArmorProfile\":\"docker-default\",\"ExecIDs\":null,",
              nm);
    sb_printf(b, "\"HostConfig\":{\"Binds\":null,\"ContainerIDFile\":\"\",\"LogConfig\":{\"Type\":\"json-file\",\"Config\":{}},"
                 "\"NetworkMode\":\"%s_default\",\"PortBindings\":{},\"RestartPolicy\":{\"Name\":\"unless-stopped\","
                 "\"MaximumRetryCount\":0},\"AutoRemove\":false,\"VolumeDriver\":\"\",\"VolumesFrom\":null,"
                 "\"CapAdd\":null,\"CapDrop\":null,\"CgroupnsMode\":\"private\",\"Dns\":[],\"DnsOptions\":[],"
                 "\"DnsSearch\":[],\"ExtraHosts\":[],\"GroupAdd\":null,\"IpcMode\":\"private\",\"Cgroup\":\"\","
                 "\"Links\":null,\"OomScoreAdj\":0,\"PidMode\":\"\",\"Privileged\":false,\"PublishAllPorts\":false,"
                 "\"ReadonlyRootfs\":false,\"SecurityOpt\":null,\"UTSMode\":\"\",\"UsernsMode\":\"\",\"ShmSize\":67108864,"
                 "\"Runtime\":\"runc\",\"Isolation\":\"\",\"CpuShares\":0,\"Memory\":%u,\"NanoCpus\":0,"
                 "\"CgroupParent\":\"\",\"BlkioWeight\":0,\"CpuPeriod\":0,\"CpuQuota\":0,\"CpusetCpus\":\"\","
                 "\"Devices\":null,\"MemoryReservation\":0,\"MemorySwap\":0,\"PidsLimit\":null,\"Ulimits\":null,"
                 "\"MaskedPaths\":[\"/proc/asound\",\"/proc/acpi\",\"/proc/kcore\",\"/proc/keys\",\"/proc/timer_list\","
                 "\"/sys/firmware\"],\"ReadonlyPaths\":[\"/proc/bus\",\"/proc/fs\",\"/proc/irq\",\"/proc/sys\"]},",
              apps[c.app].project, below(4) ? 0 : 536870912u);
    char l1[65], l2[65];
    hex(l1, 64);
    hex(l2, 64);
    sb_printf(b, "\"GraphDriver\":{\"Data\":{\"LowerDir\":\"/var/lib/docker/overlay2/%s-init/diff:"
                 "/var/lib/docker/overlay2/%s/diff\",\"MergedDir\":\"/var/lib/docker/overlay2/%s/merged\","
                 "\"UpperDir\":\"/var/lib/docker/overlay2/%s/diff\",\"WorkDir\":\"/var/lib/docker/overlay2/%s/work\"},"
                 "\"Name\":\"overlay2\"},\"Mounts\":",
              l1, l2, l1, l1, l1);
    mounts(b, &c);
    sb_printf(b, ",\"Config\":{\"Hostname\":\"%.12s\",\"Domainname\":\"\",\"User\":\"\",\"AttachStdin\":false,"
                 "\"AttachStdout\":true,\"AttachStderr\":true,\"ExposedPorts\":{\"%d/tcp\":{}},\"Tty\":false,"
                 "\"OpenStdin\":false,\"StdinOnce\":false,\"Env\":[\"PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:"
                 "/usr/bin:/sbin:/bin\",\"TZ=UTC\",\"LANG=C.UTF-8\",\"APP_ENV=production\"],\"Cmd\":[\"%s\"],"
                 "\"Image\":\"%s\",\"Volumes\":null,\"WorkingDir\":\"/\",\"Entrypoint\":[\"/docker-entrypoint.sh\"],"
                 "\"OnBuild\":null,\"Labels\":",
              c.id, apps[c.app].port, apps[c.app].service, apps[c.app].image);
    labels(b, &c);
    sb_printf(b, "},\"NetworkSettings\":{\"Bridge\":\"\",\"SandboxID\":\"%s\",\"HairpinMode\":false,"
                 "\"LinkLocalIPv6Address\":\"\",\"LinkLocalIPv6PrefixLen\":0,\"Ports\":{},"
                 "\"SandboxKey\":\"/var/run/docker/netns/%.12s\",\"SecondaryIPAddresses\":null,"
                 "\"SecondaryIPv6Addresses\":null,\"EndpointID\":\"\",\"Gateway\":\"\",\"GlobalIPv6Address\":\"\","
                 "\"GlobalIPv6PrefixLen\":0,\"IPAddress\":\"\",\"IPPrefixLen\":0,\"IPv6Gateway\":\"\","
                 "\"MacAddress\":\"\",\"Networks\":",
              l2, l2);
    network(b, &c);
    sb_put(b, "}}");
}

static const char *const actions[] = { "create", "start", "die", "stop", "kill", "destroy", "health_status: healthy",
                                       "exec_start: sh -c true" };

static void event_line(sb *b, unsigned i)
{
    ctr c;
    make_ctr(&c, i % 300);
    unsigned t = 1705327200u + i / 10;
    if (below(100) < 18) {
        /* Network events have no "status", "id" or "from". */
        sb_printf(b, "{\"Type\":\"network\",\"Action\":\"%s\",\"Actor\":{\"ID\":\"%s\",\"Attributes\":{\"container\":\"%s\","
                     "\"name\":\"%s_default\",\"type\":\"bridge\"}},\"scope\":\"local\",\"time\":%u,\"timeNano\":%u%09u}\n",
                  below(2) ? "connect" : "disconnect", c.net_id, c.id, apps[c.app].project, t, t, below(1000000000u));
        return;
    }
    const char *a = actions[below(8)];
    char nm[128];
    name(nm, sizeof nm, &c);
    sb_printf(b, "{\"status\":\"%s\",\"id\":\"%s\",\"from\":\"%s\",\"Type\":\"container\",\"Action\":\"%s\","
                 "\"Actor\":{\"ID\":\"%s\",\"Attributes\":{",
              a, c.id, apps[c.app].image, a, c.id);
    if (c.compose)
        sb_printf(b, "\"com.docker.compose.config-hash\":\"%s\",\"com.docker.compose.container-number\":\"%u\","
                     "\"com.docker.compose.oneoff\":\"False\",\"com.docker.compose.project\":\"%s\","
                     "\"com.docker.compose.service\":\"%s\",\"com.docker.compose.version\":\"2.23.3\",",
                  c.hash, c.num, apps[c.app].project, apps[c.app].service);
    sb_printf(b, "\"image\":\"%s\",\"name\":\"%s\"}},\"scope\":\"local\",\"time\":%u,\"timeNano\":%u%09u}\n",
              apps[c.app].image, nm + 1, t, t, below(1000000000u));
}

int bench_gen(const char *mode, unsigned n, char **out, size_t *len)
{
    sb b = { 0 };
    rng = 0x6a646f63u; /* "jdoc" */
    if (!strcmp(mode, "list") || !strcmp(mode, "inspect-array")) {
        bool list = !strcmp(mode, "list");
        sb_put(&b, "[");
        for (unsigned i = 0; i < n && !b.oom; i++) {
            if (i)
                sb_put(&b, ",");
            if (list)
                list_item(&b, i);
            else
                inspect_item(&b, i);
        }
        sb_put(&b, "]");
    } else if (!strcmp(mode, "events")) {
        for (unsigned i = 0; i < n && !b.oom; i++)
            event_line(&b, i);
    } else {
        return -1;
    }
    if (b.oom) {
        free(b.d);
        return -1;
    }
    *out = b.d;
    *len = b.len;
    return 0;
}

int bench_gen_main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: bench --gen list|inspect-array|events N\n");
        return 2;
    }
    char *d;
    size_t len;
    if (bench_gen(argv[0], (unsigned)strtoul(argv[1], NULL, 10), &d, &len) != 0) {
        fprintf(stderr, "bench --gen: unknown mode '%s' or out of memory\n", argv[0]);
        return 2;
    }
    int rc = fwrite(d, 1, len, stdout) == len ? 0 : 1;
    free(d);
    return rc;
}

int bench_data_load(const bench_ctx *ctx, const char *name, const char *mode, unsigned n, bench_file *f,
                    char *source, size_t cap)
{
    char dir[4096], path[4200];
    if (ctx->data_dir)
        snprintf(dir, sizeof dir, "%s", ctx->data_dir);
    else
        snprintf(dir, sizeof dir, "%s/data", ctx->out_dir);
    snprintf(path, sizeof path, "%s/%s", dir, name);
    if (bench_file_load(path, f) == 0) {
        /* make bench writes NAME.src: the command that generated it. */
        char src_path[4300], line[256] = "";
        snprintf(src_path, sizeof src_path, "%s.src", path);
        FILE *fp = fopen(src_path, "r");
        if (fp) {
            if (fgets(line, sizeof line, fp))
                line[strcspn(line, "\n")] = 0;
            fclose(fp);
        }
        snprintf(source, cap, "%s (%s)", path, line[0] ? line : "generator unknown");
        return 0;
    }
    char *d;
    size_t len;
    if (bench_gen(mode, n, &d, &len) != 0) {
        printf("%s: cannot generate (out of memory)\n", name);
        return -1;
    }
    memset(f, 0, sizeof *f);
    f->data = aligned_alloc(64, (len + 1 + 63) / 64 * 64);
    if (!f->data) {
        free(d);
        printf("%s: out of memory\n", name);
        return -1;
    }
    memcpy(f->data, d, len);
    f->data[len] = 0;
    free(d);
    f->len = len;
    f->path = strdup(name);
    f->name = strdup(name);
    snprintf(source, cap, "in memory: the benchmark's fallback generator, `bench --gen %s %u` (no %s)", mode, n, path);
    return 0;
}
