/* open_errors.c: open must refuse fields that do not fit the program (too small a halo, a
 * missing interface point, a short K range, the wrong dtype, the wrong axes, no data, on the
 * CUDA back end a level too large for 32-bit offsets, a field it writes sharing memory with
 * another) and a bad domain, with the right status and a message naming the field; and accept
 * good ones. */
#define _DEFAULT_SOURCE 1   /* (mmap's MAP_ANONYMOUS) */
#include <stddef.h>
#include <sys/mman.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reach.h"
#include "testgrid.h"

enum { NX = 13, NY = 7, NZ = 5, H = 3 };

/* Good fields for every parameter. */
typedef struct arrays { tg_array qsrc, twod, col, dst, stag; } arrays;

static reach_fields good_fields(const arrays *a) {
    return (reach_fields){.qsrc = tg_field(&a->qsrc), .twod = tg_field(&a->twod),
                          .col = tg_field(&a->col), .dst = tg_field(&a->dst),
                          .stag = tg_field(&a->stag)};
}

/* Open with `f` and `dom`; expect `want` and, unless NULL, `name` in the message. */
static int expect(const char *what, const reach_fields *f, const fpo_domain *dom,
                  fpo_status want, const char *name) {
    fpo_error err = {0};
    reach *p = (reach *)&err; /* not NULL: open must set it */
    fpo_status st = reach_open(&p, dom, f, &err);
    if (st == FPO_OK) reach_close(p);
    else if (p != NULL) {
        fprintf(stderr, "FAIL %s: open failed but did not set the program to NULL\n", what);
        return 1;
    }
    if (st != want) {
        fprintf(stderr, "FAIL %s: status %d, want %d (message: %s)\n", what, (int)st,
                (int)want, err.msg);
        return 1;
    }
    if (want != FPO_OK && (err.code != want || err.msg[0] == 0)) {
        fprintf(stderr, "FAIL %s: err.code %d, want %d; message '%s'\n", what, (int)err.code,
                (int)want, err.msg);
        return 1;
    }
    if (name && !strstr(err.msg, name)) {
        fprintf(stderr, "FAIL %s: message does not name '%s': %s\n", what, name, err.msg);
        return 1;
    }
    printf("%-40s -> %d %s\n", what, (int)st, err.msg);
    return 0;
}

/* Open with the good fields but the one at `offset` in reach_fields, described by `bad`. */
static int expect_field(const char *what, const arrays *a, size_t offset, tg_array bad,
                        fpo_status want, const char *name) {
    reach_fields f = good_fields(a);
    *(fpo_field *)((char *)&f + offset) = tg_field(&bad);
    fpo_domain dom = fpo_domain_local(NX, NY, NZ);
    return expect(what, &f, &dom, want, name);
}

#define AT(member) offsetof(reach_fields, member)

int main(void) {
    arrays a = {.qsrc = tg_new3(FPO_F64, H, NX, NY, NZ), .twod = tg_new2(FPO_F64, H, NX, NY),
                .col = tg_new1(FPO_F32, NZ), .dst = tg_new3(FPO_F64, H, NX, NY, NZ),
                .stag = tg_new(FPO_F64, FPO_IJK, -H, NX + 1 + H, -H, NY + H, 0, NZ)};
    fpo_domain dom = fpo_domain_local(NX, NY, NZ);
    int bad = 0;

    reach_fields f = good_fields(&a);
    bad += expect("good fields", &f, &dom, FPO_OK, NULL);

    /* qsrc is touched on i in [-2, nx + 1) (reach_in reads i - 2, edge reads i - 1 up to nx)
     * and j in [0, ny + 2); stag on i in [0, nx + 1); col on k in [0, nz). */
    bad += expect_field("qsrc with a halo of 1", &a, AT(qsrc), tg_new3(FPO_F64, 1, NX, NY, NZ),
                        FPO_ESHAPE, "qsrc");
    bad += expect_field("qsrc with exactly the halo it needs", &a, AT(qsrc),
                        tg_new(FPO_F64, FPO_IJK, -2, NX + 1, 0, NY + 2, 0, NZ), FPO_OK, NULL);
    bad += expect_field("qsrc one short at j = ny + 1", &a, AT(qsrc),
                        tg_new(FPO_F64, FPO_IJK, -2, NX + 1, 0, NY + 1, 0, NZ), FPO_ESHAPE,
                        "qsrc");
    bad += expect_field("stag without the interface point", &a, AT(stag),
                        tg_new3(FPO_F64, 0, NX, NY, NZ), FPO_ESHAPE, "stag");
    bad += expect_field("col with nz - 1 levels", &a, AT(col), tg_new1(FPO_F32, NZ - 1),
                        FPO_ESHAPE, "col");
    bad += expect_field("qsrc as f32", &a, AT(qsrc), tg_new3(FPO_F32, H, NX, NY, NZ),
                        FPO_EDTYPE, "qsrc");
    bad += expect_field("col as f64", &a, AT(col), tg_new1(FPO_F64, NZ), FPO_EDTYPE, "col");
    bad += expect_field("twod as bool", &a, AT(twod), tg_new2(FPO_BOOL, H, NX, NY), FPO_EDTYPE,
                        "twod");
    bad += expect_field("dst as 2D (IJ)", &a, AT(dst), tg_new2(FPO_F64, H, NX, NY), FPO_EDTYPE,
                        "dst");
    bad += expect_field("twod as 3D", &a, AT(twod), tg_new3(FPO_F64, H, NX, NY, NZ), FPO_EDTYPE,
                        "twod");
    bad += expect_field("col as 3D", &a, AT(col), tg_new3(FPO_F32, H, NX, NY, NZ), FPO_EDTYPE,
                        "col");

    f = good_fields(&a);
    f.dst.data = NULL;
    bad += expect("dst without data", &f, &dom, FPO_EINVAL, "dst");

    /* dst and stag are written (reach_in, edge): neither may share memory with another field;
     * qsrc and twod are only read, so one array may serve both where it fits both */
    f = good_fields(&a);
    f.stag = f.dst;
    f.stag.hi[0] += 1, f.stag.stride[1] += 1, f.stag.stride[2] += f.stag.hi[1] - f.stag.lo[1];
    bad += expect("stag in dst's array", &f, &dom, FPO_EINVAL, "'dst' and 'stag' share memory");
    f = good_fields(&a);
    f.qsrc = f.dst;
    bad += expect("qsrc in dst's array", &f, &dom, FPO_EINVAL, "the program writes 'dst'");
    f = good_fields(&a);
    f.dst.data = (double *)a.qsrc.data + 7;   /* (qsrc's own points, a few on) */
    bad += expect("dst overlapping qsrc", &f, &dom, FPO_EINVAL, "'qsrc' and 'dst' share memory");
    tg_array q2 = tg_new3(FPO_F64, H, NX, NY, NZ);
    f = good_fields(&a);
    f.dst = tg_field(&q2);
    bad += expect("dst in an array of its own", &f, &dom, FPO_OK, NULL);
    f = good_fields(&a);
    f.twod.data = f.qsrc.data;   /* a 2D field in the first level of qsrc's array: both read */
    bad += expect("twod in qsrc's array (both read)", &f, &dom, FPO_OK, NULL);
    /* One array of twice the rows a level: dst's rows the even ones, qsrc's the odd ones. Their
     * byte ranges overlap, their points do not; a row less one element on, qsrc's first row
     * would end inside dst's second. */
    tg_array rows2 = tg_new3(FPO_F64, H, NX, 2 * NY + 2 * H, NZ);
    int64_t row = rows2.stride[1];
    f = good_fields(&a);
    f.dst.data = rows2.data, f.qsrc.data = (double *)rows2.data + row;
    f.dst.stride[1] = f.qsrc.stride[1] = 2 * row;
    f.dst.stride[2] = f.qsrc.stride[2] = rows2.stride[2];
    bad += expect("dst and qsrc in one array, rows taking turns", &f, &dom, FPO_OK, NULL);
    f.qsrc.data = (double *)rows2.data + row - 1;
    bad += expect("dst and qsrc in one array, rows a row less one element apart", &f, &dom,
                  FPO_EINVAL, "'qsrc' and 'dst' share memory");

    f = good_fields(&a);
    fpo_domain empty = fpo_domain_local(0, NY, NZ);
    bad += expect("domain with nx = 0", &f, &empty, FPO_EINVAL, "nx");

    /* A domain 4 points wider makes qsrc's halo of 3 too small. */
    fpo_domain big = fpo_domain_local(NX + 4, NY, NZ);
    bad += expect("domain larger than the fields", &f, &big, FPO_ESHAPE, NULL);

    /* qsrc covers i in [-3, 16) and j in [-3, 10): with a j stride of 238609293 elements its
     * point (15, 9) lies 9 * 238609293 + 15 > 2^31 - 1 elements from the level's origin. The
     * C back end takes it (open reads no data); the CUDA back end indexes a level with 32-bit
     * offsets and refuses it, and takes one stride less. Such a field spans some 124 GB: its
     * data pointer is in a reservation of address space that large (no memory), so that it
     * shares none with the other fields. */
    const char *backend = getenv("FPO_BACKEND");
    int cuda = backend && !strcmp(backend, "cuda");
    size_t span = (size_t)1 << 37;
    void *far_space = mmap(NULL, span, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE,
                           -1, 0);
    if (far_space == MAP_FAILED) {
        perror("open_errors: mmap of 128 GiB of address space");
        return 1;
    }
    for (int64_t s = 238609293; s >= 238609292; s--) {
        f = good_fields(&a);
        f.qsrc.data = far_space;
        f.qsrc.stride[1] = s;
        f.qsrc.stride[2] = s * (f.qsrc.hi[1] - f.qsrc.lo[1]);
        int far = cuda && s == 238609293;
        bad += expect(far ? "qsrc past 2^31 from the origin" : "qsrc within 2^31 of the origin",
                      &f, &dom, far ? FPO_EINVAL : FPO_OK, far ? "32-bit offsets" : NULL);
    }
    /* Rows taking turns again, in that reservation, the fields 2^17 and 2^18 levels deep (13
     * rows a level each): open merges their 3,407,872 rows, and takes the 6,815,744 of the
     * deeper ones, past its 2^22, as sharing memory without merging them. */
    for (int64_t levels = (int64_t)1 << 17; levels <= (int64_t)1 << 18; levels *= 2) {
        f = good_fields(&a);
        int64_t row = f.qsrc.hi[0] - f.qsrc.lo[0], rows = f.qsrc.hi[1] - f.qsrc.lo[1];
        f.dst = f.qsrc;   /* (the same extents) */
        f.dst.data = far_space, f.qsrc.data = (double *)far_space + row;
        f.dst.stride[1] = f.qsrc.stride[1] = 2 * row;
        f.dst.stride[2] = f.qsrc.stride[2] = 2 * row * rows;
        f.dst.lo[2] = f.qsrc.lo[2] = 0;
        f.dst.hi[2] = f.qsrc.hi[2] = levels;
        int deep = levels > (int64_t)1 << 17;
        bad += expect(deep ? "dst and qsrc taking turns, 2^18 levels" :
                             "dst and qsrc taking turns, 2^17 levels",
                      &f, &dom, deep ? FPO_EINVAL : FPO_OK,
                      deep ? "'qsrc' and 'dst' share memory" : NULL);
    }

    if (bad) {
        fprintf(stderr, "open_errors: %d cases failed\n", bad);
        return 1;
    }
    printf("open_errors: ok\n");
    return 0;
}
