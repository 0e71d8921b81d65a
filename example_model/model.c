/* model.c: one rank of the FPO example model: its setup (setup.c), and the time step, program
 * em_step, which exchanges halos through halo/ on the rank's decomposition, on the C back end
 * or, with copies of its fields in device memory, on the CUDA back end. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "em_step.h"
#include "model.h"

static em_status fail(em_error *err, const char *msg) {
    snprintf(err->msg, sizeof err->msg, "em_model: em_step: %s", msg);
    return EM_EINVAL;
}

/* The host arrays em_step takes, in the order of em_model.dev, and whether each is 3D. */
static void host_arrays(em_model *m, double *a[9], int is3[9]) {
    em_grid *g = &m->g;
    double *h[9] = {m->q, m->crx, m->cry, m->xfx, m->yfx, g->area, g->rarea, g->dxa, g->dya};
    for (int x = 0; x < 9; x++) a[x] = h[x], is3[x] = x < 5;
}

/* Device copies of every field of the step (collective: every rank learns if one failed). */
static em_status to_device(em_model *m, em_error *err) {
    double *a[9];
    int is3[9];
    em_status st = em_dev_ready(m->d.comm, m->devices, sizeof m->devices, err);
    host_arrays(m, a, is3);
    for (int x = 0; x < 9 && !st; x++) {
        size_t bytes = m->np * (is3[x] ? (size_t)m->nz : 1) * sizeof(double);
        st = em_dev_alloc((void **)&m->dev[x], bytes, err);
        if (!st) st = em_dev_put(m->dev[x], a[x], bytes, err);
    }
    return em_model_agree(m, st, err);
}

em_status em_model_init(em_model *m, MPI_Comm comm, int n, int nz, const double *alpha,
                        double dt, const char *backend, em_error *err) {
    em_status st = em_model_setup(m, comm, n, nz, alpha, dt, err);
    if (st) return st;
    const char *be = backend ? backend : getenv("FPO_BACKEND");
    double *a[9];
    int is3[9];
    m->on_device = be && !strcmp(be, "cuda");
    if (m->on_device && (st = to_device(m, err))) return st;
    host_arrays(m, a, is3);
    fpo_field fs[9];
    for (int x = 0; x < 9; x++) {
        double *d = m->on_device ? m->dev[x] : a[x];
        fs[x] = is3[x] ? em_model_field3(m, d) : em_model_field2(m, d);
        if (m->on_device) fs[x] = fpo_field_on_device(fs[x]);
    }
    em_step_fields f = {.q = fs[0], .crx = fs[1], .cry = fs[2], .xfx = fs[3], .yfx = fs[4],
                        .area = fs[5], .rarea = fs[6], .dxa = fs[7], .dya = fs[8]};
    fpo_domain dom = em_model_domain(m);
    fpo_options opt = {.halo = &m->d, .backend = be};
    fpo_error ferr;
    if (em_step_open_with(&m->step, &dom, &f, &opt, &ferr)) return fail(err, ferr.msg);
    return EM_OK;
}

em_status em_model_step(em_model *m, em_error *err) {
    fpo_error ferr;
    if (em_step_run(m->step, &ferr)) return fail(err, ferr.msg);
    return EM_OK;
}

em_status em_model_wait(em_model *m, em_error *err) {
    fpo_error ferr;
    if (em_step_wait(m->step, &ferr)) return fail(err, ferr.msg);
    return EM_OK;
}

em_status em_model_fetch(em_model *m, em_error *err) {
    em_status st = em_model_wait(m, err);
    if (st || !m->on_device) return st;
    return em_dev_get(m->q, m->dev[0], m->np * (size_t)m->nz * sizeof(double), err);
}

em_status em_model_store(em_model *m, em_error *err) {
    if (!m->on_device) return EM_OK;
    return em_dev_put(m->dev[0], m->q, m->np * (size_t)m->nz * sizeof(double), err);
}

const char *em_model_backend(const em_model *m) { return em_step_backend(m->step); }

void em_model_free(em_model *m) {
    em_step_close(m->step);
    for (int x = 0; x < 9; x++) em_dev_free(m->dev[x]);
    em_model_release(m);
}
