// hiredis 0.14 (Debian libhiredis-dev) with its libev adapter, on a libev loop
// of its own (Debian libev-dev), plus static inline helpers for what Swift
// cannot reach: libev's macro-only watcher API and hiredis' context flags.
#ifndef CAMHUB_CHIREDIS_SHIM_H
#define CAMHUB_CHIREDIS_SHIM_H
#include <stdlib.h>
#include <ev.h>
#include <hiredis/hiredis.h>
#include <hiredis/async.h>
#include <hiredis/adapters/libev.h>

typedef void (*chiredis_fn)(void *data);

static inline struct ev_loop *chiredis_loop_new(void) { return ev_loop_new(EVBACKEND_EPOLL | EVFLAG_NOENV); }
static inline void chiredis_loop_run(struct ev_loop *loop) { ev_run(loop, 0); }
static inline void chiredis_loop_break(struct ev_loop *loop) { ev_break(loop, EVBREAK_ALL); }
static inline void chiredis_loop_destroy(struct ev_loop *loop) { ev_loop_destroy(loop); }

static inline int chiredis_attach(struct ev_loop *loop, redisAsyncContext *ac) { return redisLibevAttach(loop, ac); }

/// Every reply on this context goes to the callback of the last command:
/// hiredis 0.14 knows SUBSCRIBE but not Redis 7's SSUBSCRIBE, and would
/// assert on the `smessage` pushes it does not expect. Its MONITOR mode
/// passes each unexpected reply to the previous callback instead.
static inline void chiredis_route_all_replies(redisAsyncContext *ac) { ac->c.flags |= REDIS_MONITORING; }

static inline int chiredis_err(const redisAsyncContext *ac) { return ac->err; }
static inline const char *chiredis_errstr(const redisAsyncContext *ac) { return ac->errstr; }
static inline void *chiredis_data(const redisAsyncContext *ac) { return ac->data; }
static inline void chiredis_set_data(redisAsyncContext *ac, void *data) { ac->data = data; }

/// A read watcher on `fd` calling `fn(data)` (the wake-up pipe).
struct chiredis_io { ev_io io; chiredis_fn fn; void *data; };
static inline void chiredis_io_cb(struct ev_loop *loop, ev_io *w, int revents) {
    (void)loop; (void)revents;
    struct chiredis_io *x = (struct chiredis_io *)w;
    x->fn(x->data);
}
static inline struct chiredis_io *chiredis_io_start(struct ev_loop *loop, int fd, chiredis_fn fn, void *data) {
    struct chiredis_io *x = (struct chiredis_io *)calloc(1, sizeof *x);
    x->fn = fn; x->data = data;
    ev_io_init(&x->io, chiredis_io_cb, fd, EV_READ);
    ev_io_start(loop, &x->io);
    return x;
}
static inline void chiredis_io_stop(struct ev_loop *loop, struct chiredis_io *x) { ev_io_stop(loop, &x->io); free(x); }

/// A repeating timer calling `fn(data)` every `seconds`.
struct chiredis_timer { ev_timer timer; chiredis_fn fn; void *data; };
static inline void chiredis_timer_cb(struct ev_loop *loop, ev_timer *w, int revents) {
    (void)loop; (void)revents;
    struct chiredis_timer *x = (struct chiredis_timer *)w;
    x->fn(x->data);
}
static inline struct chiredis_timer *chiredis_timer_start(struct ev_loop *loop, double seconds, chiredis_fn fn, void *data) {
    struct chiredis_timer *x = (struct chiredis_timer *)calloc(1, sizeof *x);
    x->fn = fn; x->data = data;
    ev_timer_init(&x->timer, chiredis_timer_cb, seconds, seconds);
    ev_timer_start(loop, &x->timer);
    return x;
}
static inline void chiredis_timer_stop(struct ev_loop *loop, struct chiredis_timer *x) { ev_timer_stop(loop, &x->timer); free(x); }
#endif
