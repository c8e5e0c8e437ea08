// epoll and eventfd for `camhub bench`'s follower sockets (EpollFollowerClient).
// Glibc's Swift module leaves out sys/epoll.h and sys/eventfd.h, and on x86-64
// `struct epoll_event` is packed, so Swift sees the events through an unpacked
// copy made here.
#include <stdint.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>

enum {
    camhub_epoll_in = EPOLLIN,
    camhub_epoll_out = EPOLLOUT,
    camhub_epoll_err = EPOLLERR,
    camhub_epoll_hup = EPOLLHUP,
};

/// One ready descriptor: the key it was registered with and its event bits.
struct camhub_epoll_ready {
    uint64_t key;
    uint32_t events;
};

/// A new epoll instance (close-on-exec), or -1 with errno set.
static inline int camhub_epoll_create(void) { return epoll_create1(EPOLL_CLOEXEC); }

/// A new non-blocking, close-on-exec eventfd, or -1 with errno set.
static inline int camhub_eventfd(void) { return eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC); }

/// Adds (add != 0) or changes the events `fd` is watched for, with `key` handed back when ready.
static inline int camhub_epoll_watch(int epfd, int fd, int add, uint32_t events, uint64_t key) {
    struct epoll_event event;
    event.events = events;
    event.data.u64 = key;
    return epoll_ctl(epfd, add ? EPOLL_CTL_ADD : EPOLL_CTL_MOD, fd, &event);
}

/// Waits up to `timeout_ms` for at most `max` (≤ 512) ready descriptors; returns
/// how many were written to `ready`, or -1 with errno set.
static inline int camhub_epoll_wait(int epfd, struct camhub_epoll_ready *ready, int max, int timeout_ms) {
    struct epoll_event events[512];
    if (max > 512) max = 512;
    int n = epoll_wait(epfd, events, max, timeout_ms);
    for (int i = 0; i < n; i++) {
        ready[i].key = events[i].data.u64;
        ready[i].events = events[i].events;
    }
    return n;
}
