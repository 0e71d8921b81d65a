/* device.h: host arrays to their copies in the memory a program's fields live in on the CUDA
 * back end: device_cuda.c (the CUDA runtime) where the program has that back end, device_host.c
 * (host memory kept apart) where it is emulated or missing (the program's open then refuses
 * the back end). The models' drivers (model.c, sw_model_main.c) use them. */
#ifndef EM_DEVICE_H
#define EM_DEVICE_H

#include <stddef.h>

#include "em.h"

em_status em_dev_ready(em_error *err);   /* refuses where no device can be used */
em_status em_dev_alloc(void **dev, size_t bytes, em_error *err);
em_status em_dev_put(void *dev, const void *host, size_t bytes, em_error *err);
em_status em_dev_get(void *host, const void *dev, size_t bytes, em_error *err);
void em_dev_free(void *dev);

#endif
