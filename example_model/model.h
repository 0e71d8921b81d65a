/* model.h: one MPI rank of the FPO example model: its place on the cube, grid, fields and the
 * opened FPO programs (model/step.fpo, model/winds.fpo), and a time step of test case 1. The
 * setup (setup.c) needs no em_step: drivers in other languages open it through their front
 * door (host.c). */
#ifndef EM_MODEL_H
#define EM_MODEL_H

#include "device.h"
#include "em.h"
#include "fpo_halo.h"

/* Every 3D array holds nz levels of the em_grid's padded shape (np points each), so a level
 * is an array of the grid's shape (for em_norm_acc_add, em_gather). */
typedef struct em_model {
    fpo_halo_decomp d;
    em_grid g;
    int nz;
    size_t np;
    double *alpha;                      /* the test case's alpha of each level */
    double *q, *q0;                     /* h, the initial h */
    double *uc, *vc, *crx, *cry, *xfx, *yfx, *sg[4];
    struct em_step *step;               /* em_step.h's program (model.c; NULL in setup.c) */
    int on_device;                      /* em_step runs on the CUDA back end (model.c) */
    double *dev[9];                     /* then its fields' copies in device memory: q, crx,
                                         * cry, xfx, yfx, area, rarea, dxa, dya */
    char devices[160];                  /* and which devices the node's ranks took (device.h) */
} em_model;

/* Set up this rank of comm (6 L^2 ranks, layout L x L): grid, the bell on every level, the
 * Courant numbers and volume fluxes of time step dt (collective; setup.c). */
em_status em_model_setup(em_model *m, MPI_Comm comm, int n, int nz, const double *alpha,
                         double dt, em_error *err);
/* An array of the model's 3D shape (or a 2D array of the grid's) as an FPO field: every array
 * covers the padded shape, each program reads the part it needs; the rank's domain. */
fpo_field em_model_field3(const em_model *m, double *data);
fpo_field em_model_field2(const em_model *m, double *data);
fpo_domain em_model_domain(const em_model *m);
/* Every rank of a collective step learns whether one failed: all return the status and the
 * message of the lowest failing rank (collective; one MPI_Allreduce when none failed). */
em_status em_model_agree(const em_model *m, em_status st, em_error *err);
/* A fingerprint of f (an array of the model's 3D shape) on every rank: the sum modulo 2^64 over
 * the compute cells of a hash of the cell's global index ((k * 6 + tile) * N + j) * N + i and
 * its value's bits, so the same on any layout (collective). */
em_status em_model_fingerprint(const em_model *m, const double *f, uint64_t *out, em_error *err);
/* Free what em_model_setup made (collective). */
void em_model_release(em_model *m);

/* em_model_setup, and the opened step program on `backend` ("c" or "cuda"; NULL: FPO_BACKEND
 * from the environment, else "c"). On the CUDA back end the step's fields are copies in device
 * memory, made here (collective; model.c). */
em_status em_model_init(em_model *m, MPI_Comm comm, int n, int nz, const double *alpha,
                        double dt, const char *backend, em_error *err);
/* One time step: the program em_step (halo update, corner fills and fv_tp_2d); on the CUDA
 * back end queued on its stream. */
em_status em_model_step(em_model *m, em_error *err);
/* Wait for the queued steps (on the CUDA back end; at once on C); _fetch also brings h to
 * m->q. */
em_status em_model_wait(em_model *m, em_error *err);
em_status em_model_fetch(em_model *m, em_error *err);
/* After m->q changed on the host (a restart read): give it to the step. */
em_status em_model_store(em_model *m, em_error *err);
/* What em_step runs on, as its _backend says ("c", "cuda (halo exchanges staged ...)"). */
const char *em_model_backend(const em_model *m);

/* Gather level `level` of f (an array of the model's 3D shape) into out (6 N N values), or
 * every level when level < 0 (nz 6 N N values), on rank 0 (collective). */
em_status em_model_gather(const em_model *m, const double *f, int level, double *out,
                          em_error *err);
void em_model_free(em_model *m);  /* collective */

/* restart.c: h of every level and the clock (step, dt) in one file that any layout reads
 * (format in restart.c and docs/example_model.md). The write fills PATH.tmp and renames it to
 * PATH; the read refuses a file of another N, nz, dt or alpha, or whose h does not match its
 * checksum, and leaves the step in *step (collective, every rank returns the same status). */
em_status em_restart_write(const em_model *m, const char *path, int64_t step, double dt,
                           em_error *err);
em_status em_restart_read(em_model *m, const char *path, double dt, int64_t *step,
                          em_error *err);

#endif
