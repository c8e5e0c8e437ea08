/*
 * CURing: batched, non-blocking sends to many sockets through io_uring, for
 * the WebSocket server's frame fan-out (WebSocketTransport's BatchedSends).
 *
 * The header names no liburing type, so Swift modules that also import
 * libwebsockets see no second copy of the system headers.
 */
#ifndef CURING_H
#define CURING_H

#include <stdint.h>

/* An io_uring instance (a `struct io_uring`), opaque to Swift. */
typedef struct io_uring curing_ring;

/* One send of a batch: `length` bytes at `bytes` to socket `fd` (skipped when fd < 0). */
struct curing_send {
    const void *bytes;
    unsigned length;
    int fd;
};

/* results[i] of a send the kernel never took (see curing_send_all). */
#define CURING_NOT_SENT INT32_MIN
static inline int32_t curing_not_sent(void) { return CURING_NOT_SENT; }

/* A ring with `entries` submission slots, or NULL (errno set) when the
 * kernel refuses io_uring (too old, kernel.io_uring_disabled, seccomp). */
curing_ring *curing_ring_new(unsigned entries);

void curing_ring_free(curing_ring *ring);

/*
 * Sends each of `count` messages once (but those with fd < 0, whose result
 * is CURING_NOT_SENT), without blocking, and stores in
 * results[i] what send(2) would have returned for sends[i]: the bytes taken
 * (possibly fewer than asked), or -errno (-EAGAIN when the socket's buffer is
 * full). One io_uring_enter per ring-full of sends instead of one send(2)
 * each.
 *
 * Every send has completed when this returns (MSG_DONTWAIT: io_uring answers
 * a send that would block with -EAGAIN at once instead of arming a poll), so
 * no buffer is referenced afterwards.
 *
 * Returns 0, or -errno when the kernel refused a submission: then the sends
 * it did not take have results[i] == CURING_NOT_SENT, and the ring must not
 * be used again (entries it left queued would go out on the next submit).
 */
int curing_send_all(curing_ring *ring, const struct curing_send *sends, int32_t *results, unsigned count);

#endif
