/* halo_test.c: takes a tile size and a layout (argv), gives every kind of exchange item checked
 * point by point against geom.c's independent predictions: depths 1 to 3, f32 and f64, split
 * start / finish around computation, corner fills, D- and C-grid shared-edge sync. Exit 0
 * only with zero mismatches on every rank. Built with HALO_TEST_DEVICE, the exchanges run on
 * CUDA device copies of the fields (exit 77, skipped, without a device). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fpo_halo.h"
#include "geom.h"

#ifdef HALO_TEST_DEVICE
#include <cuda_runtime.h>
#define DEVICE 1
#define FLAGS FPO_HALO_DEVICE
#else
#define DEVICE 0
#define FLAGS 0
#endif

#define H 3             /* halo stored around every field */
#define POISON (-0.25)  /* never a point's identity */
#define GARBAGE 0.75

typedef struct titem {
    fpo_halo_kind kind;
    int nc, nk;
    fpo_halo_pos pos[2];
    fpo_halo_dtype dt;
    fpo_halo_field f[2];
    void *dev[2]; /* device copies (HALO_TEST_DEVICE) */
    size_t bytes[2];
} titem;

static int N;
static double LV; /* identity step between levels */
static fpo_halo_decomp D;
static int shown;

static int half_x(fpo_halo_pos p) { return p == FPO_HALO_CENTER || p == FPO_HALO_YFACE; }
static int half_y(fpo_halo_pos p) { return p == FPO_HALO_CENTER || p == FPO_HALO_XFACE; }

/* The value a point holds on its owner: its tile, doubled tile coordinates and component. */
static double ident(int t, int x, int y, int c, int k)
{
    return (((double)t * (2 * N + 1) + x) * (2 * N + 1) + y) * 2 + c + 1 + k * LV;
}

static double *at64(const fpo_halo_field *f, int i, int j, int k, float **p32)
{
    int64_t o = (i - f->lo[0]) + (j - f->lo[1]) * f->stride[1] + k * f->stride[2];
    *p32 = f->dtype == FPO_HALO_F32 ? (float *)f->data + o : NULL;
    return f->dtype == FPO_HALO_F64 ? (double *)f->data + o : NULL;
}
static double get(const fpo_halo_field *f, int i, int j, int k)
{
    float *p32;
    double *p64 = at64(f, i, j, k, &p32);
    return p64 ? *p64 : *p32;
}
static void set(const fpo_halo_field *f, int i, int j, int k, double v)
{
    float *p32;
    double *p64 = at64(f, i, j, k, &p32);
    if (p64)
        *p64 = v;
    else
        *p32 = (float)v;
}

static int ni_of(fpo_halo_pos p) { return D.nx + !half_x(p); }
static int nj_of(fpo_halo_pos p) { return D.ny + !half_y(p); }

static titem make_item(fpo_halo_kind kind, fpo_halo_pos spos, fpo_halo_dtype dt, int nk)
{
    titem it;
    memset(&it, 0, sizeof it);
    it.kind = kind;
    it.dt = dt;
    it.nk = nk;
    it.nc = kind == FPO_HALO_SCALAR ? 1 : 2;
    switch (kind) {
    case FPO_HALO_SCALAR: it.pos[0] = it.pos[1] = spos; break;
    case FPO_HALO_AGRID: it.pos[0] = it.pos[1] = FPO_HALO_CENTER; break;
    case FPO_HALO_BGRID: it.pos[0] = it.pos[1] = FPO_HALO_CORNER; break;
    case FPO_HALO_CGRID: it.pos[0] = FPO_HALO_XFACE; it.pos[1] = FPO_HALO_YFACE; break;
    case FPO_HALO_DGRID: it.pos[0] = FPO_HALO_YFACE; it.pos[1] = FPO_HALO_XFACE; break;
    }
    for (int c = 0; c < it.nc; c++) {
        int ni = ni_of(it.pos[c]) + 2 * H, nj = nj_of(it.pos[c]) + 2 * H;
        void *data = calloc((size_t)ni * nj * nk, dt == FPO_HALO_F32 ? 4 : 8);
        it.f[c] = fpo_halo_field_make(data, dt, -H, ni - H, -H, nj - H, nk);
        it.bytes[c] = (size_t)ni * nj * nk * (dt == FPO_HALO_F32 ? 4 : 8);
#ifdef HALO_TEST_DEVICE
        if (cudaMalloc(&it.dev[c], it.bytes[c]) != cudaSuccess)
            MPI_Abort(MPI_COMM_WORLD, 2);
#endif
    }
    return it;
}

/* The item the plan sees: the host fields, or their device copies. */
static fpo_halo_item as_item(const titem *t)
{
    fpo_halo_field f[2] = {t->f[0], t->f[1]};
    for (int c = 0; DEVICE && c < t->nc; c++)
        f[c].data = t->dev[c];
    return t->nc == 1 ? fpo_halo_scalar(f[0], t->pos[0]) : fpo_halo_vector(f[0], f[1], t->kind);
}

/* Copies the fields to (up = 1) or from their device copies; nothing on the host build. */
static void mirror(titem *it, int n, int up)
{
    for (int k = 0; DEVICE && k < n; k++)
        for (int c = 0; c < it[k].nc; c++) {
#ifdef HALO_TEST_DEVICE
            cudaError_t rc = up ? cudaMemcpy(it[k].dev[c], it[k].f[c].data, it[k].bytes[c],
                                             cudaMemcpyHostToDevice)
                                : cudaMemcpy(it[k].f[c].data, it[k].dev[c], it[k].bytes[c],
                                             cudaMemcpyDeviceToHost);
            if (rc != cudaSuccess)
                MPI_Abort(MPI_COMM_WORLD, 2);
#else
            (void)up;
#endif
        }
}

static int is_compute(const titem *it, int c, int i, int j)
{
    return i >= 0 && i < ni_of(it->pos[c]) && j >= 0 && j < nj_of(it->pos[c]);
}

/* Owned points get their identity, every other stored point POISON. */
static void fill(const titem *it)
{
    for (int c = 0; c < it->nc; c++)
        for (int k = 0; k < it->nk; k++)
            for (int j = -H; j < nj_of(it->pos[c]) + H; j++)
                for (int i = -H; i < ni_of(it->pos[c]) + H; i++)
                    set(&it->f[c], i, j, k,
                        is_compute(it, c, i, j)
                            ? ident(D.tile, 2 * (D.i0 + i) + half_x(it->pos[c]),
                                    2 * (D.j0 + j) + half_y(it->pos[c]), c, k)
                            : POISON);
}

/* Geometry's value at tile doubled point (x, y), component c: 1, 0 (cube corner), -1. */
static int expect_at(const titem *it, int x, int y, int side, int c, int k, double *v)
{
    int bt, bx, by, bc, sg;
    int r = geo_source(N, D.tile, x, y, side, it->nc, c, &bt, &bx, &by, &bc, &sg);
    if (r == 1)
        *v = sg * ident(bt, bx, by, bc, k);
    return r;
}

/* A corner-block point filled from the halo `dir` (0 X, 1 Y) names: the quarter turn about
 * the cube corner that lands in that halo, the vector turned back. */
static int expect_corner(const titem *it, int x, int y, int c, int k, int dir, double *v)
{
    int m = 2 * N, cx = x < 0 ? 0 : m, cy = y < 0 ? 0 : m, a = x - cx, b = y - cy;
    for (int t = -1; t <= 1; t += 2) {
        int sx = cx + (t > 0 ? -b : b), sy = cy + (t > 0 ? a : -a);
        int in_x_halo = (sx < 0 || sx > m) && sy >= 0 && sy <= m;
        double w;
        int r;
        if (in_x_halo != (dir == 0))
            continue;
        r = expect_at(it, sx, sy, -1, it->nc == 2 ? 1 - c : 0, k, &w);
        if (r != 1)
            return -1;
        /* turned by -t quarter turns: u = t v', v = -t u' */
        *v = it->nc == 1 ? w : (c == 0 ? t * w : -t * w);
        return 1;
    }
    return -1;
}

static void show(const char *what, const titem *it, int c, int i, int j, int k, double got,
                 double want)
{
    if (shown++ < 8)
        fprintf(stderr, "rank %d tile %d (%d,%d) %s: kind %d comp %d at (%d,%d,%d): got %g "
                "want %g\n", D.rank, D.tile, D.isub, D.jsub, what, (int)it->kind, c, i, j, k,
                got, want);
}

/* Checks every stored point after an exchange of `depth`; corner[c] is -1 (blocks untouched)
 * or the fill direction of component c. Returns mismatches; adds to *checked. */
static long verify(const titem *it, int depth, const int corner[2], const char *what,
                   long *checked)
{
    long bad = 0;
    for (int c = 0; c < it->nc; c++) {
        int hx = half_x(it->pos[c]), hy = half_y(it->pos[c]);
        int ni = ni_of(it->pos[c]), nj = nj_of(it->pos[c]);
        for (int k = 0; k < it->nk; k++)
            for (int j = -H; j < nj + H; j++)
                for (int i = -H; i < ni + H; i++) {
                    int x = 2 * (D.i0 + i) + hx, y = 2 * (D.j0 + j) + hy, r = 1;
                    double got = get(&it->f[c], i, j, k), want;
                    if (is_compute(it, c, i, j))
                        want = ident(D.tile, x, y, c, k);
                    else if (i < -depth || i >= ni + depth || j < -depth || j >= nj + depth)
                        want = POISON;
                    else if ((r = expect_at(it, x, y, -1, c, k, &want)) == 0)
                        r = corner[c] < 0 ? (want = POISON, 1)
                                          : expect_corner(it, x, y, c, k, corner[c], &want);
                    ++*checked;
                    if (r < 0) {
                        want = NAN;
                        bad++;
                        show(what, it, c, i, j, k, got, want);
                    } else if (got != want) {
                        bad++;
                        show(what, it, c, i, j, k, got, want);
                    }
                }
    }
    return bad;
}

/* The brief's explicit south-west rule for a cell-centred scalar: before an x sweep
 * q(i, j) = q(j, -1-i), before a y sweep q(i, j) = q(-1-j, i), i, j in [-H, -1]. */
static long verify_sw_rule(const titem *it, int dir, long *checked)
{
    long bad = 0;
    if ((D.edges & (FPO_HALO_EDGE_S | FPO_HALO_EDGE_W)) != (FPO_HALO_EDGE_S | FPO_HALO_EDGE_W))
        return 0;
    for (int j = -H; j < 0; j++)
        for (int i = -H; i < 0; i++) {
            double got = get(&it->f[0], i, j, 0);
            double want = dir == 0 ? get(&it->f[0], j, -1 - i, 0) : get(&it->f[0], -1 - j, i, 0);
            ++*checked;
            if (got != want) {
                bad++;
                show("sw rule", it, 0, i, j, 0, got, want);
            }
        }
    return bad;
}

/* FV3's fill_corners_dgrid at the south-west corner, 0-based, i, j = 1 .. H:
 * u(-i, -j) = -v(-j, i-1) and v(-i, -j) = -u(j-1, -i). */
static long verify_fv3_dgrid_sw(const titem *it, long *checked)
{
    long bad = 0;
    if ((D.edges & (FPO_HALO_EDGE_S | FPO_HALO_EDGE_W)) != (FPO_HALO_EDGE_S | FPO_HALO_EDGE_W))
        return 0;
    for (int j = 1; j <= H; j++)
        for (int i = 1; i <= H; i++) {
            double u = get(&it->f[0], -i, -j, 0), v = get(&it->f[1], -i, -j, 0);
            double wu = -get(&it->f[1], -j, i - 1, 0), wv = -get(&it->f[0], j - 1, -i, 0);
            *checked += 2;
            if (u != wu)
                bad++, show("fv3 d-grid sw", it, 0, -i, -j, 0, u, wu);
            if (v != wv)
                bad++, show("fv3 d-grid sw", it, 1, -i, -j, 0, v, wv);
        }
    return bad;
}

/* After the shared-edge sync: the east column of XFACE components and the north row of
 * YFACE ones hold the neighbour's south / west value; every other point is as filled. */
static long verify_edges(const titem *it, long *checked)
{
    long bad = 0;
    for (int c = 0; c < it->nc; c++) {
        fpo_halo_pos p = it->pos[c];
        int hx = half_x(p), hy = half_y(p), ni = ni_of(p), nj = nj_of(p);
        for (int k = 0; k < it->nk; k++)
            for (int j = -H; j < nj + H; j++)
                for (int i = -H; i < ni + H; i++) {
                    int x = 2 * (D.i0 + i) + hx, y = 2 * (D.j0 + j) + hy, r = 1;
                    int east = p == FPO_HALO_XFACE && i == ni - 1 && j >= 0 && j < nj;
                    int north = p == FPO_HALO_YFACE && j == nj - 1 && i >= 0 && i < ni;
                    double got = get(&it->f[c], i, j, k), want;
                    if (east && x == 2 * N)
                        r = expect_at(it, x, y, 1, c, k, &want);
                    else if (north && y == 2 * N)
                        r = expect_at(it, x, y, 3, c, k, &want);
                    else if (is_compute(it, c, i, j))
                        want = ident(D.tile, x, y, c, k);
                    else
                        want = POISON;
                    ++*checked;
                    if (r != 1 || got != want) {
                        bad++;
                        show("edge sync", it, c, i, j, k, got, r == 1 ? want : NAN);
                    }
                }
    }
    return bad;
}

static void garbage_edges(const titem *it)
{
    for (int c = 0; c < it->nc; c++) {
        fpo_halo_pos p = it->pos[c];
        for (int k = 0; k < it->nk; k++) {
            if (p == FPO_HALO_XFACE)
                for (int j = 0; j < nj_of(p); j++)
                    set(&it->f[c], ni_of(p) - 1, j, k, GARBAGE + D.rank);
            if (p == FPO_HALO_YFACE)
                for (int i = 0; i < ni_of(p); i++)
                    set(&it->f[c], i, nj_of(p) - 1, k, GARBAGE + D.rank);
        }
    }
}

/* The 8 neighbours the decomposition reports, against geometry and the rank numbering. */
static long verify_neighbours(long *checked)
{
    static const int off[8][2] = {{-1, 0}, {1, 0}, {0, -1}, {0, 1},
                                   {-1, -1}, {1, -1}, {-1, 1}, {1, 1}};
    long bad = 0;
    for (int d = 0; d < 8; d++) {
        int i = off[d][0] < 0 ? -1 : off[d][0] > 0 ? D.nx : 0;
        int j = off[d][1] < 0 ? -1 : off[d][1] > 0 ? D.ny : 0;
        int bt, bx, by, bc, sg, rank = -1, rot = 0;
        int r = geo_source(N, D.tile, 2 * (D.i0 + i) + 1, 2 * (D.j0 + j) + 1, -1, 2, 0, &bt, &bx,
                           &by, &bc, &sg);
        if (r == 1) {
            int cx = bx / 2 / D.nx, cy = by / 2 / D.ny;
            rank = bt * D.layout_x * D.layout_y + cy * D.layout_x + cx;
            rot = bc == 0 ? 0 : sg > 0 ? 1 : 3;
        }
        ++*checked;
        if (r < 0 || D.nbr[d].rank != rank || D.nbr[d].rot != rot) {
            bad++;
            if (shown++ < 8)
                fprintf(stderr, "rank %d: neighbour %s is rank %d rot %d, geometry says %d rot "
                        "%d\n", D.rank, fpo_halo_dir_name((fpo_halo_dir)d), D.nbr[d].rank,
                        D.nbr[d].rot, rank, rot);
        }
    }
    return bad;
}

static int report(const char *name, long bad, long checked)
{
    long tot[2], loc[2] = {bad, checked};
    MPI_Allreduce(loc, tot, 2, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
    if (D.rank == 0)
        printf("%-44s %8ld mismatches in %9ld points\n", name, tot[0], tot[1]);
    return tot[0] != 0 || tot[1] == 0;
}

#define CHECK(call)                                                                          \
    do {                                                                                     \
        if ((call) != FPO_HALO_OK) {                                                         \
            fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, err.msg);                     \
            MPI_Abort(MPI_COMM_WORLD, 2);                                                    \
        }                                                                                    \
    } while (0)

int main(int argc, char **argv)
{
    enum { NI = 8 };
    titem it[NI];
    fpo_halo_item items[NI];
    fpo_halo_plan *plan;
    fpo_halo_error err;
    int lx, ly, failed = 0;
    long bad, checked;
    char name[96];
    const int none[2] = {-1, -1};
    MPI_Init(&argc, &argv);
    if (argc != 4) {
        fprintf(stderr, "usage: halo_test N LAYOUT_X LAYOUT_Y\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    N = atoi(argv[1]);
    lx = atoi(argv[2]);
    ly = atoi(argv[3]);
    LV = 6.0 * (2 * N + 1) * (2 * N + 1) * 2 + 2;
#ifdef HALO_TEST_DEVICE
    {
        int ndev = 0;
        if (cudaGetDeviceCount(&ndev) != cudaSuccess || ndev == 0) {
            printf("halo_test: no CUDA device here: skipped\n");
            MPI_Finalize();
            return 77;
        }
        cudaSetDevice(0);
    }
#endif
    CHECK(fpo_halo_decomp_create(&D, MPI_COMM_WORLD, N, lx, ly, &err));
    if (D.rank == 0)
        printf("halo_test: C%d, %d ranks, layout %d x %d, halo %d, %s memory\n", N, D.size, lx,
               ly, H, DEVICE ? "device" : "host");

    bad = checked = 0;
    bad += verify_neighbours(&checked);
    failed |= report("neighbours and turns", bad, checked);

    it[0] = make_item(FPO_HALO_SCALAR, FPO_HALO_CENTER, FPO_HALO_F64, 2);
    it[1] = make_item(FPO_HALO_SCALAR, FPO_HALO_CENTER, FPO_HALO_F32, 1);
    it[2] = make_item(FPO_HALO_CGRID, 0, FPO_HALO_F64, 2);
    it[3] = make_item(FPO_HALO_DGRID, 0, FPO_HALO_F32, 1);
    it[4] = make_item(FPO_HALO_DGRID, 0, FPO_HALO_F64, 2);
    it[5] = make_item(FPO_HALO_AGRID, 0, FPO_HALO_F64, 1);
    it[6] = make_item(FPO_HALO_BGRID, 0, FPO_HALO_F32, 2);
    it[7] = make_item(FPO_HALO_SCALAR, FPO_HALO_CORNER, FPO_HALO_F64, 1);
    for (int k = 0; k < NI; k++)
        items[k] = as_item(&it[k]);

    /* all items in one plan, depths 1, 2, 3 */
    for (int depth = 1; depth <= H; depth++) {
        int npeers;
        size_t bytes;
        bad = checked = 0;
        for (int k = 0; k < NI; k++)
            fill(&it[k]);
        CHECK(fpo_halo_plan_create(&plan, &D, depth, NI, items, FLAGS, &err));
        mirror(it, NI, 1);
        CHECK(fpo_halo_exchange(plan, &err));
        mirror(it, NI, 0);
        for (int k = 0; k < NI; k++)
            bad += verify(&it[k], depth, none, "blocking", &checked);
        bytes = fpo_halo_plan_bytes(plan, &npeers);
        snprintf(name, sizeof name, "8 items, depth %d, blocking (rank 0: %d peers)", depth,
                 npeers);
        failed |= report(name, bad, checked);
        if (depth == H) {
            /* the same plan again, split around interior work */
            double sum = 0, again = 0;
            bad = checked = 0;
            for (int k = 0; k < NI; k++)
                fill(&it[k]);
            mirror(it, NI, 1);
            CHECK(fpo_halo_start(plan, &err));
            for (int j = 0; j < D.ny; j++)
                for (int i = 0; i < D.nx; i++)
                    sum += get(&it[0].f[0], i, j, 0) * get(&it[5].f[1], i, j, 0);
            CHECK(fpo_halo_finish(plan, &err));
            mirror(it, NI, 0);
            for (int j = 0; j < D.ny; j++)
                for (int i = 0; i < D.nx; i++)
                    again += get(&it[0].f[0], i, j, 0) * get(&it[5].f[1], i, j, 0);
            for (int k = 0; k < NI; k++)
                bad += verify(&it[k], depth, none, "split", &checked);
            bad += sum != again;
            failed |= report("8 items, depth 3, start / compute / finish", bad, checked);
            /* a start twice is refused, and the plan still works after */
            CHECK(fpo_halo_start(plan, &err));
            bad = fpo_halo_start(plan, &err) != FPO_HALO_ESTATE;
            CHECK(fpo_halo_finish(plan, &err));
            checked = 1;
            failed |= report("second start refused", bad, checked);
            /* rebinding one field to a new array */
            if (!DEVICE) {
                titem fresh = make_item(FPO_HALO_SCALAR, FPO_HALO_CENTER, FPO_HALO_F64, 2);
                bad = checked = 0;
                fill(&fresh);
                CHECK(fpo_halo_plan_rebind(plan, 0, 0, fresh.f[0].data, &err));
                CHECK(fpo_halo_exchange(plan, &err));
                bad += verify(&fresh, depth, none, "rebind", &checked);
                failed |= report("rebound field", bad, checked);
                CHECK(fpo_halo_plan_rebind(plan, 0, 0, it[0].f[0].data, &err));
                free(fresh.f[0].data);
            }
            if (D.rank == 0)
                printf("  rank 0 sends %zu bytes per exchange of the 8 items\n", bytes);
        }
        fpo_halo_plan_destroy(plan);
    }

    /* corners need depth <= nx, ny: thinner ranks get an error */
    if (!DEVICE && (H > D.nx || H > D.ny)) {
        checked = 1;
        bad = fpo_halo_copy_corners(&D, &it[0].f[0], FPO_HALO_CENTER, H, FPO_HALO_FILL_X,
                                    &err) != FPO_HALO_EINVAL;
        failed |= report("corner fill deeper than the rank refused", bad, checked);
    }
    /* corners, after a depth-3 exchange (on the device: the _on forms, queued on a stream) */
    if (H <= D.nx && H <= D.ny) {
        static const struct { int item, dir[2]; const char *name; } fills[] = {
            {0, {0, 0}, "copy_corners X, centre f64"}, {0, {1, 1}, "copy_corners Y, centre f64"},
            {1, {0, 0}, "copy_corners X, centre f32"}, {7, {1, 1}, "copy_corners Y, corner f64"},
            {7, {0, 0}, "copy_corners X, corner f64"},
            {3, {0, 1}, "fill_corners D-grid f32 (u X, v Y)"},
            {4, {1, 0}, "fill_corners D-grid f64 (u Y, v X)"},
            {2, {1, 0}, "fill_corners C-grid f64 (u Y, v X)"},
            {5, {0, 0}, "fill_corners A-grid f64 (X, X)"},
            {6, {1, 1}, "fill_corners B-grid f32 (Y, Y)"}};
        void *stream = NULL;
#ifdef HALO_TEST_DEVICE
        cudaStream_t cs;
        if (cudaStreamCreate(&cs) != cudaSuccess)
            MPI_Abort(MPI_COMM_WORLD, 2);
        stream = cs;
#endif
        CHECK(fpo_halo_plan_create(&plan, &D, H, NI, items, FLAGS, &err));
        for (size_t q = 0; q < sizeof fills / sizeof fills[0]; q++) {
            titem *t = &it[fills[q].item];
            fpo_halo_item on = as_item(t);   /* the fields where the plan has them */
            bad = checked = 0;
            for (int k = 0; k < NI; k++)
                fill(&it[k]);
            mirror(it, NI, 1);
            CHECK(fpo_halo_exchange(plan, &err));
            if (t->nc == 1)
                CHECK(fpo_halo_copy_corners_on(&D, &on.f[0], t->pos[0], H,
                                               fills[q].dir[0] ? FPO_HALO_FILL_Y : FPO_HALO_FILL_X,
                                               stream, &err));
            else
                CHECK(fpo_halo_fill_corners_on(&D, &on.f[0], &on.f[1], t->kind, H,
                                               fills[q].dir[0] ? FPO_HALO_FILL_Y : FPO_HALO_FILL_X,
                                               fills[q].dir[1] ? FPO_HALO_FILL_Y : FPO_HALO_FILL_X,
                                               stream, &err));
#ifdef HALO_TEST_DEVICE
            if (cudaStreamSynchronize(cs) != cudaSuccess)
                MPI_Abort(MPI_COMM_WORLD, 2);
#endif
            mirror(it, NI, 0);
            bad += verify(t, H, fills[q].dir, fills[q].name, &checked);
            if (fills[q].item == 0)
                bad += verify_sw_rule(t, fills[q].dir[0], &checked);
            if (t->kind == FPO_HALO_DGRID && fills[q].dir[0] == 0 && fills[q].dir[1] == 1)
                bad += verify_fv3_dgrid_sw(t, &checked);
            failed |= report(fills[q].name, bad, checked);
        }
        fpo_halo_plan_destroy(plan);
#ifdef HALO_TEST_DEVICE
        cudaStreamDestroy(cs);
#endif
    }

    /* shared-edge sync of the staggered items */
    {
        fpo_halo_item e[3] = {items[2], items[3], items[4]};
        const int which[3] = {2, 3, 4};
        bad = checked = 0;
        CHECK(fpo_halo_plan_create_edges(&plan, &D, 3, e, FLAGS, &err));
        for (int q = 0; q < 3; q++) {
            fill(&it[which[q]]);
            garbage_edges(&it[which[q]]);
        }
        mirror(it, NI, 1);
        CHECK(fpo_halo_exchange(plan, &err));
        mirror(it, NI, 0);
        for (int q = 0; q < 3; q++)
            bad += verify_edges(&it[which[q]], &checked);
        failed |= report("shared-edge sync: C-grid, D-grid f32 and f64", bad, checked);
        fpo_halo_plan_destroy(plan);
    }

    for (int k = 0; k < NI; k++)
        for (int c = 0; c < it[k].nc; c++) {
            free(it[k].f[c].data);
#ifdef HALO_TEST_DEVICE
            cudaFree(it[k].dev[c]);
#endif
        }
    fpo_halo_decomp_free(&D);
    if (D.rank == 0)
        printf("halo_test: %s\n", failed ? "FAILED" : "all checks passed");
    MPI_Finalize();
    return failed;
}
