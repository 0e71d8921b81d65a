/* plan.c: takes a decomposition and the items to exchange, gives the plan: for each peer
 * rank, which points of which field go into its message and come out of its message. */
#include <stdlib.h>
#include <string.h>

#include "halo_internal.h"

fpo_halo_field fpo_halo_field_make(void *data, fpo_halo_dtype dtype, int64_t ilo, int64_t ihi,
                                   int64_t jlo, int64_t jhi, int64_t nk)
{
    fpo_halo_field f;
    memset(&f, 0, sizeof f);
    f.data = data;
    f.dtype = dtype;
    f.lo[0] = ilo;
    f.hi[0] = ihi;
    f.lo[1] = jlo;
    f.hi[1] = jhi;
    f.lo[2] = 0;
    f.hi[2] = nk;
    f.stride[0] = 1;
    f.stride[1] = ihi - ilo;
    f.stride[2] = (ihi - ilo) * (jhi - jlo);
    return f;
}

fpo_halo_item fpo_halo_scalar(fpo_halo_field q, fpo_halo_pos pos)
{
    fpo_halo_item it;
    memset(&it, 0, sizeof it);
    it.kind = FPO_HALO_SCALAR;
    it.pos = pos;
    it.f[0] = q;
    return it;
}

fpo_halo_item fpo_halo_vector(fpo_halo_field u, fpo_halo_field v, fpo_halo_kind kind)
{
    fpo_halo_item it;
    memset(&it, 0, sizeof it);
    it.kind = kind;
    it.f[0] = u;
    it.f[1] = v;
    return it;
}

/* `arr` with room for element n (of `size` bytes), its capacity doubled when full; NULL when
 * out of memory (arr is then untouched). */
static void *grow(void *arr, int *cap, int n, size_t size)
{
    int c = *cap ? 2 * *cap : 8;
    void *q;
    if (n < *cap)
        return arr;
    if (!(q = realloc(arr, (size_t)c * size)))
        return NULL;
    *cap = c;
    return q;
}

fpo_halo_status hx_pts_push(hx_pts *out, hx_pt p, fpo_halo_error *err)
{
    hx_pt *q = grow(out->p, &out->cap, out->n, sizeof *q);
    if (!q)
        return hx_fail(err, FPO_HALO_ENOMEM, "halo plan: out of memory");
    out->p = q;
    out->p[out->n++] = p;
    return FPO_HALO_OK;
}

/* Appends halo point (i, j) of rank r to `out` when it has an owner. */
static fpo_halo_status halo_point(const fpo_halo_decomp *r, fpo_halo_pos pos, int ncomp, int c,
                                  int i, int j, hx_pts *out, fpo_halo_error *err)
{
    fpo_halo_point p;
    hx_pt q;
    if (!fpo_halo_locate(r, pos, i, j, &p))
        return FPO_HALO_OK;
    q.i = i;
    q.j = j;
    q.rank = p.rank;
    q.si = p.li;
    q.sj = p.lj;
    hx_turn(p.rot, ncomp, c, &q.scomp, &q.sign);
    return hx_pts_push(out, q, err);
}

fpo_halo_status hx_halo_points(const fpo_halo_decomp *r, fpo_halo_pos pos, int ncomp, int c,
                               int depth, hx_pts *out, fpo_halo_error *err)
{
    int ni, nj;
    fpo_halo_compute_size(r, pos, &ni, &nj);
    if (depth < 1)
        return FPO_HALO_OK;
    for (int j = -depth; j < nj + depth; j++) {
        int whole = j < 0 || j >= nj; /* a south or north strip row */
        for (int i = -depth; i < ni + depth; i = (!whole && i == -1) ? ni : i + 1)
            if (halo_point(r, pos, ncomp, c, i, j, out, err))
                return FPO_HALO_ENOMEM;
    }
    return FPO_HALO_OK;
}

fpo_halo_status hx_halo_points_box(const fpo_halo_decomp *r, fpo_halo_pos pos, int ncomp, int c,
                                   int depth, hx_pts *out, fpo_halo_error *err)
{
    int ni, nj;
    fpo_halo_compute_size(r, pos, &ni, &nj);
    for (int j = -depth; j < nj + depth; j++)
        for (int i = -depth; i < ni + depth; i++)
            if (!(i >= 0 && i < ni && j >= 0 && j < nj) &&
                halo_point(r, pos, ncomp, c, i, j, out, err))
                return FPO_HALO_ENOMEM;
    return FPO_HALO_OK;
}

static size_t dtype_size(fpo_halo_dtype t) { return t == FPO_HALO_F32 ? 4 : 8; }

fpo_halo_status hx_slot_bind(hx_slot *s, const fpo_halo_item *it)
{
    fpo_halo_pos pos[2];
    int nc = hx_item_pos(it, pos);
    s->dtype = it->f[0].dtype;
    s->esize = dtype_size(s->dtype);
    s->nk = it->f[0].hi[2] - it->f[0].lo[2];
    for (int c = 0; c < 2; c++) {
        const fpo_halo_field *f = &it->f[c < nc ? c : 0];
        s->base[c] = (char *)f->data +
                     (ptrdiff_t)s->esize * (-f->lo[0] * f->stride[0] - f->lo[1] * f->stride[1]);
        s->sk[c] = f->stride[2];
    }
    return FPO_HALO_OK;
}

/* Checks one field of item `k`: dtype, strides, and coverage of [-need, n + stagger + need). */
static fpo_halo_status check_field(const fpo_halo_decomp *d, const fpo_halo_field *f, int k,
                                   int c, fpo_halo_pos pos, int need, const fpo_halo_field *f0,
                                   const char *what, fpo_halo_error *err)
{
    int64_t hi_i = d->nx + !hx_half_x(pos) + need, hi_j = d->ny + !hx_half_y(pos) + need;
    const char *cn = c ? "v" : "u";
    if (!f->data)
        return hx_fail(err, FPO_HALO_EINVAL, "rank %d: %s item %d component %s: null data",
                       d->rank, what, k, cn);
    if (f->dtype != FPO_HALO_F32 && f->dtype != FPO_HALO_F64)
        return hx_fail(err, FPO_HALO_EINVAL, "rank %d: %s item %d component %s: dtype %d is "
                       "not f32 or f64", d->rank, what, k, cn, (int)f->dtype);
    if (f->stride[0] != 1 || f->stride[1] < f->hi[0] - f->lo[0] ||
        (f->hi[2] - f->lo[2] > 1 && f->stride[2] < f->stride[1] * (f->hi[1] - f->lo[1])))
        return hx_fail(err, FPO_HALO_EINVAL, "rank %d: %s item %d component %s: strides "
                       "(%lld, %lld, %lld) are not I-fastest, then J, then K", d->rank, what,
                       k, cn, (long long)f->stride[0], (long long)f->stride[1],
                       (long long)f->stride[2]);
    if (f->lo[0] > -need || f->hi[0] < hi_i || f->lo[1] > -need || f->hi[1] < hi_j ||
        f->hi[2] <= f->lo[2])
        return hx_fail(err, FPO_HALO_EINVAL, "rank %d: %s item %d component %s covers i "
                       "[%lld, %lld) j [%lld, %lld) k [%lld, %lld); it needs i [%d, %lld) j "
                       "[%d, %lld) and one level or more", d->rank, what, k, cn,
                       (long long)f->lo[0], (long long)f->hi[0], (long long)f->lo[1],
                       (long long)f->hi[1], (long long)f->lo[2], (long long)f->hi[2], -need,
                       (long long)hi_i, -need, (long long)hi_j);
    if (f != f0 && (f->dtype != f0->dtype || f->hi[2] - f->lo[2] != f0->hi[2] - f0->lo[2]))
        return hx_fail(err, FPO_HALO_EINVAL, "rank %d: %s item %d: u and v differ in dtype or "
                       "number of levels", d->rank, what, k);
    if (f->stride[1] * (f->hi[1] - f->lo[1]) > INT32_MAX)
        return hx_fail(err, FPO_HALO_EINVAL, "rank %d: %s item %d: a level has more than "
                       "2^31 elements", d->rank, what, k);
    return FPO_HALO_OK;
}

/* The peer for `rank`, created on first use; *last caches the one found last. */
static hx_peer *peer_of(fpo_halo_plan *p, int *last, int rank, fpo_halo_error *err)
{
    hx_peer *q;
    if (*last >= 0 && p->peer[*last].rank == rank)
        return &p->peer[*last];
    for (int k = 0; k < p->npeers; k++)
        if (p->peer[k].rank == rank)
            return &p->peer[*last = k];
    if (!(q = realloc(p->peer, (size_t)(p->npeers + 1) * sizeof *q))) {
        hx_fail(err, FPO_HALO_ENOMEM, "halo plan: out of memory");
        return NULL;
    }
    p->peer = q;
    memset(&q[p->npeers], 0, sizeof *q);
    q[p->npeers].rank = rank;
    q[p->npeers].dir = FPO_HALO_W;
    *last = p->npeers++;
    return &p->peer[*last];
}

/* Appends an entry to the last segment of `s` when it is (item, rcomp), else to a new one. */
static fpo_halo_status side_add(hx_side *s, int item, int rcomp, hx_entry e, fpo_halo_error *err)
{
    hx_seg *g = s->nseg ? &s->seg[s->nseg - 1] : NULL;
    hx_entry *q;
    if (!g || g->item != item || g->rcomp != rcomp) {
        hx_seg *segs = grow(s->seg, &s->cap, s->nseg, sizeof *segs);
        if (!segs)
            return hx_fail(err, FPO_HALO_ENOMEM, "halo plan: out of memory");
        s->seg = segs;
        g = &s->seg[s->nseg++];
        memset(g, 0, sizeof *g);
        g->item = item;
        g->rcomp = rcomp;
    }
    if (!(q = grow(g->e, &g->cap, g->n, sizeof *q)))
        return hx_fail(err, FPO_HALO_ENOMEM, "halo plan: out of memory");
    g->e = q;
    g->e[g->n++] = e;
    return FPO_HALO_OK;
}

static fpo_halo_dir dir_of(const fpo_halo_decomp *d, int i, int j)
{
    int w = i < 0, e = i >= d->nx, s = j < 0, n = j >= d->ny;
    if (s)
        return w ? FPO_HALO_SW : e ? FPO_HALO_SE : FPO_HALO_S;
    if (n)
        return w ? FPO_HALO_NW : e ? FPO_HALO_NE : FPO_HALO_N;
    return w ? FPO_HALO_W : FPO_HALO_E;
}

/* Message layout: per peer and side, segments in order, each 8-byte aligned. */
static void lay_out(fpo_halo_plan *p)
{
    p->sbytes = p->rbytes = 0;
    for (int k = 0; k < p->npeers; k++) {
        hx_side *sides[2] = {&p->peer[k].send, &p->peer[k].recv};
        size_t *total[2] = {&p->sbytes, &p->rbytes};
        for (int s = 0; s < 2; s++) {
            size_t b = 0;
            for (int g = 0; g < sides[s]->nseg; g++) {
                hx_seg *seg = &sides[s]->seg[g];
                const hx_slot *sl = &p->slot[seg->item];
                seg->byte = b;
                seg->uniform = 1;
                for (int q = 1; q < seg->n; q++)
                    seg->uniform &= seg->e[q].comp == seg->e[0].comp &&
                                    seg->e[q].sign == seg->e[0].sign;
                b += ((size_t)seg->n * (size_t)sl->nk * sl->esize + 7) & ~(size_t)7;
            }
            sides[s]->bytes = b;
            sides[s]->at = *total[s];
            *total[s] += b;
        }
    }
}

/* Rank r's points, in r's order: those r receives from me become my send entries to r, and
 * when r is me, my receive entries. Both sides thus list a message in one order. */
static fpo_halo_status add_rank(fpo_halo_plan *p, const fpo_halo_decomp *d, int r, int depth,
                                hx_points_fn *points, hx_pts *pts, fpo_halo_error *err)
{
    fpo_halo_decomp dr;
    fpo_halo_status st;
    int last = -1;
    if ((st = fpo_halo_layout(&dr, d->size, r, d->n, d->layout_x, d->layout_y, err)))
        return st;
    for (int k = 0; k < p->nitems; k++) {
        const fpo_halo_item *it = &p->items[k];
        fpo_halo_pos pos[2];
        int nc = hx_item_pos(it, pos);
        for (int c = 0; c < nc; c++) {
            pts->n = 0;
            if ((st = points(&dr, pos[c], nc, c, depth, pts, err)))
                return st;
            for (int q = 0; q < pts->n; q++) {
                const hx_pt *pt = &pts->p[q];
                hx_peer *pr;
                hx_entry e;
                if (r == d->rank) { /* I receive it from pt->rank */
                    const fpo_halo_field *f = &it->f[c];
                    if (!(pr = peer_of(p, &last, pt->rank, err)))
                        return FPO_HALO_ENOMEM;
                    if (!pr->recv.nseg)
                        pr->dir = dir_of(d, pt->i, pt->j);
                    e.off = (int32_t)(pt->i * f->stride[0] + pt->j * f->stride[1]);
                    e.comp = (int8_t)c;
                    e.sign = 1;
                    if ((st = side_add(&pr->recv, k, c, e, err)))
                        return st;
                }
                if (pt->rank == d->rank) { /* I send it to r */
                    const fpo_halo_field *f = &it->f[pt->scomp];
                    if (!(pr = peer_of(p, &last, r, err)))
                        return FPO_HALO_ENOMEM;
                    e.off = (int32_t)(pt->si * f->stride[0] + pt->sj * f->stride[1]);
                    e.comp = (int8_t)pt->scomp;
                    e.sign = (int8_t)pt->sign;
                    if ((st = side_add(&pr->send, k, c, e, err)))
                        return st;
                }
            }
        }
    }
    return FPO_HALO_OK;
}

/* Adds `rank` to the list `s` of *n (capacity *cap) unless it is the last one added; NULL,
 * with s freed, when out of memory. */
static int *set_add(int *s, int *n, int *cap, int rank)
{
    int *q = grow(s, cap, *n, sizeof *s);
    if (!q)
        return free(s), NULL;
    if (!*n || q[*n - 1] != rank)
        q[(*n)++] = rank;
    return q;
}

static int by_rank(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

/* The ranks that can exchange with d to `depth`, ascending: d itself and the owners of the
 * points, of every position, within depth + 1 of its domain (its halo strips one deeper). A
 * rank that receives a point of d's holds it within depth of its own points, so it owns points
 * within depth + 1 of d's (the one more for staggered points on a shared boundary); the owners
 * of d's own halo points alone miss some. tests/halo/halo_plans.c checks the plans against
 * the exhaustive construction, cube corners included. */
static fpo_halo_status near_ranks(const fpo_halo_decomp *d, int depth, int **ranks, int *n,
                                  fpo_halo_error *err)
{
    int cap = 0, m = 0, reach = depth + 1, *s;
    *n = 0;
    s = set_add(NULL, n, &cap, d->rank);
    for (int pos = FPO_HALO_CENTER; pos <= FPO_HALO_CORNER && s; pos++) {
        int ni, nj;
        fpo_halo_compute_size(d, (fpo_halo_pos)pos, &ni, &nj);
        for (int j = -reach; j < nj + reach && s; j++) {
            int whole = j < 0 || j >= nj;
            for (int i = -reach; i < ni + reach && s; i = (!whole && i == -1) ? ni : i + 1) {
                fpo_halo_point p;
                if (fpo_halo_locate(d, (fpo_halo_pos)pos, i, j, &p))
                    s = set_add(s, n, &cap, p.rank);
            }
        }
    }
    if (!s)
        return hx_fail(err, FPO_HALO_ENOMEM, "halo plan: out of memory");
    qsort(s, (size_t)*n, sizeof *s, by_rank);
    for (int k = 0; k < *n; k++)
        if (!m || s[m - 1] != s[k])
            s[m++] = s[k];
    *n = m;
    *ranks = s;
    return FPO_HALO_OK;
}

fpo_halo_status hx_plan_fill(fpo_halo_plan *p, const fpo_halo_decomp *d, int depth,
                             hx_points_fn *points, int every, fpo_halo_error *err)
{
    hx_pts pts = {NULL, 0, 0};
    int *ranks = NULL, n = d->size;
    fpo_halo_status st = every ? FPO_HALO_OK : near_ranks(d, depth, &ranks, &n, err);
    for (int k = 0; k < n && !st; k++)
        st = add_rank(p, d, ranks ? ranks[k] : k, depth, points, &pts, err);
    free(pts.p);
    free(ranks);
    if (!st)
        lay_out(p);
    return st;
}

/* Checks the items, allocates the plan and its bound items. */
static fpo_halo_status plan_new(fpo_halo_plan **plan, const fpo_halo_decomp *d, int need,
                                int nitems, const fpo_halo_item *items, unsigned flags,
                                const char *what, fpo_halo_error *err)
{
    fpo_halo_plan *p;
    fpo_halo_status st;
    if (nitems < 0 || (nitems > 0 && !items))
        return hx_fail(err, FPO_HALO_EINVAL, "rank %d: %s: %d items at %p", d->rank, what,
                       nitems, (const void *)items);
    for (int k = 0; k < nitems; k++) {
        fpo_halo_pos pos[2];
        int nc = hx_item_pos(&items[k], pos);
        if (!nc)
            return hx_fail(err, FPO_HALO_EINVAL, "rank %d: %s item %d: unknown kind %d",
                           d->rank, what, k, (int)items[k].kind);
        if (nc == 1 && pos[0] != FPO_HALO_CENTER && pos[0] != FPO_HALO_CORNER)
            return hx_fail(err, FPO_HALO_EINVAL, "rank %d: %s item %d: a scalar on x- or "
                           "y-faces lands on the other faces across a turned tile edge; "
                           "exchange face values as a C- or D-grid pair", d->rank, what, k);
        for (int c = 0; c < nc; c++)
            if ((st = check_field(d, &items[k].f[c], k, c, pos[c], need, &items[k].f[0], what,
                                  err)))
                return st;
    }
    if (!(p = calloc(1, sizeof *p)))
        return hx_fail(err, FPO_HALO_ENOMEM, "rank %d: %s: out of memory", d->rank, what);
    p->comm = MPI_COMM_NULL;
    p->rank = d->rank;
    p->flags = flags;
    p->nitems = nitems;
    p->items = malloc((size_t)(nitems ? nitems : 1) * sizeof *p->items);
    p->slot = malloc((size_t)(nitems ? nitems : 1) * sizeof *p->slot);
    if (!p->items || !p->slot) {
        fpo_halo_plan_destroy(p);
        return hx_fail(err, FPO_HALO_ENOMEM, "rank %d: %s: out of memory", d->rank, what);
    }
    if (nitems)
        memcpy(p->items, items, (size_t)nitems * sizeof *items);
    for (int k = 0; k < nitems; k++)
        hx_slot_bind(&p->slot[k], &p->items[k]);
    *plan = p;
    return FPO_HALO_OK;
}

fpo_halo_status hx_plan_local(fpo_halo_plan **plan, const fpo_halo_decomp *d, int depth,
                              int need, int nitems, const fpo_halo_item *items, unsigned flags,
                              hx_points_fn *points, int every, const char *what,
                              fpo_halo_error *err)
{
    fpo_halo_plan *p = NULL;
    fpo_halo_status st;
    if (!plan || !d)
        return hx_fail(err, FPO_HALO_EINVAL, "%s: null plan or decomposition", what);
    *plan = NULL;
    if (((points == hx_halo_points || points == hx_halo_points_box) && depth < 1) ||
        depth < 0 || depth > d->n)
        return hx_fail(err, FPO_HALO_EINVAL, "rank %d: %s: halo depth %d is not in 1 .. %d",
                       d->rank, what, depth, d->n);
    if ((st = plan_new(&p, d, need, nitems, items, flags, what, err)))
        return st;
    if ((st = hx_plan_fill(p, d, depth, points, every, err))) {
        fpo_halo_plan_destroy(p);
        return st;
    }
    *plan = p;
    return FPO_HALO_OK;
}

fpo_halo_status hx_plan_build(fpo_halo_plan **plan, const fpo_halo_decomp *d, int depth,
                              int need, int nitems, const fpo_halo_item *items, unsigned flags,
                              hx_points_fn *points, const char *what, fpo_halo_error *err)
{
    fpo_halo_status st;
    if (d && d->comm == MPI_COMM_NULL) {
        if (plan)
            *plan = NULL;
        return hx_fail(err, FPO_HALO_EINVAL, "rank %d: %s: the decomposition has no "
                       "communicator (use fpo_halo_decomp_create)", d->rank, what);
    }
    if ((st = hx_plan_local(plan, d, depth, need, nitems, items, flags, points, 0, what, err)))
        return st;
    if ((st = hx_plan_comm(*plan, d, err))) {
        fpo_halo_plan_destroy(*plan);
        *plan = NULL;
    }
    return st;
}

fpo_halo_status fpo_halo_plan_create(fpo_halo_plan **plan, const fpo_halo_decomp *d, int depth,
                                     int nitems, const fpo_halo_item *items, unsigned flags,
                                     fpo_halo_error *err)
{
    return hx_plan_build(plan, d, depth, depth, nitems, items, flags, hx_halo_points,
                         "halo exchange", err);
}

fpo_halo_status fpo_halo_plan_rebind(fpo_halo_plan *p, int item, int comp, void *data,
                                     fpo_halo_error *err)
{
    if (!p || item < 0 || item >= p->nitems || comp < 0 || comp > 1 || !data)
        return hx_fail(err, FPO_HALO_EINVAL, "fpo_halo_plan_rebind: bad plan, item %d, "
                       "component %d or data", item, comp);
    if (p->active)
        return hx_fail(err, FPO_HALO_ESTATE, "rank %d: fpo_halo_plan_rebind during an "
                       "exchange", p->rank);
    p->items[item].f[comp].data = data;
    return hx_slot_bind(&p->slot[item], &p->items[item]);
}

size_t fpo_halo_plan_bytes(const fpo_halo_plan *p, int *npeers)
{
    int n = 0;
    for (int k = 0; p && k < p->npeers; k++)
        n += p->peer[k].send.bytes > 0;
    if (npeers)
        *npeers = n;
    return p ? p->sbytes : 0;
}

int fpo_halo_plan_peers(const fpo_halo_plan *p, int max, int *rank, size_t *send_bytes,
                        size_t *recv_bytes)
{
    for (int k = 0; p && k < p->npeers && k < max; k++) {
        if (rank)
            rank[k] = p->peer[k].rank;
        if (send_bytes)
            send_bytes[k] = p->peer[k].send.bytes;
        if (recv_bytes)
            recv_bytes[k] = p->peer[k].recv.bytes;
    }
    return p ? p->npeers : 0;
}

void fpo_halo_plan_destroy(fpo_halo_plan *p)
{
    if (!p)
        return;
    if (p->active)
        hx_abandon(p);
    hx_cuda_free(p);
    for (int k = 0; k < p->nreq; k++)
        if (p->req[k] != MPI_REQUEST_NULL)
            MPI_Request_free(&p->req[k]);
    hx_tag_release(p);
    for (int k = 0; k < p->npeers; k++) {
        hx_side *sides[2] = {&p->peer[k].send, &p->peer[k].recv};
        for (int s = 0; s < 2; s++) {
            for (int g = 0; g < sides[s]->nseg; g++)
                free(sides[s]->seg[g].e);
            free(sides[s]->seg);
        }
    }
    free(p->peer);
    free(p->req);
    free(p->sbuf);
    free(p->rbuf);
    free(p->items);
    free(p->slot);
    free(p);
}
