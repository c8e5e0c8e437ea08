#include "ctcp_progress.h"

#include <errno.h>
#include <stddef.h>
#include <string.h>
#include <sys/socket.h>
#include <netinet/in.h>
#include <linux/tcp.h>

int ctcp_progress_read(int fd, struct ctcp_progress *out) {
    struct tcp_info info;
    socklen_t length = sizeof(info);
    memset(&info, 0, sizeof(info));
    if (getsockopt(fd, IPPROTO_TCP, TCP_INFO, &info, &length) != 0) return -1;
    /* The kernel fills as much of the struct as it knows: it must reach notsent_bytes. */
    if (length < offsetof(struct tcp_info, tcpi_notsent_bytes) + sizeof(info.tcpi_notsent_bytes)) {
        errno = ENOTSUP;
        return -1;
    }
    out->bytes_acked = info.tcpi_bytes_acked;
    out->unacked_segments = info.tcpi_unacked;
    out->notsent_bytes = info.tcpi_notsent_bytes;
    return 0;
}

int ctcp_set_send_buffer(int fd, int bytes) {
    return setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &bytes, sizeof(bytes));
}
