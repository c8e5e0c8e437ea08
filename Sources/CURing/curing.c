/*
 * CURing: the server's batched frame sends over liburing (Debian
 * `liburing-dev`). A ring belongs to the one thread that created it (a
 * server loop thread); nothing here locks. See include/curing.h.
 */
#include "curing.h"

#include <liburing.h>
#include <stdlib.h>
#include <errno.h>
#include <limits.h>
#include <sys/socket.h>

curing_ring *curing_ring_new(unsigned entries) {
    struct io_uring *ring = malloc(sizeof *ring);
    if (!ring) return NULL;
    int ret = io_uring_queue_init(entries, ring, 0);
    if (ret < 0) {
        free(ring);
        errno = -ret;
        return NULL;
    }
    return ring;
}

void curing_ring_free(curing_ring *ring) {
    if (!ring) return;
    io_uring_queue_exit(ring);
    free(ring);
}

/* The user data of a cancellation's own completion (sends carry their index). */
#define CURING_CANCEL_TAG UINT64_MAX
/* How long the cancellations of queued sends may take to complete. */
#define CURING_CANCEL_WAIT_US 100000u

/* Stores the results of the completions there are now (without waiting) and
 * returns how many sends they answered. A send that was cancelled was not
 * taken: CURING_NOT_SENT. */
static unsigned reap(struct io_uring *ring, int32_t *results) {
    struct io_uring_cqe *cqe;
    unsigned head, seen = 0, sends = 0;
    io_uring_for_each_cqe(ring, head, cqe) {
        uint64_t tag = io_uring_cqe_get_data64(cqe);
        if (tag != CURING_CANCEL_TAG) {
            results[tag] = cqe->res == -ECANCELED ? CURING_NOT_SENT : cqe->res;
            sends++;
        }
        seen++;
    }
    io_uring_cq_advance(ring, seen);
    return sends;
}

/* Waits at most `wait_us` for `outstanding` more completions, storing them as
 * they come; returns how many sends are still outstanding. */
static unsigned wait_for(struct io_uring *ring, int32_t *results, unsigned outstanding, unsigned wait_us) {
    outstanding -= reap(ring, results);
    if (outstanding == 0) return 0;
    struct __kernel_timespec ts = {.tv_sec = wait_us / 1000000u, .tv_nsec = (long long)(wait_us % 1000000u) * 1000};
    struct io_uring_cqe *cqe;
    (void)io_uring_wait_cqes(ring, &cqe, outstanding, &ts, NULL); /* -ETIME: what came is reaped below */
    return outstanding - reap(ring, results);
}

/* Prepares up to a ring-full of sends (skipping those with fd < 0), submits
 * them with one io_uring_enter and collects their completions: with
 * MSG_DONTWAIT they are there at once. A send still outstanding after
 * `wait_us` (a kernel that queued it instead) is cancelled, so the loop
 * never waits for a socket. */
int curing_send_all_flags(curing_ring *ring, const struct curing_send *sends, int32_t *results, unsigned count, int flags,
                          unsigned wait_us) {
    for (unsigned i = 0; i < count; i++) results[i] = CURING_NOT_SENT;
    unsigned next = 0;
    while (next < count) {
        unsigned round = 0;
        struct io_uring_sqe *sqe;
        for (; next < count; next++) {
            const struct curing_send *s = &sends[next];
            if (s->fd < 0) continue;
            if ((sqe = io_uring_get_sqe(ring)) == NULL) break;
            io_uring_prep_send(sqe, s->fd, s->bytes, s->length, flags);
            io_uring_sqe_set_data64(sqe, next);
            results[next] = CURING_PENDING;
            round++;
        }
        if (round == 0) break;
        int submitted = io_uring_submit(ring);
        if (submitted > 0) {
            unsigned outstanding = wait_for(ring, results, (unsigned)submitted, wait_us);
            if (outstanding > 0) {
                /* Queued, not answered: cancel every request of the ring (only these are in flight). */
                if ((sqe = io_uring_get_sqe(ring)) == NULL) return CURING_STUCK;
                io_uring_prep_cancel64(sqe, 0, IORING_ASYNC_CANCEL_ANY);
                io_uring_sqe_set_data64(sqe, CURING_CANCEL_TAG);
                if (io_uring_submit(ring) != 1) return CURING_STUCK;
                if (wait_for(ring, results, outstanding, CURING_CANCEL_WAIT_US) > 0) return CURING_STUCK;
            }
        }
        if (submitted != (int)round) {
            /* What the kernel did not take was never sent. */
            for (unsigned i = 0; i < next; i++) if (results[i] == CURING_PENDING) results[i] = CURING_NOT_SENT;
            return submitted < 0 ? submitted : -EIO;
        }
    }
    return 0;
}

int curing_send_all(curing_ring *ring, const struct curing_send *sends, int32_t *results, unsigned count) {
    return curing_send_all_flags(ring, sends, results, count, MSG_DONTWAIT | MSG_NOSIGNAL, CURING_WAIT_US);
}
