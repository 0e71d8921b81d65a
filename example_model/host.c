/* host.c: takes fpo_example_model's -n -z -d -s, gives drivers in other languages the example
 * model set up on this rank (setup.c) and, after their steps, h's fingerprint on rank 0. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "host.h"
#include "model.h"

struct em_host {
    em_model m;
    int steps;
};

em_host *em_host_new(int n, int nz, double days, int steps) {
    int init, rank;
    MPI_Initialized(&init);
    if (!init) MPI_Init(NULL, NULL);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (steps <= 0) steps = (int)ceil(6.0 * n * days / 12.0);
    em_host *h = calloc(1, sizeof *h);
    double *alpha = calloc(nz > 0 ? (size_t)nz : 1, sizeof *alpha);
    em_error err = {{0}};
    int bad = !h || !alpha;
    if (bad) snprintf(err.msg, sizeof err.msg, "em_host: out of memory");
    for (int k = 0; !bad && k < nz; k++) alpha[k] = em_tc1_alpha(k);
    if (!bad && em_model_setup(&h->m, MPI_COMM_WORLD, n, nz, alpha, days * 86400.0 / steps, &err))
        bad = 1;
    free(alpha);
    if (bad) {
        fprintf(stderr, "em_host (rank %d): %s\n", rank, err.msg);
        if (h) em_model_release(&h->m);
        free(h);
        return NULL;
    }
    h->steps = steps;
    return h;
}

int em_host_steps(const em_host *h) { return h->steps; }

void em_host_shape(const em_host *h, int shape[4]) {
    shape[0] = h->m.g.sx, shape[1] = h->m.g.sy, shape[2] = h->m.nz, shape[3] = h->m.g.h;
}

void em_host_domain(const em_host *h, fpo_domain *d) { *d = em_model_domain(&h->m); }

void *em_host_decomp(em_host *h) { return &h->m.d; }

double *em_host_array(em_host *h, const char *name) {
    em_model *m = &h->m;
    const char *names[] = {"q", "crx", "cry", "xfx", "yfx", "area", "rarea", "dxa", "dya"};
    double *arrays[] = {m->q, m->crx, m->cry, m->xfx, m->yfx, m->g.area, m->g.rarea,
                        m->g.dxa, m->g.dya};
    for (size_t k = 0; k < sizeof names / sizeof *names; k++)
        if (!strcmp(names[k], name)) return arrays[k];
    return NULL;
}

int em_host_finish(em_host *h) {
    em_model *m = &h->m;
    int rank, rc = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    em_error err;
    uint64_t fp = 0;
    if (em_model_fingerprint(m, m->q, &fp, &err))
        rc = fprintf(stderr, "em_host: %s\n", err.msg), 1;
    if (!rc && rank == 0) printf("h fingerprint %016llx\n", (unsigned long long)fp);
    fflush(stdout);
    em_model_release(m);
    free(h);
    MPI_Finalize();
    return rc;
}
