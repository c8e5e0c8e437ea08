/*
 * libwebsockets' own memory per idle WebSocket, without the hub: a server
 * made with the same context and protocol options as camhub's transport
 * (Sources/WebSocketTransport/Server/ServerCallbacks.swift: one protocol with
 * per_session_data_size 0, rx_buffer_size 128, tx_packet_size 1 MiB; lws's
 * keepalive off; FAIL_UPON_UNABLE_TO_BIND, VALIDATE_UTF8, DISABLE_IPV6; on a
 * libev epoll loop of its own, as WebSocketLoop runs it). It accepts
 * WebSockets on any path and answers each message (a follower's `hello`)
 * with `{"type":"welcome"}`, which is what a load client such as
 * scripts/busy_follower waits for before it opens the next connection.
 *
 *   cc -O2 -o lws_idle scripts/lws_idle/lws_idle.c -lwebsockets -lev
 *   ./lws_idle --port 0 --expect 10000
 *
 * Prints "listening on PORT" once bound; then, once --expect connections are
 * open and none opened for a second, one JSON line: the VmRSS before the first
 * connection and now, and their difference per connection (what
 * scripts/bench_lws_idle.sh reads). Runs until SIGTERM/SIGINT.
 */
#include <ev.h>
#include <libwebsockets.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static int open_connections, peak;
static double last_open;
static long rss_before;
static int expect, reported;
static struct lws_context *context;

static long vm_rss_bytes(void) {
    FILE *f = fopen("/proc/self/status", "r");
    char line[256];
    long kb = -1;
    if (!f) return -1;
    while (fgets(line, sizeof line, f))
        if (sscanf(line, "VmRSS: %ld kB", &kb) == 1) break;
    fclose(f);
    return kb * 1024;
}

static double now_seconds(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + t.tv_nsec / 1e9;
}

static int callback(struct lws *wsi, enum lws_callback_reasons reason, void *user, void *in, size_t len) {
    (void)user; (void)in; (void)len;
    switch (reason) {
    case LWS_CALLBACK_ESTABLISHED:
        open_connections++;
        if (open_connections > peak) peak = open_connections;
        last_open = now_seconds();
        break;
    case LWS_CALLBACK_CLOSED:
        open_connections--;
        break;
    case LWS_CALLBACK_RECEIVE:
        lws_callback_on_writable(wsi);
        break;
    case LWS_CALLBACK_SERVER_WRITEABLE: {
        static const char welcome[] = "{\"type\":\"welcome\"}";
        unsigned char buffer[LWS_PRE + sizeof welcome];
        memcpy(buffer + LWS_PRE, welcome, sizeof welcome - 1);
        if (lws_write(wsi, buffer + LWS_PRE, sizeof welcome - 1, LWS_WRITE_TEXT) < 0) return -1;
        break;
    }
    default:
        break;
    }
    return 0;
}

static struct lws_protocols protocols[] = {
    {"clws-default", callback, 0, 128, 0, NULL, 1 << 20},
    {"camhub.v1", callback, 0, 128, 1, NULL, 1 << 20},
    {NULL, NULL, 0, 0, 0, NULL, 0},
};

static void report(struct ev_loop *loop, ev_timer *timer, int revents) {
    (void)loop; (void)timer; (void)revents;
    if (reported || expect <= 0 || open_connections < expect || now_seconds() - last_open < 1.0) return;
    reported = 1;
    long rss = vm_rss_bytes();
    printf("{\"connections\":%d,\"rss_before\":%ld,\"rss_after\":%ld,\"rss_per_connection\":%.1f}\n",
           open_connections, rss_before, rss, (double)(rss - rss_before) / open_connections);
    fflush(stdout);
}

static void stop(struct ev_loop *loop, ev_signal *signal, int revents) {
    (void)signal; (void)revents;
    ev_break(loop, EVBREAK_ALL);
}

int main(int argc, char **argv) {
    int port = 0;
    for (int i = 1; i + 1 < argc; i += 2) {
        if (!strcmp(argv[i], "--port")) port = atoi(argv[i + 1]);
        else if (!strcmp(argv[i], "--expect")) expect = atoi(argv[i + 1]);
        else { fprintf(stderr, "usage: lws_idle [--port N] [--expect N]\n"); return 2; }
    }
    lws_set_log_level(LLL_ERR, NULL);
    struct ev_loop *loop = ev_loop_new(EVBACKEND_EPOLL | EVFLAG_NOSIGMASK);
    void *foreign[] = {loop};
    lws_retry_bo_t retry = {0};
    struct lws_context_creation_info info;
    memset(&info, 0, sizeof info);
    info.port = port;
    info.iface = "127.0.0.1";
    info.protocols = protocols;
    info.retry_and_idle_policy = &retry;
    info.options = LWS_SERVER_OPTION_FAIL_UPON_UNABLE_TO_BIND | LWS_SERVER_OPTION_VALIDATE_UTF8 |
                   LWS_SERVER_OPTION_DISABLE_IPV6 | LWS_SERVER_OPTION_LIBEV;
    info.foreign_loops = foreign;
    context = lws_create_context(&info);
    if (!context) { fprintf(stderr, "lws_idle: lws_create_context failed\n"); return 1; }
    struct lws_vhost *vhost = lws_get_vhost_by_name(context, "default");
    printf("listening on %d\n", vhost ? lws_get_vhost_listen_port(vhost) : port);
    fflush(stdout);
    rss_before = vm_rss_bytes();
    ev_timer timer;
    ev_timer_init(&timer, report, 0.2, 0.2);
    ev_timer_start(loop, &timer);
    ev_signal term, interrupt;
    ev_signal_init(&term, stop, SIGTERM);
    ev_signal_init(&interrupt, stop, SIGINT);
    ev_signal_start(loop, &term);
    ev_signal_start(loop, &interrupt);
    ev_run(loop, 0);
    lws_context_destroy(context);
    return 0;
}
