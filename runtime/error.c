/* error.c: fpo_fail, which fills an fpo_error with a status code and a formatted message. */
#include <stdarg.h>
#include <stdio.h>

#include "fpo_runtime.h"

fpo_status fpo_fail(fpo_error *err, fpo_status code, const char *fmt, ...) {
    if (err) {
        va_list ap;
        va_start(ap, fmt);
        err->code = code;
        vsnprintf(err->msg, sizeof err->msg, fmt, ap);
        va_end(ap);
    }
    return code;
}
