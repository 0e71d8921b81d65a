/* checks_run.c: runs checks.fpo on an input that is 4 everywhere except at one point (argv[1]:
 * "nan" puts -1 at (3, 2, 1), "negative" 0.25 at (2, 1, 0), "clean" nothing) and prints what
 * run returned; argv[2] is what it must return ("ok" or the start of the message). */
#include "checks.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { NX = 6, NY = 5, NZ = 3 };

int main(int argc, char **argv) {
    if (argc < 3)
        return 2;
    static double a[NZ][NY][NX], b[NZ][NY][NX], c[NZ][NY][NX];
    for (int k = 0; k < NZ; k++)
        for (int j = 0; j < NY; j++)
            for (int i = 0; i < NX; i++)
                a[k][j][i] = 4.0;
    if (!strcmp(argv[1], "nan"))
        a[1][2][3] = -1.0;
    if (!strcmp(argv[1], "negative"))
        a[0][1][2] = 0.25;
    checks_fields f = {fpo_field_3d(a, FPO_F64, 0, NX, 0, NY, 0, NZ),
                       fpo_field_3d(b, FPO_F64, 0, NX, 0, NY, 0, NZ),
                       fpo_field_3d(c, FPO_F64, 0, NX, 0, NY, 0, NZ)};
    fpo_domain dom = fpo_domain_local(NX, NY, NZ);
    fpo_error err;
    checks *p;
    if (checks_open(&p, &dom, &f, &err)) {
        fprintf(stderr, "open: %s\n", err.msg);
        return 1;
    }
    fpo_status st = checks_run(p, &err);
    const char *names[8];
    double secs[8];
    int n = checks_timers(p, names, secs, 8);
    for (int t = 0; t < n; t++)
        printf("timer %s: %.9f s\n", names[t], secs[t]);
    checks_close(p);
    printf("run: %s\n", st ? err.msg : "ok");
    if (!strcmp(argv[2], "ok"))
        return st != FPO_OK;
    return !(st == FPO_ECHECK && strstr(err.msg, argv[2]));
}
