/* triad.cu: the device's STREAM triad a = b + s c, for fpo_cuda_bench: its best bandwidth of
 * `reps` launches over n doubles, bytes read and written per second (CUDA events). */
#include <cuda_runtime.h>

__global__ static void triad_kernel(double *a, const double *b, const double *c, size_t n) {
    size_t x = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (x < n)
        a[x] = b[x] + 3.0 * c[x];
}

extern "C" double fpo_bench_device_triad(size_t n, int reps) {
    double *a, *b, *c;
    if (cudaMalloc(&a, n * 8) || cudaMalloc(&b, n * 8) || cudaMalloc(&c, n * 8))
        return 0;
    cudaMemset(b, 0, n * 8);
    cudaMemset(c, 0, n * 8);
    cudaEvent_t e0, e1;
    cudaEventCreate(&e0);
    cudaEventCreate(&e1);
    float best = 1e30f;
    for (int r = 0; r < reps; r++) {
        cudaEventRecord(e0);
        triad_kernel<<<(unsigned)((n + 255) / 256), 256>>>(a, b, c, n);
        cudaEventRecord(e1);
        cudaEventSynchronize(e1);
        float ms = 0;
        cudaEventElapsedTime(&ms, e0, e1);
        if (ms < best)
            best = ms;
    }
    cudaFree(a), cudaFree(b), cudaFree(c);
    cudaEventDestroy(e0), cudaEventDestroy(e1);
    return 3.0 * 8.0 * (double)n / (best * 1e-3);
}
