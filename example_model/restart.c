/* restart.c: the model's state (h of every level and the clock) to and from one file in global
 * cell order, written and read with MPI-IO by every rank, so any layout reads any restart; the
 * writer fills NAME.tmp and renames it, so NAME is always the last complete restart or absent. */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "model.h"

/* The file (host byte order, little-endian on x86-64 and AArch64):
 *   header, 64 bytes: magic "FPOEMRST", u32 version, u32 field count F, i32 N, i32 nz,
 *                     i64 step, f64 time (s), f64 dt (s), u64 data offset, u64 0
 *   F x 24 bytes:     field name (16 bytes, NUL padded), u64 its em_model_fingerprint
 *   nz x f64:         the alpha of every level
 *   data:             field f at data offset + f nz 6 N N 8: doubles [k][tile][j][i] */
enum { VERSION = 1, HEAD = 64, FIELD = 24, NAME = 16, NFIELDS = 1 };
static const char magic[8] = {'F', 'P', 'O', 'E', 'M', 'R', 'S', 'T'};

typedef struct header {
    uint32_t version, nfields;
    int32_t n, nz;
    int64_t step;
    double t, dt;
    uint64_t offset;
    char name[NFIELDS][NAME];
    uint64_t sum[NFIELDS];
} header;

static em_status fail(em_error *err, em_status st, const char *path, const char *msg) {
    snprintf(err->msg, sizeof err->msg, "restart %s: %s", path, msg);
    return st;
}

static uint64_t data_offset(int nz) { return HEAD + FIELD * NFIELDS + 8 * (uint64_t)nz; }
static uint64_t field_bytes(const em_model *m) {
    return 8 * (uint64_t)m->nz * 6 * (uint64_t)m->g.n * (uint64_t)m->g.n;
}

static void put(unsigned char *b, size_t *at, const void *v, size_t n) {
    memcpy(b + *at, v, n);
    *at += n;
}
static void get(const unsigned char *b, size_t *at, void *v, size_t n) {
    memcpy(v, b + *at, n);
    *at += n;
}

/* The header and field table into b (data_offset(nz) bytes with the alphas), or out of it. */
static void pack(const header *h, const double *alpha, unsigned char *b) {
    size_t at = 0;
    uint64_t zero = 0;
    put(b, &at, magic, 8), put(b, &at, &h->version, 4), put(b, &at, &h->nfields, 4);
    put(b, &at, &h->n, 4), put(b, &at, &h->nz, 4), put(b, &at, &h->step, 8);
    put(b, &at, &h->t, 8), put(b, &at, &h->dt, 8), put(b, &at, &h->offset, 8);
    put(b, &at, &zero, 8);
    for (int f = 0; f < NFIELDS; f++) put(b, &at, h->name[f], NAME), put(b, &at, &h->sum[f], 8);
    put(b, &at, alpha, 8 * (size_t)h->nz);
}

static int unpack_head(const unsigned char *b, header *h) {
    size_t at = 8;
    get(b, &at, &h->version, 4), get(b, &at, &h->nfields, 4), get(b, &at, &h->n, 4);
    get(b, &at, &h->nz, 4), get(b, &at, &h->step, 8), get(b, &at, &h->t, 8);
    get(b, &at, &h->dt, 8), get(b, &at, &h->offset, 8);
    return memcmp(b, magic, 8) == 0;
}

/* The file view of this rank's cells of field f: a subarray of [nz][6][N][N] doubles. */
static int set_view(const em_model *m, MPI_File fh, int f, MPI_Datatype *t) {
    const em_grid *g = &m->g;
    int sizes[4] = {m->nz, 6, g->n, g->n}, sub[4] = {m->nz, 1, g->ny, g->nx},
        start[4] = {0, g->tile, g->j0, g->i0};
    MPI_Offset disp = (MPI_Offset)(data_offset(m->nz) + (uint64_t)f * field_bytes(m));
    return MPI_Type_create_subarray(4, sizes, sub, start, MPI_ORDER_C, MPI_DOUBLE, t) ||
           MPI_Type_commit(t) || MPI_File_set_view(fh, disp, MPI_DOUBLE, *t, "native",
                                                   MPI_INFO_NULL);
}

/* This rank's compute cells of every level of q to buf (nz ny nx doubles), or back. */
static void copy_cells(const em_model *m, double *q, double *buf, int to_buf) {
    const em_grid *g = &m->g;
    size_t c = 0;
    for (int k = 0; k < m->nz; k++)
        for (int j = 0; j < g->ny; j++)
            for (int i = 0; i < g->nx; i++, c++) {
                double *p = &q[k * m->np + EM_AT(g, i, j)];
                if (to_buf) buf[c] = *p;
                else *p = buf[c];
            }
}

static size_t ncells(const em_model *m) {
    return (size_t)m->nz * (size_t)m->g.nx * (size_t)m->g.ny;
}

/* Rank 0 makes the rename durable: the directory holding path is synced. */
static void sync_dir(const char *path) {
    char dir[4096];
    snprintf(dir, sizeof dir, "%s", path);
    char *slash = strrchr(dir, '/');
    if (!slash) snprintf(dir, sizeof dir, ".");
    else if (slash == dir) dir[1] = 0;
    else *slash = 0;
    int fd = open(dir, O_RDONLY);
    if (fd >= 0) fsync(fd), close(fd);
}

/* Header, fields and sync of the open file (every rank; rank 0 writes the header). */
static em_status write_all(const em_model *m, MPI_File fh, const header *h, double *buf,
                           const char *path, em_error *err) {
    size_t off = data_offset(m->nz);
    unsigned char *hb = m->d.rank == 0 ? malloc(off) : NULL;
    int bad = m->d.rank == 0 && !hb;
    if (!bad && m->d.rank == 0) {
        pack(h, m->alpha, hb);
        bad = MPI_File_write_at(fh, 0, hb, (int)off, MPI_BYTE, MPI_STATUS_IGNORE) != MPI_SUCCESS;
    }
    free(hb);
    MPI_Datatype t = MPI_DATATYPE_NULL;
    copy_cells(m, m->q, buf, 1);
    bad |= set_view(m, fh, 0, &t) != MPI_SUCCESS;
    bad |= MPI_File_write_all(fh, buf, (int)ncells(m), MPI_DOUBLE, MPI_STATUS_IGNORE) !=
           MPI_SUCCESS;
    bad |= MPI_File_sync(fh) != MPI_SUCCESS;
    if (t != MPI_DATATYPE_NULL) MPI_Type_free(&t);
    return bad ? fail(err, EM_EIO, path, "MPI-IO write failed") : EM_OK;
}

em_status em_restart_write(const em_model *m, const char *path, int64_t step, double dt,
                           em_error *err) {
    header h = {.version = VERSION, .nfields = NFIELDS, .n = m->g.n, .nz = m->nz,
                .step = step, .t = (double)step * dt, .dt = dt, .offset = data_offset(m->nz)};
    snprintf(h.name[0], NAME, "h");
    em_status st = em_model_fingerprint(m, m->q, &h.sum[0], err);
    if (st) return st;
    char tmp[4096];
    if (snprintf(tmp, sizeof tmp, "%s.tmp", path) >= (int)sizeof tmp)
        return fail(err, EM_EINVAL, path, "name too long");
    double *buf = malloc((ncells(m) ? ncells(m) : 1) * sizeof *buf);
    st = buf ? EM_OK : fail(err, EM_ENOMEM, path, "out of memory");
    if ((st = em_model_agree(m, st, err))) return free(buf), st;
    MPI_File fh;
    if (MPI_File_open(m->d.comm, tmp, MPI_MODE_CREATE | MPI_MODE_WRONLY, MPI_INFO_NULL, &fh) !=
        MPI_SUCCESS)
        st = fail(err, EM_EIO, tmp, "cannot create");
    if ((st = em_model_agree(m, st, err))) return free(buf), st;
    MPI_Offset size = (MPI_Offset)(data_offset(m->nz) + NFIELDS * field_bytes(m));
    st = MPI_File_set_size(fh, size) ? fail(err, EM_EIO, tmp, "cannot set its size") : EM_OK;
    em_status wst = write_all(m, fh, &h, buf, tmp, err);   /* collective: every rank calls */
    if (!st) st = wst;
    MPI_File_close(&fh);
    free(buf);
    if ((st = em_model_agree(m, st, err))) return st;
    int bad = 0;   /* every rank's part is on disk: rank 0 gives the file its name */
    if (m->d.rank == 0) {
        bad = rename(tmp, path) != 0;
        if (!bad) sync_dir(path);
    }
    MPI_Bcast(&bad, 1, MPI_INT, 0, m->d.comm);
    return bad ? fail(err, EM_EIO, tmp, "cannot rename it to the restart's name") : EM_OK;
}

/* The header's verdict on this run: the same on every rank (they read the same bytes). */
static em_status check(const em_model *m, header *h, const unsigned char *b,
                       MPI_Offset size, double dt, const char *path, em_error *err) {
    char msg[200];
    if (h->version != VERSION)
        return snprintf(msg, sizeof msg, "version %u, this model reads %d", h->version, VERSION),
               fail(err, EM_EINVAL, path, msg);
    if (h->n != m->g.n || h->nz != m->nz)
        return snprintf(msg, sizeof msg, "made for N=%d nz=%d, this run has N=%d nz=%d", h->n,
                        h->nz, m->g.n, m->nz), fail(err, EM_EINVAL, path, msg);
    if (h->nfields != NFIELDS)
        return snprintf(msg, sizeof msg, "%u fields, this model has %d", h->nfields, NFIELDS),
               fail(err, EM_EINVAL, path, msg);
    if (h->offset != data_offset(m->nz) ||
        size != (MPI_Offset)(h->offset + NFIELDS * field_bytes(m)))
        return fail(err, EM_EINVAL, path, "truncated or not a restart of this model");
    if (memcmp(&h->dt, &dt, sizeof dt))
        return snprintf(msg, sizeof msg, "made with dt %.17g s, this run has dt %.17g s (give "
                        "-d and -s for the same dt)", h->dt, dt), fail(err, EM_EINVAL, path, msg);
    size_t at = HEAD + NAME;
    if (strncmp((const char *)b + HEAD, "h", NAME))
        return fail(err, EM_EINVAL, path, "its first field is not h");
    get(b, &at, &h->sum[0], 8);
    at = HEAD + FIELD * NFIELDS;
    for (int k = 0; k < m->nz; k++) {
        double a;
        get(b, &at, &a, 8);
        if (memcmp(&a, &m->alpha[k], sizeof a))
            return snprintf(msg, sizeof msg, "level %d has alpha %.17g, this run %.17g", k, a,
                            m->alpha[k]), fail(err, EM_EINVAL, path, msg);
    }
    return EM_OK;
}

/* Header (every rank reads it) and this rank's cells of h into m->q. */
static em_status read_all(em_model *m, MPI_File fh, double dt, int64_t *step, uint64_t *sum,
                          double *buf, const char *path, em_error *err) {
    size_t off = data_offset(m->nz);
    unsigned char *b = calloc(off, 1);
    header h = {0};
    MPI_Offset size = 0;
    if (!b) return fail(err, EM_ENOMEM, path, "out of memory");
    int io = MPI_File_get_size(fh, &size) ||
             MPI_File_read_at_all(fh, 0, b, (int)off, MPI_BYTE, MPI_STATUS_IGNORE);
    em_status st = io ? fail(err, EM_EIO, path, "cannot read the header")
                   : size < (MPI_Offset)off || !unpack_head(b, &h)
                       ? fail(err, EM_EINVAL, path, "not a restart of this model")
                       : check(m, &h, b, size, dt, path, err);
    free(b);
    if ((st = em_model_agree(m, st, err))) return st;
    MPI_Datatype t = MPI_DATATYPE_NULL;
    int bad = set_view(m, fh, 0, &t) != MPI_SUCCESS;
    bad |= MPI_File_read_all(fh, buf, (int)ncells(m), MPI_DOUBLE, MPI_STATUS_IGNORE) !=
           MPI_SUCCESS;
    if (t != MPI_DATATYPE_NULL) MPI_Type_free(&t);
    if (bad) return fail(err, EM_EIO, path, "MPI-IO read failed");
    copy_cells(m, m->q, buf, 0);
    *step = h.step, *sum = h.sum[0];
    return EM_OK;
}

em_status em_restart_read(em_model *m, const char *path, double dt, int64_t *step,
                          em_error *err) {
    double *buf = malloc((ncells(m) ? ncells(m) : 1) * sizeof *buf);
    em_status st = buf ? EM_OK : fail(err, EM_ENOMEM, path, "out of memory");
    if ((st = em_model_agree(m, st, err))) return free(buf), st;
    MPI_File fh;
    if (MPI_File_open(m->d.comm, path, MPI_MODE_RDONLY, MPI_INFO_NULL, &fh) != MPI_SUCCESS)
        st = fail(err, EM_EIO, path, "cannot open");
    if ((st = em_model_agree(m, st, err))) return free(buf), st;
    uint64_t want = 0, got = 0;
    st = read_all(m, fh, dt, step, &want, buf, path, err);
    MPI_File_close(&fh);
    free(buf);
    if ((st = em_model_agree(m, st, err))) return st;
    if ((st = em_model_fingerprint(m, m->q, &got, err))) return st;
    if (got != want) return fail(err, EM_EINVAL, path, "h does not match its checksum");
    return EM_OK;
}
