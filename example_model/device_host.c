/* device_host.c: takes a model's host arrays, gives their copies as the emulated CUDA back end
 * sees device memory (host memory, kept apart so that the copies are checked too), or as a build
 * without the CUDA back end has them (the program's open then refuses the back end). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "device.h"

em_status em_dev_ready(MPI_Comm comm, char *where, size_t size, em_error *err) {
    (void)comm, (void)err;
    snprintf(where, size, "none (emulated: device memory is host memory)");
    return EM_OK;
}

em_status em_dev_alloc(void **dev, size_t bytes, em_error *err) {
    if (!(*dev = malloc(bytes ? bytes : 1))) {
        snprintf(err->msg, sizeof err->msg, "device memory: out of memory");
        return EM_ENOMEM;
    }
    return EM_OK;
}

em_status em_dev_put(void *dev, const void *host, size_t bytes, em_error *err) {
    (void)err;
    memcpy(dev, host, bytes);
    return EM_OK;
}

em_status em_dev_get(void *host, const void *dev, size_t bytes, em_error *err) {
    (void)err;
    memcpy(host, dev, bytes);
    return EM_OK;
}

void em_dev_free(void *dev) { free(dev); }
