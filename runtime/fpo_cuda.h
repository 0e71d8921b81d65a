/* fpo_cuda.h: what the CUDA back end's generated code calls on the host: a program's device
 * state (its stream, its pool of temporaries, the CUDA graph of its last run), the checks open
 * makes, and launch errors. C declarations; runtime/cuda.cu implements them with the CUDA
 * runtime (library fpo_runtime_cuda), runtime/cuda_emu.c on the host for the emulated build
 * (fpo_runtime_cuda_emu: kernels run as loops, for checking without a GPU). */
#ifndef FPO_CUDA_H
#define FPO_CUDA_H

#include "fpo_runtime.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct fpo_cuda fpo_cuda;

/* A program's device state on the current device (the program's device from then on): its
 * stream is `stream` (a cudaStream_t of the caller's, kept open by the caller), or where that
 * is NULL one of its own; where `streams` is 2, a second stream for fpo_cuda_fork (made here,
 * not inside a run's capture). Refused (FPO_EMISMATCH) where no CUDA device can be used,
 * naming the reason, or where a block of the program's kernels asks for more dynamic shared
 * memory (`shared` bytes, 0: none) than the device gives one. */
fpo_status fpo_cuda_open(fpo_cuda **out, const char *program, int shared, int streams,
                         void *stream, fpo_error *err);
/* Open's check that a block of the program's kernels gets the dynamic shared memory they ask
 * for (`shared` bytes, 0: none) on device `dev`, which gives a block at most `most`:
 * FPO_EMISMATCH naming CUDA_SHARED where it does not. */
fpo_status fpo_cuda_check_shared(const char *program, int shared, int dev, int most,
                                 fpo_error *err);
/* Frees the pool, the graphs and the program's own stream (a caller's stays the caller's);
 * NULL is allowed. */
void fpo_cuda_close(fpo_cuda *c);

/* The pool of temporaries: `bytes` of device memory, zeroed, freed by fpo_cuda_close (and
 * after them the FPO_CUDA_RECORD bytes of fpo_cuda_record). */
fpo_status fpo_cuda_pool(fpo_cuda *c, size_t bytes, void **pool, const char *program,
                         fpo_error *err);

/* A field given to the CUDA back end must be in device memory of the program's device, or
 * in managed memory. */
fpo_status fpo_cuda_check_field(const fpo_cuda *c, const fpo_field *f, const char *program,
                                const char *name, fpo_error *err);

/* The stream a program's kernels run on (a cudaStream_t; NULL in the emulated build). */
void *fpo_cuda_stream(const fpo_cuda *c);
/* A run's walks beside its segments (fpo-gen --cuda-chunks): fpo_cuda_fork sends the launches
 * after it to the program's second stream, after all the program's stream holds so far;
 * fpo_cuda_back sends them to the program's stream again; fpo_cuda_join makes the program's
 * stream wait for all the second stream holds. Kernels are launched on fpo_cuda_launch_stream.
 * Where the second stream cannot be made, every launch stays on the program's stream (the
 * same results, one after another). */
void fpo_cuda_fork(fpo_cuda *c);
void fpo_cuda_back(fpo_cuda *c);
void fpo_cuda_join(fpo_cuda *c);
void *fpo_cuda_launch_stream(const fpo_cuda *c);
/* Queue the program's next runs after the work queued on `stream` (a cudaStream_t of the
 * program's device) so far: its stream waits for an event recorded there; the host does not
 * wait. Nothing where `stream` is the program's own stream, and in the emulated build. */
fpo_status fpo_cuda_after(fpo_cuda *c, void *stream, const char *program, fpo_error *err);
/* Make the program's device the calling thread's current one, for a run, wait or close from
 * a thread whose current device is another; returns what fpo_cuda_leave takes to make that
 * one current again. */
int fpo_cuda_enter(const fpo_cuda *c);
void fpo_cuda_leave(const fpo_cuda *c, int entered);
/* 1 where the back end's "device" memory is a CUDA device's; 0 in the emulated build, whose
 * fields are host memory (halo exchanges then pack on the host). */
int fpo_cuda_device_memory(const fpo_cuda *c);

/* A run is captured as a CUDA graph the first time and replayed after, as long as run's scalar
 * arguments (`key`, their bytes) and the fields stay the same:
 *   if (fpo_cuda_replay(c, key, n)) -> the graph was launched;
 *   else if (fpo_cuda_capture(c)) { launches...; fpo_cuda_captured(c, key, n) -> launched }
 *   else plain launches.
 * Where the caller is capturing the stream itself (the run becomes part of the caller's graph)
 * nothing is replayed or captured: the kernels are launched plainly, into the caller's
 * capture. */
int fpo_cuda_replay(fpo_cuda *c, const void *key, size_t n);
int fpo_cuda_capture(fpo_cuda *c);
int fpo_cuda_captured(fpo_cuda *c, const void *key, size_t n);
/* The graphs are kept for each binding of the program's fields (`fields`, the n bytes of its
 * fields struct, given by open and each bind), up to FPO_CUDA_BINDINGS of them: a run after a
 * bind replays the graphs captured on those fields before (double buffering, two bindings
 * taking turns, captures twice in all); a further binding takes the place of the one used
 * longest ago, whose graphs are forgotten. */
enum { FPO_CUDA_BINDINGS = 4 };
void fpo_cuda_bind(fpo_cuda *c, const void *fields, size_t n);
/* How many graphs the program holds (0 in the emulated build, which captures nothing). */
int fpo_cuda_graphs(const fpo_cuda *c);

/* A binding's bytes, and when it was last bound (bindings.c). */
typedef struct fpo_cuda_slot {
    unsigned char *fields;   /* NULL: empty */
    size_t n;
    unsigned long long used;
} fpo_cuda_slot;
/* The slot of `fields` (n bytes) among `slots`: the one holding the same bytes, else an empty
 * one, else the one used longest ago (*evicted = 1: the graphs it held are to be forgotten);
 * it then holds the bytes (or stays empty where they could not be copied) and `now`. */
int fpo_cuda_binding(fpo_cuda_slot *slots, int nslots, const void *fields, size_t n,
                     unsigned long long now, int *evicted);
void fpo_cuda_bindings_free(fpo_cuda_slot *slots, int nslots);

/* A run with halo exchanges or host callbacks (MPI or the host takes part in it) captures
 * each stretch of kernels between them that is not inside a loop or an `if` as a graph of its
 * own, the first time, and replays it after while run's scalar arguments (`key`, their bytes)
 * and the fields stay the same:
 *   fpo_cuda_stretches(c, key, n);   at the start of each run
 *   if (!fpo_cuda_stretch(c, s)) do { launches...; } while (!fpo_cuda_stretch_end(c, s));
 * fpo_cuda_stretch: 1 where stretch s's graph was launched; else 0, its capture begun where it
 * can be (the first FPO_CUDA_STRETCHES stretches, keys of at most FPO_CUDA_KEY bytes).
 * fpo_cuda_stretch_end: 1 once the stretch's kernels are queued (its graph launched, or its
 * kernels launched plainly); 0 where its capture failed: launch them again, plainly (it is not
 * captured again until the graphs are forgotten). */
enum { FPO_CUDA_STRETCHES = 64, FPO_CUDA_KEY = 256 };
void fpo_cuda_stretches(fpo_cuda *c, const void *key, size_t n);
int fpo_cuda_stretch(fpo_cuda *c, int s);
int fpo_cuda_stretch_end(fpo_cuda *c, int s);

/* Before a launch with `bytes` of dynamic shared memory (over the 48 KB a block has without
 * asking): raise kernel `kern`'s limit to them on the program's device, unless `raised` (the
 * launch site's mask of devices, bit d for device d < 64) says it was. A failure is the
 * launch's (fpo_cuda_launched reports it). */
void fpo_cuda_shared_limit(const fpo_cuda *c, const void *kern, int bytes,
                           unsigned long long *raised);
/* After each launch: records the first failed one (`what`: the stencil and its .fpo line). */
void fpo_cuda_launched(fpo_cuda *c, const char *what);
/* The first launch error since the last call (then forgotten), as a status and message. */
fpo_status fpo_cuda_status(fpo_cuda *c, const char *program, fpo_error *err);
/* Wait for the work queued on the program's stream; report what failed in it. */
fpo_status fpo_cuda_wait(fpo_cuda *c, const char *program, fpo_error *err);

/* --instrument on the CUDA back end. fpo_cuda_find: the first point of the box [i0, i1) x [j0,
 * j1) x [k0, k1) of f (device memory) holding a NaN (FPO_CUDA_NAN) or a negative value
 * (FPO_CUDA_NEGATIVE), in the C back end's search order (k, then j, then i): 1 and its index
 * in `at`, else 0. fpo_cuda_value: f at (i, j, k). fpo_cuda_check (cuda-check): after a
 * launch, waits for the stream; 1 when that launch or one before it failed (fpo_cuda_status
 * then names `what`). Each waits for the work queued before it. */
enum { FPO_CUDA_NAN = 0, FPO_CUDA_NEGATIVE = 1 };
int fpo_cuda_find(fpo_cuda *c, int test, const fpo_field *f, int64_t i0, int64_t i1, int64_t j0,
                  int64_t j1, int64_t k0, int64_t k1, int64_t at[3]);
double fpo_cuda_value(fpo_cuda *c, const fpo_field *f, int64_t i, int64_t j, int64_t k);
int fpo_cuda_check(fpo_cuda *c, const char *what);
/* --instrument bounds: a record of `bytes` (at most FPO_CUDA_RECORD) in device memory, zeroed
 * at open, that the kernels write the first read of a level outside its field's into (the
 * generated fpo_kbad_): the pool's last bytes, so run allocates nothing (NULL: no pool, or too
 * many bytes); fpo_cuda_record_take waits for the work queued before it, copies the record to
 * `out` and zeroes it again (0 where it cannot). */
enum { FPO_CUDA_RECORD = 64 };
void *fpo_cuda_record(fpo_cuda *c, size_t bytes);
int fpo_cuda_record_take(fpo_cuda *c, void *out, size_t bytes);

#ifdef __cplusplus
}
#endif

#endif
