/* test_model_open.c: run on 6 L^2 ranks: when one rank's model start-up fails (rank size / 2
 * asks for more levels than memory holds), every rank returns that rank's error from
 * em_model_init and none waits in a collective; then a start-up on every rank succeeds. */
#include <string.h>

#include "model.h"
#include "em_test.h"

enum { N = 12 };

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    double alpha[2] = {0.0, 0.05};
    em_model m;
    em_error err = {{0}};
    int nz = rank == size / 2 ? 1 << 28 : 2;   /* about 100 GB per level count: calloc fails */
    em_status st = em_model_init(&m, MPI_COMM_WORLD, N, nz, alpha, 3600.0, NULL, &err);
    CHECK(st == EM_ENOMEM, "rank %d: status %d (%s), not EM_ENOMEM", rank, st, err.msg);
    CHECK(strstr(err.msg, "fields: out of memory") != NULL, "rank %d: '%s'", rank, err.msg);
    em_model_free(&m);
    st = em_model_init(&m, MPI_COMM_WORLD, N, 2, alpha, 3600.0, NULL, &err);
    CHECK(st == EM_OK, "rank %d: %s", rank, err.msg);
    uint64_t fp = 0;
    CHECK(em_model_fingerprint(&m, m.q, &fp, &err) == EM_OK && fp != 0, "rank %d", rank);
    em_model_free(&m);
    int bad = em_failures, anybad = 0;
    MPI_Allreduce(&bad, &anybad, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    if (rank == 0 && !anybad) printf("every rank returned rank %d's error\n", size / 2);
    MPI_Finalize();
    return anybad;
}
