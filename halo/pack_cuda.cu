/* pack_cuda.cu: takes a plan whose fields are CUDA device memory, gives device pack / unpack
 * kernels and the staging through host buffers when MPI is not CUDA-aware; and the corner
 * fills of corners.c on device memory. */
#define OMPI_SKIP_MPICXX 1
#define MPICH_SKIP_MPICXX 1
#include <cuda_runtime.h>
#include <stdlib.h>

#include "halo_internal.h"

/* A segment as the device sees it: where its entries and its bytes are. */
struct hx_dseg {
    int item, n;
    size_t entry, byte; /* index in the device entry array; byte offset in the buffer */
};

struct hx_dev {
    hx_entry *entries;   /* every segment's entries, sends then receives */
    char *sbuf, *rbuf;   /* device message buffers */
    hx_dseg *seg;        /* host copies of the descriptors */
    int nsend, nrecv;
    cudaStream_t stream; /* where packing runs: `own`, or the stream fpo_halo_plan_stream gave */
    cudaStream_t own;
};

template <typename T>
__global__ void hx_pack_k(const hx_entry *e, int n, int64_t nk, const T *b0, const T *b1,
                          int64_t sk0, int64_t sk1, T *buf)
{
    int64_t idx = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (idx >= (int64_t)n * nk)
        return;
    int64_t k = idx / n;
    hx_entry en = e[idx % n];
    T v = en.comp ? b1[en.off + k * sk1] : b0[en.off + k * sk0];
    buf[idx] = en.sign < 0 ? -v : v;
}

template <typename T>
__global__ void hx_unpack_k(const hx_entry *e, int n, int64_t nk, T *b0, T *b1, int64_t sk0,
                            int64_t sk1, const T *buf)
{
    int64_t idx = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (idx >= (int64_t)n * nk)
        return;
    int64_t k = idx / n;
    hx_entry en = e[idx % n];
    if (en.comp)
        b1[en.off + k * sk1] = buf[idx];
    else
        b0[en.off + k * sk0] = buf[idx];
}

static fpo_halo_status cuda_fail(fpo_halo_plan *p, cudaError_t rc, const char *what,
                                 fpo_halo_error *err)
{
    return hx_fail(err, FPO_HALO_ECUDA, "rank %d: %s: %s", p->rank, what,
                   cudaGetErrorString(rc));
}

int fpo_halo_has_cuda(void) { return 1; }

fpo_halo_status hx_cuda_setup(fpo_halo_plan *p, fpo_halo_error *err)
{
    hx_dev *d = (hx_dev *)calloc(1, sizeof *d);
    size_t nent = 0, nseg = 0;
    hx_entry *host;
    cudaError_t rc;
    if (!d)
        return hx_fail(err, FPO_HALO_ENOMEM, "rank %d: device plan: out of memory", p->rank);
    p->dev = d;
    for (int k = 0; k < p->npeers; k++)
        for (int s = 0; s < 2; s++) {
            const hx_side *sd = s ? &p->peer[k].recv : &p->peer[k].send;
            nseg += sd->nseg;
            for (int g = 0; g < sd->nseg; g++)
                nent += sd->seg[g].n;
        }
    d->seg = (hx_dseg *)malloc((nseg ? nseg : 1) * sizeof *d->seg);
    host = (hx_entry *)malloc((nent ? nent : 1) * sizeof *host);
    if (!d->seg || !host) {
        free(host);
        return hx_fail(err, FPO_HALO_ENOMEM, "rank %d: device plan: out of memory", p->rank);
    }
    nent = 0;
    for (int s = 0; s < 2; s++)
        for (int k = 0; k < p->npeers; k++) {
            const hx_side *sd = s ? &p->peer[k].recv : &p->peer[k].send;
            for (int g = 0; g < sd->nseg; g++) {
                hx_dseg *ds = &d->seg[d->nsend + d->nrecv];
                ds->item = sd->seg[g].item;
                ds->n = sd->seg[g].n;
                ds->entry = nent;
                ds->byte = sd->at + sd->seg[g].byte;
                for (int q = 0; q < ds->n; q++)
                    host[nent++] = sd->seg[g].e[q];
                if (s)
                    d->nrecv++;
                else
                    d->nsend++;
            }
        }
    if ((rc = cudaStreamCreateWithFlags(&d->own, cudaStreamNonBlocking)) != cudaSuccess ||
        (rc = cudaMalloc((void **)&d->entries, (nent ? nent : 1) * sizeof *host)) != cudaSuccess ||
        (rc = cudaMalloc((void **)&d->sbuf, p->sbytes ? p->sbytes : 1)) != cudaSuccess ||
        (rc = cudaMalloc((void **)&d->rbuf, p->rbytes ? p->rbytes : 1)) != cudaSuccess ||
        (rc = cudaMemcpy(d->entries, host, nent * sizeof *host, cudaMemcpyHostToDevice)) !=
            cudaSuccess) {
        free(host);
        return cuda_fail(p, rc, "device plan setup", err);
    }
    free(host);
    d->stream = d->own;
    return FPO_HALO_OK;
}

fpo_halo_status fpo_halo_plan_stream(fpo_halo_plan *p, void *stream, fpo_halo_error *err)
{
    if (!p)
        return hx_fail(err, FPO_HALO_EINVAL, "fpo_halo_plan_stream: null plan");
    if (p->dev)
        ((hx_dev *)p->dev)->stream = stream ? (cudaStream_t)stream : ((hx_dev *)p->dev)->own;
    return FPO_HALO_OK;
}

static void launch(fpo_halo_plan *p, const hx_dseg *ds, char *buf, int pack)
{
    const hx_dev *d = (const hx_dev *)p->dev;
    const hx_slot *sl = &p->slot[ds->item];
    int64_t total = (int64_t)ds->n * sl->nk;
    unsigned blocks = (unsigned)((total + 255) / 256);
    const hx_entry *e = d->entries + ds->entry;
    if (!total)
        return;
    if (sl->dtype == FPO_HALO_F32) {
        float *b0 = (float *)sl->base[0], *b1 = (float *)sl->base[1], *bf = (float *)(buf + ds->byte);
        if (pack)
            hx_pack_k<float><<<blocks, 256, 0, d->stream>>>(e, ds->n, sl->nk, b0, b1, sl->sk[0], sl->sk[1], bf);
        else
            hx_unpack_k<float><<<blocks, 256, 0, d->stream>>>(e, ds->n, sl->nk, b0, b1, sl->sk[0], sl->sk[1], bf);
    } else {
        double *b0 = (double *)sl->base[0], *b1 = (double *)sl->base[1], *bf = (double *)(buf + ds->byte);
        if (pack)
            hx_pack_k<double><<<blocks, 256, 0, d->stream>>>(e, ds->n, sl->nk, b0, b1, sl->sk[0], sl->sk[1], bf);
        else
            hx_unpack_k<double><<<blocks, 256, 0, d->stream>>>(e, ds->n, sl->nk, b0, b1, sl->sk[0], sl->sk[1], bf);
    }
}

fpo_halo_status hx_cuda_pack(fpo_halo_plan *p, fpo_halo_error *err)
{
    hx_dev *d = (hx_dev *)p->dev;
    cudaError_t rc;
    for (int g = 0; g < d->nsend; g++)
        launch(p, &d->seg[g], d->sbuf, 1);
    if ((rc = cudaGetLastError()) != cudaSuccess)
        return cuda_fail(p, rc, "halo pack kernel", err);
    if (!(p->flags & FPO_HALO_CUDA_AWARE) && p->sbytes &&
        (rc = cudaMemcpyAsync(p->sbuf, d->sbuf, p->sbytes, cudaMemcpyDeviceToHost, d->stream)) !=
            cudaSuccess)
        return cuda_fail(p, rc, "halo send staging", err);
    if ((rc = cudaStreamSynchronize(d->stream)) != cudaSuccess)
        return cuda_fail(p, rc, "halo pack", err);
    return FPO_HALO_OK;
}

fpo_halo_status hx_cuda_unpack(fpo_halo_plan *p, fpo_halo_error *err)
{
    hx_dev *d = (hx_dev *)p->dev;
    cudaError_t rc;
    if (!(p->flags & FPO_HALO_CUDA_AWARE) && p->rbytes &&
        (rc = cudaMemcpyAsync(d->rbuf, p->rbuf, p->rbytes, cudaMemcpyHostToDevice, d->stream)) !=
            cudaSuccess)
        return cuda_fail(p, rc, "halo receive staging", err);
    for (int g = 0; g < d->nrecv; g++)
        launch(p, &d->seg[d->nsend + g], d->rbuf, 0);
    if ((rc = cudaGetLastError()) != cudaSuccess)
        return cuda_fail(p, rc, "halo unpack kernel", err);
    if ((rc = cudaStreamSynchronize(d->stream)) != cudaSuccess)
        return cuda_fail(p, rc, "halo unpack", err);
    return FPO_HALO_OK;
}

void hx_cuda_buffers(fpo_halo_plan *p, void **sbuf, void **rbuf)
{
    hx_dev *d = (hx_dev *)p->dev;
    if (d && (p->flags & FPO_HALO_CUDA_AWARE)) {
        *sbuf = d->sbuf;
        *rbuf = d->rbuf;
    }
}

void hx_cuda_free(fpo_halo_plan *p)
{
    hx_dev *d = (hx_dev *)p->dev;
    if (!d)
        return;
    cudaFree(d->entries);
    if (!p->abandoned)
        cudaFree(d->sbuf);
    cudaFree(d->rbuf);
    if (d->own)
        cudaStreamDestroy(d->own);
    free(d->seg);
    free(d);
    p->dev = NULL;
}

/* One corner block of component c: a thread a point of the (depth + 1)^2 window at the corner
 * and a level; points outside the block (hx_corner_src) are left alone. */
template <typename T>
__global__ void hx_corner_k(T *dst, const T *src, int64_t dsj, int64_t dsk, int64_t ssj,
                            int64_t ssk, int dlo0, int dlo1, int slo0, int slo1, int corner,
                            int t, int nx, int ny, int hx, int hy, int i0, int j0, int w, int ni,
                            int nj, int depth, int64_t nk, T sign)
{
    int64_t idx = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (idx >= (int64_t)w * w * nk)
        return;
    int64_t k = idx / ((int64_t)w * w);
    int i = i0 + (int)(idx % w), j = j0 + (int)(idx / w % w), si, sj;
    if (i < -depth || i >= ni + depth || j < -depth || j >= nj + depth ||
        !hx_corner_src(corner, t, nx, ny, hx, hy, i, j, &si, &sj))
        return;
    dst[(i - dlo0) + (j - dlo1) * dsj + k * dsk] = sign * src[(si - slo0) + (sj - slo1) * ssj + k * ssk];
}

fpo_halo_status hx_cuda_corner(const fpo_halo_decomp *d, const fpo_halo_field *o,
                               const fpo_halo_field *s, int corner, int t, double sign,
                               fpo_halo_pos pos, int depth, void *stream, fpo_halo_error *err)
{
    int hx = hx_half_x(pos), hy = hx_half_y(pos), ni, nj, w = depth + 1;
    int64_t nk = o->hi[2] - o->lo[2];
    unsigned blocks = (unsigned)(((int64_t)w * w * nk + 255) / 256);
    cudaError_t rc;
    fpo_halo_compute_size(d, pos, &ni, &nj);
    if (o->dtype != s->dtype)
        return hx_fail(err, FPO_HALO_EINVAL, "rank %d: corner fill: u and v differ in type",
                       d->rank);
    if (nk <= 0)
        return FPO_HALO_OK;
    /* the window: the last compute row or column and the halo beyond it, on each side */
    int i0 = corner & 1 ? ni - 1 : -depth, j0 = corner & 2 ? nj - 1 : -depth;
    if (o->dtype == FPO_HALO_F32)
        hx_corner_k<float><<<blocks, 256, 0, (cudaStream_t)stream>>>(
            (float *)o->data, (const float *)s->data, o->stride[1], o->stride[2], s->stride[1],
            s->stride[2], (int)o->lo[0], (int)o->lo[1], (int)s->lo[0], (int)s->lo[1], corner, t,
            d->nx, d->ny, hx, hy, i0, j0, w, ni, nj, depth, nk, (float)sign);
    else
        hx_corner_k<double><<<blocks, 256, 0, (cudaStream_t)stream>>>(
            (double *)o->data, (const double *)s->data, o->stride[1], o->stride[2], s->stride[1],
            s->stride[2], (int)o->lo[0], (int)o->lo[1], (int)s->lo[0], (int)s->lo[1], corner, t,
            d->nx, d->ny, hx, hy, i0, j0, w, ni, nj, depth, nk, sign);
    if ((rc = cudaGetLastError()) != cudaSuccess)
        return hx_fail(err, FPO_HALO_ECUDA, "rank %d: corner fill kernel: %s", d->rank,
                       cudaGetErrorString(rc));
    return FPO_HALO_OK;
}
