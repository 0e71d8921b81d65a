/* emit_fortran.c: takes a program's IR, gives NAME_fpo.f90: its Fortran module NAME_fpo, the
 * C functions of NAME.h as bind(C) interfaces over module fpo's types (runtime/fpo.f90). */
#include "fpo.h"

#include <ctype.h>
#include <string.h>

static const char *f_types[] = {"real(c_float)", "real(c_double)", "integer(c_int32_t)",
                                "logical(c_bool)"};
static const char *dtype_names[] = {"f32", "f64", "i32", "bool"};
static const char *axes_names[] = {"IJK", "IJ", "K"};

/* Fortran names: a letter first, at most 63 characters, case folded (so q and Q clash). */
static bool same_name(const char *a, const char *b) {
    for (; *a && *b; a++, b++)
        if (tolower((unsigned char)*a) != tolower((unsigned char)*b))
            return false;
    return *a == *b;
}

static void check_name(Ir *ir, Var *v, const char *name, int max) {
    if (!isalpha((unsigned char)name[0]) || (int)strlen(name) > max)
        fpo_error_at(v ? v->loc : ir->loc,
                     "the Fortran front door needs names that start with a letter, of at most %d "
                     "characters: '%s'", max, name);
    if (!v)
        return;
    if (!strncmp(name, "fpo_", 4))
        fpo_error_at(v->loc, "the Fortran front door keeps names starting with fpo_: '%s'", name);
    for (int i = 0; i < ir->nparams && ir->params[i] != v; i++)
        if (same_name(ir->params[i]->name, name))
            fpo_error_at(v->loc, "Fortran does not tell '%s' from '%s' (names ignore case)",
                         name, ir->params[i]->name);
}

Output *fpo_emit_fortran(Ir *ir, const Build *bd, Output *out, int *nout) {
    (void)bd;
    check_name(ir, NULL, ir->name, 63 - (int)strlen("_open_with"));
    Buf fields = {0}, params = {0}, decls = {0};
    for (int i = 0; i < ir->nparams; i++) {
        Var *v = ir->params[i];
        check_name(ir, v, v->name, 63);
        if (v->ax == AX_SCALAR) {
            buf_printf(&params, "        %s, &\n", v->name);
            buf_printf(&decls, "      %s, value :: %s\n", f_types[v->dt], v->name);
        } else {
            buf_printf(&fields, "    type(fpo_field) :: %s   ! field<%s, %s>\n", v->name,
                       dtype_names[v->dt], axes_names[v->ax]);
        }
    }
    buf_add(&fields, "");
    buf_add(&params, "");
    buf_add(&decls, "");
    const char *src = ir->loc.file ? strrchr(ir->loc.file->path, '/') : NULL;
    src = src ? src + 1 : ir->loc.file ? ir->loc.file->path : "IR";
    const char *keys[] = {"NAME", "SOURCE", "FIELDS", "RUN_PARAMS", "RUN_DECLS"};
    const char *vals[] = {ir->name, src, fields.s, params.s, decls.s};
    Output *o = fpo_new(sizeof(Output) * (size_t)(*nout + 1));
    memcpy(o, out, sizeof(Output) * (size_t)*nout);
    o[(*nout)++] = (Output){fpo_fmt("%s_fpo.f90", ir->name),
                            fpo_expand(fpo_tpl_program_f90, keys, vals, 5)};
    return o;
}
