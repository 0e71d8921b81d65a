/* pass_corners.c: takes the flattened IR of a fused build, gives each copy_corners and
 * fill_corners of 3D field parameters as a stencil call (one single-point region per
 * corner-block point, copying its source at a constant offset: FV3's quarter turn about the
 * tile corner, as halo/corners.c does), so the fill runs level by level inside the fused group
 * around it instead of ending the block. The unfused reference keeps the halo library's fill:
 * the two agree bit for bit. */
#include "opt.h"

#include <string.h>

/* Where component c of a halo statement's fields sits (a vector's `vector:`; scalars' `at:`):
 * 0 centre, 1 x face, 2 y face, 3 corner (as fpo_halo_pos and emit_c.c's halo_pos). */
int fpo_corner_pos(int vec, int at, int c) {
    switch (vec) {
    case HV_NONE: return at == HA_VERTEX ? 3 : 0;
    case HV_B: return 3;
    case HV_C: return c ? 2 : 1;
    case HV_D: return c ? 1 : 2;
    default: return 0;   /* HV_A */
    }
}

static int floor_half(int x) { return x >= 0 ? x / 2 : -((1 - x) / 2); }

/* The offset from corner-block point (p, q) to its source, and the quarter turn t taking it
 * there (+1 counter-clockwise). (p, q) is the point relative to the tile corner (p = i west of
 * it, i - nx east, q alike); `corner` SW 0, SE 1, NW 2, NE 3; dir 0 X (the source lies in the
 * W / E halo), 1 Y (S / N); hx, hy: 1 where the point is a cell centre on that axis. In
 * doubled coordinates from the corner the point is (2p + hx, 2q + hy); the turn takes (a, b)
 * to (-t b, t a). */
static int source_offset(int corner, int dir, int hx, int hy, int p, int q, int *di, int *dj) {
    bool sw_ne = corner == 0 || corner == 3;
    int t = sw_ne == (dir == 0) ? -1 : 1;
    int a = 2 * p + hx, b = 2 * q + hy;
    int sa = t > 0 ? -b : b, sb = t > 0 ? a : -a;
    *di = floor_half(sa) - p;
    *dj = floor_half(sb) - q;
    return t;
}

/* A region axis holding one point: tile index start + p (p < 0), or, past the end, the point
 * N + p, which is `end + p + 1`. */
static RegionAxis one_point(bool at_end, int p) {
    RegionAxis r = {0};
    r.lo_base = r.hi_base = at_end ? RB_END : RB_START;
    r.lo = at_end ? p + 1 : p;
    r.hi = r.lo + 1;
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

/* Append to *tail the regions filling component c (written through `out`, read from `src`,
 * the other component for a vector) in direction dir: every point of the four corner blocks
 * of depth d, as the halo library's fill visits them. */
static Node *fill_component(Node *tail, int vec, int at, int c, int dir, int64_t d, Var *out,
                            Var *src, Loc loc) {
    int pos = fpo_corner_pos(vec, at, c), hx = pos == 0 || pos == 2, hy = pos == 0 || pos == 1;
    for (int corner = 0; corner < 4; corner++) {
        bool east = corner & 1, north = corner & 2;
        /* west of the corner p = -d .. -1; east, the points with 2p + hx > 0 up to d - hx */
        int p0 = east ? 1 - hx : (int)-d, p1 = east ? (int)d - hx : -1;
        int q0 = north ? 1 - hy : (int)-d, q1 = north ? (int)d - hy : -1;
        for (int q = q0; q <= q1; q++)
            for (int p = p0; p <= p1; p++) {
                int di, dj;
                int t = source_offset(corner, dir, hx, hy, p, q, &di, &dj);
                Node *r = new_node(ND_REGION, loc);
                r->reg[0] = one_point(east, p);
                r->reg[1] = one_point(north, q);
                Node *a = new_node(ND_ASSIGN, loc);
                a->op = "=";
                a->lhs = access(out, 0, 0, loc);
                a->rhs = access(src, di, dj, loc);
                if (vec && (c == 0 ? t : -t) < 0) {   /* u = t v', v = -t u' of the source */
                    Node *neg = new_node(ND_UNARY, loc);
                    neg->op = "-";
                    neg->dt = out->dt;
                    neg->lhs = a->rhs;
                    a->rhs = neg;
                }
                r->body = a;
                tail = tail->next = r;
            }
    }
    return tail;
}

/* The fill stencil for (vector kind, direction, scalars' place, depth, dtype): one per
 * combination, made on first use. A scalar's parameters: `q` written at the corner points,
 * `src` read at their sources; a vector's: `u`, `v` written, `us`, `vs` read (a call passes
 * each field twice: the points read are never the points written). `at` is HA_CELL for
 * vectors (sema, ir_json). */
static Decl *fill_stencil(Ir *ir, int vec, int dir, int at, int64_t depth, DType dt, Loc loc) {
    for (int i = 0; i < ir->nstencils; i++) {
        Decl *s = ir->stencils[i];
        if (s->corners == depth && s->corners_vec == vec && s->corners_at == at &&
            (vec || s->corners_dir == dir) && s->params[0]->dt == dt)
            return s;
    }
    static const char *kinds[] = {"", "a", "b", "c", "d"};
    const char *base = vec ? fpo_fmt("fill_corners_%s%lld%s", kinds[vec], (long long)depth,
                                     dt == DT_F32 ? "_f32" : "")
                           : fpo_fmt("copy_corners_%s%s%lld%s", at == HA_VERTEX ? "vertex_" : "",
                                     dir ? "y" : "x", (long long)depth,
                                     dt == DT_F32 ? "_f32" : "");
    const char *name = base;
    for (int n = 1; stencil_named(ir, name); n++)
        name = fpo_fmt("%s_%d", base, n);
    Decl *s = fpo_new(sizeof *s);
    s->kind = D_STENCIL;
    s->name = fpo_strdup(name);
    s->loc = loc;
    s->corners = depth;
    s->corners_dir = dir;
    s->corners_vec = vec;
    s->corners_at = at;
    static const char *names[2][4] = {{"q", "src"}, {"u", "v", "us", "vs"}};
    int nf = vec ? 2 : 1;
    for (int i = 0; i < 2 * nf; i++) {
        Var *v = new_var(names[vec != 0][i], loc, VK_PARAM, dt, AX_IJK);
        v->written = i < nf;
        v->id = i;
        VPUSH(s->params, s->nparams, v);
    }
    Node head = {0}, *tail = &head;
    if (!vec)
        tail = fill_component(tail, vec, at, 0, dir, depth, s->params[0], s->params[1], loc);
    else   /* u from the x halo and v from the y halo, the reverse for C (as emit_c.c) */
        for (int c = 0; c < 2; c++)
            tail = fill_component(tail, vec, at, c, (vec == HV_C) != (c == 1), depth,
                                  s->params[c], s->params[3 - c], loc);
    Comp comp = {loc, ORD_PARALLEL, NULL, 0};
    Interval iv = {loc, {B_BOTTOM, 0, NULL, 1}, {B_TOP, 0, NULL, 1}, head.next};
    VPUSH(comp.ivs, comp.nivs, iv);
    VPUSH(s->comps, s->ncomps, comp);
    VPUSH(ir->stencils, ir->nstencils, s);
    return s;
}

static bool is_param(Ir *ir, Var *v) {
    for (int i = 0; i < ir->nparams; i++)
        if (ir->params[i] == v)
            return true;
    return false;
}

/* Whether halo statement n is a fill this pass rewrites: copy_corners or fill_corners of 3D
 * field parameters of one dtype. (A program temporary's fill stays a statement: the
 * optimizer decides its storage, and a temporary filled in place would need its writers'
 * extents checked against the fill's reads.) */
/* The deepest fill made a stencil: its code grows as the square of the depth (a region a
 * point: 4 x 64 of them a component at depth 8); deeper fills stay the halo library's. */
enum { CORNERS_MAX_DEPTH = 8 };

static bool rewritable(Ir *ir, Node *n, int64_t depth) {
    if (n->kind != ND_HALO || (n->halo.op != HO_COPY_CORNERS && n->halo.op != HO_FILL_CORNERS) ||
        depth > CORNERS_MAX_DEPTH)
        return false;
    for (Node *a = n->args; a; a = a->next)
        if (a->var->ax != AX_IJK || !is_param(ir, a->var) || a->var->dt != n->args->var->dt)
            return false;
    return true;
}

static void rewrite(Ir *ir, Node *list, int halo) {
    for (Node *n = list; n; n = n->next) {
        rewrite(ir, n->body, halo);
        rewrite(ir, n->then, halo);
        rewrite(ir, n->els, halo);
        int64_t depth = n->halo.depth ? n->halo.depth : halo;
        if (!rewritable(ir, n, depth))
            continue;
        int vec = n->halo.op == HO_FILL_CORNERS ? n->halo.vec : HV_NONE;
        Node *st = new_node(ND_STAGE, n->loc);
        int at = n->halo.at;
        st->decl = fill_stencil(ir, vec, n->halo.dir, at, depth, n->args->var->dt, n->loc);
        int nf = vec ? 2 : 1, xi = 0, yj = 0;
        st->argv = fpo_new(sizeof(Node *) * (size_t)(2 * nf + 1));
        Node *a = n->args;
        for (int c = 0; c < nf; c++, a = a->next) {
            int pos = fpo_corner_pos(vec, at, c);
            xi |= pos == 1 || pos == 3;   /* a staggered axis has one point more */
            yj |= pos == 2 || pos == 3;
            st->argv[c] = access(a->var, 0, 0, a->loc);
            st->argv[nf + c] = access(a->var, 0, 0, a->loc);
        }
        st->dom.lo[0] = (DBound){DB_ZERO, -depth};
        st->dom.hi[0] = (DBound){DB_NX, depth + xi};
        st->dom.lo[1] = (DBound){DB_ZERO, -depth};
        st->dom.hi[1] = (DBound){DB_NY, depth + yj};
        st->dom.lo[2] = (DBound){DB_ZERO, 0};
        st->dom.hi[2] = (DBound){DB_NZ, 0};
        n->kind = ND_STAGES;   /* (keeping `halo` and `args` for bind's message on thin halos) */
        n->body = st;
    }
}

void fpo_pass_corners(Ir *ir, int halo) {
    rewrite(ir, ir->body, halo);
}
