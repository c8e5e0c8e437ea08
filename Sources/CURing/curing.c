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

/* Prepares up to a ring-full of sends (skipping those with fd < 0), submits
 * them with one io_uring_enter and collects their completions (already
 * there: MSG_DONTWAIT completes every send inline), until all are done. */
int curing_send_all(curing_ring *ring, const struct curing_send *sends, int32_t *results, unsigned count) {
    const int flags = MSG_DONTWAIT | MSG_NOSIGNAL;
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
            round++;
        }
        if (round == 0) break;
        int submitted = io_uring_submit(ring);
        if (submitted > 0) {
            struct io_uring_cqe *cqe;
            int waited = io_uring_wait_cqe_nr(ring, &cqe, (unsigned)submitted);
            if (waited < 0) return waited;
            unsigned head, seen = 0;
            io_uring_for_each_cqe(ring, head, cqe) {
                results[io_uring_cqe_get_data64(cqe)] = cqe->res;
                seen++;
            }
            io_uring_cq_advance(ring, seen);
        }
        if (submitted != (int)round) return submitted < 0 ? submitted : -EIO;
    }
    return 0;
}
