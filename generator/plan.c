/* plan.c: takes the outputs and inputs of a run, gives the plan file CMake reads at configure
 * time and the Makefile-style depfile the build step writes. */
#include "fpo.h"

#include <string.h>

/* A CMake list: elements joined by ';', quoted as a CMake string. */
static void cmake_list(Buf *b, const char *dir, char **items, int n) {
    buf_add(b, "\"");
    for (int i = 0; i < n; i++) {
        const char *s = dir ? fpo_fmt("%s/%s", dir, items[i]) : items[i];
        if (i)
            buf_add(b, ";");
        for (; *s; s++) {
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

/* Make's escaping: spaces and '#' take a backslash, '$' doubles. */
static void make_word(Buf *b, const char *s) {
    for (; *s; s++) {
        if (*s == ' ' || *s == '#' || *s == '\\')
            buf_add(b, "\\");
        if (*s == '$')
            buf_add(b, "$");
        buf_addn(b, s, 1);
    }
}

char *fpo_depfile(const char *outdir, char **names, int nnames, char **inputs, int ninputs) {
    Buf b = {0};
    for (int i = 0; i < nnames; i++) {
        if (i)
            buf_add(&b, " ");
        make_word(&b, fpo_fmt("%s/%s", outdir, names[i]));
    }
    buf_add(&b, ":");
    for (int i = 0; i < ninputs; i++) {
        buf_add(&b, " \\\n  ");
        make_word(&b, inputs[i]);
    }
    buf_add(&b, "\n");
    return b.s;
}
