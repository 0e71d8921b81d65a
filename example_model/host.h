/* host.h: the example model's setup, for drivers of its time step in other languages (Python
 * through ctypes, Fortran through bind(C)): they open and run em_step through its front door. */
#ifndef EM_HOST_H
#define EM_HOST_H

#include <stdint.h>

#include "fpo_runtime.h"

typedef struct em_host em_host;

/* MPI (initialized here unless it is already), and this rank's model as fpo_example_model's
 * -n N -z NZ -d DAYS -s STEPS (steps <= 0: 6 N per 12 days) sets it up, but em_step. NULL
 * after a failure (printed on stderr). Collective. */
em_host *em_host_new(int n, int nz, double days, int steps);
int em_host_steps(const em_host *h);
/* The arrays' extents: sx, sy (I and J, halos included), nz, and the halo width H: compute
 * point (0, 0) is element (H, H) of every array. */
void em_host_shape(const em_host *h, int shape[4]);
void em_host_domain(const em_host *h, fpo_domain *d);
/* This rank's fpo_halo_decomp, for fpo_options.halo. */
void *em_host_decomp(em_host *h);
/* An array of em_step's parameters by name (q, crx, cry, xfx, yfx: sx sy nz values, I
 * fastest; area, rarea, dxa, dya: sx sy), or NULL. */
double *em_host_array(em_host *h, const char *name);
/* Print h's fingerprint on rank 0 (as fpo_example_model does), free the model, finalize MPI.
 * 0 on success. Collective. */
int em_host_finish(em_host *h);

#endif
