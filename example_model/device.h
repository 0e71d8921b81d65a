/* device.h: host arrays to their copies in the memory a program's fields live in on the CUDA
 * back end: device_cuda.c (the CUDA runtime) where the program has that back end, device_host.c
 * (host memory kept apart) where it is emulated or missing (the program's open then refuses
 * the back end). The models' drivers (model.c, sw_model_main.c) use them. */
#ifndef EM_DEVICE_H
#define EM_DEVICE_H

#include <stddef.h>

#include <mpi.h>

#include "em.h"

/* Collective over comm: each rank takes a device of its node, rank r of the node's ranks
 * device r mod (the devices it sees: CUDA_VISIBLE_DEVICES may narrow them), before its
 * arrays are allocated and its program opened; `where` says which, for rank 0 to print.
 * Refuses where no device can be used. */
em_status em_dev_ready(MPI_Comm comm, char *where, size_t size, em_error *err);
em_status em_dev_alloc(void **dev, size_t bytes, em_error *err);
em_status em_dev_put(void *dev, const void *host, size_t bytes, em_error *err);
em_status em_dev_get(void *host, const void *dev, size_t bytes, em_error *err);
void em_dev_free(void *dev);

#endif
