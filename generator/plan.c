/* plan.c: takes the outputs and inputs of a run, gives the plan file CMake reads at configure
 * time and the Makefile-style depfile the build step writes. */
#include "fpo.h"

#include <stdio.h>
#include <string.h>

/* A CMake list: elements joined by ';', quoted as a CMake string. */
static void cmake_list(Buf *b, const char *dir, char **items, int n) {
    buf_add(b, "\"");
    for (int i = 0; i < n; i++) {
        const char *s = dir ? fpo_fmt("%s/%s", dir, items[i]) : items[i];
        if (i)
            buf_add(b, ";");
        for (; *s; s++) {
            if (*s == '\n' || *s == '\r' || *s == '\t') {   /* CMake's escapes: one line */
                buf_add(b, *s == '\n' ? "\\n" : *s == '\r' ? "\\r" : "\\t");
                continue;
            }
            if (*s == '"' || *s == '\\' || *s == '$' || *s == ';')
                buf_add(b, "\\");
            buf_addn(b, s, 1);
        }
    }
    buf_add(b, "\"");
}

char *fpo_plan(Ir *ir, const char *outdir, char **names, int nnames, const Build *bd) {
    char *report = fpo_report(ir, bd);
    Buf b = {0};
    buf_printf(&b, "# fpo-gen plan for program '%s'\n", ir->name);
    buf_printf(&b, "set(FPO_PLAN_PROGRAM \"%s\")\n", ir->name);
    buf_add(&b, "set(FPO_PLAN_OUTPUTS ");
    cmake_list(&b, outdir, names, nnames);
    buf_add(&b, ")\nset(FPO_PLAN_INPUTS ");
    cmake_list(&b, NULL, ir->inputs, ir->ninputs);
    buf_add(&b, ")\nset(FPO_PLAN_REPORT ");
    cmake_list(&b, NULL, &report, 1);
    buf_printf(&b, ")\nset(FPO_PLAN_HALO %d)\n", bd->nhalo ? 1 : 0);
    return b.s;
}

/* Make's escaping, as GCC's -MD writes it: a space, tab or '#' takes a backslash, and the
 * backslashes right before it (or at the end of the word) double; '$' doubles. A newline or
 * carriage return has no escape: false, and nothing written. */
static bool make_word(Buf *b, const char *s) {
    for (const char *c = s; *c; c++)
        if (*c == '\n' || *c == '\r')
            return false;
    for (; *s; s++) {
        if (*s == '\\') {
            int n = 0;
            while (s[n] == '\\')
                n++;
            bool doubled = !s[n] || s[n] == ' ' || s[n] == '\t' || s[n] == '#';
            for (int k = 0; k < (doubled ? 2 * n : n); k++)
                buf_add(b, "\\");
            s += n - 1;
            continue;
        }
        if (*s == ' ' || *s == '\t' || *s == '#')
            buf_add(b, "\\");
        if (*s == '$')
            buf_add(b, "$");
        buf_addn(b, s, 1);
    }
    return true;
}

/* The depfile of the build step whose one target is `target` (the program's header, which
 * every build writes whatever its layouts: the step writes all the outputs, and Ninja refuses a
 * depfile naming a path that is no longer one of them, as the variants a change of LAYOUTS
 * drops would be), depending on every input read.
 * NULL, with the reason in fpo_errmsg, when a path holds a character a depfile cannot say. */
char *fpo_depfile(const char *target, char **inputs, int ninputs) {
    Buf b = {0};
    const char *bad = make_word(&b, target) ? NULL : target;
    buf_add(&b, ":");
    for (int i = 0; i < ninputs && !bad; i++) {
        buf_add(&b, " \\\n  ");
        if (!make_word(&b, inputs[i]))
            bad = inputs[i];
    }
    if (bad) {
        Buf q = {0};
        for (const char *c = bad; *c; c++)
            buf_add(&q, *c == '\n' ? "\\n" : *c == '\r' ? "\\r" : fpo_fmt("%c", *c));
        snprintf(fpo_errmsg, sizeof fpo_errmsg,
                 "the path '%s' holds a line break, which a depfile cannot hold: rename it",
                 q.s);
        return NULL;
    }
    buf_add(&b, "\n");
    return b.s;
}
