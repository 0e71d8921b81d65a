/* source.c: takes paths, gives their text loaded once per real path and the paths as the
 * outputs write them (--prefix-map); reports errors as `file:line:col: error: msg` with the
 * source line and a caret. */
#include "fpo.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static FpoFile *files, **files_tail = &files;
static size_t files_bytes;   /* their texts' bytes, at most FPO_MAX_SOURCES */
static jmp_buf *catcher;
char fpo_errmsg[1024];
bool fpo_quiet;
bool fpo_no_disk;
static FILE *diag;   /* where diagnostics go: stderr unless set */

void fpo_set_diagnostics(void *stream) { diag = stream; }

static FILE *out(void) { return diag ? diag : stderr; }

FpoFile *fpo_files(void) { return files; }

void fpo_sources_reset(void) {
    files = NULL;
    files_tail = &files;
    files_bytes = 0;
}

static FpoFile *add_file(const char *real, char *text, size_t len) {
    FpoFile *f = fpo_new(sizeof *f);
    f->path = fpo_strdup(real);
    f->text = text;
    f->len = len;
    *files_tail = f;
    files_tail = &f->next;
    return f;
}

typedef struct PrefixMap {
    const char *old, *new_;
} PrefixMap;

static PrefixMap *maps;
static int nmaps;

void fpo_add_prefix_map(const char *old, const char *new_) {
    VPUSH(maps, nmaps, ((PrefixMap){fpo_strdup(old), fpo_strdup(new_)}));
}

const char *fpo_shown_path(const char *path) {
    for (int i = nmaps - 1; i >= 0; i--) {
        size_t n = strlen(maps[i].old);
        if (!strncmp(path, maps[i].old, n))
            return fpo_fmt("%s%s", maps[i].new_, path + n);
    }
    return path;
}

const char *fpo_loc_path(Loc loc) { return loc.file ? fpo_shown_path(loc.file->path) : "?"; }

FpoFile *fpo_file_named(const char *path) {
    for (FpoFile *f = files; f; f = f->next)
        if (!strcmp(f->path, path))
            return f;
    return add_file(path, NULL, 0);
}

FpoFile *fpo_source_from_memory(const char *path, const char *text, size_t len) {
    char *copy = fpo_new(len + 1);
    memcpy(copy, text, len);
    return add_file(path, copy, len);
}

/* Read a regular file of at most `max` bytes: opened without blocking (a FIFO or a device does
 * not hang), checked with fstat before anything is read. */
char *fpo_read_file(const char *path, const char *shown, size_t max, size_t *len) {
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) {
        snprintf(fpo_errmsg, sizeof fpo_errmsg, "cannot open '%s': %s", shown, strerror(errno));
        return NULL;
    }
    struct stat st;
    if (fstat(fd, &st) || !S_ISREG(st.st_mode)) {
        snprintf(fpo_errmsg, sizeof fpo_errmsg, "cannot read '%s': not a regular file", shown);
        close(fd);
        return NULL;
    }
    if ((unsigned long long)st.st_size > max) {
        snprintf(fpo_errmsg, sizeof fpo_errmsg,
                 "cannot read '%s': %lld bytes, more than a source file may have (%zu)", shown,
                 (long long)st.st_size, max);
        close(fd);
        return NULL;
    }
    /* One byte more than the size: a file that grew past the limit is refused too. */
    size_t cap = (size_t)st.st_size + 1, n = 0;
    char *text = fpo_new(cap + 1);
    for (;;) {
        ssize_t r = read(fd, text + n, cap - n);
        if (r < 0 && errno == EINTR)
            continue;
        if (r < 0) {
            snprintf(fpo_errmsg, sizeof fpo_errmsg, "cannot read '%s': %s", shown,
                     strerror(errno));
            close(fd);
            return NULL;
        }
        if (r == 0)
            break;
        n += (size_t)r;
        if (n == cap) {
            if (n > max) {
                snprintf(fpo_errmsg, sizeof fpo_errmsg,
                         "cannot read '%s': more than a source file may have (%zu bytes)", shown,
                         max);
                close(fd);
                return NULL;
            }
            char *more = fpo_new(cap * 2 + 1);
            memcpy(more, text, n);
            text = more;
            cap *= 2;
        }
    }
    close(fd);
    text[n] = 0;
    *len = n;
    return text;
}

FpoFile *fpo_load(const char *path) { return fpo_load_as(path, path); }

FpoFile *fpo_load_as(const char *path, const char *shown) {
    for (FpoFile *f = files; f; f = f->next)   /* in-memory sources go by their name */
        if (!strcmp(f->path, path) && f->text)
            return f;
    char real[PATH_MAX];
    if (fpo_no_disk) {
        snprintf(fpo_errmsg, sizeof fpo_errmsg, "cannot open '%s': no such source", shown);
        return NULL;
    }
    if (strlen(path) >= PATH_MAX) {
        snprintf(fpo_errmsg, sizeof fpo_errmsg, "cannot open '%.200s...': the path is too long",
                 shown);
        return NULL;
    }
    if (!realpath(path, real)) {
        snprintf(fpo_errmsg, sizeof fpo_errmsg, "cannot open '%s': %s", shown, strerror(errno));
        return NULL;
    }
    for (FpoFile *f = files; f; f = f->next)
        if (!strcmp(f->path, real) && f->text)
            return f;
    size_t len;
    char *text = fpo_read_file(real, shown, FPO_MAX_SOURCE, &len);
    if (!text)
        return NULL;
    if (len > FPO_MAX_SOURCES - files_bytes) {
        snprintf(fpo_errmsg, sizeof fpo_errmsg,
                 "cannot read '%s': the source files would come to more than %d bytes in all",
                 shown, FPO_MAX_SOURCES);
        return NULL;
    }
    files_bytes += len;
    return add_file(real, text, len);
}

char *fpo_read_stream(void *stream) {
    FILE *f = stream;
    Buf b = {0};
    char chunk[4096];
    size_t n;
    while ((n = fread(chunk, 1, sizeof chunk, f)) > 0)
        buf_addn(&b, chunk, n);
    if (ferror(f))
        return NULL;
    buf_add(&b, "");
    return b.s;
}

int fpo_try(void (*fn)(void *), void *arg) {
    jmp_buf jb, *prev = catcher;
    int rc = -1;
    catcher = &jb;
    if (!setjmp(jb)) {
        fn(arg);
        rc = 0;
    }
    catcher = prev;
    return rc;
}

static _Noreturn void fail(void) {
    if (catcher)
        longjmp(*catcher, 1);
    exit(1);   /* no handler: a generator bug; main always sets one */
}

/* The source line of `loc` and a caret under its column, as one write. A long line is cut to
 * a window of FPO_SHOWN_COLS columns around the column, "..." marking what is left out;
 * control bytes show as '?'. */
static void print_line(Loc loc) {
    if (!loc.file || !loc.file->text || loc.line < 1 || loc.col < 1)
        return;
    const char *p = loc.file->text, *end = p + loc.file->len;
    for (int l = 1; l < loc.line && p < end; p++)
        if (*p == '\n')
            l++;
    const char *e = memchr(p, '\n', (size_t)(end - p));
    size_t len = e ? (size_t)(e - p) : (size_t)(end - p);
    if (len && p[len - 1] == '\r')
        len--;
    size_t col = (size_t)loc.col - 1;   /* 0-based; may be len (the end of the line) */
    if (col > len)
        col = len;
    size_t from = 0, to = len;
    enum { HALF = FPO_SHOWN_COLS / 2 };
    if (len > FPO_SHOWN_COLS) {
        from = col > HALF ? col - HALF : 0;
        to = from + FPO_SHOWN_COLS < len ? from + FPO_SHOWN_COLS : len;
    }
    Buf b = {0};
    const char *pre = from ? "..." : "";
    buf_add(&b, pre);
    for (size_t i = from; i < to; i++) {
        unsigned char c = (unsigned char)p[i];
        char ch = c == '\t' || (c >= 0x20 && c != 0x7f) ? (char)c : '?';
        buf_addn(&b, &ch, 1);
    }
    buf_add(&b, to < len ? "...\n" : "\n");
    buf_add(&b, from ? "   " : "");
    for (size_t i = from; i < col; i++)
        buf_add(&b, p[i] == '\t' ? "\t" : " ");
    buf_add(&b, "^\n");
    fwrite(b.s, 1, b.len, out());
}

void fpo_error_at(Loc loc, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(fpo_errmsg, sizeof fpo_errmsg, fmt, ap);
    va_end(ap);
    if (!fpo_quiet) {
        if (loc.file)
            fprintf(out(), "%s:%d:%d: error: %s\n", loc.file->path, loc.line, loc.col, fpo_errmsg);
        else
            fprintf(out(), "fpo-gen: error: %s\n", fpo_errmsg);
        print_line(loc);
    }
    fail();
}

void fpo_warning_at(Loc loc, const char *fmt, ...) {
    char msg[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (fpo_quiet)
        return;
    if (loc.file)
        fprintf(out(), "%s:%d:%d: warning: %s\n", loc.file->path, loc.line, loc.col, msg);
    else
        fprintf(out(), "fpo-gen: warning: %s\n", msg);
    print_line(loc);
}

void fpo_error(const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(fpo_errmsg, sizeof fpo_errmsg, fmt, ap);
    va_end(ap);
    if (!fpo_quiet)
        fprintf(out(), "fpo-gen: error: %s\n", fpo_errmsg);
    fail();
}
