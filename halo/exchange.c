/* exchange.c: takes a built plan, gives its MPI side: its message tag on the decomposition's
 * communicator, buffers, persistent requests, and the start / finish / blocking exchange with
 * host packing (device packing is pack_cuda.cu). */
#include <stdlib.h>
#include <string.h>

#include "halo_internal.h"
#if defined(OPEN_MPI) && OPEN_MPI
#include <mpi-ext.h>   /* MPIX_Query_cuda_support */
#endif

static int tags_key = MPI_KEYVAL_INVALID;

static void tags_drop(hx_tags *t)
{
    if (t && --t->refs == 0) {
        free(t->used);
        free(t);
    }
}

/* Called by MPI when the decomposition's communicator is freed. */
static int tags_delete(MPI_Comm comm, int key, void *value, void *extra)
{
    (void)comm, (void)key, (void)extra;
    tags_drop(value);
    return MPI_SUCCESS;
}

/* The tag registry of `comm`, created on first use. */
static hx_tags *tags_of(MPI_Comm comm)
{
    hx_tags *t = NULL;
    int found = 0;
    if (tags_key == MPI_KEYVAL_INVALID &&
        MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, tags_delete, &tags_key, NULL) !=
            MPI_SUCCESS)
        return NULL;
    if (MPI_Comm_get_attr(comm, tags_key, &t, &found) != MPI_SUCCESS)
        return NULL;
    if (found)
        return t;
    if (!(t = calloc(1, sizeof *t)))
        return NULL;
    t->refs = 1;
    if (MPI_Comm_set_attr(comm, tags_key, t) != MPI_SUCCESS) {
        free(t);
        return NULL;
    }
    return t;
}

/* The largest tag MPI allows (at least 32767). */
static int tag_ub(MPI_Comm comm)
{
    int *ub = NULL, found = 0;
    if (MPI_Comm_get_attr(comm, MPI_TAG_UB, &ub, &found) != MPI_SUCCESS || !found || !ub)
        return 32767;
    return *ub;
}

/* Gives p the lowest tag no live plan on its communicator holds. */
static fpo_halo_status tag_take(fpo_halo_plan *p, fpo_halo_error *err)
{
    hx_tags *t = tags_of(p->comm);
    int k = 0;
    if (!t)
        return hx_fail(err, FPO_HALO_EMPI, "rank %d: halo plan: no tag registry on the "
                       "decomposition's communicator", p->rank);
    while (k < t->n && t->used[k])
        k++;
    if (k > tag_ub(p->comm))
        return hx_fail(err, FPO_HALO_EINVAL, "rank %d: halo plan: more than %d live plans on "
                       "one decomposition", p->rank, tag_ub(p->comm));
    if (k == t->n) {
        int n = t->n ? 2 * t->n : 16;
        unsigned char *u = realloc(t->used, (size_t)n);
        if (!u)
            return hx_fail(err, FPO_HALO_ENOMEM, "rank %d: halo plan: out of memory", p->rank);
        memset(u + t->n, 0, (size_t)(n - t->n));
        t->used = u;
        t->n = n;
    }
    t->used[k] = 1;
    t->refs++;
    p->tags = t;
    p->tag = k;
    return FPO_HALO_OK;
}

void hx_tag_release(fpo_halo_plan *p)
{
    if (p->tags) {
        /* an abandoned plan's tag is retired: messages sent under it may still arrive */
        p->tags->used[p->tag] = p->abandoned;
        tags_drop(p->tags);
        p->tags = NULL;
    }
}

/* The plan's receives: the first of its requests (receives, then sends). */
static int recv_count(const fpo_halo_plan *p)
{
    int n = 0;
    for (int k = 0; k < p->npeers; k++)
        n += p->peer[k].recv.bytes > 0;
    return n;
}

/* A plan destroyed between start and finish (a run stopped with its exchange in flight):
 * each receive is cancelled and waited for (it completes, matched or cancelled, so MPI writes
 * no buffer after this); each send request is freed to complete on its own, and its buffer is
 * kept (leaked) rather than freed under it; the tag is retired. */
void hx_abandon(fpo_halo_plan *p)
{
    int nrecv = recv_count(p);
    for (int k = 0; k < p->nreq; k++) {
        if (p->req[k] == MPI_REQUEST_NULL)
            continue;
        if (k < nrecv) {
            MPI_Cancel(&p->req[k]);
            MPI_Wait(&p->req[k], MPI_STATUS_IGNORE);
        }
        MPI_Request_free(&p->req[k]);
    }
    p->active = 0;
    p->abandoned = 1;
    p->sbuf = NULL;   /* (the host send buffer: left to MPI) */
}

fpo_halo_status hx_plan_comm(fpo_halo_plan *p, const fpo_halo_decomp *d, fpo_halo_error *err)
{
    void *sbuf, *rbuf;
    fpo_halo_status st;
    p->comm = d->comm;
    if ((st = tag_take(p, err)))
        return st;
    p->sbuf = malloc(p->sbytes ? p->sbytes : 1);
    p->rbuf = malloc(p->rbytes ? p->rbytes : 1);
    p->req = malloc((size_t)(2 * p->npeers + 1) * sizeof *p->req);
    if (!p->sbuf || !p->rbuf || !p->req)
        return hx_fail(err, FPO_HALO_ENOMEM, "rank %d: halo plan buffers: out of memory",
                       p->rank);
    sbuf = p->sbuf;
    rbuf = p->rbuf;
    if (p->flags & FPO_HALO_DEVICE) {
        if ((st = hx_cuda_setup(p, err)))
            return st;
        hx_cuda_buffers(p, &sbuf, &rbuf);
    }
    /* receives first, then sends: fpo_halo_start starts them in two groups */
    for (int pass = 0; pass < 2; pass++)
        for (int k = 0; k < p->npeers; k++) {
            const hx_peer *q = &p->peer[k];
            const hx_side *s = pass ? &q->send : &q->recv;
            int rc, count = (int)s->bytes;
            if (!s->bytes)
                continue;
            if (s->bytes > (size_t)INT32_MAX)
                return hx_fail(err, FPO_HALO_EINVAL, "rank %d: message to rank %d (%s) over "
                               "2 GiB", p->rank, q->rank, fpo_halo_dir_name(q->dir));
            if (pass)
                rc = MPI_Send_init((char *)sbuf + s->at, count, MPI_BYTE, q->rank, p->tag,
                                   p->comm, &p->req[p->nreq]);
            else
                rc = MPI_Recv_init((char *)rbuf + s->at, count, MPI_BYTE, q->rank, p->tag,
                                   p->comm, &p->req[p->nreq]);
            if (rc != MPI_SUCCESS)
                return hx_fail(err, FPO_HALO_EMPI, "rank %d: MPI_%s_init with rank %d (%s) "
                               "failed", p->rank, pass ? "Send" : "Recv", q->rank,
                               fpo_halo_dir_name(q->dir));
            p->nreq++;
        }
    return FPO_HALO_OK;
}

/* Gather (pack) or scatter (unpack) one segment, levels outer; a uniform segment takes one
 * component and sign for all its entries. */
#define HX_MOVE(T, PACK)                                                                     \
    do {                                                                                     \
        T *bf = (T *)buf;                                                                    \
        const hx_entry *e = g->e;                                                            \
        if (g->uniform) {                                                                    \
            T *b = (T *)sl->base[e[0].comp];                                                 \
            int64_t sk = sl->sk[e[0].comp];                                                  \
            for (int64_t lev = 0; lev < sl->nk; lev++, b += sk, bf += g->n) {                \
                if (!(PACK))                                                                 \
                    for (int q = 0; q < g->n; q++)                                           \
                        b[e[q].off] = bf[q];                                                 \
                else if (e[0].sign > 0)                                                      \
                    for (int q = 0; q < g->n; q++)                                           \
                        bf[q] = b[e[q].off];                                                 \
                else                                                                         \
                    for (int q = 0; q < g->n; q++)                                           \
                        bf[q] = -b[e[q].off];                                                \
            }                                                                                \
        } else {                                                                             \
            for (int64_t lev = 0; lev < sl->nk; lev++, bf += g->n)                           \
                for (int q = 0; q < g->n; q++) {                                             \
                    T *at = (T *)sl->base[e[q].comp] + e[q].off + lev * sl->sk[e[q].comp];   \
                    if (PACK)                                                                \
                        bf[q] = e[q].sign < 0 ? -*at : *at;                                  \
                    else                                                                     \
                        *at = bf[q];                                                         \
                }                                                                            \
        }                                                                                    \
    } while (0)

/* Packs every send message (pack = 1) or unpacks every receive message, in host memory. */
static void move_host(fpo_halo_plan *p, int pack)
{
    for (int pi = 0; pi < p->npeers; pi++) {
        const hx_side *s = pack ? &p->peer[pi].send : &p->peer[pi].recv;
        for (int gi = 0; gi < s->nseg; gi++) {
            const hx_seg *g = &s->seg[gi];
            const hx_slot *sl = &p->slot[g->item];
            char *buf = (pack ? p->sbuf : p->rbuf) + s->at + g->byte;
            if (sl->dtype == FPO_HALO_F32)
                HX_MOVE(float, pack);
            else
                HX_MOVE(double, pack);
        }
    }
}

/* The peer of request `r` (receives first, then sends), for messages. */
static const hx_peer *peer_of_req(const fpo_halo_plan *p, int r, int *send)
{
    for (int pass = 0; pass < 2; pass++)
        for (int k = 0; k < p->npeers; k++)
            if ((pass ? p->peer[k].send.bytes : p->peer[k].recv.bytes) && r-- == 0) {
                *send = pass;
                return &p->peer[k];
            }
    *send = 0;
    return NULL;
}

static fpo_halo_status mpi_fail(const fpo_halo_plan *p, const char *call,
                                 const MPI_Status *stat, fpo_halo_error *err)
{
    for (int r = 0; stat && r < p->nreq; r++)
        if (stat[r].MPI_ERROR != MPI_SUCCESS && stat[r].MPI_ERROR != MPI_ERR_PENDING) {
            int send;
            const hx_peer *q = peer_of_req(p, r, &send);
            char text[MPI_MAX_ERROR_STRING];
            int len = 0;
            MPI_Error_string(stat[r].MPI_ERROR, text, &len);
            return hx_fail(err, FPO_HALO_EMPI, "rank %d: %s: %s rank %d (%s side) failed: %s",
                           p->rank, call, send ? "send to" : "receive from", q ? q->rank : -1,
                           q ? fpo_halo_dir_name(q->dir) : "?", text);
        }
    return hx_fail(err, FPO_HALO_EMPI, "rank %d: %s failed", p->rank, call);
}

fpo_halo_status fpo_halo_start(fpo_halo_plan *p, fpo_halo_error *err)
{
    int nrecv = 0;
    fpo_halo_status st;
    if (!p)
        return hx_fail(err, FPO_HALO_EINVAL, "fpo_halo_start: null plan");
    if (p->active)
        return hx_fail(err, FPO_HALO_ESTATE, "rank %d: fpo_halo_start: the exchange is "
                       "already started (and not finished: after a run that stopped with it in "
                       "flight, close the program)", p->rank);
    nrecv = recv_count(p);
    if (nrecv && MPI_Startall(nrecv, p->req) != MPI_SUCCESS)
        return hx_fail(err, FPO_HALO_EMPI, "rank %d: MPI_Startall of %d receives failed",
                       p->rank, nrecv);
    p->active = 1;
    if (p->flags & FPO_HALO_DEVICE) {
        if ((st = hx_cuda_pack(p, err)))
            return st;
    } else {
        move_host(p, 1);
    }
    if (p->nreq > nrecv && MPI_Startall(p->nreq - nrecv, p->req + nrecv) != MPI_SUCCESS)
        return hx_fail(err, FPO_HALO_EMPI, "rank %d: MPI_Startall of %d sends failed",
                       p->rank, p->nreq - nrecv);
    return FPO_HALO_OK;
}

fpo_halo_status fpo_halo_finish(fpo_halo_plan *p, fpo_halo_error *err)
{
    MPI_Status stack[64], *stat = stack;
    fpo_halo_status st = FPO_HALO_OK;
    if (!p)
        return hx_fail(err, FPO_HALO_EINVAL, "fpo_halo_finish: null plan");
    if (!p->active)
        return hx_fail(err, FPO_HALO_ESTATE, "rank %d: fpo_halo_finish without "
                       "fpo_halo_start", p->rank);
    p->active = 0;
    if (p->nreq > 64 && !(stat = malloc((size_t)p->nreq * sizeof *stat)))
        return hx_fail(err, FPO_HALO_ENOMEM, "rank %d: fpo_halo_finish: out of memory",
                       p->rank);
    if (p->nreq && MPI_Waitall(p->nreq, p->req, stat) != MPI_SUCCESS)
        st = mpi_fail(p, "MPI_Waitall", stat, err);
    if (stat != stack)
        free(stat);
    if (st)
        return st;
    if (p->flags & FPO_HALO_DEVICE)
        return hx_cuda_unpack(p, err);
    move_host(p, 0);
    return FPO_HALO_OK;
}

fpo_halo_status fpo_halo_exchange(fpo_halo_plan *p, fpo_halo_error *err)
{
    fpo_halo_status st = fpo_halo_start(p, err);
    return st ? st : fpo_halo_finish(p, err);
}

int fpo_halo_cuda_aware(void)
{
    const char *e = getenv("FPO_HALO_CUDA_AWARE");
    if (e && *e)
        return atoi(e) != 0;
#if defined(OMPI_HAVE_MPI_EXT_CUDA) && OMPI_HAVE_MPI_EXT_CUDA
    return MPIX_Query_cuda_support();
#else
    return 0;
#endif
}

#ifndef FPO_HALO_CUDA
int fpo_halo_has_cuda(void) { return 0; }

fpo_halo_status fpo_halo_plan_stream(fpo_halo_plan *plan, void *stream, fpo_halo_error *err)
{
    if (!plan)
        return hx_fail(err, FPO_HALO_EINVAL, "fpo_halo_plan_stream: null plan");
    (void)stream;   /* a host plan (without CUDA, no other) has no stream */
    return FPO_HALO_OK;
}

fpo_halo_status hx_cuda_corner(const fpo_halo_decomp *d, const fpo_halo_field *dst,
                               const fpo_halo_field *src, int corner, int t, double sign,
                               fpo_halo_pos pos, int depth, void *stream, fpo_halo_error *err)
{
    (void)dst, (void)src, (void)corner, (void)t, (void)sign, (void)pos, (void)depth, (void)stream;
    return hx_fail(err, FPO_HALO_ECUDA, "rank %d: corner fills on device memory asked of a "
                   "halo library built without CUDA", d->rank);
}

fpo_halo_status hx_cuda_setup(fpo_halo_plan *p, fpo_halo_error *err)
{
    return hx_fail(err, FPO_HALO_ECUDA, "rank %d: FPO_HALO_DEVICE asked of a halo library "
                   "built without CUDA", p->rank);
}
fpo_halo_status hx_cuda_pack(fpo_halo_plan *p, fpo_halo_error *err) { return hx_cuda_setup(p, err); }
fpo_halo_status hx_cuda_unpack(fpo_halo_plan *p, fpo_halo_error *err) { return hx_cuda_setup(p, err); }
void hx_cuda_buffers(fpo_halo_plan *p, void **sbuf, void **rbuf) { (void)p, (void)sbuf, (void)rbuf; }
void hx_cuda_free(fpo_halo_plan *p) { (void)p; }
#endif
