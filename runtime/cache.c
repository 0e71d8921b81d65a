/* cache.c: this machine's cache sizes, and the choices open makes for the caches: whether an
 * array that a fused group writes and does not read (pass_stream) is written past them, how
 * many J rows a column group takes per block, and how far ahead a row pipeline fetches
 * (pass_prefetch). */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fpo_runtime.h"

/* One number of a sysfs file of CPU 0's cache `index`, in bytes where it ends in K or M;
 * 0 when there is none. */
static size_t sysfs_number(int index, const char *what) {
    char path[96];
    snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu0/cache/index%d/%s", index, what);
    FILE *f = fopen(path, "r");
    if (!f)
        return 0;
    unsigned long n = 0;
    char unit = 0;
    size_t b = 0;
    if (fscanf(f, "%lu%c", &n, &unit) >= 1)
        b = unit == 'K' ? n << 10 : unit == 'M' ? n << 20 : n;
    fclose(f);
    return b;
}

/* Whether CPU 0's cache `index` holds data (not instructions only). */
static int sysfs_data(int index) {
    char path[96], type[32] = "";
    snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu0/cache/index%d/type", index);
    FILE *f = fopen(path, "r");
    if (!f)
        return 0;
    int ok = fscanf(f, "%31s", type) == 1 && strcmp(type, "Instruction") != 0;
    fclose(f);
    return ok;
}

size_t fpo_cache_bytes(int level) {
    size_t best = 0;
    for (int i = 0; i < 8; i++) {
        size_t b = sysfs_number(i, "size");
        if (!b)
            break;
        size_t l = sysfs_number(i, "level");
        if (!sysfs_data(i) || (level && l != (size_t)level))
            continue;
        if (b > best)   /* the last level is the largest */
            best = b;
    }
#if defined(_SC_LEVEL2_CACHE_SIZE) && defined(_SC_LEVEL3_CACHE_SIZE)
    if (!best) {
        long s = sysconf(level == 2 ? _SC_LEVEL2_CACHE_SIZE : _SC_LEVEL3_CACHE_SIZE);
        best = s > 0 ? (size_t)s : 0;
    }
#endif
    return best ? best : level == 2 ? (size_t)512 << 10 : (size_t)32 << 20;
}

int fpo_stream_worth(size_t bytes, int read_later) {
    const char *e = getenv("FPO_STREAM");
    if (e && (e[0] == '0' || e[0] == '1') && !e[1])
        return e[0] == '1';
    size_t llc = fpo_cache_bytes(0);   /* at open, once per streamed array */
    return bytes >= (read_later ? llc : llc / 4);
}

int fpo_prefetch_rows(void) {
    const char *e = getenv("FPO_PREFETCH_ROWS");
    int n = e && *e ? atoi(e) : 2;
    return n < 0 ? 0 : n > 64 ? 64 : n;
}

int fpo_column_rows_env(void) {
    const char *e = getenv("FPO_COLUMN_ROWS");
    int n = e ? atoi(e) : 0;
    return n > 0 ? n : 0;
}

int fpo_column_rows(size_t l2, int forced, size_t row_bytes, int most) {
    size_t n = forced > 0 ? (size_t)forced : row_bytes ? l2 / 2 / row_bytes : (size_t)most;
    return n < 1 ? 1 : n > (size_t)most ? most : (int)n;
}
