// A stand-in for NVSHMEM's host library (libnvshmem_host.so.3) for machines
// without NVSHMEM: it exports the entry points the runtime looks up, so that
// tests can check discovery, loading and tile-run's launches. Everything
// that would need a GPU or other PEs fails with status 1 (or returns null);
// nvshmemx_get_uniqueid hands out a fixed id.

#include <stddef.h>
#include <string.h>

typedef struct {
  int version;
  char internal[124];
} uniqueid_t;

int nvshmemx_get_uniqueid(uniqueid_t *id) {
  memset(id->internal, 0x5a, sizeof(id->internal));
  return 0;
}
int nvshmemx_set_attr_uniqueid_args(const int rank, const int size,
                                    const uniqueid_t *id, void *attr) {
  (void)rank, (void)size, (void)id, (void)attr;
  return 0;
}
int nvshmemx_hostlib_init_attr(unsigned flags, void *attr) {
  (void)flags, (void)attr;
  return 1;
}
void nvshmemx_hostlib_finalize(void) {}
int nvshmemx_init_status(void) { return 0; }
int nvshmem_my_pe(void) { return -1; }
int nvshmem_n_pes(void) { return 0; }
void *nvshmem_malloc(size_t bytes) {
  (void)bytes;
  return NULL;
}
void nvshmem_free(void *ptr) { (void)ptr; }
void nvshmem_barrier_all(void) {}
void nvshmemx_barrier_all_on_stream(void *stream) { (void)stream; }
void *nvshmem_ptr(const void *dest, int pe) {
  (void)pe;
  return (void *)(size_t)dest;
}
void nvshmemx_putmem_signal_on_stream(void *dest, const void *source,
                                      size_t bytes, unsigned long long *signal,
                                      unsigned long long value, int sig_op,
                                      int pe, void *stream) {
  (void)dest, (void)source, (void)bytes, (void)signal, (void)value;
  (void)sig_op, (void)pe, (void)stream;
}
void nvshmemx_signal_wait_until_on_stream(unsigned long long *signal, int cmp,
                                          unsigned long long value,
                                          void *stream) {
  (void)signal, (void)cmp, (void)value, (void)stream;
}
int nvshmemx_cumodule_init(void *module) {
  (void)module;
  return 1;
}
int nvshmemx_cumodule_finalize(void *module) {
  (void)module;
  return 1;
}
void nvshmemx_vendor_get_version_info(int *major, int *minor, int *patch) {
  *major = 0, *minor = 0, *patch = 0;
}
