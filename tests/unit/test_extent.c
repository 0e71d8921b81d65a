/* test_extent.c: extents and boxes (extent.c) and the demotion of point-only temporaries
 * (lower.c): what GT4Py would compute for the same stencils. */
#include "check.h"

static Decl *stencil(Ir *ir, const char *name) {
    for (int i = 0; i < ir->nstencils; i++)
        if (!strcmp(ir->stencils[i]->name, name))
            return ir->stencils[i];
    return NULL;
}

#define CHECK_EXT(x, a, b, c, d)                                                              \
    do {                                                                                      \
        CHECK_INT((x).ilo, a);                                                                \
        CHECK_INT((x).ihi, b);                                                                \
        CHECK_INT((x).jlo, c);                                                                \
        CHECK_INT((x).jhi, d);                                                                \
    } while (0)

int main(void) {
    Lowered r = {check_write("ext.fpo",
                         "stencil two(q: field<f64>, out: field<f64>, o4: field<f64>) {\n"
                         "  computation(PARALLEL) {\n"
                         "    var t = q[1, 0, 0] + q[-1, 0, 0];\n"   /* read later at offsets */
                         "    var u = 2.0 * q;\n"                    /* point only: a local */
                         "    o4 = u + t;\n"                         /* the call's domain */
                         "  }\n"
                         "  computation(PARALLEL) { out = t[1, 0, 0] - t[-1, 0, 0] + t[0, 2, 0]; }\n"
                         "}\n"
                         "stencil col(x: field<f64>, e: field<f64, IJ>) {\n"
                         "  computation(FORWARD) {\n"
                         "    interval(bottom, bottom + 1) { x = 1.0; e = x; }\n"
                         "    interval(bottom + 1, top - 1) { x = x[0, 0, -1] + 1.0; }\n"
                         "  }\n"
                         "}\n"
                         "program p(q: field<f64>, out: field<f64>, o4: field<f64>, x: field<f64>,\n"
                         "          e: field<f64, IJ>) {\n"
                         "  two(q, out, o4) domain(i: 0 .. nx + 1);\n"
                         "  col(x, e);\n"
                         "}\n"),
             NULL, NULL};
    r.ir = check_lower(r.path, NULL);
    if (!r.ir)
        return 1;
    Decl *two = stencil(r.ir, "two");
    CHECK(two != NULL);
    if (two) {
        CHECK_INT(two->ntemps, 1);   /* t stays a temporary */
        CHECK_STR(two->temps[0]->name, "t");
        CHECK_INT(two->nlocals, 1);  /* u became a per-point local */
        CHECK_STR(two->locals[0]->name, "u");
        StencilInfo *si = fpo_extent(two);
        /* computation 1: `t` (and `u`, sharing no local with it) on i -1..+1, j 0..+2;
         * `o4 = u + t` keeps the call's domain, but shares the local u with `var u`. */
        CHECK_INT(si->ngroups[0][0], 2);
        CHECK_INT(si->groups[0][0][0].first, 0);
        CHECK_INT(si->groups[0][0][0].count, 1);
        CHECK_EXT(si->groups[0][0][0].ext, -1, 1, 0, 2);
        CHECK_INT(si->groups[0][0][1].first, 1);
        CHECK_INT(si->groups[0][0][1].count, 2);
        CHECK_EXT(si->groups[0][0][1].ext, 0, 0, 0, 0);
        CHECK_INT(si->ngroups[1][0], 1);
        CHECK_EXT(si->groups[1][0][0].ext, 0, 0, 0, 0);
        /* q is read at i -2..+2 (extent -1..+1 and offsets -1..+1), j 0..+2. */
        CHECK_INT(si->nboxes[0] >= 1, 1);
        Box b = si->boxes[0][0];
        CHECK_INT(b.ilo, -2);
        CHECK_INT(b.ihi, 2);
        CHECK_INT(b.jlo, 0);
        CHECK_INT(b.jhi, 2);
        CHECK_INT(b.klo_base, KB_BOTTOM);
        CHECK_INT(b.khi_base, KB_TOP);
        /* o4 only on the call's domain. */
        Box o = si->boxes[2][0];
        CHECK_EXT(((Extent){o.ilo, o.ihi, o.jlo, o.jhi}), 0, 0, 0, 0);
    }
    Decl *col = stencil(r.ir, "col");
    CHECK(col != NULL);
    if (col) {
        StencilInfo *si = fpo_extent(col);
        /* x: a box per statement; the last, of the second interval, reads x[0, 0, -1]:
         * levels [bottom + 1 - 1, top - 1). */
        CHECK_INT(si->nboxes[0], 3);
        Box b1 = si->boxes[0][2];
        CHECK_INT(b1.klo_base, KB_BOTTOM);
        CHECK_INT(b1.klo, 0);
        CHECK_INT(b1.khi_base, KB_TOP);
        CHECK_INT(b1.khi, -1);
        CHECK_INT(si->nboxes[1], 1);   /* e, written in the first interval */
    }
    return check_done("test_extent");
}
