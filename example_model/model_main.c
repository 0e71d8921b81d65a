/* model_main.c: a command line and MPI ranks to a run of the FPO example model on Williamson
 * test case 1 (model.c), its step on the C or the CUDA back end: error norms per level on
 * stdout, progress on stderr, h in NetCDF, restarts (restart.c); optionally the same run of the
 * plain-C reference, compared bit for bit. */
#include <math.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "model.h"

#ifndef EM_MODEL_HORD
#define EM_MODEL_HORD 8
#endif

typedef struct opts {
    int n, nz, steps, check, alpha_set;
    int every, kill_after;              /* restart every N steps; test: a rank dies after */
    double days, alpha;
    const char *path, *rin, *rout;      /* NetCDF file, restart to read, restart to write */
    const char *backend;                /* em_step's back end (-b), NULL: FPO_BACKEND or C */
} opts;

static double now(void) {
    struct timespec ts;
    timespec_get(&ts, TIME_UTC);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* This process's memory on huge pages (AnonHugePages of /proc/self/smaps_rollup) in MB; -1
 * where the system does not say. Printed with the time per step: the pool's arrays ask for
 * them (FPO's open), and a run that did not get them is slower. */
static double huge_mb(void) {
    FILE *f = fopen("/proc/self/smaps_rollup", "r");
    char line[256];
    double kb = -1;
    while (f && fgets(line, sizeof line, f))
        if (sscanf(line, "AnonHugePages: %lf kB", &kb) == 1)
            break;
    if (f)
        fclose(f);
    return kb < 0 ? -1 : kb / 1024;
}

static void usage(void) {
    fprintf(stderr,
            "usage: fpo_example_model [-n N] [-z NZ] [-a ALPHA] [-d DAYS] [-s STEPS] [-f FILE.nc]\n"
            "                         [-c] [-r RESTART] [-w RESTART] [-e EVERY] [-b BACKEND]\n"
            "  run with 6 L^2 MPI ranks (layout L x L per tile); N cells per tile edge (24),\n"
            "  NZ levels (5: level k takes test case 1's alpha k mod 5 unless ALPHA is given),\n"
            "  DAYS (12), STEPS (6 N per 12 days), FILE: h of every level at start and end,\n"
            "  -c: also run the plain-C reference on rank 0 and compare h bit for bit,\n"
            "  -r: resume from RESTART (then DAYS and STEPS still count from day 0),\n"
            "  -w: write RESTART at the end and, with -e, every EVERY steps,\n"
            "  -b: the step's back end, c or cuda (FPO_BACKEND from the environment, else c)\n");
}

static int parse(int argc, char **argv, opts *o) {
    *o = (opts){.n = 24, .nz = 5, .days = 12.0};
    for (int k = 1; k < argc; k++) {
        const char *a = argv[k], *v = k + 1 < argc ? argv[k + 1] : NULL;
        if (a[0] != '-' || strlen(a) != 2) return 0;
        if (a[1] == 'c') {
            o->check = 1;
            continue;
        }
        if (!v) return 0;
        switch (a[1]) {
        case 'n': o->n = atoi(v); break;
        case 'z': o->nz = atoi(v); break;
        case 'a': o->alpha = atof(v), o->alpha_set = 1; break;
        case 'd': o->days = atof(v); break;
        case 's': o->steps = atoi(v); break;
        case 'f': o->path = v; break;
        case 'r': o->rin = v; break;
        case 'w': o->rout = v; break;
        case 'e': o->every = atoi(v); break;
        case 'k': o->kill_after = atoi(v); break;   /* test: rank size / 2 dies after step v */
        case 'b': o->backend = v; break;
        default: return 0;
        }
        k++;
    }
    if (o->steps == 0) o->steps = (int)ceil(6.0 * o->n * o->days / 12.0);
    return o->n >= 6 && o->nz >= 1 && o->steps >= 1 && o->days > 0 && o->every >= 0 &&
           (o->rout || !o->every);
}

/* Print err on this rank's stderr; 1 for the exit status. */
static int fail(const em_error *err) {
    fprintf(stderr, "fpo_example_model: %s\n", err->msg);
    return 1;
}

/* The plain-C reference (fvtp.c) on rank 0, level by level, against the gathered h. */
static int check_reference(const em_model *m, const opts *o, double dt, const double *hall) {
    em_sphere s;
    em_error err;
    int n = m->g.n, bad = 0;
    size_t nc = 6 * (size_t)n * (size_t)n;
    double *hg = malloc(nc * sizeof *hg), *q[6] = {0};
    em_tp_work wk[6] = {{0}};
    if (!hg) return fprintf(stderr, "fpo_example_model: out of memory\n"), 1;
    if (em_sphere_init(&s, n, EM_TP_HALO, &err)) return free(hg), fail(&err);
    for (int t = 0; t < 6 && !bad; t++)
        if (!(q[t] = calloc(em_grid_points(&s.g[t]), sizeof(double))) ||
            em_tp_work_init(&s.g[t], &wk[t], &err))
            bad = q[t] ? fail(&err) : (fprintf(stderr, "fpo_example_model: out of memory\n"), 1);
    int differ = 0;
    for (int k = 0; k < m->nz && !bad; k++) {
        em_tp_winds w;
        if (em_tp_winds_tc1(&s, m->alpha[k], dt, &w, &err)) {
            bad = fail(&err);
            break;
        }
        for (int t = 0; t < 6; t++) em_tc1_h(&s.g[t], q[t]);
        for (int st = 0; st < o->steps; st++) em_tp_step(&s, q, &w, EM_MODEL_HORD, wk);
        em_tp_winds_free(&w);
        for (int t = 0; t < 6; t++) em_to_global(&s.g[t], q[t], hg);
        size_t ndiff = 0;
        double maxd = 0.0;
        for (size_t c = 0; c < nc; c++) {
            double a = hall[k * nc + c], b = hg[c];
            ndiff += memcmp(&a, &b, sizeof a) != 0;
            maxd = fmax(maxd, fabs(a - b));
        }
        printf("reference level %d alpha=%.4f: %zu of %zu cells differ, max |diff| %.3e\n", k,
               m->alpha[k], ndiff, nc, maxd);
        differ |= ndiff != 0;
    }
    for (int t = 0; t < 6; t++) free(q[t]), em_tp_work_free(&wk[t]);
    em_sphere_free(&s);
    free(hg);
    if (!bad) printf("reference: %s\n", differ ? "DIFFERENT" : "bit-identical");
    return bad || differ;
}

static void nc_title(const em_model *m, char *title, size_t size) {
    snprintf(title, size,
             "Williamson test case 1, FPO example model (fv_tp_2d, hord %d), N=%d, %d levels",
             EM_MODEL_HORD, m->g.n, m->nz);
}

#ifdef EM_NC_PARALLEL
/* The NetCDF file: the grid, and h of every level at the start and the end, every rank writing
 * its own cells (collective). */
static int write_nc(const em_model *m, const opts *o, int rank, double t_end) {
    em_error err = {{0}};
    em_ncfile f;
    char title[160];
    nc_title(m, title, sizeof title);
    MPI_Barrier(m->d.comm);
    double t0 = now();
    em_status st = em_nc_create_par(&f, o->path, m->d.comm, &m->g, m->nz, m->alpha, title, &err);
    if (!st) {
        st = em_nc_write_part(&f, 0.0, &m->g, m->q0, m->np, &err);
        if (!st) st = em_nc_write_part(&f, t_end, &m->g, m->q, m->np, &err);
        em_error cerr;   /* a failed close after a failed write: the first error counts */
        em_status cst = em_nc_close(&f, &cerr);
        if (!st && cst) st = cst, err = cerr;
    }
    int rc = st != EM_OK;
    if (rc) fail(&err);
    MPI_Allreduce(MPI_IN_PLACE, &rc, 1, MPI_INT, MPI_MAX, m->d.comm);
    if (!rc && rank == 0)
        printf("wrote %s (h of %d levels at day 0 and day %g) in parallel in %.3f s\n", o->path,
               m->nz, t_end / 86400.0, now() - t0);
    return rc;
}
#else
/* The NetCDF file without parallel NetCDF: the grid and h of every level at the start and the
 * end gathered to rank 0, which writes it (collective). */
static int write_nc(const em_model *m, const opts *o, int rank, double t_end) {
    size_t nc = 6 * (size_t)o->n * (size_t)o->n, nv = 6 * (size_t)(o->n + 1) * (size_t)(o->n + 1),
           nh = nc * (size_t)m->nz;
    double *h0 = NULL, *h1 = NULL, *lon = NULL, *lat = NULL, *area = NULL, *lonb = NULL,
           *latb = NULL;
    em_error err = {{0}};
    em_ncfile f;
    int rc = 0;
    MPI_Barrier(m->d.comm);
    double t0 = now();
    if (rank == 0) {
        h0 = malloc(nh * sizeof *h0), h1 = malloc(nh * sizeof *h1);
        lon = malloc(nc * sizeof *lon), lat = malloc(nc * sizeof *lat);
        area = malloc(nc * sizeof *area), lonb = malloc(nv * sizeof *lonb);
        latb = malloc(nv * sizeof *latb);
        if (!h0 || !h1 || !lon || !lat || !area || !lonb || !latb)
            rc = (snprintf(err.msg, sizeof err.msg, "write_nc: out of memory"), 1);
    }
    MPI_Bcast(&rc, 1, MPI_INT, 0, m->d.comm);
    if (!rc && (em_model_gather(m, m->q0, -1, h0, &err) ||
                em_model_gather(m, m->q, -1, h1, &err)))
        rc = 1;
    if (!rc && rank == 0) {
        char title[160];
        nc_title(m, title, sizeof title);
        rc = em_global_grid(o->n, lon, lat, area, lonb, latb, &err) ||
             em_nc_create(&f, o->path, o->n, m->nz, m->alpha, lon, lat, area, lonb, latb, title, &err) ||
             em_nc_write_h(&f, 0.0, h0, &err) || em_nc_write_h(&f, t_end, h1, &err) ||
             em_nc_close(&f, &err);
        if (!rc)
            printf("wrote %s (h of %d levels at day 0 and day %g) on rank 0 in %.3f s\n",
                   o->path, m->nz, t_end / 86400.0, now() - t0);
    }
    if (rc) fail(&err);
    free(h0), free(h1), free(lon), free(lat), free(area), free(lonb), free(latb);
    MPI_Bcast(&rc, 1, MPI_INT, 0, m->d.comm);
    return rc;
}
#endif

/* Norms of every level against the exact solution at t, exact sums over the ranks; with
 * `sums`, also sum A h at the start and at t (what a reader of the NetCDF file can check). */
static int print_norms(const em_model *m, int rank, double t, int sums) {
    double *ht = malloc(m->np * sizeof *ht);
    em_error err;
    int rc = 0;
    if (!ht) return fprintf(stderr, "fpo_example_model: out of memory\n"), 1;
    for (int k = 0; k < m->nz && !rc; k++) {
        em_norm_acc acc;
        em_norms e;
        em_norm_acc_init(&acc);
        em_tc1_h_exact(&m->g, m->alpha[k], t, ht);
        em_norm_acc_add(&acc, &m->g, m->q + k * m->np, ht, m->q0 + k * m->np);
        if (em_norm_acc_allreduce(&acc, m->d.comm, &err) || em_norms_finish(&acc, &e, &err))
            rc = fail(&err);
        else if (rank == 0)
            printf("level %d alpha=%.4f: l1 %.4e l2 %.4e linf %.4e mass %+.2e\n", k,
                   m->alpha[k], e.l1, e.l2, e.linf, e.mass);
        if (!rc && rank == 0 && sums)
            printf("level %d sum(area h): start %.17e end %.17e m3\n", k, e.sum0, e.sum);
    }
    free(ht);
    return rc;
}

/* The plain-C reference's check (-c): h gathered on rank 0, a check for small N only. */
static int check_gathered(const em_model *m, const opts *o, int rank, double dt) {
    em_error err;
    size_t nall = 6 * (size_t)o->n * (size_t)o->n * (size_t)m->nz;
    double *hall = rank == 0 ? malloc(nall * sizeof *hall) : NULL;
    int rc = rank == 0 && !hall;
    MPI_Bcast(&rc, 1, MPI_INT, 0, m->d.comm);
    if (rc) return fprintf(stderr, "fpo_example_model: out of memory\n"), 1;
    if (em_model_gather(m, m->q, -1, hall, &err)) rc = fail(&err);
    if (!rc && rank == 0) rc = check_reference(m, o, dt, hall);
    free(hall);
    MPI_Bcast(&rc, 1, MPI_INT, 0, m->d.comm);
    return rc;
}

/* The restart of step s (-w), announced on rank 0. */
static int write_restart(const em_model *m, const opts *o, int rank, int s, double dt) {
    em_error err;
    if (em_restart_write(m, o->rout, s, dt, &err)) return rank == 0 ? fail(&err) : 1;
    if (rank == 0) printf("wrote restart %s at step %d (day %g)\n", o->rout, s, s * dt / 86400.0);
    return 0;
}

/* Steps s0 .. o->steps, a restart every o->every steps before the last; a step that fails
 * on one rank ends the job (the other ranks may wait in an exchange). *t_first: when the first
 * step was done (it also loads code and touches memory the first time). */
static int steps(em_model *m, const opts *o, int rank, int s0, double dt, double *t_first) {
    em_error err;
    double t0 = now(), next = t0 + 5.0;
    for (int s = s0; s < o->steps; s++) {
        if (em_model_step(m, &err) || (s == s0 && em_model_wait(m, &err))) {
            fail(&err);
            MPI_Abort(MPI_COMM_WORLD, 1);
        }
        if (s == s0) *t_first = now();
        if (o->every && (s + 1) % o->every == 0 && s + 1 < o->steps) {
            if (em_model_fetch(m, &err)) {
                fail(&err);
                MPI_Abort(MPI_COMM_WORLD, 1);
            }
            if (write_restart(m, o, rank, s + 1, dt)) return 1;
        }
        if (o->kill_after == s + 1 && rank == m->d.size / 2) {
            fprintf(stderr, "fpo_example_model: rank %d kills itself after step %d (-k)\n", rank,
                    s + 1);
            raise(SIGKILL);
        }
        double t1 = now();
        if (rank == 0 && t1 >= next) {
            double el = t1 - t0;
            fprintf(stderr, "step %d/%d  day %.2f  elapsed %.1f s  ETA %.1f s\n", s + 1, o->steps,
                    (s + 1) * dt / 86400.0, el, el / (s + 1 - s0) * (o->steps - s - 1));
            next = t1 + 5.0;
        }
    }
    return 0;
}

/* Step s0 of the run: 0, or the restart's (-r) when it is one of this run's steps. */
static int resume(em_model *m, const opts *o, int rank, double dt, int *s0) {
    em_error err;
    int64_t step = 0;
    *s0 = 0;
    if (!o->rin) return 0;
    if (em_restart_read(m, o->rin, dt, &step, &err)) return rank == 0 ? fail(&err) : 1;
    if (em_model_store(m, &err)) {   /* a copy to this rank's device: the others may be waiting */
        fail(&err);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    if (step < 0 || step > o->steps) {
        if (rank == 0)
            fprintf(stderr, "fpo_example_model: restart %s is at step %lld, past this run's %d\n",
                    o->rin, (long long)step, o->steps);
        return 1;
    }
    *s0 = (int)step;
    if (rank == 0)
        printf("read restart %s at step %d (day %g)\n", o->rin, *s0, step * dt / 86400.0);
    return 0;
}

static int run(const opts *o, int rank) {
    em_model m;
    em_error err;
    double dt = o->days * 86400.0 / o->steps, *alpha = malloc((size_t)o->nz * sizeof *alpha);
    if (!alpha) return fprintf(stderr, "fpo_example_model: out of memory\n"), 1;
    for (int k = 0; k < o->nz; k++) alpha[k] = o->alpha_set ? o->alpha : em_tc1_alpha(k);
    int rc = em_model_init(&m, MPI_COMM_WORLD, o->n, o->nz, alpha, dt, o->backend, &err), s0 = 0;
    free(alpha);
    if (rc) {   /* every rank returns with the first failing rank's message */
        if (rank == 0) fail(&err);
        em_model_free(&m);
        return 1;
    }
    if (rank == 0)
        printf("fpo_example_model: N=%d nz=%d ranks=%d (layout %dx%d, %dx%d cells each) hord=%d "
               "steps=%d dt=%.1fs days=%g\nbackend: %s\n", o->n, m.nz, m.d.size, m.d.layout_x,
               m.d.layout_y, m.g.nx, m.g.ny, EM_MODEL_HORD, o->steps, dt, o->days,
               em_model_backend(&m));
    if (rank == 0 && m.on_device) printf("devices: %s\n", m.devices);
    if ((rc = resume(&m, o, rank, dt, &s0))) return em_model_free(&m), rc;
    MPI_Barrier(m.d.comm);
    double t0 = now();
    double t_first = 0;
    rc = steps(&m, o, rank, s0, dt, &t_first);
    if (!rc && em_model_fetch(&m, &err)) {   /* the queued steps done, h on the host */
        fail(&err);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    MPI_Barrier(m.d.comm);
    int ran = o->steps - s0;
    double elapsed = now() - t0, t_end = o->steps * dt;
    if (!rc && o->rout) rc = write_restart(&m, o, rank, o->steps, dt);
    if (!rc) rc = print_norms(&m, rank, t_end, o->path != NULL);
    if (!rc && rank == 0) {
        printf("time per step %.3f ms (%d steps, %.2f s)\n", ran ? 1e3 * elapsed / ran : 0.0,
               ran, elapsed);
        if (ran > 1)   /* rank 0's clock: the first step loads kernels and first touches pages */
            printf("time per step after the first %.3f ms\n",
                   1e3 * (t0 + elapsed - t_first) / (ran - 1));
        double mb = huge_mb();
        if (mb >= 0)
            printf("huge pages %.0f MB (rank 0)\n", mb);
    }
    /* a fingerprint of h on every level: the layouts' and builds' bit-identity checks */
    uint64_t fp = 0;
    if (!rc && em_model_fingerprint(&m, m.q, &fp, &err)) rc = fail(&err);
    if (!rc && rank == 0) printf("h fingerprint %016llx\n", (unsigned long long)fp);
    if (!rc && o->check) rc = check_gathered(&m, o, rank, dt);
    if (!rc && o->path) rc = write_nc(&m, o, rank, t_end);
    em_model_free(&m);
    return rc;
}

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int rank, rc = 2;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    opts o;
    if (parse(argc, argv, &o))
        rc = run(&o, rank);
    else if (rank == 0)
        usage();
    MPI_Finalize();
    return rc;
}
