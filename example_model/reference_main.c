/* reference_main.c: command line to a run of the plain-C reference transport on Williamson
 * test case 1: error norms on stdout, progress on stderr, h at the start and end in NetCDF. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "em.h"

static void usage(void) {
    fprintf(stderr,
            "usage: fpo_example_reference [-n N] [-a ALPHA] [-o HORD] [-d DAYS] [-s STEPS] [-f FILE.nc]\n"
            "  N cells per tile edge (24), ALPHA radians (0), HORD 2, 6 or 8 (8), DAYS (12),\n"
            "  STEPS time steps (12 N / 2 per 12 days), FILE NetCDF output with h at start and end\n");
}

static double now(void) {
    struct timespec ts;
    timespec_get(&ts, TIME_UTC);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int run(int n, double alpha, int hord, double days, int steps, const char *path) {
    em_sphere s;
    em_tp_winds w;
    em_tp_work wk[6] = {{0}};
    em_error err;
    double *q[6] = {0}, *q0[6] = {0}, dt = days * 86400.0 / steps;
    if (em_sphere_init(&s, n, EM_TP_HALO, &err) || em_tp_winds_tc1(&s, alpha, dt, &w, &err)) {
        fprintf(stderr, "%s\n", err.msg);
        return 1;
    }
    for (int t = 0; t < 6; t++) {
        size_t np = em_grid_points(&s.g[t]);
        q[t] = calloc(np, sizeof(double)), q0[t] = calloc(np, sizeof(double));
        if (!q[t] || !q0[t] || em_tp_work_init(&s.g[t], &wk[t], &err)) {
            fprintf(stderr, "%s\n", q[t] && q0[t] ? err.msg : "out of memory");
            return 1;
        }
        em_tc1_h(&s.g[t], q[t]);
        memcpy(q0[t], q[t], np * sizeof(double));
    }
    size_t nc = 6 * (size_t)n * (size_t)n, nv = 6 * ((size_t)n + 1) * ((size_t)n + 1);
    double *lon = malloc(nc * sizeof *lon), *lat = malloc(nc * sizeof *lat),
           *area = malloc(nc * sizeof *area), *lonb = malloc(nv * sizeof *lonb),
           *latb = malloc(nv * sizeof *latb), *hg = malloc(nc * sizeof *hg);
    em_ncfile f;
    int writing = path != NULL;
    if (!lon || !lat || !area || !lonb || !latb || !hg) {
        fprintf(stderr, "out of memory\n");
        return 1;
    }
    if (writing) {
        char title[128];
        snprintf(title, sizeof title, "Williamson test case 1, reference fv_tp_2d, N=%d alpha=%.4f hord=%d",
                 n, alpha, hord);
        if (em_global_grid(n, lon, lat, area, lonb, latb, &err) ||
            em_nc_create(&f, path, n, 1, &alpha, lon, lat, area, lonb, latb, title, &err)) {
            fprintf(stderr, "%s\n", err.msg);
            return 1;
        }
        for (int t = 0; t < 6; t++) em_to_global(&s.g[t], q[t], hg);
        if (em_nc_write_h(&f, 0.0, hg, &err)) {
            fprintf(stderr, "%s\n", err.msg);
            return 1;
        }
    }
    double t0 = now(), next = t0 + 5.0;
    for (int k = 0; k < steps; k++) {
        em_tp_step(&s, q, &w, hord, wk);
        double t1 = now();
        if (t1 >= next) {
            double el = t1 - t0;
            fprintf(stderr, "step %d/%d  day %.2f  elapsed %.1f s  ETA %.1f s\n", k + 1, steps,
                    (k + 1) * dt / 86400.0, el, el / (k + 1) * (steps - k - 1));
            next = t1 + 5.0;
        }
    }
    double elapsed = now() - t0;
    em_norm_acc acc;
    em_norm_acc_init(&acc);
    for (int t = 0; t < 6; t++) em_norm_acc_add(&acc, &s.g[t], q[t], q0[t], q0[t]);
    em_norms e;
    if (em_norms_finish(&acc, &e, &err)) {
        fprintf(stderr, "%s\n", err.msg);
        return 1;
    }
    printf("N=%d alpha=%.4f hord=%d steps=%d dt=%.1fs days=%g: l1 %.4e l2 %.4e linf %.4e "
           "mass %+.2e  (%.3f ms/step)\n",
           n, alpha, hord, steps, dt, days, e.l1, e.l2, e.linf, e.mass, 1e3 * elapsed / steps);
    if (writing) {
        for (int t = 0; t < 6; t++) em_to_global(&s.g[t], q[t], hg);
        if (em_nc_write_h(&f, steps * dt, hg, &err) || em_nc_close(&f, &err)) {
            fprintf(stderr, "%s\n", err.msg);
            return 1;
        }
        printf("wrote %s\n", path);
    }
    for (int t = 0; t < 6; t++) free(q[t]), free(q0[t]), em_tp_work_free(&wk[t]);
    free(lon), free(lat), free(area), free(lonb), free(latb), free(hg);
    em_tp_winds_free(&w);
    em_sphere_free(&s);
    return 0;
}

int main(int argc, char **argv) {
    int n = 24, hord = EM_PPM_MONO, steps = 0;
    double alpha = 0.0, days = 12.0;
    const char *path = NULL;
    for (int k = 1; k < argc; k++) {
        const char *a = argv[k], *v = k + 1 < argc ? argv[k + 1] : NULL;
        if (!v || a[0] != '-' || strlen(a) != 2) {
            usage();
            return 2;
        }
        switch (a[1]) {
        case 'n': n = atoi(v); break;
        case 'a': alpha = atof(v); break;
        case 'o': hord = atoi(v); break;
        case 'd': days = atof(v); break;
        case 's': steps = atoi(v); break;
        case 'f': path = v; break;
        default: usage(); return 2;
        }
        k++;
    }
    if (steps == 0) steps = (int)ceil(6.0 * n * days / 12.0);
    if (n < 6 || steps < 1 || days <= 0 ||
        (hord != EM_PPM_LINEAR && hord != EM_PPM_SMOOTH && hord != EM_PPM_MONO)) {
        usage();
        return 2;
    }
    return run(n, alpha, hord, days, steps, path);
}
