/* stream.c: whether an array that a fused group writes and does not read (pass_stream) is
 * worth writing past the caches: when it is at least a quarter of the last-level cache, its
 * lines would mostly be gone before a later group reads them, and writing them through the
 * cache first reads every line from memory for nothing. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "fpo_runtime.h"

/* The last-level cache of this machine in bytes: the last cache level sysfs describes for
 * CPU 0 (what one core shares), else sysconf, else 32 MiB. */
static size_t llc_bytes(void) {
    size_t best = 0;
    for (int i = 0; i < 8; i++) {
        char path[96];
        snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu0/cache/index%d/size", i);
        FILE *f = fopen(path, "r");
        if (!f)
            break;
        unsigned long n = 0;
        char unit = 0;
        if (fscanf(f, "%lu%c", &n, &unit) >= 1) {
            size_t b = unit == 'K' ? n << 10 : unit == 'M' ? n << 20 : n;
            if (b > best)
                best = b;
        }
        fclose(f);
    }
#ifdef _SC_LEVEL3_CACHE_SIZE
    if (!best) {
        long s = sysconf(_SC_LEVEL3_CACHE_SIZE);
        best = s > 0 ? (size_t)s : 0;
    }
#endif
    return best ? best : (size_t)32 << 20;
}

int fpo_stream_worth(size_t bytes) {
    const char *e = getenv("FPO_STREAM");
    if (e && (e[0] == '0' || e[0] == '1') && !e[1])
        return e[0] == '1';
    return bytes >= llc_bytes() / 4;   /* at open, once per streamed array */
}
