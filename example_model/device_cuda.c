/* device_cuda.c: takes a model's host arrays, gives their copies in CUDA device memory (the
 * CUDA runtime's cudaMalloc and cudaMemcpy) for a program on the CUDA back end (em_step,
 * sw_step). */
#include <stdio.h>

#include <cuda_runtime_api.h>

#include "device.h"

static em_status cuda_fail(em_error *err, const char *what, cudaError_t e) {
    snprintf(err->msg, sizeof err->msg, "%s: %s", what, cudaGetErrorString(e));
    return EM_EINVAL;
}

em_status em_dev_ready(MPI_Comm comm, char *where, size_t size, em_error *err) {
    int n = 0, local = 0, nlocal = 1;
    MPI_Comm node;
    if (MPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node) ==
        MPI_SUCCESS) {
        MPI_Comm_rank(node, &local);
        MPI_Comm_size(node, &nlocal);
        MPI_Comm_free(&node);
    }
    cudaError_t e = cudaGetDeviceCount(&n);
    if (e != cudaSuccess || n == 0) {
        snprintf(err->msg, sizeof err->msg, "the CUDA back end needs a CUDA device, "
                 "and none can be used here (%s)", e != cudaSuccess ? cudaGetErrorString(e) : "no device");
        return EM_EINVAL;
    }
    struct cudaDeviceProp prop;
    if ((e = cudaSetDevice(local % n)) != cudaSuccess ||
        (e = cudaGetDeviceProperties(&prop, local % n)) != cudaSuccess)
        return cuda_fail(err, "cudaSetDevice", e);
    snprintf(where, size, "%d rank%s on this node over %d device%s (%s), node rank r on "
             "device r mod %d", nlocal, nlocal == 1 ? "" : "s", n, n == 1 ? "" : "s",
             prop.name, n);
    return EM_OK;
}

em_status em_dev_alloc(void **dev, size_t bytes, em_error *err) {
    cudaError_t e = cudaMalloc(dev, bytes ? bytes : 1);
    if (e != cudaSuccess) {
        *dev = NULL;
        return cuda_fail(err, "device memory", e);
    }
    return EM_OK;
}

em_status em_dev_put(void *dev, const void *host, size_t bytes, em_error *err) {
    cudaError_t e = cudaMemcpy(dev, host, bytes, cudaMemcpyHostToDevice);
    return e == cudaSuccess ? EM_OK : cuda_fail(err, "copy to the device", e);
}

em_status em_dev_get(void *host, const void *dev, size_t bytes, em_error *err) {
    cudaError_t e = cudaMemcpy(host, dev, bytes, cudaMemcpyDeviceToHost);
    return e == cudaSuccess ? EM_OK : cuda_fail(err, "copy from the device", e);
}

void em_dev_free(void *dev) {
    if (dev) cudaFree(dev);
}
