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

#endif
