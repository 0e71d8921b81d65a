/* model.c: one rank of the FPO example model: its setup (setup.c), and the time step, program
 * em_step, which exchanges halos through halo/ on the rank's decomposition. */
#include <stdio.h>

#include "em_step.h"
#include "model.h"

static em_status fail(em_error *err, const char *msg) {
    snprintf(err->msg, sizeof err->msg, "em_model: em_step: %s", msg);
    return EM_EINVAL;
}

em_status em_model_init(em_model *m, MPI_Comm comm, int n, int nz, const double *alpha,
                        double dt, em_error *err) {
    em_status st = em_model_setup(m, comm, n, nz, alpha, dt, err);
    if (st) return st;
    em_grid *g = &m->g;
    em_step_fields f = {
        .q = em_model_field3(m, m->q), .crx = em_model_field3(m, m->crx),
        .cry = em_model_field3(m, m->cry), .xfx = em_model_field3(m, m->xfx),
        .yfx = em_model_field3(m, m->yfx), .area = em_model_field2(m, g->area),
        .rarea = em_model_field2(m, g->rarea), .dxa = em_model_field2(m, g->dxa),
        .dya = em_model_field2(m, g->dya)};
    fpo_domain dom = em_model_domain(m);
    fpo_options opt = {.halo = &m->d};
    fpo_error ferr;
    if (em_step_open_with(&m->step, &dom, &f, &opt, &ferr)) return fail(err, ferr.msg);
    return EM_OK;
}

em_status em_model_step(em_model *m, em_error *err) {
    fpo_error ferr;
    if (em_step_run(m->step, &ferr)) return fail(err, ferr.msg);
    return EM_OK;
}

void em_model_free(em_model *m) {
    em_step_close(m->step);
    em_model_release(m);
}
