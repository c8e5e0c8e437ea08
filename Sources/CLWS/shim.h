/*
 * CLWS: the libwebsockets 4.1 C API for Swift, plus a few static inline
 * helpers for things Swift cannot import (function-like macros, option bits
 * built from shifts, a timer container with an owner pointer).
 *
 * Every helper here is a thin one-liner; the thread rules of libwebsockets
 * apply unchanged (only lws_cancel_service may be called off the loop thread).
 */
#ifndef CLWS_SHIM_H
#define CLWS_SHIM_H

#include <libwebsockets.h>
#include <ev.h>
#include <stddef.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>
#include <sys/resource.h>
#include <errno.h>
#if defined(__linux__)
#include <sys/prctl.h>
#endif

/* LWS_PRE: headroom lws needs in front of every ws payload it writes. */
static inline size_t clws_pre(void) { return LWS_PRE; }

/* Context option bits (macros built from shifts). */
static inline uint64_t clws_option_validate_utf8(void) { return LWS_SERVER_OPTION_VALIDATE_UTF8; }
static inline uint64_t clws_option_disable_ipv6(void) { return LWS_SERVER_OPTION_DISABLE_IPV6; }
static inline uint64_t clws_option_fail_upon_unable_to_bind(void) { return LWS_SERVER_OPTION_FAIL_UPON_UNABLE_TO_BIND; }
/* TLS (lws built with OpenSSL): initialise it for this context's vhosts. */
static inline uint64_t clws_option_ssl_global_init(void) { return LWS_SERVER_OPTION_DO_SSL_GLOBAL_INIT; }
static inline int clws_port_no_listen_server(void) { return CONTEXT_PORT_NO_LISTEN_SERVER; }
/* Client: send the Origin header as given (lws would prefix "http://"). */
static inline uint64_t clws_option_just_use_raw_origin(void) { return LWS_SERVER_OPTION_JUST_USE_RAW_ORIGIN; }

/* lws_rx_flow_control argument: 1 = read, 0 = pause; applied at once. */
static inline int clws_rxflow(int enable) { return (enable ? 1 : 0) | LWS_RXFLOW_REASON_FLAG_PROCESS_NOW; }

/* Port value meaning "this context does not listen" (client contexts). */
static inline int clws_port_no_listen(void) { return CONTEXT_PORT_NO_LISTEN; }

/*
 * TCP_NOTSENT_LOWAT: cap unsent bytes queued in the kernel so a slow reader
 * keeps getting only fresh frames. Returns 0 or -1 (errno set); callers ignore failure.
 */
static inline int clws_set_notsent_lowat(int fd, int bytes) {
#ifdef TCP_NOTSENT_LOWAT
    return setsockopt(fd, IPPROTO_TCP, TCP_NOTSENT_LOWAT, &bytes, sizeof(bytes));
#else
    (void)fd; (void)bytes; errno = ENOTSUP; return -1;
#endif
}

/* Raise the soft RLIMIT_NOFILE to the hard limit; returns the new soft limit or -1. */
static inline long clws_raise_nofile_limit(void) {
    struct rlimit rl;
    if (getrlimit(RLIMIT_NOFILE, &rl) != 0) return -1;
    if (rl.rlim_cur < rl.rlim_max) {
        rl.rlim_cur = rl.rlim_max;
        if (setrlimit(RLIMIT_NOFILE, &rl) != 0) return -1;
    }
    return (long)rl.rlim_cur;
}

/* Name the calling thread (shows in top/gdb); best effort, Linux only. */
static inline void clws_set_thread_name(const char *name) {
#if defined(__linux__)
    prctl(PR_SET_NAME, name, 0, 0, 0);
#else
    (void)name;
#endif
}

/*
 * A sorted-usec-list entry with an owner pointer: lws calls back with the
 * sul pointer, which is the first member, so the owner is found from it.
 */
struct clws_timer {
    lws_sorted_usec_list_t sul;
    void *owner;
};

static inline void *clws_timer_owner(lws_sorted_usec_list_t *sul) {
    return ((struct clws_timer *)sul)->owner;
}

/* Connection ids travel through lws as opaque user data (pointer-sized). */
static inline void clws_set_id(struct lws *wsi, uint64_t id) {
    lws_set_opaque_user_data(wsi, (void *)(uintptr_t)id);
}
static inline uint64_t clws_get_id(struct lws *wsi) {
    return (uint64_t)(uintptr_t)lws_get_opaque_user_data(wsi);
}

/*
 * libev as lws's event loop (lws loads its libev plugin when the context
 * has LWS_SERVER_OPTION_LIBEV). lws's built-in loop calls poll() over every
 * fd on each wakeup, O(connections); libev's epoll backend is O(ready fds).
 * The loop is "foreign": the loop thread creates it, runs it one iteration at
 * a time and destroys it after lws_context_destroy.
 */
static inline uint64_t clws_option_libev(void) { return LWS_SERVER_OPTION_LIBEV; }
/* A new libev loop using epoll (Linux), else libev's best backend; NULL on failure. */
static inline void *clws_ev_loop_new(void) {
    struct ev_loop *loop = ev_loop_new(EVBACKEND_EPOLL | EVFLAG_NOSIGMASK);
    if (!loop) loop = ev_loop_new(EVFLAG_AUTO | EVFLAG_NOSIGMASK);
    return loop;
}
/* One iteration: waits for at least one event (fd, timer, idle), runs its watchers. */
static inline int clws_ev_run_once(void *loop) { return ev_run((struct ev_loop *)loop, EVRUN_ONCE); }
static inline void clws_ev_loop_destroy(void *loop) { ev_loop_destroy((struct ev_loop *)loop); }
/* The backend libev picked, for logs and tests: "epoll", "poll", "select" or "other". */
static inline const char *clws_ev_backend_name(void *loop) {
    switch (ev_backend((struct ev_loop *)loop)) {
    case EVBACKEND_EPOLL: return "epoll";
    case EVBACKEND_POLL: return "poll";
    case EVBACKEND_SELECT: return "select";
    default: return "other";
    }
}

/*
 * A libev timer with an owner pointer (the watcher is the first member, so the
 * callback finds the owner from it). Loop thread only, like every watcher.
 */
typedef void (*clws_ev_timer_cb)(void *owner);
struct clws_ev_timer {
    ev_timer watcher;
    void *owner;
    clws_ev_timer_cb cb;
};
static inline void clws_ev_timer_fired(struct ev_loop *loop, ev_timer *w, int revents) {
    (void)loop; (void)revents;
    struct clws_ev_timer *t = (struct clws_ev_timer *)w;
    t->cb(t->owner);
}
static inline void clws_ev_timer_init(struct clws_ev_timer *t, void *owner, clws_ev_timer_cb cb) {
    ev_timer_init(&t->watcher, clws_ev_timer_fired, 0., 0.);
    t->owner = owner;
    t->cb = cb;
}
/* (Re)starts the timer to fire once after `seconds` (measured from now, not from the loop's cached time). */
static inline void clws_ev_timer_start(void *loop, struct clws_ev_timer *t, double seconds) {
    struct ev_loop *l = (struct ev_loop *)loop;
    ev_timer_stop(l, &t->watcher);
    ev_now_update(l);
    ev_timer_set(&t->watcher, seconds < 0 ? 0. : seconds, 0.);
    ev_timer_start(l, &t->watcher);
}
static inline void clws_ev_timer_stop(void *loop, struct clws_ev_timer *t) {
    ev_timer_stop((struct ev_loop *)loop, &t->watcher);
}

/*
 * A socket accepted but not yet given to lws, watched until it is readable
 * (its request has begun to arrive) or `seconds` pass, whichever is first;
 * then `cb(owner, fd, readable)` runs once and both watchers are stopped. The
 * caller peeks at what arrived (MSG_PEEK) and never reads it: lws reads the
 * whole request once a loop adopts the socket. Loop thread only.
 */
typedef void (*clws_ev_peek_cb)(void *owner, int fd, int readable);
struct clws_ev_peek {
    ev_io io;
    ev_timer deadline;
    void *owner;
    clws_ev_peek_cb cb;
};
static inline void clws_ev_peek_end(struct ev_loop *loop, struct clws_ev_peek *p, int readable) {
    ev_io_stop(loop, &p->io);
    ev_timer_stop(loop, &p->deadline);
    p->cb(p->owner, p->io.fd, readable);
}
static inline void clws_ev_peek_readable(struct ev_loop *loop, ev_io *w, int revents) {
    (void)revents;
    clws_ev_peek_end(loop, (struct clws_ev_peek *)w, 1);
}
static inline void clws_ev_peek_expired(struct ev_loop *loop, ev_timer *w, int revents) {
    (void)revents;
    clws_ev_peek_end(loop, (struct clws_ev_peek *)((char *)w - offsetof(struct clws_ev_peek, deadline)), 0);
}
static inline void clws_ev_peek_start(void *loop, struct clws_ev_peek *p, int fd, double seconds, void *owner, clws_ev_peek_cb cb) {
    struct ev_loop *l = (struct ev_loop *)loop;
    p->owner = owner;
    p->cb = cb;
    ev_io_init(&p->io, clws_ev_peek_readable, fd, EV_READ);
    ev_timer_init(&p->deadline, clws_ev_peek_expired, seconds, 0.);
    ev_now_update(l);
    ev_io_start(l, &p->io);
    ev_timer_start(l, &p->deadline);
}
/* Stops both watchers without calling back (shutdown). */
static inline void clws_ev_peek_stop(void *loop, struct clws_ev_peek *p) {
    ev_io_stop((struct ev_loop *)loop, &p->io);
    ev_timer_stop((struct ev_loop *)loop, &p->deadline);
}
/* Up to `capacity` bytes of what has arrived on `fd`, left unread; -1 when none yet or on error. */
static inline long clws_peek(int fd, void *buffer, size_t capacity) {
    return recv(fd, buffer, capacity, MSG_PEEK | MSG_DONTWAIT);
}

#endif
