/*
 * CTCPProgress: what a TCP peer has acknowledged, and what still waits for it,
 * read from Linux's TCP_INFO. The fields this needs (bytes acknowledged, bytes
 * not yet sent) are newer than glibc's <netinet/tcp.h> copy of the struct, and
 * <linux/tcp.h>, which has them, cannot share a translation unit with the
 * headers libwebsockets includes: so they are read here, in a C file of their
 * own, behind a header that names no system type.
 */
#ifndef CTCP_PROGRESS_H
#define CTCP_PROGRESS_H

#include <stdint.h>

struct ctcp_progress {
    /* Bytes of this connection the peer has acknowledged, since it opened. */
    uint64_t bytes_acked;
    /* Segments sent and not yet acknowledged. */
    uint32_t unacked_segments;
    /* Bytes written to the socket and not yet sent (the peer's window is shut, or congestion). */
    uint32_t notsent_bytes;
};

/* Fills `out` for TCP socket `fd`. 0, or -1 with errno set (not a TCP
 * socket; ENOTSUP on a kernel older than Linux 4.6, which lacks the fields). */
int ctcp_progress_read(int fd, struct ctcp_progress *out);

/* SO_SNDBUF: caps the kernel's send buffer of `fd` at `bytes` (the kernel
 * doubles it for its own bookkeeping, and turns its autotuning off). 0 or -1. */
int ctcp_set_send_buffer(int fd, int bytes);

#endif
