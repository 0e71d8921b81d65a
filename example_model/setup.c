/* setup.c: takes a rank of 6 L^2 MPI ranks, gives its part of the FPO example model but the
 * time step: decomposition, grid and fields, and the Courant numbers and volume fluxes (program
 * tp_winds, which exchanges halos through halo/ on the rank's decomposition). Errors and the
 * fingerprint of h are agreed over the ranks. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model.h"
#include "tp_winds.h"

enum { H = EM_TP_HALO };

static em_status fail(em_error *err, em_status st, const char *what, const char *msg) {
    snprintf(err->msg, sizeof err->msg, "em_model: %s: %s", what, msg);
    return st;
}

fpo_field em_model_field3(const em_model *m, double *data) {
    const em_grid *g = &m->g;
    return (fpo_field){.data = data, .dtype = FPO_F64, .axes = FPO_IJK,
                       .lo = {-H, -H, 0}, .hi = {g->nx + H + 1, g->ny + H + 1, m->nz},
                       .stride = {1, g->sx, (int64_t)m->np}};
}

fpo_field em_model_field2(const em_model *m, double *data) {
    const em_grid *g = &m->g;
    return (fpo_field){.data = data, .dtype = FPO_F64, .axes = FPO_IJ,
                       .lo = {-H, -H, 0}, .hi = {g->nx + H + 1, g->ny + H + 1, 1},
                       .stride = {1, g->sx, 0}};
}

fpo_domain em_model_domain(const em_model *m) {
    return fpo_halo_domain(&m->d, m->nz);   /* the rank's part of the decomposition */
}

em_status em_model_agree(const em_model *m, em_status st, em_error *err) {
    int me = st != EM_OK ? m->d.rank : m->d.size, first = m->d.size, code = st;
    MPI_Allreduce(&me, &first, 1, MPI_INT, MPI_MIN, m->d.comm);
    if (first == m->d.size) return EM_OK;
    MPI_Bcast(err->msg, (int)sizeof err->msg, MPI_CHAR, first, m->d.comm);
    MPI_Bcast(&code, 1, MPI_INT, first, m->d.comm);
    return code;
}

/* Courant numbers and volume fluxes (tp_winds) from the stream function's C-grid winds, the
 * shared tile-edge faces and the halos included. */
static em_status winds(em_model *m, double dt, em_error *err) {
    em_grid *g = &m->g;
    double *psi = calloc(m->np, sizeof *psi);
    em_status st0 = psi ? EM_OK : fail(err, EM_ENOMEM, "winds", "out of memory");
    if ((st0 = em_model_agree(m, st0, err))) return free(psi), st0;
    for (int k = 0; k < m->nz; k++) {
        em_tc1_psi_corners(g, m->alpha[k], psi);
        em_tc1_cgrid(g, psi, m->uc + k * m->np, m->vc + k * m->np);
    }
    free(psi);
    tp_winds_fields f = {
        .uc = em_model_field3(m, m->uc), .vc = em_model_field3(m, m->vc), .rdxa = em_model_field2(m, g->rdxa),
        .rdya = em_model_field2(m, g->rdya), .dx = em_model_field2(m, g->dx), .dy = em_model_field2(m, g->dy),
        .sin_w = em_model_field2(m, m->sg[0]), .sin_s = em_model_field2(m, m->sg[1]),
        .sin_e = em_model_field2(m, m->sg[2]), .sin_n = em_model_field2(m, m->sg[3]), .crx = em_model_field3(m, m->crx),
        .cry = em_model_field3(m, m->cry), .xfx = em_model_field3(m, m->xfx), .yfx = em_model_field3(m, m->yfx)};
    fpo_domain dom = em_model_domain(m);
    fpo_options opt = {.halo = &m->d};
    fpo_error ferr;
    tp_winds *p;
    em_status st = EM_OK;
    if (tp_winds_open_with(&p, &dom, &f, &opt, &ferr) || tp_winds_run(p, dt, &ferr))
        st = fail(err, EM_EINVAL, "tp_winds", ferr.msg);
    tp_winds_close(p);
    return em_model_agree(m, st, err);
}

static em_status alloc_fields(em_model *m) {
    size_t n3 = m->np * (size_t)m->nz;
    double **a3[] = {&m->q, &m->q0, &m->uc, &m->vc, &m->crx, &m->cry, &m->xfx, &m->yfx};
    int ok = 1;
    for (size_t k = 0; k < sizeof a3 / sizeof *a3; k++)
        ok &= (*a3[k] = calloc(n3, sizeof(double))) != NULL;
    for (int k = 0; k < 4; k++) ok &= (m->sg[k] = calloc(m->np, sizeof(double))) != NULL;
    ok &= (m->alpha = calloc((size_t)m->nz, sizeof(double))) != NULL;
    return ok ? EM_OK : EM_ENOMEM;
}

/* The decomposition (collective), grid and fields of this rank. */
static em_status setup_rank(em_model *m, MPI_Comm comm, int n, int nz, em_error *err) {
    fpo_halo_error herr;
    int size;
    memset(m, 0, sizeof *m);
    m->d.comm = MPI_COMM_NULL;
    MPI_Comm_size(comm, &size);
    int lay = 1;
    while (6 * lay * lay < size) lay++;
    if (6 * lay * lay != size)
        return fail(err, EM_EINVAL, "ranks", "the model runs on 6 L^2 MPI ranks (6, 24, 54, ...)");
    if (fpo_halo_decomp_create(&m->d, comm, n, lay, lay, &herr))
        return fail(err, EM_EINVAL, "decomposition", herr.msg);
    em_status st = EM_EINVAL;
    if (m->d.nx < H || m->d.ny < H)
        return fail(err, st, "decomposition", "fewer cells per rank than the halo (3)");
    if ((st = em_grid_init(&m->g, n, m->d.tile, m->d.i0, m->d.j0, m->d.nx, m->d.ny, H, err)))
        return st;
    m->nz = nz;
    m->np = em_grid_points(&m->g);
    if (alloc_fields(m)) return fail(err, EM_ENOMEM, "fields", "out of memory");
    return EM_OK;
}

em_status em_model_setup(em_model *m, MPI_Comm comm, int n, int nz, const double *alpha,
                         double dt, em_error *err) {
    em_status st = setup_rank(m, comm, n, nz, err);
    if (m->d.comm == MPI_COMM_NULL) return st;   /* no decomposition: every rank fails alike */
    if ((st = em_model_agree(m, st, err))) return st;
    em_grid *g = &m->g;
    for (int k = 0; k < 4; k++) em_sg_point(g, g->sin_sg, k + 1, m->sg[k]);
    for (int k = 0; k < nz; k++) {
        m->alpha[k] = alpha[k];
        em_tc1_h(g, m->q + k * m->np);
    }
    memcpy(m->q0, m->q, m->np * (size_t)nz * sizeof(double));
    return winds(m, dt, err);
}

em_status em_model_gather(const em_model *m, const double *f, int level, double *out,
                          em_error *err) {
    size_t nc = 6 * (size_t)m->g.n * (size_t)m->g.n;
    int k0 = level < 0 ? 0 : level, k1 = level < 0 ? m->nz : level + 1;
    for (int k = k0; k < k1; k++) {
        em_status st = em_gather(&m->g, f + k * m->np, out ? out + (size_t)(k - k0) * nc : NULL,
                                 0, m->d.comm, err);
        if (st) return st;
    }
    return EM_OK;
}

/* splitmix64's finaliser: every bit of x moves about half the bits of the result. */
static uint64_t mix(uint64_t x) {
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
    return x ^ (x >> 31);
}

em_status em_model_fingerprint(const em_model *m, const double *f, uint64_t *out, em_error *err) {
    const em_grid *g = &m->g;
    uint64_t n = (uint64_t)g->n, sum = 0;
    for (int k = 0; k < m->nz; k++)
        for (int j = 0; j < g->ny; j++)
            for (int i = 0; i < g->nx; i++) {
                uint64_t cell = (((uint64_t)k * 6 + (uint64_t)g->tile) * n +
                                 (uint64_t)(g->j0 + j)) * n + (uint64_t)(g->i0 + i), bits;
                memcpy(&bits, &f[k * m->np + EM_AT(g, i, j)], sizeof bits);
                sum += mix(bits ^ mix(cell + 0x9e3779b97f4a7c15ull));
            }
    if (MPI_Allreduce(&sum, out, 1, MPI_UINT64_T, MPI_SUM, m->d.comm) != MPI_SUCCESS)
        return fail(err, EM_EMPI, "fingerprint", "MPI_Allreduce failed");
    return EM_OK;
}

void em_model_release(em_model *m) {
    free(m->q), free(m->q0), free(m->uc), free(m->vc), free(m->crx), free(m->cry);
    free(m->xfx), free(m->yfx), free(m->alpha);
    for (int k = 0; k < 4; k++) free(m->sg[k]);
    em_grid_free(&m->g);
    fpo_halo_decomp_free(&m->d);
    memset(m, 0, sizeof *m);
    m->d.comm = MPI_COMM_NULL;
}
