/* check.h: what the unit tests share: CHECK macros that count failures and print what differs,
 * sources written to a temporary folder, and running a front-end stage with errors caught. */
#ifndef FPO_UNIT_CHECK_H
#define FPO_UNIT_CHECK_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fpo.h"

static int check_failures;

#define CHECK(cond)                                                                           \
    do {                                                                                      \
        if (!(cond)) {                                                                        \
            fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond);          \
            check_failures++;                                                                 \
        }                                                                                     \
    } while (0)

#define CHECK_STR(got, want)                                                                  \
    do {                                                                                      \
        const char *g_ = (got), *w_ = (want);                                                 \
        if (!g_ || strcmp(g_, w_)) {                                                          \
            fprintf(stderr, "%s:%d: got '%s', want '%s'\n", __FILE__, __LINE__,               \
                    g_ ? g_ : "(null)", w_);                                                  \
            check_failures++;                                                                 \
        }                                                                                     \
    } while (0)

#define CHECK_INT(got, want)                                                                  \
    do {                                                                                      \
        long long g_ = (long long)(got), w_ = (long long)(want);                              \
        if (g_ != w_) {                                                                       \
            fprintf(stderr, "%s:%d: %s is %lld, want %lld\n", __FILE__, __LINE__, #got, g_,   \
                    w_);                                                                      \
            check_failures++;                                                                 \
        }                                                                                     \
    } while (0)

/* A folder for the test's source files. */
static char check_dir[256];

static const char *check_write(const char *name, const char *text) {
    if (!check_dir[0]) {
        snprintf(check_dir, sizeof check_dir, "/tmp/fpo-unit-XXXXXX");
        if (!mkdtemp(check_dir)) {
            perror("mkdtemp");
            exit(2);
        }
    }
    char *path = fpo_fmt("%s/%s", check_dir, name);
    FILE *f = fopen(path, "w");
    if (!f) {
        perror(path);
        exit(2);
    }
    fputs(text, f);
    fclose(f);
    return path;
}

/* Parse `text` (as file `name`) and check it with `defs`; the front end up to sema. */
typedef struct Front {
    const char *path;
    Define *defs;
    int ndefs;
    Decl **decls;
    int ndecls;
} Front;

static void check_front_run(void *arg) {
    Front *f = arg;
    long nodes = 0;
    fpo_parse_file(f->path, (Loc){0}, true, &f->decls, &f->ndecls, &nodes);
    fpo_sema(f->decls, f->ndecls, f->defs, f->ndefs);
}

/* 0 when `text` passes sema, else -1 with the message in fpo_errmsg. */
static int check_front(const char *name, const char *text, Front *f) {
    memset(f, 0, sizeof *f);
    f->path = check_write(name, text);
    fpo_sources_reset();
    fpo_quiet = true;
    return fpo_try(check_front_run, f);
}

/* The front end through lowering: the IR of `program` (NULL: the only one) in `path`. */
typedef struct Lowered {
    const char *path, *program;
    Ir *ir;
} Lowered;

static void check_lower_run(void *arg) {
    Lowered *l = arg;
    Decl **decls = NULL;
    int n = 0;
    long nodes = 0;
    fpo_parse_file(l->path, (Loc){0}, true, &decls, &n, &nodes);
    fpo_sema(decls, n, NULL, 0);
    l->ir = fpo_lower(fpo_find_program(decls, n, l->program));
}

/* NULL after printing the error. */
static Ir *check_lower(const char *path, const char *program) {
    Lowered l = {path, program, NULL};
    fpo_sources_reset();
    fpo_quiet = false;
    return fpo_try(check_lower_run, &l) ? NULL : l.ir;
}

static Decl *check_decl(Front *f, const char *name) {
    for (int i = 0; i < f->ndecls; i++)
        if (f->decls[i]->name && !strcmp(f->decls[i]->name, name))
            return f->decls[i];
    return NULL;
}

static int check_done(const char *what) {
    if (check_dir[0]) {
        char *cmd = fpo_fmt("rm -rf '%s'", check_dir);
        if (system(cmd)) {
        }
    }
    fpo_arena_free();
    if (check_failures) {
        fprintf(stderr, "%s: %d check(s) failed\n", what, check_failures);
        return 1;
    }
    printf("%s: all checks passed\n", what);
    return 0;
}

#endif
