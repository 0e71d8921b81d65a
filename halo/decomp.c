/* decomp.c: takes a rank count, a tile size and a layout, gives each rank's tile, sub-tile,
 * bounds, edge class, neighbours, and the maps between local and tile indices. */
#include <string.h>

#include "halo_internal.h"

/* Tile neighbours across each side (W, E, S, N), and whether the crossing turns:
 * even t: E t+1 and S t-1 plain, N t+2 and W t-2 turned; odd t: W t-1 and N t+1 plain,
 * E t+2 and S t-2 turned. */
int hx_cross(int n, int tile, fpo_halo_dir side, int *x, int *y, int *rot)
{
    int m = 2 * n, X = *x, Y = *y, even = tile % 2 == 0;
    int nx = X, ny = Y, r = 0, t = tile;
    switch (side) {
    case FPO_HALO_E:
        if (even) { t = tile + 1; nx = X - m; }
        else { t = tile + 2; nx = m - Y; ny = X - m; r = 1; }
        break;
    case FPO_HALO_W:
        if (even) { t = tile + 4; nx = m - Y; ny = m + X; r = 1; }
        else { t = tile + 5; nx = X + m; }
        break;
    case FPO_HALO_N:
        if (even) { t = tile + 2; nx = Y - m; ny = m - X; r = 3; }
        else { t = tile + 1; ny = Y - m; }
        break;
    default: /* S */
        if (even) { t = tile + 5; ny = Y + m; }
        else { t = tile + 4; nx = Y + m; ny = m - X; r = 3; }
        break;
    }
    *x = nx;
    *y = ny;
    *rot = r;
    return t % 6;
}

void hx_turn(int rot, int ncomp, int c, int *sc, int *sign)
{
    *sc = c;
    *sign = 1;
    if (ncomp < 2 || rot == 0)
        return;
    *sc = 1 - c;
    /* rot 1: (u, v) = (v', -u'); rot 3: (u, v) = (-v', u') */
    *sign = (rot == 1) == (c == 0) ? 1 : -1;
}

void hx_owner(const fpo_halo_decomp *d, int tile, int x, int y, int *rank, int *li, int *lj)
{
    int cx = (x / 2) / d->nx, cy = (y / 2) / d->ny;
    if (cx >= d->layout_x)
        cx = d->layout_x - 1;
    if (cy >= d->layout_y)
        cy = d->layout_y - 1;
    *rank = tile * d->layout_x * d->layout_y + cy * d->layout_x + cx;
    *li = x / 2 - cx * d->nx;
    *lj = y / 2 - cy * d->ny;
}

int hx_item_pos(const fpo_halo_item *it, fpo_halo_pos pos[2])
{
    switch (it->kind) {
    case FPO_HALO_SCALAR: pos[0] = pos[1] = it->pos; return 1;
    case FPO_HALO_AGRID: pos[0] = pos[1] = FPO_HALO_CENTER; return 2;
    case FPO_HALO_BGRID: pos[0] = pos[1] = FPO_HALO_CORNER; return 2;
    case FPO_HALO_CGRID: pos[0] = FPO_HALO_XFACE; pos[1] = FPO_HALO_YFACE; return 2;
    case FPO_HALO_DGRID: pos[0] = FPO_HALO_YFACE; pos[1] = FPO_HALO_XFACE; return 2;
    }
    return 0;
}

void fpo_halo_compute_size(const fpo_halo_decomp *d, fpo_halo_pos pos, int *ni, int *nj)
{
    *ni = d->nx + !hx_half_x(pos);
    *nj = d->ny + !hx_half_y(pos);
}

int fpo_halo_locate(const fpo_halo_decomp *d, fpo_halo_pos pos, int i, int j, fpo_halo_point *p)
{
    int m = 2 * d->n, tile = d->tile, rot = 0;
    int x = 2 * (d->i0 + i) + hx_half_x(pos), y = 2 * (d->j0 + j) + hx_half_y(pos);
    int xin = x >= 0 && x <= m, yin = y >= 0 && y <= m;
    if (!xin && !yin)
        return 0;
    if (!xin)
        tile = hx_cross(d->n, tile, x < 0 ? FPO_HALO_W : FPO_HALO_E, &x, &y, &rot);
    else if (!yin)
        tile = hx_cross(d->n, tile, y < 0 ? FPO_HALO_S : FPO_HALO_N, &x, &y, &rot);
    if (x < 0 || x > m || y < 0 || y > m)
        return 0; /* deeper than a whole tile */
    p->tile = tile;
    p->gi = x / 2;
    p->gj = y / 2;
    p->rot = rot;
    hx_owner(d, tile, x, y, &p->rank, &p->li, &p->lj);
    return 1;
}

fpo_halo_status fpo_halo_owner(const fpo_halo_decomp *d, fpo_halo_pos pos, int tile, int gi,
                               int gj, int *rank, int *li, int *lj, fpo_halo_error *err)
{
    int x = 2 * gi + hx_half_x(pos), y = 2 * gj + hx_half_y(pos), m = 2 * d->n;
    if (tile < 0 || tile > 5 || x < 0 || x > m || y < 0 || y > m)
        return hx_fail(err, FPO_HALO_EINVAL,
                       "fpo_halo_owner: point (%d, %d) of tile %d is not on a %d x %d tile",
                       gi, gj, tile, d->n, d->n);
    hx_owner(d, tile, x, y, rank, li, lj);
    return FPO_HALO_OK;
}

fpo_halo_status fpo_halo_layout(fpo_halo_decomp *d, int size, int rank, int n, int layout_x,
                                int layout_y, fpo_halo_error *err)
{
    static const int off[8][2] = {{-1, 0}, {1, 0}, {0, -1}, {0, 1},
                                  {-1, -1}, {1, -1}, {-1, 1}, {1, 1}};
    if (!d)
        return hx_fail(err, FPO_HALO_EINVAL, "fpo_halo_layout: null decomposition");
    memset(d, 0, sizeof *d);
    d->comm = MPI_COMM_NULL;
    if (n < 1 || layout_x < 1 || layout_y < 1)
        return hx_fail(err, FPO_HALO_ELAYOUT,
                       "rank %d: tile size %d and layout %d x %d must be positive", rank, n,
                       layout_x, layout_y);
    if (size != 6 * layout_x * layout_y)
        return hx_fail(err, FPO_HALO_ELAYOUT,
                       "rank %d: layout %d x %d needs 6 x %d x %d = %d ranks, not %d", rank,
                       layout_x, layout_y, layout_x, layout_y, 6 * layout_x * layout_y, size);
    if (n % layout_x || n % layout_y)
        return hx_fail(err, FPO_HALO_ELAYOUT,
                       "rank %d: a tile of %d cells does not split into %d x %d ranks", rank,
                       n, layout_x, layout_y);
    if (rank < 0 || rank >= size)
        return hx_fail(err, FPO_HALO_EINVAL, "fpo_halo_layout: rank %d of %d", rank, size);
    d->rank = rank;
    d->size = size;
    d->n = n;
    d->layout_x = layout_x;
    d->layout_y = layout_y;
    d->tile = rank / (layout_x * layout_y);
    d->isub = rank % (layout_x * layout_y) % layout_x;
    d->jsub = rank % (layout_x * layout_y) / layout_x;
    d->nx = n / layout_x;
    d->ny = n / layout_y;
    d->i0 = d->isub * d->nx;
    d->j0 = d->jsub * d->ny;
    d->edges = (d->isub == 0 ? FPO_HALO_EDGE_W : 0u) |
               (d->isub == layout_x - 1 ? FPO_HALO_EDGE_E : 0u) |
               (d->jsub == 0 ? FPO_HALO_EDGE_S : 0u) |
               (d->jsub == layout_y - 1 ? FPO_HALO_EDGE_N : 0u);
    for (int k = 0; k < 8; k++) {
        int i = off[k][0] < 0 ? -1 : off[k][0] > 0 ? d->nx : 0;
        int j = off[k][1] < 0 ? -1 : off[k][1] > 0 ? d->ny : 0;
        fpo_halo_point p;
        d->nbr[k].rank = -1;
        d->nbr[k].rot = 0;
        if (fpo_halo_locate(d, FPO_HALO_CENTER, i, j, &p)) {
            d->nbr[k].rank = p.rank;
            d->nbr[k].rot = p.rot;
        }
    }
    return FPO_HALO_OK;
}

fpo_halo_status fpo_halo_decomp_create(fpo_halo_decomp *d, MPI_Comm comm, int n, int layout_x,
                                       int layout_y, fpo_halo_error *err)
{
    int size, rank;
    fpo_halo_status st;
    if (MPI_Comm_size(comm, &size) != MPI_SUCCESS || MPI_Comm_rank(comm, &rank) != MPI_SUCCESS)
        return hx_fail(err, FPO_HALO_EMPI, "fpo_halo_decomp_create: not a valid communicator");
    st = fpo_halo_layout(d, size, rank, n, layout_x, layout_y, err);
    if (st)
        return st;
    if (MPI_Comm_dup(comm, &d->comm) != MPI_SUCCESS) {
        d->comm = MPI_COMM_NULL;
        return hx_fail(err, FPO_HALO_EMPI, "rank %d: MPI_Comm_dup failed", rank);
    }
    MPI_Comm_set_errhandler(d->comm, MPI_ERRORS_RETURN);
    return FPO_HALO_OK;
}

void fpo_halo_decomp_free(fpo_halo_decomp *d)
{
    if (d && d->comm != MPI_COMM_NULL)
        MPI_Comm_free(&d->comm);
}

fpo_domain fpo_halo_domain(const fpo_halo_decomp *d, int nz)
{
    fpo_domain dom = {0};
    if (!d)
        return dom;
    dom.nx = d->nx;
    dom.ny = d->ny;
    dom.nz = nz;
    dom.i0 = d->i0;
    dom.j0 = d->j0;
    dom.tile_nx = dom.tile_ny = d->n;
    dom.tile = d->tile;
    return dom;
}
