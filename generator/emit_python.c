/* emit_python.c: takes a program's IR, gives NAME.py: its Python module (ctypes and NumPy) over
 * the shared library lib<NAME>.so that fpo_add_program(... PYTHON) builds beside it. */
#include "fpo.h"

#include <string.h>

static const char *dtype_names[] = {"f32", "f64", "i32", "bool"};
static const char *axes_names[] = {"IJK", "IJ", "K"};

/* Python's keywords and the names run's body uses: a scalar named so gets a trailing '_'. */
static const char *py_reserved[] = {
    "False", "None", "True", "and", "as", "assert", "async", "await", "break", "class",
    "continue", "def", "del", "elif", "else", "except", "finally", "for", "from", "global",
    "if", "import", "in", "is", "lambda", "nonlocal", "not", "or", "pass", "raise", "return",
    "try", "while", "with", "yield", "self", "err", "ctypes", NULL};

static const char *py_name(const char *name) {
    for (int i = 0; py_reserved[i]; i++)
        if (!strcmp(py_reserved[i], name))
            return fpo_fmt("%s_", name);
    return name;
}

Output *fpo_emit_python(Ir *ir, const Build *bd, Output *out, int *nout) {
    (void)bd;
    if (ir->ncallbacks)   /* C functions the caller links: a Python module has none */
        fpo_error_at(ir->loc, "the Python front door does not take programs with host "
                              "callbacks ('%s' calls '%s')", ir->name, ir->callbacks[0]->name);
    Buf fields = {0}, scalars = {0}, params = {0}, args = {0}, doc = {0};
    int nfields = 0, nscalars = 0;
    for (int i = 0; i < ir->nparams; i++) {
        Var *v = ir->params[i];
        if (v->ax == AX_SCALAR) {
            const char *n = py_name(v->name);
            buf_printf(&scalars, "(\"%s\", \"%s\"), ", v->name, dtype_names[v->dt]);
            buf_printf(&params, ", %s", n);
            buf_printf(&args, ", %s", n);
            buf_printf(&doc, "%s%s", nscalars ? ", " : "", n);
            nscalars++;
        } else {
            buf_printf(&fields, "%s(\"%s\", \"%s\", \"%s\"),", nfields ? "\n          " : "",
                       v->name, dtype_names[v->dt], axes_names[v->ax]);
            nfields++;
        }
    }
    Buf *all[] = {&fields, &scalars, &params, &args, &doc};
    for (size_t k = 0; k < sizeof all / sizeof *all; k++)
        buf_add(all[k], "");
    const char *src = ir->loc.file ? strrchr(ir->loc.file->path, '/') : NULL;
    src = src ? src + 1 : ir->loc.file ? ir->loc.file->path : "IR";
    const char *keys[] = {"NAME", "SOURCE", "FIELDS", "SCALARS", "RUN_PARAMS", "RUN_ARGS",
                          "RUN_DOC"};
    const char *vals[] = {ir->name, src, fields.s, scalars.s, params.s, args.s, doc.s};
    Output *o = fpo_new(sizeof(Output) * (size_t)(*nout + 1));
    memcpy(o, out, sizeof(Output) * (size_t)*nout);
    o[(*nout)++] = (Output){fpo_fmt("%s.py", ir->name),
                            fpo_expand(fpo_tpl_program_py, keys, vals, 7)};
    return o;
}
