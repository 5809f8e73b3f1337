// Asks the processor to bring memory into its caches ahead of use, without waiting for it.
//
// Swift has no prefetch instruction of its own; an ordinary load waits for the memory as the
// real access would (docs/performance.md, Where the coupled rung's time still goes). A
// prefetch never faults, so an address that is stale by the time it is used costs nothing
// but the wasted line.
#ifndef PUSHSIM_PREFETCH_H
#define PUSHSIM_PREFETCH_H

/// Fetches the cache line holding `address` for reading, into every level of the caches.
static inline __attribute__((always_inline)) void pushsim_prefetch(const void *address) {
    __builtin_prefetch(address, 0, 3);
}

/// Fetches every cache line of the `bytes` bytes from `address` (64-byte lines).
static inline __attribute__((always_inline)) void pushsim_prefetch_range(const void *address, long bytes) {
    const char *p = (const char *)address;
    for (long offset = 0; offset < bytes; offset += 64) { __builtin_prefetch(p + offset, 0, 3); }
}

#endif
