/* sphere.c: the six whole tiles on one process, and the halo copies between them for cell and
 * vertex scalars and C- and D-grid face vector pairs, found once from the halo maps (em_locate). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "em.h"

typedef struct em_copylist {
    em_copy *v;
    size_t n, cap;
    int ok;
} em_copylist;

static void push(em_copylist *l, em_copy c) {
    if (!l->ok) return;
    if (l->n == l->cap) {
        size_t cap = l->cap ? 2 * l->cap : 1024;
        em_copy *v = realloc(l->v, cap * sizeof *v);
        if (!v) {
            l->ok = 0;
            return;
        }
        l->v = v, l->cap = cap;
    }
    l->v[l->n++] = c;
}

static int outside(double x, int n) { return x < 0 || x > n; }

/* Scalar point (i, j) of tile t in the edge halo, a cell centre (half 0.5) or a vertex (half
 * 0): its owner (a point on the owner's boundary is taken from the tile across the edge
 * crossed, as fpo_halo_locate takes it). A tile's points run -h .. n + h - 1 for cells, one
 * more for vertices; its own and those of the corner blocks are left out. */
static void scalar_copies(const em_sphere *s, em_copylist *l, double half) {
    int n = s->n, h = s->h, last = n + h - (half > 0);
    for (int t = 0; t < 6; t++)
        for (int j = -h; j <= last; j++)
            for (int i = -h; i <= last; i++) {
                double x = i + half, y = j + half, bx, by;
                if (outside(x, n) == outside(y, n)) continue;  /* interior or corner block */
                em_map m = em_locate(n, t, x, y, EM_XDIR);
                em_map_apply(&m, x, y, &bx, &by);
                em_copy c = {t, m.tile, 1, 1, 1, EM_AT(&s->g[t], i, j),
                             EM_AT(&s->g[m.tile], (int)floor(bx + 0.5 - half),
                                   (int)floor(by + 0.5 - half))};
                push(l, c);
            }
}

/* The face of tile t with midpoint (x, y) (an x-face if is_x), taken from the tile that owns
 * the point (ox, oy) near it. On the C grid an x-face carries the +i component, on the D grid
 * (dgrid) the +j one. */
static void face_copy(const em_sphere *s, em_copylist *l, int t, int is_x, double x, double y,
                      double ox, double oy, int dgrid) {
    em_map m = em_locate(s->n, t, ox, oy, EM_XDIR);
    double bx, by;
    em_map_apply(&m, x, y, &bx, &by);
    int src_x = bx == floor(bx);
    /* the direction the face of tile t carries, +i (a, c) or +j (b, d) on the source tile */
    int along_i = dgrid ? !is_x : is_x;
    int di = along_i ? m.a : m.b, dj = along_i ? m.c : m.d;
    /* the source face carries +i_B (sign di) or +j_B (dj) */
    int src_i = dgrid ? !src_x : src_x;
    em_copy c = {t, m.tile, is_x, src_x, src_i ? di : dj, 0, 0};
    const em_grid *g = &s->g[t];
    c.dst_at = EM_AT(g, (int)floor(x), (int)floor(y));
    c.src_at = EM_AT(&s->g[m.tile], (int)floor(bx), (int)floor(by));
    push(l, c);
}

static void face_copies(const em_sphere *s, em_copylist *l, int dgrid) {
    int n = s->n, h = s->h;
    /* first the E and N boundary faces, from the neighbours' own W and S faces */
    for (int t = 0; t < 6; t++)
        for (int k = 0; k < n; k++) {
            face_copy(s, l, t, 1, n, k + 0.5, n + 0.5, k + 0.5, dgrid);
            face_copy(s, l, t, 0, k + 0.5, n, k + 0.5, n + 0.5, dgrid);
        }
    /* then the halo faces outside the corner blocks, from faces all final by now */
    for (int t = 0; t < 6; t++)
        for (int j = -h; j <= n + h; j++)
            for (int i = -h; i <= n + h; i++) {
                if (j < n + h) {  /* x-face (i, j + 1/2) */
                    double x = i, y = j + 0.5;
                    if (outside(x, n) != outside(y, n)) face_copy(s, l, t, 1, x, y, x, y, dgrid);
                }
                if (i < n + h) {  /* y-face (i + 1/2, j) */
                    double x = i + 0.5, y = j;
                    if (outside(x, n) != outside(y, n)) face_copy(s, l, t, 0, x, y, x, y, dgrid);
                }
            }
}

em_status em_sphere_init(em_sphere *s, int n, int h, em_error *err) {
    *s = (em_sphere){.n = n, .h = h};
    for (int t = 0; t < 6; t++) {
        em_status st = em_grid_init(&s->g[t], n, t, 0, 0, n, n, h, err);
        if (st) {
            while (t-- > 0) em_grid_free(&s->g[t]);
            return st;
        }
    }
    em_copylist cells = {.ok = 1}, faces = {.ok = 1}, dfaces = {.ok = 1}, verts = {.ok = 1};
    scalar_copies(s, &cells, 0.5);
    scalar_copies(s, &verts, 0.0);
    face_copies(s, &faces, 0);
    face_copies(s, &dfaces, 1);
    s->cells = cells.v, s->ncells = cells.n, s->faces = faces.v, s->nfaces = faces.n;
    s->dfaces = dfaces.v, s->ndfaces = dfaces.n, s->verts = verts.v, s->nverts = verts.n;
    if (!cells.ok || !faces.ok || !dfaces.ok || !verts.ok) {
        em_sphere_free(s);
        snprintf(err->msg, sizeof err->msg, "em_sphere_init: out of memory");
        return EM_ENOMEM;
    }
    return EM_OK;
}

void em_sphere_free(em_sphere *s) {
    for (int t = 0; t < 6; t++) em_grid_free(&s->g[t]);
    free(s->cells), free(s->faces), free(s->dfaces), free(s->verts);
    s->cells = s->faces = s->dfaces = s->verts = NULL;
}

static void fill_scalars(const em_copy *cs, size_t nc, double *const q[6]) {
    for (size_t k = 0; k < nc; k++) {
        const em_copy *c = &cs[k];
        q[c->dst_tile][c->dst_at] = q[c->src_tile][c->src_at];
    }
}

void em_sphere_fill_cells(const em_sphere *s, double *const q[6]) {
    fill_scalars(s->cells, s->ncells, q);
}

void em_sphere_fill_vertices(const em_sphere *s, double *const q[6]) {
    fill_scalars(s->verts, s->nverts, q);
}

static void fill_pairs(const em_copy *cs, size_t nc, double *const x[6], double *const y[6]) {
    for (size_t k = 0; k < nc; k++) {
        const em_copy *c = &cs[k];
        double a = (c->src_x ? x : y)[c->src_tile][c->src_at];
        (c->dst_x ? x : y)[c->dst_tile][c->dst_at] = c->sign > 0 ? a : -a;
    }
}

void em_sphere_fill_faces(const em_sphere *s, double *const u[6], double *const v[6]) {
    fill_pairs(s->faces, s->nfaces, u, v);
}

void em_sphere_fill_dgrid(const em_sphere *s, double *const u[6], double *const v[6]) {
    fill_pairs(s->dfaces, s->ndfaces, v, u);   /* v on the x-faces, u on the y-faces */
}
