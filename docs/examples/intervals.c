/* intervals.c: one column of q = 1, 2, 3, ...: sum is the running sum from the bottom, above
 * the sum of the levels above, mid the sum of the two neighbours (not at bottom and top). */
#include <stdio.h>

#include "intervals.h"

enum { NZ = 6 };

int main(void) {
    double q[NZ], sum[NZ], above[NZ], mid[NZ];
    for (int k = 0; k < NZ; k++) q[k] = k + 1, mid[k] = -1;
    intervals_fields f = {.q = fpo_field_3d(q, FPO_F64, 0, 1, 0, 1, 0, NZ),
                          .sum = fpo_field_3d(sum, FPO_F64, 0, 1, 0, 1, 0, NZ),
                          .above = fpo_field_3d(above, FPO_F64, 0, 1, 0, 1, 0, NZ),
                          .mid = fpo_field_3d(mid, FPO_F64, 0, 1, 0, 1, 0, NZ)};
    fpo_domain dom = fpo_domain_local(1, 1, NZ);
    fpo_error err;
    intervals *p;
    if (intervals_open(&p, &dom, &f, &err) || intervals_run(p, &err)) {
        fprintf(stderr, "%s\n", err.msg);
        return 1;
    }
    intervals_close(p);
    const double total = NZ * (NZ + 1) / 2;
    for (int k = 0; k < NZ; k++) {
        double s = (k + 1) * (k + 2) / 2, m = k == 0 || k == NZ - 1 ? -1 : 2.0 * (k + 1);
        if (sum[k] != s || above[k] != total - s || mid[k] != m) {
            fprintf(stderr, "level %d: sum %g above %g mid %g, want %g %g %g\n", k, sum[k],
                    above[k], mid[k], s, total - s, m);
            return 1;
        }
    }
    printf("intervals: running sums up and down, neighbours in between\n");
    return 0;
}
