/* gather_mpi.c: every rank's compute domain of a field to the global array on one rank. */
#include <stdio.h>
#include <stdlib.h>

#include "em.h"

em_status em_gather(const em_grid *g, const double *f, double *out, int root, MPI_Comm comm,
                    em_error *err) {
    int rank, size, me[5] = {g->tile, g->i0, g->j0, g->nx, g->ny};
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
    int cnt = g->nx * g->ny, *rect = NULL, *counts = NULL, *displs = NULL;
    double *mine = malloc((size_t)cnt * sizeof *mine), *all = NULL;
    if (rank == root) {
        rect = malloc(5 * (size_t)size * sizeof *rect);
        counts = malloc((size_t)size * sizeof *counts);
        displs = malloc((size_t)size * sizeof *displs);
    }
    int ok = mine != NULL && (rank != root || (rect && counts && displs));
    for (int j = 0; ok && j < g->ny; j++)
        for (int i = 0; i < g->nx; i++) mine[j * g->nx + i] = f[EM_AT(g, i, j)];
    int allok = 0;
    MPI_Allreduce(&ok, &allok, 1, MPI_INT, MPI_MIN, comm);
    em_status st = EM_OK;
    if (!allok) {
        snprintf(err->msg, sizeof err->msg, "em_gather: out of memory");
        st = EM_ENOMEM;
        goto done;
    }
    if (MPI_Gather(me, 5, MPI_INT, rect, 5, MPI_INT, root, comm) != MPI_SUCCESS) goto mpi_fail;
    size_t total = 0;
    if (rank == root) {
        for (int r = 0; r < size; r++) {
            counts[r] = rect[5 * r + 3] * rect[5 * r + 4];
            displs[r] = (int)total;
            total += (size_t)counts[r];
        }
        all = malloc(total * sizeof *all);
        ok = all != NULL;
    }
    MPI_Bcast(&ok, 1, MPI_INT, root, comm);
    if (!ok) {
        snprintf(err->msg, sizeof err->msg, "em_gather: out of memory on the root");
        st = EM_ENOMEM;
        goto done;
    }
    if (MPI_Gatherv(mine, cnt, MPI_DOUBLE, all, counts, displs, MPI_DOUBLE, root, comm) !=
        MPI_SUCCESS)
        goto mpi_fail;
    if (rank == root) {
        size_t n = (size_t)g->n;
        for (int r = 0; r < size; r++) {
            const int *q = rect + 5 * r;
            const double *src = all + displs[r];
            for (int j = 0; j < q[4]; j++)
                for (int i = 0; i < q[3]; i++)
                    out[((size_t)q[0] * n + (size_t)(q[2] + j)) * n + (size_t)(q[1] + i)] =
                        src[j * q[3] + i];
        }
    }
    goto done;
mpi_fail:
    snprintf(err->msg, sizeof err->msg, "em_gather: MPI call failed");
    st = EM_EMPI;
done:
    free(mine), free(rect), free(counts), free(displs), free(all);
    return st;
}
