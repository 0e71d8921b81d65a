/* error.c: takes a status and a printf message, gives the filled fpo_halo_error; direction names. */
#include <stdarg.h>
#include <stdio.h>

#include "halo_internal.h"

fpo_halo_status hx_fail(fpo_halo_error *err, fpo_halo_status code, const char *fmt, ...)
{
    if (err) {
        va_list ap;
        va_start(ap, fmt);
        err->code = code;
        vsnprintf(err->msg, sizeof err->msg, fmt, ap);
        va_end(ap);
    }
    return code;
}

const char *fpo_halo_dir_name(fpo_halo_dir dir)
{
    static const char *const names[8] = {"W", "E", "S", "N", "SW", "SE", "NW", "NE"};
    return (unsigned)dir < 8 ? names[dir] : "?";
}
