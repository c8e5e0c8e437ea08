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

/* results[i] of a send that neither completed nor could be cancelled
 * (curing_send_all returned CURING_STUCK): the kernel may still send it, so
 * nothing more may be written to that socket. */
#define CURING_PENDING (INT32_MIN + 1)
static inline int32_t curing_pending(void) { return CURING_PENDING; }

/* A ring with `entries` submission slots, or NULL (errno set) when the
 * kernel refuses io_uring (too old, kernel.io_uring_disabled, seccomp). */
curing_ring *curing_ring_new(unsigned entries);

void curing_ring_free(curing_ring *ring);

/* How long curing_send_all waits for the completions of a submitted round
 * before it cancels the sends still outstanding (µs). */
#define CURING_WAIT_US 2000u

/* curing_send_all's answer when sends it cancelled did not complete either:
 * the kernel may still read their bytes, which the caller must then keep for
 * as long as the ring lives, and the ring must not be used again. */
#define CURING_STUCK (-115) /* -EINPROGRESS */
static inline int curing_stuck(void) { return CURING_STUCK; }

/*
 * Sends each of `count` messages once (but those with fd < 0, whose result
 * is CURING_NOT_SENT), without blocking, and stores in
 * results[i] what send(2) would have returned for sends[i]: the bytes taken
 * (possibly fewer than asked), or -errno (-EAGAIN when the socket's buffer is
 * full). One io_uring_enter per ring-full of sends instead of one send(2)
 * each.
 *
 * Never waits for a socket: with MSG_DONTWAIT io_uring answers a send that
 * would block with -EAGAIN at once instead of arming a poll, so every
 * completion is there when the submission returns. Should a kernel queue a
 * send all the same, it is given CURING_WAIT_US, then cancelled (its result
 * CURING_NOT_SENT: nothing of it was taken). Every send has completed when
 * this returns 0 or -errno, so no buffer is referenced afterwards.
 *
 * Returns 0; -errno when the kernel refused a submission (then the sends it
 * did not take have results[i] == CURING_NOT_SENT, and the ring must not be
 * used again: entries it left queued would go out on the next submit); or
 * CURING_STUCK (see there).
 */
int curing_send_all(curing_ring *ring, const struct curing_send *sends, int32_t *results, unsigned count);

/* curing_send_all with the send(2) `flags` and the wait given: for tests,
 * which leave MSG_DONTWAIT out to have the kernel queue a send. */
int curing_send_all_flags(curing_ring *ring, const struct curing_send *sends, int32_t *results, unsigned count, int flags,
                          unsigned wait_us);

#endif
