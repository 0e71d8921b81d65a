/* variant.c: takes a build's layouts, gives the edge classes (which tile edges a rank touches)
 * its ranks fall into, and the names of classes. */
#include "fpo.h"

#include <stdio.h>
#include <string.h>

static void add_class(Build *b, unsigned c) {
    for (int i = 0; i < b->nclasses; i++)
        if (b->classes[i] == c)
            return;
    VPUSH(b->classes, b->nclasses, c);
}

/* The edges ranks along one axis of n ranks touch: (lo edge, hi edge) per rank position. */
static int axis_kinds(int n, unsigned lo, unsigned hi, unsigned out[3]) {
    if (n == 1) {
        out[0] = lo | hi;
        return 1;
    }
    out[0] = lo;
    out[1] = hi;
    if (n == 2)
        return 2;
    out[2] = 0;
    return 3;
}

bool fpo_layout_classes(Build *b, const char *layout) {
    int n, m;
    char end;
    if (!strcmp(layout, "any"))
        n = m = 3;   /* n, m >= 3 hold every class n, m >= 2 do */
    else if (sscanf(layout, "%dx%d%c", &n, &m, &end) != 2 || n < 1 || m < 1)
        return false;
    unsigned xs[3], ys[3];
    int nxs = axis_kinds(n, EDGE_W, EDGE_E, xs), nys = axis_kinds(m, EDGE_S, EDGE_N, ys);
    for (int j = 0; j < nys; j++)
        for (int i = 0; i < nxs; i++)
            add_class(b, xs[i] | ys[j]);
    return true;
}

const char *fpo_class_name(unsigned edges) {
    if (edges == 0)
        return "interior";
    if (edges == EDGE_ALL)
        return "all";
    return fpo_fmt("%s%s%s%s", edges & EDGE_S ? "s" : "", edges & EDGE_N ? "n" : "",
                   edges & EDGE_W ? "w" : "", edges & EDGE_E ? "e" : "");
}
