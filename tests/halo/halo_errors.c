/* halo_errors.c: takes 6 ranks, gives each error path of halo/ checked: the status returned,
 * and a message naming the rank and what is wrong; nothing aborts. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fpo_halo.h"

static int failures, rank;

/* Expects status `want` and a message containing `part`. */
static void expect(const char *what, fpo_halo_status got, fpo_halo_status want,
                   const fpo_halo_error *err, const char *part)
{
    int ok = got == want && (!part || strstr(err->msg, part));
    if (!ok)
        failures++;
    if (rank == 0 || !ok)
        printf("%-40s %s: status %d (want %d) \"%s\"\n", what, ok ? "ok" : "FAILED", (int)got,
               (int)want, got ? err->msg : "");
}

int main(int argc, char **argv)
{
    fpo_halo_decomp d, x;
    fpo_halo_error err;
    fpo_halo_plan *plan = NULL;
    double *q = calloc(18 * 18, sizeof *q), *small = calloc(14 * 14, sizeof *small);
    int any;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);

    expect("wrong rank count (2x2 on 6 ranks)",
           fpo_halo_decomp_create(&x, MPI_COMM_WORLD, 12, 2, 2, &err), FPO_HALO_ELAYOUT, &err,
           "needs 6 x 2 x 2 = 24 ranks, not 6");
    expect("tile not divisible (13 cells, 2x2)", fpo_halo_layout(&x, 24, 0, 13, 2, 2, &err),
           FPO_HALO_ELAYOUT, &err, "does not split into 2 x 2");
    expect("zero layout", fpo_halo_layout(&x, 0, 0, 12, 0, 1, &err), FPO_HALO_ELAYOUT, &err,
           "must be positive");
    expect("owner off the tile", fpo_halo_layout(&x, 6, 0, 12, 1, 1, &err) ||
           fpo_halo_owner(&x, FPO_HALO_CENTER, 0, 12, 0, &any, &any, &any, &err),
           FPO_HALO_EINVAL, &err, "is not on a 12 x 12 tile");
    expect("plan without communicator",
           fpo_halo_plan_create(&plan, &x, 1, 0, NULL, 0, &err), FPO_HALO_EINVAL, &err,
           "no communicator");

    if (fpo_halo_decomp_create(&d, MPI_COMM_WORLD, 12, 1, 1, &err)) {
        fprintf(stderr, "%s\n", err.msg);
        return 1;
    }
    {
        fpo_halo_field f = fpo_halo_field_make(q, FPO_HALO_F64, -3, 15, -3, 15, 1);
        fpo_halo_field g = fpo_halo_field_make(small, FPO_HALO_F64, -1, 13, -1, 13, 1);
        fpo_halo_field h = fpo_halo_field_make(q, FPO_HALO_F32, -3, 15, -3, 15, 1);
        fpo_halo_item it = fpo_halo_scalar(f, FPO_HALO_CENTER);
        fpo_halo_item narrow = fpo_halo_scalar(g, FPO_HALO_CENTER);
        fpo_halo_item mixed = fpo_halo_vector(f, h, FPO_HALO_DGRID);
        fpo_halo_item centre = fpo_halo_vector(f, f, FPO_HALO_AGRID);
        fpo_halo_item face = fpo_halo_scalar(f, FPO_HALO_XFACE);
        expect("depth 0", fpo_halo_plan_create(&plan, &d, 0, 1, &it, 0, &err), FPO_HALO_EINVAL,
               &err, "rank");
        expect("depth beyond the field's halo",
               fpo_halo_plan_create(&plan, &d, 2, 1, &narrow, 0, &err), FPO_HALO_EINVAL, &err,
               "it needs i [-2, 14)");
        expect("D-grid field one point short",
               fpo_halo_plan_create(&plan, &d, 3, 1, &mixed, 0, &err), FPO_HALO_EINVAL, &err,
               "component u covers");
        expect("scalar on x-faces",
               fpo_halo_plan_create(&plan, &d, 1, 1, &face, 0, &err),
               FPO_HALO_EINVAL, &err, "C- or D-grid pair");
        it.f[0].stride[0] = 2;
        expect("strides not I-fastest", fpo_halo_plan_create(&plan, &d, 1, 1, &it, 0, &err),
               FPO_HALO_EINVAL, &err, "not I-fastest");
        it.f[0].stride[0] = 1;
        /* only rank 0 passes a bad item: plans are built without messages, so only it
         * fails, and the others get a plan */
        if (rank == 0)
            expect("one rank's bad item",
                   fpo_halo_plan_create(&plan, &d, 2, 1, &narrow, 0, &err), FPO_HALO_EINVAL,
                   &err, "it needs");
        else if (fpo_halo_plan_create(&plan, &d, 2, 1, &it, 0, &err) == FPO_HALO_OK)
            fpo_halo_plan_destroy(plan);
        else
            failures++, printf("rank %d: plan beside a bad one FAILED: %s\n", rank, err.msg);
        expect("edge sync of cell-centred vectors",
               fpo_halo_plan_create_edges(&plan, &d, 1, &centre, 0, &err), FPO_HALO_EINVAL, &err,
               "shared edge");
        expect("fill_corners with a scalar kind",
               fpo_halo_fill_corners(&d, &f, &f, FPO_HALO_SCALAR, 1, FPO_HALO_FILL_X,
                                     FPO_HALO_FILL_Y, &err),
               FPO_HALO_EINVAL, &err, "not a vector grid");
        expect("copy_corners of a face scalar",
               fpo_halo_copy_corners(&d, &f, FPO_HALO_YFACE, 1, FPO_HALO_FILL_X, &err),
               FPO_HALO_EINVAL, &err, "C- or D-grid pair");
        expect("copy_corners deeper than the halo",
               fpo_halo_copy_corners(&d, &g, FPO_HALO_CENTER, 2, FPO_HALO_FILL_X, &err),
               FPO_HALO_EINVAL, &err, "depth 2");
        if (fpo_halo_plan_create(&plan, &d, 3, 1, &it, 0, &err) == FPO_HALO_OK) {
            expect("finish without start", fpo_halo_finish(plan, &err), FPO_HALO_ESTATE, &err,
                   "without fpo_halo_start");
            expect("rebind out of range", fpo_halo_plan_rebind(plan, 1, 0, q, &err),
                   FPO_HALO_EINVAL, &err, "item 1");
            fpo_halo_plan_destroy(plan);
        } else {
            failures++;
            printf("valid plan FAILED: %s\n", err.msg);
        }
        /* A plan destroyed between start and finish (a run stopped with its exchange in
         * flight): the odd ranks start theirs and destroy it before the even ranks send, so
         * their receives are still posted when those messages come (they must be taken back:
         * written into a freed buffer otherwise, which AddressSanitizer reports); then the
         * even ranks do the same. The stale messages carry -1; a plan made after it
         * exchanges the owners' values (a reused tag would match the stale messages). */
        {
            double *a = malloc(18 * 18 * sizeof *a);
            for (int k = 0; k < 18 * 18; k++)
                a[k] = -1.0;
            fpo_halo_field fa = fpo_halo_field_make(a, FPO_HALO_F64, -3, 15, -3, 15, 1);
            fpo_halo_item ia = fpo_halo_scalar(fa, FPO_HALO_CENTER);
            fpo_halo_plan *pa = NULL, *pb = NULL;
            int bad = fpo_halo_plan_create(&pa, &d, 3, 1, &ia, 0, &err) != FPO_HALO_OK;
            for (int turn = 1; turn >= 0 && !bad; turn--) {
                if (rank % 2 == turn) {
                    bad |= fpo_halo_start(pa, &err) != FPO_HALO_OK;
                    fpo_halo_plan_destroy(pa);
                }
                MPI_Barrier(MPI_COMM_WORLD);
            }
            for (int j = 0; j < 12; j++)
                for (int i = 0; i < 12; i++)
                    q[(j + 3) * 18 + i + 3] = 1000.0 * d.tile + 100.0 * j + i;
            if (!bad && fpo_halo_plan_create(&pb, &d, 3, 1, &it, 0, &err) == FPO_HALO_OK) {
                bad |= fpo_halo_exchange(pb, &err) != FPO_HALO_OK;
                for (int j = 0; j < 12 && !bad; j++) {
                    fpo_halo_point pt;
                    if (fpo_halo_locate(&d, FPO_HALO_CENTER, -1, j, &pt))
                        bad |= q[(j + 3) * 18 + 2] != 1000.0 * pt.tile + 100.0 * pt.gj + pt.gi;
                }
                fpo_halo_plan_destroy(pb);
            } else {
                bad = 1;
            }
            expect("a plan destroyed in flight, then a new one", bad ? FPO_HALO_EINVAL : 0, 0,
                   &err, NULL);
            free(a);
        }
        if (!fpo_halo_has_cuda())
            expect("device plan without CUDA",
                   fpo_halo_plan_create(&plan, &d, 3, 1, &it, FPO_HALO_DEVICE, &err),
                   FPO_HALO_ECUDA, &err, "built without CUDA");
    }
    fpo_halo_decomp_free(&d);
    MPI_Allreduce(MPI_IN_PLACE, &failures, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (rank == 0)
        printf("halo_errors: %d failures\n", failures);
    free(q);
    free(small);
    MPI_Finalize();
    return failures != 0;
}
