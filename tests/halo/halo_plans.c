/* halo_plans.c: takes cubed-sphere layouts of any rank count, gives, in one process and without
 * messages, the check of halo plans built from the ranks within reach against the exhaustive
 * construction, entry by entry (`check`), and the table of plan build time, plan memory and
 * messages per rank against the rank count (`bench`, never failing on speed). */
#define _POSIX_C_SOURCE 200809L /* clock_gettime */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "halo_internal.h"

static double *buf; /* every field's storage: plans keep pointers and never read them here */
static size_t buf_len;

static void die(const char *what, const fpo_halo_error *err)
{
    fprintf(stderr, "halo_plans: %s: %s\n", what, err->msg);
    exit(2);
}

/* Makes `buf` large enough for any field of d with halo h and 2 levels. */
static void reserve(const fpo_halo_decomp *d, int h)
{
    size_t need = (size_t)(d->nx + 1 + 2 * h) * (size_t)(d->ny + 1 + 2 * h) * 2;
    if (need > buf_len) {
        free(buf);
        if (!(buf = calloc(need, sizeof *buf)))
            exit(3);
        buf_len = need;
    }
}

/* A field of position `pos` covering halo h around d's compute points, nk levels. */
static fpo_halo_field field(const fpo_halo_decomp *d, fpo_halo_pos pos, int h, int nk)
{
    int ni, nj;
    fpo_halo_compute_size(d, pos, &ni, &nj);
    return fpo_halo_field_make(buf, FPO_HALO_F64, -h, ni + h, -h, nj + h, nk);
}

/* Item of `kind` (a scalar at `pos`) for d, halo h. */
static fpo_halo_item item(const fpo_halo_decomp *d, fpo_halo_kind kind, fpo_halo_pos pos, int h,
                          int nk)
{
    fpo_halo_item it;
    fpo_halo_pos p[2];
    it.kind = kind;
    it.pos = pos;
    hx_item_pos(&it, p);
    if (kind == FPO_HALO_SCALAR)
        return fpo_halo_scalar(field(d, pos, h, nk), pos);
    return fpo_halo_vector(field(d, p[0], h, nk), field(d, p[1], h, nk), kind);
}

/* The item sets: every kind (0), a scalar (1), scalar + C-grid + D-grid (2), a C-grid pair (3),
 * C- and D-grid pairs for the shared-edge sync (4), a centre and a corner scalar and a D-grid
 * pair (5: every position, turned and swapped). Returns the number of items. */
static int items_of(int set, const fpo_halo_decomp *d, int h, fpo_halo_item *it)
{
    int n = 0;
    reserve(d, h);
    switch (set) {
    case 0:
        it[n++] = item(d, FPO_HALO_SCALAR, FPO_HALO_CENTER, h, 2);
        it[n++] = item(d, FPO_HALO_SCALAR, FPO_HALO_CORNER, h, 1);
        it[n++] = item(d, FPO_HALO_AGRID, FPO_HALO_CENTER, h, 1);
        it[n++] = item(d, FPO_HALO_BGRID, FPO_HALO_CENTER, h, 1);
        it[n++] = item(d, FPO_HALO_CGRID, FPO_HALO_CENTER, h, 1);
        it[n++] = item(d, FPO_HALO_DGRID, FPO_HALO_CENTER, h, 1);
        break;
    case 1:
        it[n++] = item(d, FPO_HALO_SCALAR, FPO_HALO_CENTER, h, 1);
        break;
    case 2:
        it[n++] = item(d, FPO_HALO_SCALAR, FPO_HALO_CENTER, h, 1);
        it[n++] = item(d, FPO_HALO_CGRID, FPO_HALO_CENTER, h, 1);
        it[n++] = item(d, FPO_HALO_DGRID, FPO_HALO_CENTER, h, 1);
        break;
    case 3:
        it[n++] = item(d, FPO_HALO_CGRID, FPO_HALO_CENTER, h, 1);
        break;
    case 5:
        it[n++] = item(d, FPO_HALO_SCALAR, FPO_HALO_CENTER, h, 1);
        it[n++] = item(d, FPO_HALO_SCALAR, FPO_HALO_CORNER, h, 1);
        it[n++] = item(d, FPO_HALO_DGRID, FPO_HALO_CENTER, h, 1);
        break;
    default:
        it[n++] = item(d, FPO_HALO_CGRID, FPO_HALO_CENTER, h, 1);
        it[n++] = item(d, FPO_HALO_DGRID, FPO_HALO_CENTER, h, 1);
        break;
    }
    return n;
}

/* A plan of item set `set` for d: an exchange to `depth`, or the shared-edge sync when depth
 * is 0; from the ranks within reach (every 0), or from every rank walking halo strips (1) or
 * whole halo boxes (2: the exhaustive construction, the reference). */
static fpo_halo_plan *plan_of(const fpo_halo_decomp *d, int set, int depth, int every)
{
    hx_points_fn *walk = every == 2 ? hx_halo_points_box : hx_halo_points;
    fpo_halo_item it[8];
    fpo_halo_plan *p;
    fpo_halo_error err;
    int h = depth ? depth : 1, n = items_of(set, d, h, it);
    if (hx_plan_local(&p, d, depth, depth, n, it, 0, depth ? walk : hx_edge_points, every > 0,
                      "plan", &err))
        die("plan", &err);
    return p;
}

/* Where plans a and b first differ, or NULL. */
static const char *differ(const fpo_halo_plan *a, const fpo_halo_plan *b)
{
    if (a->npeers != b->npeers)
        return "peer count";
    if (a->sbytes != b->sbytes || a->rbytes != b->rbytes)
        return "message bytes";
    for (int k = 0; k < a->npeers; k++) {
        const hx_peer *x = &a->peer[k], *y = &b->peer[k];
        if (x->rank != y->rank || x->dir != y->dir)
            return "peer rank or direction";
        for (int s = 0; s < 2; s++) {
            const hx_side *u = s ? &x->send : &x->recv, *v = s ? &y->send : &y->recv;
            if (u->nseg != v->nseg || u->bytes != v->bytes || u->at != v->at)
                return "segments of a message";
            for (int g = 0; g < u->nseg; g++) {
                const hx_seg *e = &u->seg[g], *f = &v->seg[g];
                if (e->item != f->item || e->rcomp != f->rcomp || e->n != f->n ||
                    e->uniform != f->uniform || e->byte != f->byte)
                    return "a segment";
                for (int q = 0; q < e->n; q++)
                    if (e->e[q].off != f->e[q].off || e->e[q].comp != f->e[q].comp ||
                        e->e[q].sign != f->e[q].sign)
                        return "an entry";
            }
        }
    }
    return NULL;
}

/* Peers this plan sends to: the messages it sends per exchange. */
static int sends(const fpo_halo_plan *p)
{
    int n = 0;
    for (int k = 0; k < p->npeers; k++)
        n += p->peer[k].send.bytes > 0;
    return n;
}

/* Ranks to check on layout lx x ly: every rank up to `all`, else the four corner ranks of
 * each tile (every cube corner, from each of its three tiles), and on tiles 0 and 1 (even
 * and odd tiles cross their edges differently) the middle of each edge, a rank one in from
 * the south-west corner and the middle one. Returns the count. */
static int sample(int lx, int ly, int all, int *r)
{
    int n = 0, per = lx * ly;
    if (6 * per <= all) {
        for (int k = 0; k < 6 * per; k++)
            r[n++] = k;
        return n;
    }
    for (int t = 0; t < 6; t++) {
        const int at[10][2] = {{0, 0}, {lx - 1, 0}, {0, ly - 1}, {lx - 1, ly - 1},
                               {lx / 2, 0}, {lx / 2, ly - 1}, {0, ly / 2}, {lx - 1, ly / 2},
                               {1, 1}, {lx / 2, ly / 2}};
        for (int k = 0; k < (t < 2 ? 10 : 4); k++)
            r[n++] = t * per + at[k][1] * lx + at[k][0];
    }
    return n;
}

/* check N LX LY [ALL]: on every rank, when there are ALL or fewer, plans of every kind at
 * depths 1 .. 3 (to the tile size), against every rank's whole halo box; on sampled ranks of
 * larger layouts, set 5 at depth 3 against every rank's halo strips (which the small layouts
 * show equal to the boxes); on both, the shared-edge sync. Fails on any difference, or, on square
 * layouts, on more than 8 messages per exchange where a rank is wider than the halo (on
 * rectangular ones a turned edge meets two ranks). */
static int check(int n, int lx, int ly, int all)
{
    static int ranks[6 * 4096];
    int nr, bad = 0, plans = 0, entries = 0, most = 0, every;
    fpo_halo_error err;
    if (6 * lx * ly <= all && 6 * lx * ly > (int)(sizeof ranks / sizeof *ranks))
        all = 0;
    nr = sample(lx, ly, all, ranks);
    every = nr == 6 * lx * ly;
    for (int k = 0; k < nr; k++) {
        fpo_halo_decomp d;
        if (fpo_halo_layout(&d, 6 * lx * ly, ranks[k], n, lx, ly, &err))
            die("layout", &err);
        for (int depth = 0; depth <= 3 && depth <= n; depth += every || depth ? 1 : 3) {
            int set = !depth ? 4 : every ? 0 : 5;
            fpo_halo_plan *a = plan_of(&d, set, depth, 0);
            fpo_halo_plan *b = plan_of(&d, set, depth, every ? 2 : 1);
            const char *why = differ(a, b);
            int wide = d.nx > depth && d.ny > depth && lx == ly;
            plans++;
            for (int q = 0; q < a->npeers; q++)
                for (int g = 0; g < a->peer[q].recv.nseg; g++)
                    entries += a->peer[q].recv.seg[g].n;
            if (wide && sends(a) > most)
                most = sends(a);
            if (why && bad++ < 10)
                printf("rank %d of %d (C%d, %dx%d), depth %d: %s differs\n", d.rank, d.size, n,
                       lx, ly, depth, why);
            if (wide && sends(a) > 8 && bad++ < 10)
                printf("rank %d of %d, depth %d: %d messages per exchange\n", d.rank, d.size,
                       depth, sends(a));
            if (!a->npeers && d.size > 6 && bad++ < 10)
                printf("rank %d of %d, depth %d: no peers\n", d.rank, d.size, depth);
            fpo_halo_plan_destroy(a);
            fpo_halo_plan_destroy(b);
        }
    }
    printf("halo_plans: C%d on %dx%d (%d ranks): %d ranks, %d plans, %d receive entries, "
           "at most %d messages per exchange where nx > depth (square layouts); %d "
           "differences\n", n, lx, ly,
           6 * lx * ly, nr, plans, entries, most, bad);
    return bad != 0;
}

static double cpu_now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* Bytes a plan holds: its peers, segments, entries, items and message buffers. */
static size_t plan_memory(const fpo_halo_plan *p)
{
    size_t b = sizeof *p + (size_t)p->npeers * sizeof *p->peer + p->sbytes + p->rbytes +
               (size_t)p->nitems * (sizeof *p->items + sizeof *p->slot) +
               (size_t)(2 * p->npeers + 1) * sizeof(MPI_Request);
    for (int k = 0; k < p->npeers; k++)
        for (int s = 0; s < 2; s++) {
            const hx_side *sd = s ? &p->peer[k].send : &p->peer[k].recv;
            b += (size_t)sd->cap * sizeof *sd->seg;
            for (int g = 0; g < sd->nseg; g++)
                b += (size_t)sd->seg[g].cap * sizeof(hx_entry);
        }
    return b;
}

/* The example model's plans (model/step.fpo, model/winds.fpo): a scalar and two C-grid
 * pairs to depth 3, two C-grid shared-edge syncs. */
static const int model_set[5][2] = {{1, 3}, {3, 3}, {3, 3}, {3, 0}, {3, 0}};

/* CPU seconds per rank to build item set `set` (-1: the example model's plans) on the
 * sampled ranks, best of `reps`; raises *mem to the bytes a rank's plans hold, *msgs to the
 * most messages one plan sends per exchange and *bytes to its most bytes sent. */
static double timed(int set, int depth, int every, const fpo_halo_decomp *ds, int nd, int reps,
                    size_t *mem, int *msgs, size_t *bytes)
{
    double best = 1e30;
    for (int rep = 0; rep < reps; rep++) {
        double t = 0;
        for (int k = 0; k < nd; k++) {
            int np = set < 0 ? 5 : 1;
            size_t held = 0;
            for (int q = 0; q < np; q++) {
                int s = set < 0 ? model_set[q][0] : set, dp = set < 0 ? model_set[q][1] : depth;
                double t0 = cpu_now();
                fpo_halo_plan *p = plan_of(&ds[k], s, dp, every);
                t += cpu_now() - t0;
                held += plan_memory(p);
                if (rep == 0 && msgs && sends(p) > *msgs)
                    *msgs = sends(p);
                if (rep == 0 && bytes && p->sbytes > *bytes)
                    *bytes = p->sbytes;
                fpo_halo_plan_destroy(p);
            }
            if (rep == 0 && mem && held > *mem)
                *mem = held;
        }
        t /= nd;
        best = t < best ? t : best;
    }
    return best;
}

/* bench [--quick]: 48 x 48 cells a rank, depth 3, P = 6 .. 13,824 (quick: to 1,536, the
 * exhaustive construction to 96); per rank the CPU time of a scalar plan, of scalar + C + D in
 * one plan, of the example model's plans, built from the ranks within reach and (up to
 * `every_to` ranks) exhaustively. */
static int bench(int quick)
{
    static const int ls[] = {1, 2, 4, 8, 16, 24, 32, 48};
    int nl = quick ? 5 : 8, every_to = quick ? 96 : 13824;
    printf("halo_plans bench: 48 x 48 cells a rank, depth 3, f64, 1 level; CPU ms per rank "
           "(mean over corner, edge and interior ranks); reach: from the ranks within reach "
           "(best of 3); every: from every rank's whole halo box, the exhaustive construction\n");
    printf("| ranks | layout | scalar reach | scalar every | s+C+D reach | s+C+D every | model "
           "set reach | model set every | model set KiB | msgs scalar | msgs s+C+D | KiB sent "
           "s+C+D |\n");
    printf("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |\n");
    for (int k = 0; k < nl; k++) {
        int l = ls[k], size = 6 * l * l, who[3] = {0, l / 2, (l / 2) * l + l / 2};
        fpo_halo_decomp ds[3];
        fpo_halo_error err;
        double t[6];
        size_t mem = 0, sb = 0;
        int m1 = 0, m2 = 0, ev = size <= every_to;
        for (int q = 0; q < 3; q++)
            if (fpo_halo_layout(&ds[q], size, who[q], 48 * l, l, l, &err))
                die("layout", &err);
        t[0] = timed(1, 3, 0, ds, 3, 3, NULL, &m1, NULL);
        t[1] = ev ? timed(1, 3, 2, ds, 3, size > 1536 ? 1 : 3, NULL, NULL, NULL) : 0;
        t[2] = timed(2, 3, 0, ds, 3, 3, NULL, &m2, &sb);
        t[3] = ev ? timed(2, 3, 2, ds, 3, size > 1536 ? 1 : 3, NULL, NULL, NULL) : 0;
        t[4] = timed(-1, 3, 0, ds, 3, 3, &mem, NULL, NULL);
        t[5] = ev ? timed(-1, 3, 2, ds, 3, 1, NULL, NULL, NULL) : 0;
        printf("| %5d | %dx%d | %.3f | ", size, l, l, t[0] * 1e3);
        printf(ev ? "%.2f | " : "- | ", t[1] * 1e3);
        printf("%.3f | ", t[2] * 1e3);
        printf(ev ? "%.2f | " : "- | ", t[3] * 1e3);
        printf("%.3f | ", t[4] * 1e3);
        printf(ev ? "%.1f | " : "- | ", t[5] * 1e3);
        printf("%.0f | %d | %d | %.1f |\n", mem / 1024.0, m1, m2, sb / 1024.0);
        fflush(stdout);
    }
    return 0;
}

int main(int argc, char **argv)
{
    int rc;
    if (argc >= 5 && !strcmp(argv[1], "check"))
        rc = check(atoi(argv[2]), atoi(argv[3]), atoi(argv[4]), argc > 5 ? atoi(argv[5]) : 400);
    else if (argc >= 2 && !strcmp(argv[1], "bench"))
        rc = bench(argc > 2 && !strcmp(argv[2], "--quick"));
    else {
        fprintf(stderr, "usage: halo_plans check N LX LY [ALL] | bench [--quick]\n");
        return 2;
    }
    free(buf);
    return rc;
}
