/* SPDX-License-Identifier: MIT */
/* Input for the jdoc tool: regular files are mapped (with an inaccessible page
 * after them), anything else is read into a growing buffer or, for streams,
 * left open for feed.c; byte buffers and line/column lookup. */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/stat.h>
#include <unistd.h>
#include "cli.h"

_Noreturn void die_nomem(void)
{
    fputs("jdoc: out of memory\n", stderr);
    exit(RC_USAGE);
}

void *xrealloc(void *p, size_t n)
{
    void *q = realloc(p, n ? n : 1);
    if (!q)
        die_nomem();
    return q;
}

void sb_reserve(sbuf *b, size_t extra)
{
    if (extra <= b->cap - b->len)
        return;
    if (extra > SIZE_MAX / 2 - b->len)
        die_nomem();
    size_t cap = b->cap ? b->cap : 256;
    while (cap - b->len < extra)
        cap *= 2;
    b->p = xrealloc(b->p, cap);
    b->cap = cap;
}

void sb_put(sbuf *b, const char *s, size_t n)
{
    sb_reserve(b, n);
    if (n)
        memcpy(b->p + b->len, s, n);
    b->len += n;
}

void sb_puts(sbuf *b, const char *s) { sb_put(b, s, strlen(s)); }

void sb_free(sbuf *b)
{
    free(b->p);
    *b = (sbuf){ 0 };
}

int sb_write_errno;

void sb_flush(sbuf *b)
{
    /* errors are sticky in stdout: checked between documents and at exit */
    if (b->len && fwrite(b->p, 1, b->len, stdout) != b->len && !sb_write_errno)
        sb_write_errno = errno;
    b->len = 0;
}

/* The library's limit: offsets are 32-bit. */
#define INPUT_LIMIT ((uint64_t)UINT32_MAX + 1)

/* Read all of fd into a malloc'd buffer; EFBIG once it reaches 4 GiB. */
static int read_all(input *in, int fd)
{
    size_t cap = 1 << 16, len = 0;
    char *buf = malloc(cap);
    if (!buf)
        return ENOMEM;
    for (;;) {
        if (len == cap) {
            if (cap > SIZE_MAX / 2) {
                free(buf);
                return ENOMEM;
            }
            char *nb = realloc(buf, cap * 2);
            if (!nb) {
                free(buf);
                return ENOMEM;
            }
            buf = nb;
            cap *= 2;
        }
        ssize_t r = read(fd, buf + len, cap - len);
        if (r < 0) {
            if (errno == EINTR)
                continue;
            int e = errno;
            free(buf);
            return e;
        }
        if (r == 0)
            break;
        len += (size_t)r;
        if ((uint64_t)len >= INPUT_LIMIT) {
            free(buf);
            return EFBIG;
        }
    }
    in->heap = buf;
    in->data = buf;
    in->len = len;
    return 0;
}

/*
 * Map a regular file of `size` bytes. The mapping is placed at the start of a
 * reserved area one page longer than the file, whose last page stays
 * PROT_NONE: a read past the end of the input faults at once instead of
 * quietly seeing the zero fill of the last page. Returns false to fall back
 * to read().
 */
static bool map_file(input *in, int fd, size_t size)
{
    long pg = sysconf(_SC_PAGESIZE);
    size_t page = pg > 0 ? (size_t)pg : 4096;
    if (size > SIZE_MAX - 2 * page)
        return false;
    size_t span = (size + page - 1) / page * page + page;
    void *area = mmap(NULL, span, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (area == MAP_FAILED)
        return false;
    int flags = MAP_PRIVATE | MAP_FIXED;
#ifdef MAP_POPULATE
    flags |= MAP_POPULATE;   /* stage 1 reads it all anyway: fault it in up front */
#endif
    if (mmap(area, size, PROT_READ, flags, fd, 0) == MAP_FAILED) {
        munmap(area, span);
        return false;
    }
    in->map = area;
    in->maplen = span;
    in->data = area;
    in->len = size;
    return true;
}

/* A Unix stream socket named by `path` (open() says ENXIO for those):
 * connect and read what the other end sends. */
static int connect_socket(const char *path, int *fd, bool *owned)
{
    struct stat st;
    struct sockaddr_un sa = { .sun_family = AF_UNIX };
    if (stat(path, &st) != 0 || !S_ISSOCK(st.st_mode))
        return ENXIO;
    if (strlen(path) >= sizeof sa.sun_path)
        return ENAMETOOLONG;
    strcpy(sa.sun_path, path);
    *fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (*fd < 0)
        return errno;
    int r;
    do
        r = connect(*fd, (struct sockaddr *)&sa, sizeof sa);
    while (r != 0 && errno == EINTR);
    if (r != 0) {
        int e = errno;
        close(*fd);
        return e;
    }
    *owned = true;
    return 0;
}

/* Open `path` ("-": stdin, not opened) into *fd; *owned when it must be closed. */
static int open_path(const char *path, int *fd, bool *owned)
{
    if (strcmp(path, "-") == 0) {
        *fd = STDIN_FILENO;
        *owned = false;
        return 0;
    }
    do
        *fd = open(path, O_RDONLY | O_CLOEXEC);
    while (*fd < 0 && errno == EINTR);
    if (*fd < 0 && errno == ENXIO)
        return connect_socket(path, fd, owned);
    *owned = *fd >= 0;
    return *fd < 0 ? errno : 0;
}

/* A regular file from where fd stands (stdin may have been read from):
 * mapped when it starts at offset 0, else read. 4 GiB or more: EFBIG from
 * the size alone. */
static int open_regular(input *in, int fd, const struct stat *st)
{
    off_t at = lseek(fd, 0, SEEK_CUR);
    if (at < 0)
        at = 0;
    if (st->st_size > at && (uint64_t)(st->st_size - at) >= INPUT_LIMIT)
        return EFBIG;
    /* size 0 cannot be mapped: read it (an empty file, or one of /proc's) */
    if (at != 0 || st->st_size == 0 || (uint64_t)st->st_size > SIZE_MAX / 2 || !map_file(in, fd, (size_t)st->st_size))
        return read_all(in, fd);
    return 0;
}

static int open_input(input *in, const char *path, bool stream)
{
    *in = (input){ 0 };
    in->fd = -1;
    int fd;
    bool owned;
    int e = open_path(path, &fd, &owned);
    if (e)
        return e;
    struct stat st;
    if (fstat(fd, &st) != 0) {
        e = errno;
    } else if (S_ISDIR(st.st_mode)) {
        e = EISDIR;
    } else if (S_ISREG(st.st_mode)) {
        e = open_regular(in, fd, &st);
    } else if (stream) {
        in->fd = fd;   /* a pipe, FIFO, socket or terminal: read as it comes */
        in->close_fd = owned;
        return 0;
    } else {
        e = read_all(in, fd);   /* a pipe, a FIFO, a character device */
    }
    if (owned)
        close(fd);
    return e;
}

int input_open(input *in, const char *path) { return open_input(in, path, false); }
int input_open_stream(input *in, const char *path) { return open_input(in, path, true); }

void input_close(input *in)
{
    if (in->map)
        munmap(in->map, in->maplen);
    free(in->heap);
    if (in->close_fd)
        close(in->fd);
    *in = (input){ 0 };
    in->fd = -1;
}

void linemap_init(linemap *m, const char *buf, size_t len)
{
    *m = (linemap){ buf, len, 0, 1, 0 };
}

void linemap_at(linemap *m, size_t off, size_t *line, size_t *col)
{
    if (off > m->len)
        off = m->len;
    if (off < m->bol) {
        /* back to an earlier line: uncount the newlines in between */
        for (const char *p = m->buf + off; (p = memchr(p, '\n', (size_t)(m->buf + m->bol - p))) != NULL; p++)
            m->line--;
        const char *nl = memrchr(m->buf, '\n', off);
        m->bol = nl ? (size_t)(nl - m->buf) + 1 : 0;
        m->pos = off;
    }
    while (m->pos < off) {
        const char *nl = memchr(m->buf + m->pos, '\n', off - m->pos);
        if (!nl) {
            m->pos = off;
            break;
        }
        m->line++;
        m->pos = (size_t)(nl - m->buf) + 1;
        m->bol = m->pos;
    }
    *line = m->line;
    *col = off - m->bol + 1;
}
