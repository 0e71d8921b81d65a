/* pass_corners.c: takes the flattened IR of a fused build, gives each copy_corners of a 3D field
 * parameter as a stencil call (one single-point region per corner-block cell, copying its
 * source at a constant offset: FV3's quarter turn about the tile corner, as halo/corners.c
 * does), so the fill runs level by level inside the fused group around it instead of ending
 * the block. The unfused reference keeps the halo library's fill: the two agree bit for bit. */
#include "opt.h"

#include <string.h>

/* The offset from corner-block cell (p, q) to its source. (p, q) is the cell relative to the
 * corner point: p in -d .. -1 west of it, 0 .. d - 1 east, q alike; `corner` SW 0, SE 1, NW 2,
 * NE 3; dir 0 X (the source lies in the W / E halo), 1 Y (in the S / N halo). In doubled
 * coordinates the cell's centre is (2p + 1, 2q + 1); a quarter turn t (+1 counter-clockwise)
 * takes (a, b) to (-t b, t a). */
static void source_offset(int corner, int dir, int p, int q, int *di, int *dj) {
    bool sw_ne = corner == 0 || corner == 3;
    int t = sw_ne == (dir == 0) ? -1 : 1;
    int a = 2 * p + 1, b = 2 * q + 1;
    int sa = t > 0 ? -b : b, sb = t > 0 ? a : -a;   /* odd: the source is a cell centre */
    *di = (sa - 1) / 2 - p;
    *dj = (sb - 1) / 2 - q;
}

/* A region axis holding one tile index: start + p (west or south) or end + p. */
static RegionAxis one_cell(bool at_end, int p) {
    RegionAxis r = {0};
    r.lo_base = r.hi_base = at_end ? RB_END : RB_START;
    r.lo = p;
    r.hi = p + 1;
    return r;
}

static Node *access(Var *v, int di, int dj, Loc loc) {
    Node *n = new_node(ND_ACCESS, loc);
    n->var = v;
    n->dt = v->dt;
    n->off[0] = di;
    n->off[1] = dj;
    return n;
}

static bool stencil_named(Ir *ir, const char *name) {
    for (int i = 0; i < ir->nstencils; i++)
        if (!strcmp(ir->stencils[i]->name, name))
            return true;
    return false;
}

/* The fill stencil for (dir, depth, dtype): one per combination, made on first use. Its
 * parameters: `q` written at the corner cells, `src` read at their sources (a call passes the
 * field for both: the cells read are never the cells written). */
static Decl *fill_stencil(Ir *ir, int dir, int64_t depth, DType dt, Loc loc) {
    const char *base = fpo_fmt("copy_corners_%s%lld%s", dir ? "y" : "x", (long long)depth,
                               dt == DT_F32 ? "_f32" : "");
    for (int i = 0; i < ir->nstencils; i++)
        if (ir->stencils[i]->corners == depth && ir->stencils[i]->corners_dir == dir &&
            ir->stencils[i]->params[0]->dt == dt)
            return ir->stencils[i];
    const char *name = base;
    for (int n = 1; stencil_named(ir, name); n++)
        name = fpo_fmt("%s_%d", base, n);
    Decl *s = fpo_new(sizeof *s);
    s->kind = D_STENCIL;
    s->name = fpo_strdup(name);
    s->loc = loc;
    s->corners = depth;
    s->corners_dir = dir;
    Var *q = new_var("q", loc, VK_PARAM, dt, AX_IJK), *src = new_var("src", loc, VK_PARAM, dt, AX_IJK);
    q->written = true;
    q->id = 0;
    src->id = 1;
    VPUSH(s->params, s->nparams, q);
    VPUSH(s->params, s->nparams, src);
    Node head = {0}, *tail = &head;
    for (int corner = 0; corner < 4; corner++)
        for (int q0 = 0; q0 < depth; q0++)
            for (int p0 = 0; p0 < depth; p0++) {
                int p = corner & 1 ? p0 : p0 - (int)depth, qq = corner & 2 ? q0 : q0 - (int)depth;
                int di, dj;
                source_offset(corner, dir, p, qq, &di, &dj);
                Node *r = new_node(ND_REGION, loc);
                /* tile index N - 1 + k is `end + k`: the cell nx + p is end + p + 1 */
                r->reg[0] = one_cell(corner & 1, corner & 1 ? p + 1 : p);
                r->reg[1] = one_cell(corner & 2, corner & 2 ? qq + 1 : qq);
                Node *a = new_node(ND_ASSIGN, loc);
                a->op = "=";
                a->lhs = access(q, 0, 0, loc);
                a->rhs = access(src, di, dj, loc);
                r->body = a;
                tail = tail->next = r;
            }
    Comp c = {loc, ORD_PARALLEL, NULL, 0};
    Interval iv = {loc, {B_BOTTOM, 0, NULL, 1}, {B_TOP, 0, NULL, 1}, head.next};
    VPUSH(c.ivs, c.nivs, iv);
    VPUSH(s->comps, s->ncomps, c);
    VPUSH(ir->stencils, ir->nstencils, s);
    return s;
}

static bool is_param(Ir *ir, Var *v) {
    for (int i = 0; i < ir->nparams; i++)
        if (ir->params[i] == v)
            return true;
    return false;
}

static void rewrite(Ir *ir, Node *list, int halo) {
    for (Node *n = list; n; n = n->next) {
        rewrite(ir, n->body, halo);
        rewrite(ir, n->then, halo);
        rewrite(ir, n->els, halo);
        Var *v = n->kind == ND_HALO && n->halo.op == HO_COPY_CORNERS ? n->args->var : NULL;
        /* (a program temporary's extents are the optimizer's: reads in the halo would widen
         * what its writers compute; a parameter's halo is the caller's) */
        if (!v || v->ax != AX_IJK || !is_param(ir, v))
            continue;
        int64_t depth = n->halo.depth ? n->halo.depth : halo;
        Node *st = new_node(ND_STAGE, n->loc);
        st->decl = fill_stencil(ir, n->halo.dir, depth, v->dt, n->loc);
        st->argv = fpo_new(sizeof(Node *) * 3);
        st->argv[0] = access(v, 0, 0, n->args->loc);
        st->argv[1] = access(v, 0, 0, n->args->loc);
        st->dom.lo[0] = (DBound){DB_ZERO, -depth};
        st->dom.hi[0] = (DBound){DB_NX, depth};
        st->dom.lo[1] = (DBound){DB_ZERO, -depth};
        st->dom.hi[1] = (DBound){DB_NY, depth};
        st->dom.lo[2] = (DBound){DB_ZERO, 0};
        st->dom.hi[2] = (DBound){DB_NZ, 0};
        n->kind = ND_STAGES;   /* (keeping `halo` and `args` for bind's message on thin halos) */
        n->body = st;
    }
}

void fpo_pass_corners(Ir *ir, int halo) {
    rewrite(ir, ir->body, halo);
}
