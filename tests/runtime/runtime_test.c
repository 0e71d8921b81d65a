/* runtime_test.c: checks fpo_runtime: field layouts, dtypes, the open-time checks and their
 * messages, domains, aligned allocation and error formatting; and which set of graphs a
 * binding of a CUDA program's fields selects (runtime/bindings.c). */
#define _POSIX_C_SOURCE 200809L   /* setenv */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fpo_cuda.h"
#define FPO_CUDA_EMULATE 1   /* (the launch's tile counts: host code either way) */
#include "fpo_cuda_kernels.h"
#include "fpo_runtime.h"

static int failures;

#define CHECK(cond)                                                                            \
    do {                                                                                       \
        if (!(cond)) {                                                                         \
            fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond);           \
            failures++;                                                                        \
        }                                                                                      \
    } while (0)

/* Check status and exact message of a failed check. */
static void expect(fpo_status got, const fpo_error *err, fpo_status code, const char *msg,
                   int line) {
    if (got != code || err->code != code || strcmp(err->msg, msg) != 0) {
        fprintf(stderr, "%s:%d: expected status %d \"%s\"\n  got status %d \"%s\"\n", __FILE__,
                line, (int)code, msg, (int)got, err->msg);
        failures++;
    }
}
#define EXPECT(got, code, msg) expect((got), &err, (code), (msg), __LINE__)

static void test_layout(void) {
    double buf[1];
    fpo_field f = fpo_field_3d(buf, FPO_F64, -2, 10, -2, 7, 0, 4);
    CHECK(f.axes == FPO_IJK && f.dtype == FPO_F64 && f.data == buf);
    CHECK(f.lo[0] == -2 && f.hi[0] == 10 && f.lo[1] == -2 && f.hi[1] == 7);
    CHECK(f.lo[2] == 0 && f.hi[2] == 4);
    CHECK(f.stride[0] == 1 && f.stride[1] == 12 && f.stride[2] == 12 * 9);

    fpo_field g = fpo_field_2d(buf, FPO_F32, -1, 5, 0, 3);
    CHECK(g.axes == FPO_IJ && g.stride[0] == 1 && g.stride[1] == 6 && g.stride[2] == 0);
    CHECK(g.lo[2] == 0 && g.hi[2] == 1);

    fpo_field h = fpo_field_1d(buf, FPO_I32, 0, 11);
    CHECK(h.axes == FPO_K && h.stride[0] == 0 && h.stride[1] == 0 && h.stride[2] == 1);
    CHECK(h.lo[0] == 0 && h.hi[0] == 1 && h.lo[1] == 0 && h.hi[1] == 1);
    CHECK(h.lo[2] == 0 && h.hi[2] == 11);

    CHECK(fpo_dtype_size(FPO_F32) == 4 && fpo_dtype_size(FPO_F64) == 8);
    CHECK(fpo_dtype_size(FPO_I32) == 4 && fpo_dtype_size(FPO_BOOL) == sizeof(_Bool));
    CHECK(strcmp(fpo_dtype_name(FPO_F32), "f32") == 0);
    CHECK(strcmp(fpo_dtype_name(FPO_BOOL), "bool") == 0);
}

static void test_field_check(void) {
    double buf[1];
    fpo_error err = {0};
    fpo_field q = fpo_field_3d(buf, FPO_F64, -1, 25, -1, 25, 0, 10);
    const int64_t in_lo[3] = {-1, -1, 0}, in_hi[3] = {25, 25, 10};
    const int64_t halo2_lo[3] = {-2, 0, 0}, halo2_hi[3] = {26, 24, 10};
    const int64_t stag_lo[3] = {0, 0, 0}, stag_hi[3] = {26, 24, 10};
    const int64_t klev_lo[3] = {0, 0, 0}, klev_hi[3] = {24, 24, 11};

    CHECK(fpo_field_check(&q, "step", "q", FPO_F64, FPO_IJK, in_lo, in_hi, &err) == FPO_OK);
    CHECK(fpo_field_check(&q, "step", "q", FPO_F64, FPO_IJK, in_lo, in_hi, NULL) == FPO_OK);
    EXPECT(fpo_field_check(&q, "step", "q", FPO_F64, FPO_IJK, halo2_lo, halo2_hi, &err),
           FPO_ESHAPE,
           "step: field 'q' covers i in [-1, 25) but the program touches i in [-2, 26): "
           "allocate a halo of at least 2");
    EXPECT(fpo_field_check(&q, "step", "q", FPO_F64, FPO_IJK, stag_lo, stag_hi, &err),
           FPO_ESHAPE,
           "step: field 'q' covers i in [-1, 25) but the program touches i in [0, 26): "
           "make it cover i in [-1, 26)");
    EXPECT(fpo_field_check(&q, "step", "q", FPO_F64, FPO_IJK, klev_lo, klev_hi, &err),
           FPO_ESHAPE,
           "step: field 'q' covers k in [0, 10) but the program touches k in [0, 11): "
           "make it cover k in [0, 11)");
    /* Without an error record the status still comes back. */
    CHECK(fpo_field_check(&q, "step", "q", FPO_F64, FPO_IJK, halo2_lo, halo2_hi, NULL) ==
          FPO_ESHAPE);

    EXPECT(fpo_field_check(&q, "step", "q", FPO_F32, FPO_IJK, in_lo, in_hi, &err), FPO_EDTYPE,
           "step: field 'q' is f64 but the program takes f32");
    EXPECT(fpo_field_check(&q, "step", "q", FPO_F64, FPO_IJ, in_lo, in_hi, &err), FPO_EDTYPE,
           "step: field 'q' is 3D (IJK) but the program takes a 2D (IJ) field");
    EXPECT(fpo_field_check(NULL, "step", "q", FPO_F64, FPO_IJK, in_lo, in_hi, &err),
           FPO_EINVAL, "step: field 'q' has no descriptor (null pointer)");

    fpo_field nodata = q;
    nodata.data = NULL;
    EXPECT(fpo_field_check(&nodata, "step", "q", FPO_F64, FPO_IJK, in_lo, in_hi, &err),
           FPO_EINVAL, "step: field 'q' has no data (null pointer)");

    fpo_field strided = q;
    strided.stride[0] = 2;
    EXPECT(fpo_field_check(&strided, "step", "q", FPO_F64, FPO_IJK, in_lo, in_hi, &err),
           FPO_EINVAL, "step: field 'q' has i stride 2; fields must be contiguous in i (stride 1)");

    /* A padded layout is fine; an overlapping one is not. */
    fpo_field padded = q;
    padded.stride[1] = 32, padded.stride[2] = 32 * 27;
    CHECK(fpo_field_check(&padded, "step", "q", FPO_F64, FPO_IJK, in_lo, in_hi, &err) == FPO_OK);
    fpo_field overlap = q;
    overlap.stride[2] = 26 * 25;
    EXPECT(fpo_field_check(&overlap, "step", "q", FPO_F64, FPO_IJK, in_lo, in_hi, &err),
           FPO_EINVAL,
           "step: field 'q' has k stride 650 but one k step needs 676 elements; its points "
           "would overlap");

    fpo_field reversed = q;
    reversed.hi[1] = -3;
    EXPECT(fpo_field_check(&reversed, "step", "q", FPO_F64, FPO_IJK, in_lo, in_hi, &err),
           FPO_EINVAL, "step: field 'q' has a reversed j range [-1, -3)");

    /* A 2D field: K is ignored, but its K stride must be 0. */
    fpo_field s = fpo_field_2d(buf, FPO_F32, 0, 8, 0, 8);
    const int64_t s_lo[3] = {0, 0, 0}, s_hi[3] = {8, 8, 40};
    CHECK(fpo_field_check(&s, "p", "s", FPO_F32, FPO_IJ, s_lo, s_hi, &err) == FPO_OK);
    s.stride[2] = 64;
    EXPECT(fpo_field_check(&s, "p", "s", FPO_F32, FPO_IJ, s_lo, s_hi, &err), FPO_EINVAL,
           "p: field 's' is 2D (IJ) but has k stride 64; an axis the field lacks has stride 0");

    /* A 1D field: only K counts; an empty range on an axis asks for nothing. */
    fpo_field k = fpo_field_1d(buf, FPO_I32, 0, 5);
    const int64_t k_lo[3] = {-3, -3, 0}, k_hi[3] = {30, 30, 5};
    const int64_t none_lo[3] = {0, 0, 7}, none_hi[3] = {0, 0, 7};
    CHECK(fpo_field_check(&k, "p", "k", FPO_I32, FPO_K, k_lo, k_hi, &err) == FPO_OK);
    CHECK(fpo_field_check(&k, "p", "k", FPO_I32, FPO_K, none_lo, none_hi, &err) == FPO_OK);
}

static void test_domain(void) {
    fpo_error err = {0};
    fpo_domain d = fpo_domain_local(24, 12, 5);
    CHECK(d.nx == 24 && d.ny == 12 && d.nz == 5 && d.i0 == 0 && d.j0 == 0);
    CHECK(d.tile_nx == 24 && d.tile_ny == 12 && d.tile == 0);
    CHECK(fpo_domain_check(&d, "step", &err) == FPO_OK);

    fpo_domain bad = d;
    bad.ny = 0;
    EXPECT(fpo_domain_check(&bad, "step", &err), FPO_EINVAL,
           "step: domain ny = 0; sizes must be positive");
    bad = d;
    bad.tile = 6;
    EXPECT(fpo_domain_check(&bad, "step", &err), FPO_EINVAL,
           "step: domain tile = 6; tiles are numbered 0 to 5");
    bad = d;
    bad.i0 = 12;
    EXPECT(fpo_domain_check(&bad, "step", &err), FPO_EINVAL,
           "step: domain i0 = 12, nx = 24 does not fit a tile of tile_nx = 24 "
           "(need 0 <= i0 and i0 + nx <= tile_nx)");
    fpo_domain sub = {.nx = 12, .ny = 12, .nz = 5, .i0 = 12, .j0 = 0, .tile_nx = 24,
                      .tile_ny = 24, .tile = 5};
    CHECK(fpo_domain_check(&sub, "step", &err) == FPO_OK);
    EXPECT(fpo_domain_check(NULL, "step", &err), FPO_EINVAL, "step: no domain (null pointer)");
}

/* The pool's first touch: every team member's call together zero the whole pool, each its own
 * share only (the shared pages split, the threads' parts dealt out modulo the team). */
static void test_pool_touch(void) {
    enum { PG = 4096 };
    const size_t mine = 3 * PG, part = 2 * PG;
    for (int team = 1; team <= 5; team++) {
        const int nthreads = 3;
        size_t bytes = mine + part * nthreads;
        unsigned char *p = fpo_alloc_pages(bytes);
        CHECK(p != NULL && (uintptr_t)p % PG == 0);
        if (!p)
            return;
        memset(p, 0xAA, bytes);
        fpo_pool_touch(p, bytes, mine, part, nthreads, 0, team);
        /* member 0 alone: its pages of the shared part and parts 0, team, 2 team, ... */
        size_t shared_to = 3 / team * PG;
        for (size_t b = 0; b < bytes; b++) {
            int part_of = b < mine ? -1 : (int)((b - mine) / part);
            int want = b < mine ? b < shared_to : part_of % team == 0;
            if ((p[b] == 0) != want) {
                CHECK(!"fpo_pool_touch zeroed the wrong bytes for member 0");
                break;
            }
        }
        for (int t = 1; t < team; t++)
            fpo_pool_touch(p, bytes, mine, part, nthreads, t, team);
        int zero = 1;
        for (size_t b = 0; b < bytes; b++)
            zero &= p[b] == 0;
        CHECK(zero);
        fpo_free(p);
    }
    /* No threads' parts: the whole block is shared, its last page partly used. */
    unsigned char *q = fpo_alloc_pages(PG + 100);
    CHECK(q != NULL);
    if (q) {
        memset(q, 0xAA, PG + 100);
        fpo_pool_touch(q, PG + 100, 0, 0, 2, 0, 2);
        fpo_pool_touch(q, PG + 100, 0, 0, 2, 1, 2);
        int zero = 1;
        for (size_t b = 0; b < PG + 100; b++)
            zero &= q[b] == 0;
        CHECK(zero);
        fpo_free(q);
    }
}

static void test_alloc_and_fail(void) {
    size_t sizes[] = {0, 1, 63, 64, 1000, 4097};
    for (size_t n = 0; n < sizeof sizes / sizeof sizes[0]; n++) {
        unsigned char *p = fpo_alloc_pages(sizes[n]);
        CHECK(p != NULL && (uintptr_t)p % 4096 == 0);
        if (p)
            memset(p, 0xAA, sizes[n]);   /* all of it is ours (zeroing: test_pool_touch) */
        fpo_free(p);
    }
    CHECK(fpo_alloc_pages(SIZE_MAX) == NULL);
    /* From 2 MiB on a block starts on a huge page; the advice to back it with huge pages is
     * harmless on any part of it (or none) and leaves it usable. */
    size_t hbytes = ((size_t)2 << 20) + 12345;
    unsigned char *h = fpo_alloc_pages(hbytes);
    CHECK(h != NULL && (uintptr_t)h % ((size_t)2 << 20) == 0);
    fpo_pool_advise(h, hbytes);
    fpo_pool_advise(h + 100, 5000);
    fpo_pool_advise(NULL, hbytes);
    if (h) {
        memset(h, 0x5A, hbytes);
        CHECK(h[0] == 0x5A && h[hbytes - 1] == 0x5A);
    }
    fpo_free(h);
    fpo_free(NULL);

    fpo_error err;
    char big[600];
    memset(big, 'x', sizeof big - 1);
    big[sizeof big - 1] = '\0';
    CHECK(fpo_fail(&err, FPO_ENOMEM, "%s", big) == FPO_ENOMEM);
    CHECK(err.code == FPO_ENOMEM && strlen(err.msg) == sizeof err.msg - 1);
    CHECK(fpo_fail(NULL, FPO_EMISMATCH, "ignored %d", 1) == FPO_EMISMATCH);
}

/* An environment variable's value, copied (a later setenv may overwrite getenv's), and its
 * restoring. */
static char *env_save(const char *name) {
    const char *v = getenv(name);
    return v ? strdup(v) : NULL;
}

static void env_restore(const char *name, char *was) {
    if (was)
        setenv(name, was, 1);
    else
        unsetenv(name);
    free(was);
}

/* The cache sizes open reads, the rows per block of a column group they give, and how far
 * ahead row pipelines fetch. */
static void test_caches(void) {
    size_t l2 = fpo_cache_bytes(2), last = fpo_cache_bytes(0);
    CHECK(l2 >= 16 * 1024 && last >= l2);   /* sysfs, sysconf or the defaults: never 0 */
    const size_t K = 1024;
    CHECK(fpo_column_rows(1024 * K, 0, 196 * K, 4) == 2);   /* 512 KB of strips: 2 rows */
    CHECK(fpo_column_rows(1024 * K, 0, 98 * K, 4) == 4);    /* 5 would fit: the strips hold 4 */
    CHECK(fpo_column_rows(1024 * K, 0, 393 * K, 4) == 1);
    CHECK(fpo_column_rows(512 * K, 0, 4096 * K, 4) == 1);   /* none fits: still one */
    CHECK(fpo_column_rows(512 * K, 0, 0, 4) == 4);          /* no strips */
    CHECK(fpo_column_rows(512 * K, 3, 4096 * K, 4) == 3);   /* forced */
    CHECK(fpo_column_rows(512 * K, 9, 0, 4) == 4);          /* forced, within the strips */
    char *was = env_save("FPO_COLUMN_ROWS");
    setenv("FPO_COLUMN_ROWS", "3", 1);
    CHECK(fpo_column_rows_env() == 3);
    setenv("FPO_COLUMN_ROWS", "x", 1);
    CHECK(fpo_column_rows_env() == 0);
    env_restore("FPO_COLUMN_ROWS", was);
    /* how far ahead row pipelines fetch: 2 steps unless the environment says (0: none) */
    was = env_save("FPO_PREFETCH_ROWS");
    unsetenv("FPO_PREFETCH_ROWS");
    CHECK(fpo_prefetch_rows() == 2);
    setenv("FPO_PREFETCH_ROWS", "0", 1);
    CHECK(fpo_prefetch_rows() == 0);
    setenv("FPO_PREFETCH_ROWS", "5", 1);
    CHECK(fpo_prefetch_rows() == 5);
    setenv("FPO_PREFETCH_ROWS", "-3", 1);
    CHECK(fpo_prefetch_rows() == 0);
    setenv("FPO_PREFETCH_ROWS", "1000", 1);
    CHECK(fpo_prefetch_rows() == 64);
    env_restore("FPO_PREFETCH_ROWS", was);
    if (!getenv("FPO_STREAM")) {   /* streamed from a quarter of the last level on; what a
                                    * later group reads, only from all of it on */
        CHECK(fpo_stream_worth(last / 4, 0) && !fpo_stream_worth(last / 4 - 8, 0));
        CHECK(!fpo_stream_worth(last / 4, 1) && !fpo_stream_worth(last - 8, 1));
        CHECK(fpo_stream_worth(last, 1));
    }
}

/* Bindings of fields (bytes) to the sets of graphs kept for them: the same bytes, the same set;
 * two bindings taking turns keep their sets; a fifth takes the set used longest ago. */
static void test_bindings(void) {
    fpo_cuda_slot slot[FPO_CUDA_BINDINGS] = {{0}};
    double a[3] = {1, 2, 3}, b[3] = {1, 2, 4}, c[2] = {1, 2};
    unsigned long long now = 0;
    int ev = -1;
    int sa = fpo_cuda_binding(slot, FPO_CUDA_BINDINGS, a, sizeof a, ++now, &ev);
    CHECK(sa == 0 && ev == 0);
    int sb = fpo_cuda_binding(slot, FPO_CUDA_BINDINGS, b, sizeof b, ++now, &ev);
    CHECK(sb == 1 && ev == 0);
    for (int r = 0; r < 4; r++) {   /* double buffering: a, b, a, b, ... */
        CHECK(fpo_cuda_binding(slot, FPO_CUDA_BINDINGS, a, sizeof a, ++now, &ev) == sa && !ev);
        CHECK(fpo_cuda_binding(slot, FPO_CUDA_BINDINGS, b, sizeof b, ++now, &ev) == sb && !ev);
    }
    int sc = fpo_cuda_binding(slot, FPO_CUDA_BINDINGS, c, sizeof c, ++now, &ev);  /* fewer bytes */
    CHECK(sc == 2 && ev == 0);
    double d[3] = {5, 6, 7}, e[3] = {8, 9, 10};
    CHECK(fpo_cuda_binding(slot, FPO_CUDA_BINDINGS, d, sizeof d, ++now, &ev) == 3 && !ev);
    CHECK(fpo_cuda_binding(slot, FPO_CUDA_BINDINGS, b, sizeof b, ++now, &ev) == sb && !ev);
    /* e: every set taken; a's was used longest ago (then c's, d's, b's) */
    CHECK(fpo_cuda_binding(slot, FPO_CUDA_BINDINGS, e, sizeof e, ++now, &ev) == sa && ev == 1);
    CHECK(fpo_cuda_binding(slot, FPO_CUDA_BINDINGS, a, sizeof a, ++now, &ev) == sc && ev == 1);
    CHECK(fpo_cuda_binding(slot, FPO_CUDA_BINDINGS, e, sizeof e, ++now, &ev) == sa && !ev);
    a[2] = 9;   /* other bytes at the same address: another binding */
    CHECK(fpo_cuda_binding(slot, FPO_CUDA_BINDINGS, a, sizeof a, ++now, &ev) == 3 && ev == 1);
    fpo_cuda_bindings_free(slot, FPO_CUDA_BINDINGS);
    CHECK(!slot[0].fields && !slot[3].fields);
}

/* A segment's tiles of 64 columns over [lo, hi), the last column of them up to 8 wider
 * (fpo_tiles_slack_, fpo_slack_: emit_cuda.c's CU_SLACK). */
static void test_tile_slack(void) {
    static const struct { int64_t lo, hi, tiles, sx; } t[] = {
        {0, 193, 3, 1},   /* 192 cells' faces */
        {-3, 195, 3, 6},  /* 192 cells and a halo of 3 */
        {0, 200, 3, 8},   {0, 201, 4, 0},   {0, 192, 3, 0},   {0, 65, 1, 1},
        {0, 64, 1, 0},    {0, 7, 1, 0},     {0, 0, 1, 0},     {INT64_MAX, INT64_MIN, 0, 0},
    };
    for (size_t k = 0; k < sizeof t / sizeof *t; k++) {
        CHECK(fpo_tiles_slack_(t[k].lo, t[k].hi, 64, 8) == t[k].tiles);
        CHECK(fpo_slack_(t[k].lo, t[k].hi, 64, 8) == t[k].sx);
        CHECK(fpo_slack_(t[k].lo, t[k].hi, 64, 0) == 0);
    }
}

int main(void) {
    test_caches();
    test_tile_slack();
    test_bindings();
    test_layout();
    test_field_check();
    test_domain();
    test_alloc_and_fail();
    test_pool_touch();
    if (failures) {
        fprintf(stderr, "runtime_test: %d check(s) failed\n", failures);
        return 1;
    }
    printf("runtime_test: all checks passed\n");
    return 0;
}
