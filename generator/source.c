/* source.c: takes paths, gives their text loaded once per real path; reports errors as
 * `file:line:col: error: msg` with the source line and a caret. */
#include "fpo.h"

#include <errno.h>
#include <limits.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static FpoFile *files, **files_tail = &files;
static jmp_buf *catcher;
char fpo_errmsg[1024];
bool fpo_quiet;

FpoFile *fpo_files(void) { return files; }

void fpo_sources_reset(void) {
    files = NULL;
    files_tail = &files;
}

static FpoFile *add_file(const char *real, char *text) {
    FpoFile *f = fpo_new(sizeof *f);
    f->path = fpo_strdup(real);
    f->text = text;
    *files_tail = f;
    files_tail = &f->next;
    return f;
}

FpoFile *fpo_file_named(const char *path) {
    for (FpoFile *f = files; f; f = f->next)
        if (!strcmp(f->path, path))
            return f;
    return add_file(path, NULL);
}

FpoFile *fpo_load(const char *path) {
    char real[PATH_MAX];
    if (!realpath(path, real)) {
        snprintf(fpo_errmsg, sizeof fpo_errmsg, "cannot open '%s': %s", path, strerror(errno));
        return NULL;
    }
    for (FpoFile *f = files; f; f = f->next)
        if (!strcmp(f->path, real) && f->text)
            return f;
    FILE *fp = fopen(real, "rb");
    if (!fp) {
        snprintf(fpo_errmsg, sizeof fpo_errmsg, "cannot open '%s': %s", path, strerror(errno));
        return NULL;
    }
    char *text = fpo_read_stream(fp);
    fclose(fp);
    if (!text) {
        snprintf(fpo_errmsg, sizeof fpo_errmsg, "cannot read '%s'", path);
        return NULL;
    }
    return add_file(real, text);
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

static void print_line(Loc loc) {
    if (!loc.file || !loc.file->text || loc.line < 1)
        return;
    const char *p = loc.file->text;
    for (int l = 1; l < loc.line && *p; p++)
        if (*p == '\n')
            l++;
    const char *e = strchr(p, '\n');
    int len = e ? (int)(e - p) : (int)strlen(p);
    fprintf(stderr, "%.*s\n", len, p);
    for (int c = 1; c < loc.col && c <= len; c++)
        fputc(p[c - 1] == '\t' ? '\t' : ' ', stderr);
    fputs("^\n", stderr);
}

void fpo_error_at(Loc loc, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(fpo_errmsg, sizeof fpo_errmsg, fmt, ap);
    va_end(ap);
    if (!fpo_quiet) {
        if (loc.file)
            fprintf(stderr, "%s:%d:%d: error: %s\n", loc.file->path, loc.line, loc.col, fpo_errmsg);
        else
            fprintf(stderr, "fpo-gen: error: %s\n", fpo_errmsg);
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
        fprintf(stderr, "%s:%d:%d: warning: %s\n", loc.file->path, loc.line, loc.col, msg);
    else
        fprintf(stderr, "fpo-gen: warning: %s\n", msg);
    print_line(loc);
}

void fpo_error(const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(fpo_errmsg, sizeof fpo_errmsg, fmt, ap);
    va_end(ap);
    if (!fpo_quiet)
        fprintf(stderr, "fpo-gen: error: %s\n", fpo_errmsg);
    fail();
}
