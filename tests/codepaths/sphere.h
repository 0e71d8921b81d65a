/* sphere.h: the cubed sphere an MPI test of tests/codepaths runs on: 6 L x L ranks (L from the
 * rank count), N cells per tile edge, this rank's decomposition. */
#ifndef CP_SPHERE_H
#define CP_SPHERE_H

#include "fpo_halo.h"

#include <math.h>
#include <mpi.h>
#include <stdio.h>

/* MPI_Init, then this rank's decomposition of 6 L x L ranks; aborts the job if the rank count
 * is not one. */
static inline fpo_halo_decomp cp_sphere(int *argc, char ***argv, int n, int *rank, int *size,
                                        int *layout) {
    MPI_Init(argc, argv);
    MPI_Comm_rank(MPI_COMM_WORLD, rank);
    MPI_Comm_size(MPI_COMM_WORLD, size);
    *layout = (int)lround(sqrt(*size / 6.0));
    fpo_halo_decomp d;
    fpo_halo_error herr;
    if (fpo_halo_decomp_create(&d, MPI_COMM_WORLD, n, *layout, *layout, &herr)) {
        fprintf(stderr, "rank %d: %s\n", *rank, herr.msg);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    return d;
}

#endif
