/* norms_mpi.c: every rank's em_norm_acc to the sum over a communicator, bit-identical for any
 * layout (integer sums of exact accumulators, maxima). */
#include <stdio.h>

#include "em.h"

em_status em_norm_acc_allreduce(em_norm_acc *acc, MPI_Comm comm, em_error *err) {
    int64_t limbs[EM_NSUMS][EM_XSUM_LIMBS], total[EM_NSUMS][EM_XSUM_LIMBS];
    int bad = 0, anybad = 0;
    for (int k = 0; k < EM_NSUMS; k++) {
        em_xsum_norm(&acc->sum[k]);
        for (int l = 0; l < EM_XSUM_LIMBS; l++) limbs[k][l] = acc->sum[k].limb[l];
        bad |= acc->sum[k].bad;
    }
    double mx[2] = {acc->max_err, acc->max_ref}, gmx[2];
    if (MPI_Allreduce(limbs, total, EM_NSUMS * EM_XSUM_LIMBS, MPI_INT64_T, MPI_SUM, comm) !=
            MPI_SUCCESS ||
        MPI_Allreduce(mx, gmx, 2, MPI_DOUBLE, MPI_MAX, comm) != MPI_SUCCESS ||
        MPI_Allreduce(&bad, &anybad, 1, MPI_INT, MPI_MAX, comm) != MPI_SUCCESS) {
        snprintf(err->msg, sizeof err->msg, "em_norm_acc_allreduce: MPI_Allreduce failed");
        return EM_EMPI;
    }
    for (int k = 0; k < EM_NSUMS; k++) {
        for (int l = 0; l < EM_XSUM_LIMBS; l++) acc->sum[k].limb[l] = total[k][l];
        acc->sum[k].bad = anybad;
        em_xsum_norm(&acc->sum[k]);
    }
    acc->max_err = gmx[0];
    acc->max_ref = gmx[1];
    return EM_OK;
}
