/*
 * busy_follower: a load generator for the fan-out benchmark that keeps up.
 *
 * One thread, one epoll set, N non-blocking WebSocket connections to one room
 * of a CameraHub hub (or of a peer that speaks the same hello and frames, such
 * as scripts/bench_peer_uws.py). Each connection says `hello` as a follower and
 * then only reads. In the default busy mode the loop polls with a zero
 * timeout and never sleeps, so a readable socket is read as soon as the
 * kernel has its bytes; --sleep blocks in epoll_wait instead, for comparison.
 * --cpu pins the process to one CPU.
 *
 * Phases, each bounded in time: connect (at most --batch handshakes in flight,
 * until every follower is joined or --connect-timeout), settle (--settle s of
 * reading without counting), the window (--seconds s), then a drain (at most
 * --drain s) in which frames stamped inside the window but not yet read are
 * still counted. A frame belongs to the window by the hub's `time` in it (see
 * anchor_window), so with --rate every follower is owed rate x seconds frames
 * whatever its phase; a lost one shows as a short count and in seq_missing
 * (frames owed by the follower's seq span, see conn_missing).
 *
 * With --ticks-metric, the server's /metrics is read once as the window begins
 * and once as it ends (two requests in the whole run, so reading the clock
 * does not load the server it measures), for its ticks per second.
 *
 * Output: one JSON object on stdout (see print_report). Progress and errors on
 * stderr. Exit status 0 when every follower joined and stayed connected, 1
 * otherwise (the report is printed either way), 2 for a usage error.
 *
 * Build: cc -O2 -o busy_follower busy_follower.c   (C11, Linux, libc only)
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <math.h> /* macros only (NAN, INFINITY, isfinite): no libm needed */
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <arpa/inet.h>
#include <sched.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/epoll.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

/* ---------------------------------------------------------------- options */

static struct {
    char host[64];
    int port;
    char path[128];
    char room[65];
    int followers;
    int encoding; /* 0 binary, 1 json, 2 mixed (odd followers json) */
    double rate;  /* 0: not sent, no expected count */
    double seconds, settle, drain, connect_timeout;
    int batch;
    int cpu; /* -1: not pinned */
    int sleep_mode;
    int server_pid;
    int seq_step;
    int quiet;
    char ticks_metric[96]; /* a counter of the server's ticks in its /metrics ("": not read) */
} opt = {
    .host = "127.0.0.1", .port = 0, .path = "/hub", .room = "bench", .followers = 100, .encoding = 0,
    .rate = 0, .seconds = 10, .settle = 2, .drain = 2, .connect_timeout = -1, .batch = 128, .cpu = -1,
    .sleep_mode = 0, .server_pid = 0, .seq_step = 1, .quiet = 0,
};

static const char *encoding_names[] = {"binary", "json", "mixed"};

static void note(const char *fmt, ...) {
    if (opt.quiet) return;
    va_list ap;
    va_start(ap, fmt);
    fputs("busy_follower: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
}

static void die(const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    fputs("busy_follower: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    exit(1);
}

/* ---------------------------------------------------------------- clocks */

static double mono_s(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Wall clock in ms since the epoch: the clock the hub stamps `time` with. */
static double real_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec * 1e-6;
}

static double rusage_s(void) {
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec * 1e-6 + (double)ru.ru_stime.tv_sec +
           (double)ru.ru_stime.tv_usec * 1e-6;
}

/* utime + stime of a process (all its threads) in seconds, -1 when unreadable. */
static double proc_cpu_s(int pid) {
    char path[64], buf[1024];
    snprintf(path, sizeof path, "/proc/%d/stat", pid);
    FILE *f = fopen(path, "r");
    if (!f) return -1;
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = 0;
    char *p = strrchr(buf, ')'); /* the command name may hold spaces and parentheses */
    if (!p) return -1;
    unsigned long utime, stime;
    if (sscanf(p + 1, " %*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %lu %lu", &utime, &stime) != 2) return -1;
    return (double)(utime + stime) / (double)sysconf(_SC_CLK_TCK);
}

static long proc_rss_kb(int pid) {
    char path[64], line[256];
    snprintf(path, sizeof path, "/proc/%d/status", pid);
    FILE *f = fopen(path, "r");
    if (!f) return -1;
    long kb = -1;
    while (fgets(line, sizeof line, f))
        if (strncmp(line, "VmRSS:", 6) == 0) { kb = strtol(line + 6, NULL, 10); break; }
    fclose(f);
    return kb;
}

/* The value of the counter `name` in the server's GET /metrics (a blocking
   request on its own socket, 2 s at most): its line `name value`, or the mean of
   its labelled series `name{...} value` (camhub counts each loop's ticks apart);
   -1 when it cannot be read. */
static double scrape_counter(const char *name) {
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    if (fd < 0) return -1;
    struct timeval tv = {.tv_sec = 2, .tv_usec = 0};
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
    setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof tv);
    struct sockaddr_in a = {.sin_family = AF_INET, .sin_port = htons((uint16_t)opt.port)};
    inet_pton(AF_INET, opt.host, &a.sin_addr);
    char request[256];
    int n = snprintf(request, sizeof request, "GET /metrics HTTP/1.1\r\nHost: %s\r\nConnection: close\r\n\r\n", opt.host);
    if (connect(fd, (struct sockaddr *)&a, sizeof a) != 0 || send(fd, request, (size_t)n, 0) != n) {
        close(fd);
        return -1;
    }
    size_t cap = 1 << 22, len = 0;
    char *body = malloc(cap + 1);
    if (!body) die("out of memory");
    for (ssize_t r; len < cap && (r = recv(fd, body + len, cap - len, 0)) > 0;) len += (size_t)r;
    close(fd);
    body[len] = 0;
    double sum = 0;
    int series = 0;
    size_t name_len = strlen(name);
    for (char *line = body; line && *line; line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL) {
        if (strncmp(line, name, name_len) != 0) continue;
        char *value = NULL;
        if (line[name_len] == ' ') {
            value = line + name_len + 1;
        } else if (line[name_len] == '{') {
            char *close = strchr(line + name_len, '}');
            char *end = strchr(line, '\n');
            if (close && (!end || close < end) && close[1] == ' ') value = close + 2;
        }
        if (value) {
            sum += strtod(value, NULL);
            series++;
        }
    }
    free(body);
    return series > 0 ? sum / series : -1;
}

/* The whole machine's busy and total jiffies from /proc/stat's first line. */
static int machine_jiffies(unsigned long long *busy, unsigned long long *total) {
    FILE *f = fopen("/proc/stat", "r");
    if (!f) return -1;
    unsigned long long v[10] = {0};
    int n = fscanf(f, "cpu %llu %llu %llu %llu %llu %llu %llu %llu %llu %llu", &v[0], &v[1], &v[2], &v[3], &v[4],
                   &v[5], &v[6], &v[7], &v[8], &v[9]);
    fclose(f);
    if (n < 5) return -1;
    unsigned long long t = 0;
    for (int i = 0; i < 8; i++) t += v[i]; /* guest time is already in user */
    *total = t;
    *busy = t - v[3] - v[4]; /* less idle and iowait */
    return 0;
}

/* ---------------------------------------------------------------- random, SHA-1, base64 */

static uint64_t rng_state;

static uint64_t rng(void) { /* xorshift64*: mask keys and handshake nonces */
    rng_state ^= rng_state >> 12;
    rng_state ^= rng_state << 25;
    rng_state ^= rng_state >> 27;
    return rng_state * 0x2545F4914F6CDD1DULL;
}

static void rng_seed(void) {
    uint64_t s = 0;
    int fd = open("/dev/urandom", O_RDONLY | O_CLOEXEC);
    if (fd >= 0) {
        if (read(fd, &s, sizeof s) != (ssize_t)sizeof s) s = 0;
        close(fd);
    }
    s ^= (uint64_t)(real_ms() * 1000.0) ^ ((uint64_t)getpid() << 32);
    rng_state = s ? s : 0x9E3779B97F4A7C15ULL;
}

static uint32_t rol32(uint32_t x, int n) { return (x << n) | (x >> (32 - n)); }

static void sha1_block(uint32_t h[5], const uint8_t *p) {
    uint32_t w[80];
    for (int i = 0; i < 16; i++)
        w[i] = (uint32_t)p[4 * i] << 24 | (uint32_t)p[4 * i + 1] << 16 | (uint32_t)p[4 * i + 2] << 8 | p[4 * i + 3];
    for (int i = 16; i < 80; i++) w[i] = rol32(w[i - 3] ^ w[i - 8] ^ w[i - 14] ^ w[i - 16], 1);
    uint32_t a = h[0], b = h[1], c = h[2], d = h[3], e = h[4];
    for (int i = 0; i < 80; i++) {
        uint32_t f, k;
        if (i < 20) f = (b & c) | (~b & d), k = 0x5A827999;
        else if (i < 40) f = b ^ c ^ d, k = 0x6ED9EBA1;
        else if (i < 60) f = (b & c) | (b & d) | (c & d), k = 0x8F1BBCDC;
        else f = b ^ c ^ d, k = 0xCA62C1D6;
        uint32_t t = rol32(a, 5) + f + e + k + w[i];
        e = d, d = c, c = rol32(b, 30), b = a, a = t;
    }
    h[0] += a, h[1] += b, h[2] += c, h[3] += d, h[4] += e;
}

static void sha1(const uint8_t *msg, size_t len, uint8_t out[20]) {
    uint32_t h[5] = {0x67452301, 0xEFCDAB89, 0x98BADCFE, 0x10325476, 0xC3D2E1F0};
    size_t i = 0;
    for (; i + 64 <= len; i += 64) sha1_block(h, msg + i);
    uint8_t tail[128] = {0};
    size_t rest = len - i;
    memcpy(tail, msg + i, rest);
    tail[rest] = 0x80;
    size_t blocks = rest + 9 <= 64 ? 1 : 2;
    uint64_t bits = (uint64_t)len * 8;
    for (int j = 0; j < 8; j++) tail[blocks * 64 - 1 - j] = (uint8_t)(bits >> (8 * j));
    for (size_t j = 0; j < blocks; j++) sha1_block(h, tail + 64 * j);
    for (int j = 0; j < 5; j++)
        out[4 * j] = h[j] >> 24, out[4 * j + 1] = h[j] >> 16, out[4 * j + 2] = h[j] >> 8, out[4 * j + 3] = h[j];
}

static void base64(const uint8_t *in, size_t len, char *out) {
    static const char a[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    size_t o = 0;
    for (size_t i = 0; i < len; i += 3) {
        uint32_t v = (uint32_t)in[i] << 16 | (i + 1 < len ? (uint32_t)in[i + 1] << 8 : 0) | (i + 2 < len ? in[i + 2] : 0);
        out[o++] = a[v >> 18 & 63];
        out[o++] = a[v >> 12 & 63];
        out[o++] = i + 1 < len ? a[v >> 6 & 63] : '=';
        out[o++] = i + 2 < len ? a[v & 63] : '=';
    }
    out[o] = 0;
}

/* Sec-WebSocket-Accept for a Sec-WebSocket-Key (RFC 6455 section 4.2.2). */
static void ws_accept(const char *key, char out[29]) {
    char buf[128];
    int n = snprintf(buf, sizeof buf, "%s258EAFA5-E914-47DA-95CA-C5AB0DC85B11", key);
    uint8_t digest[20];
    sha1((const uint8_t *)buf, (size_t)n, digest);
    base64(digest, 20, out);
}

/* ---------------------------------------------------------------- latency histogram */

/* 10 µs bins below 100 ms, 1 ms bins from 100 ms to 60 s, then one overflow bin. */
#define FINE_BINS 10000
#define COARSE_BINS 59900
#define HIST_BINS (FINE_BINS + COARSE_BINS + 1)
static uint64_t hist[HIST_BINS];
static uint64_t hist_count, hist_negative;
static double hist_max = -1, hist_sum;

static void hist_add(double ms) {
    if (ms < 0) { hist_negative++; ms = 0; }
    size_t bin;
    if (ms < 100) bin = (size_t)(ms * 100);
    else if (ms < 60000) bin = FINE_BINS + (size_t)(ms - 100);
    else bin = HIST_BINS - 1;
    if (bin >= HIST_BINS) bin = HIST_BINS - 1;
    hist[bin]++;
    hist_count++;
    hist_sum += ms;
    if (ms > hist_max) hist_max = ms;
}

/* The upper edge of the bin holding quantile q (never above the maximum seen). */
static double hist_quantile(double q) {
    if (hist_count == 0) return NAN;
    double r = q * (double)hist_count; /* the rank, rounded up */
    uint64_t rank = (uint64_t)r;
    if ((double)rank < r) rank++;
    if (rank < 1) rank = 1;
    uint64_t seen = 0;
    for (size_t i = 0; i < HIST_BINS; i++) {
        seen += hist[i];
        if (seen >= rank) {
            double edge = i < FINE_BINS ? (double)(i + 1) / 100 : i < HIST_BINS - 1 ? 100 + (double)(i - FINE_BINS + 1) : hist_max;
            return edge < hist_max ? edge : hist_max;
        }
    }
    return hist_max;
}

/* ---------------------------------------------------------------- connections */

enum { ST_IDLE, ST_CONNECTING, ST_HANDSHAKE, ST_OPEN, ST_DONE };
#define KEEP 256u  /* first bytes of a data message kept: enough for seq and time */
#define HS_MAX 4096

typedef struct {
    int fd;
    uint8_t state, joined, json, counted; /* counted: joined when the window began */
    uint8_t anchored, past_window;        /* window start fixed; saw a frame stamped past its end */
    double from_ms, until_ms;             /* this follower's window on the hub's clock */
    /* frame parser */
    uint8_t hdr[14], hlen, in_payload, op, fin, msg_op, ctl_len;
    uint64_t left;
    uint16_t keep_len;
    uint8_t keep[KEEP + 1];
    uint8_t ctl[125];
    /* per connection figures */
    uint64_t last_seq;
    double last_time;
    uint8_t has_seq;
    uint32_t win_frames;
    uint64_t ref_seq, last_counted_seq; /* the seq before the first counted frame; the last counted */
    double ref_time, last_counted_time; /* their hub times */
    /* handshake */
    char *hs;
    uint16_t hs_len;
    char accept[29];
    /* bytes waiting to be written */
    uint8_t *out;
    uint32_t out_len, out_cap;
    uint32_t mask; /* epoll events registered */
} conn;

static conn *conns;
static int epfd = -1;

enum { PH_CONNECT, PH_SETTLE, PH_WINDOW, PH_DRAIN, PH_DONE };

static struct {
    int phase;
    int started, inflight, joined, failed, open;
    int disconnected;                  /* joined connections that ended after the connect phase */
    int server_closes, protocol_errors;
    double w0_ms;                      /* the window's start on the hub's clock (its local wall clock) */
    uint64_t frames, frames_json, frames_binary;
    uint64_t bytes;                    /* read during the window (arrival) */
    uint64_t gaps, shorts, backwards;  /* seq steps above, below --seq-step; not increasing */
    uint64_t steps[4];                 /* seq steps of 1, 2, 3, 4+ (in --seq-step units, rounded up) */
    uint64_t late_intervals;           /* frame to frame on the hub's clock over 1.5 periods */
    double max_interval_ms;
    uint64_t unparsed, other_messages, server_errors;
    uint64_t polls, empty_polls;
    double handling_s;
    int counted;     /* connections joined when the window began */
    int past_window; /* of them, those that have seen a frame past their window (or ended) */
    char first_error[200];
} g;

static void first_error(const char *fmt, ...) {
    if (g.first_error[0]) return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(g.first_error, sizeof g.first_error, fmt, ap);
    va_end(ap);
}

static void set_mask(conn *c, uint32_t mask) {
    if (c->fd < 0 || c->mask == mask) return;
    struct epoll_event ev = {.events = mask, .data.u64 = (uint64_t)(c - conns)};
    epoll_ctl(epfd, EPOLL_CTL_MOD, c->fd, &ev);
    c->mask = mask;
}

static void out_append(conn *c, const uint8_t *p, size_t n) {
    if (c->out_len + n > c->out_cap) {
        uint32_t cap = c->out_cap ? c->out_cap : 512;
        while (cap < c->out_len + n) cap *= 2;
        uint8_t *b = realloc(c->out, cap);
        if (!b) die("out of memory");
        c->out = b;
        c->out_cap = cap;
    }
    memcpy(c->out + c->out_len, p, n);
    c->out_len += (uint32_t)n;
}

/* Writes what waits; 0 when all is written or the rest waits for EPOLLOUT, -1 on error. */
static int flush_out(conn *c) {
    if (c->fd < 0) return 0; /* self-test: bytes stay in the buffer */
    while (c->out_len > 0) {
        ssize_t w = send(c->fd, c->out, c->out_len, MSG_NOSIGNAL);
        if (w < 0) {
            if (errno == EINTR) continue;
            if (errno == EAGAIN || errno == EWOULDBLOCK) { set_mask(c, EPOLLIN | EPOLLOUT); return 0; }
            return -1;
        }
        memmove(c->out, c->out + w, c->out_len - (size_t)w);
        c->out_len -= (uint32_t)w;
    }
    set_mask(c, EPOLLIN);
    return 0;
}

/* Queues one masked client frame (client-to-server frames must be masked). */
static void send_frame(conn *c, int opcode, const uint8_t *payload, size_t len) {
    uint8_t head[14];
    size_t h = 0;
    head[h++] = (uint8_t)(0x80 | opcode);
    if (len < 126) head[h++] = (uint8_t)(0x80 | len);
    else if (len < 65536) { head[h++] = 0x80 | 126; head[h++] = (uint8_t)(len >> 8); head[h++] = (uint8_t)len; }
    else { head[h++] = 0x80 | 127; for (int i = 7; i >= 0; i--) head[h++] = (uint8_t)(len >> (8 * i)); }
    uint32_t key = (uint32_t)rng();
    uint8_t k[4] = {(uint8_t)(key >> 24), (uint8_t)(key >> 16), (uint8_t)(key >> 8), (uint8_t)key};
    memcpy(head + h, k, 4);
    h += 4;
    out_append(c, head, h);
    uint8_t chunk[256];
    for (size_t i = 0; i < len; i += sizeof chunk) {
        size_t n = len - i < sizeof chunk ? len - i : sizeof chunk;
        for (size_t j = 0; j < n; j++) chunk[j] = payload[i + j] ^ k[(i + j) & 3];
        out_append(c, chunk, n);
    }
}

static void conn_end(conn *c, int failed) {
    if (c->state == ST_DONE) return;
    if (c->fd >= 0) {
        epoll_ctl(epfd, EPOLL_CTL_DEL, c->fd, NULL);
        close(c->fd);
    }
    c->fd = -1;
    int was_joined = c->joined;
    if (!was_joined && c->state != ST_IDLE) g.inflight--;
    if (was_joined) g.open--;
    c->state = ST_DONE;
    free(c->hs);
    c->hs = NULL;
    free(c->out);
    c->out = NULL;
    c->out_len = c->out_cap = 0;
    if (!was_joined && failed) g.failed++;
    if (was_joined && g.phase != PH_CONNECT) g.disconnected++;
    if (was_joined && g.phase == PH_CONNECT) { g.joined--; g.failed++; }
    if (c->counted && !c->past_window) { c->past_window = 1; g.past_window++; }
}

/* ---------------------------------------------------------------- messages */

static uint64_t le64(const uint8_t *p) {
    uint64_t v = 0;
    for (int i = 7; i >= 0; i--) v = v << 8 | p[i];
    return v;
}

/* A follower's window on the hub's clock. With --rate, as `camhub bench` counts:
   from its first frame stamped in the window (when that comes within 1.5 periods
   of the start; later, frames were lost and the count starts at the window's
   start) for --seconds less half a period, so a follower is owed exactly
   rate x seconds frames whatever its phase and half a period of jitter at
   either end is forgiven. Without --rate: [start, start + seconds). */
static void anchor_window(conn *c, double t_ms) {
    double period = opt.rate > 0 ? 1000.0 / opt.rate : 0;
    c->from_ms = period > 0 && t_ms - g.w0_ms <= 1.5 * period ? t_ms : g.w0_ms;
    c->until_ms = c->from_ms + opt.seconds * 1000.0 - period / 2;
    c->anchored = 1;
}

static void on_frame(conn *c, int json, uint64_t seq, double t_ms, double now_ms) {
    if (g.phase >= PH_WINDOW && c->counted && !c->past_window && t_ms >= g.w0_ms) {
        if (!c->anchored) anchor_window(c, t_ms);
        if (t_ms >= c->until_ms) {
            c->past_window = 1;
            g.past_window++;
        }
    }
    if (g.phase >= PH_WINDOW && c->counted && !c->past_window && c->anchored && t_ms >= c->from_ms) {
        g.frames++;
        if (json) g.frames_json++; else g.frames_binary++;
        c->win_frames++;
        hist_add(now_ms - t_ms);
        if (c->win_frames == 1) { /* the frame before: the previous one, or one step back */
            uint64_t step = (uint64_t)opt.seq_step;
            c->ref_seq = c->has_seq ? c->last_seq : seq >= step ? seq - step : 0;
            c->ref_time = c->has_seq ? c->last_time : t_ms - (opt.rate > 0 ? 1000.0 / opt.rate : 0);
        }
        c->last_counted_seq = seq;
        c->last_counted_time = t_ms;
        if (c->has_seq) {
            double dt = t_ms - c->last_time;
            if (opt.rate > 0 && dt > 1.5 * 1000.0 / opt.rate) g.late_intervals++;
            if (dt > g.max_interval_ms) g.max_interval_ms = dt;
            if (seq <= c->last_seq) g.backwards++;
            else {
                uint64_t d = seq - c->last_seq;
                uint64_t step = (uint64_t)opt.seq_step;
                uint64_t units = (d + step - 1) / step; /* 1: as expected */
                g.steps[units >= 4 ? 3 : units - 1]++;
                if (d > step) g.gaps++;
                if (d < step) g.shorts++;
            }
        }
    }
    c->last_seq = seq;
    c->last_time = t_ms;
    c->has_seq = 1;
}

/* Frames a follower was owed by its seqs but did not count: the seq span of its
   window (from the seq before its first counted frame to its last) in --seq-step
   units, less the frames counted. A hub ticking faster than the rate may shift a
   follower's phase (a step of 3 then 1 at twice the rate): that loses nothing here. */
static uint64_t conn_missing(const conn *c) {
    if (!c->win_frames || c->last_counted_seq <= c->ref_seq) return 0;
    uint64_t span = (c->last_counted_seq - c->ref_seq) / (uint64_t)opt.seq_step;
    return span > c->win_frames ? span - c->win_frames : 0;
}

/* Frames a follower was owed by the hub's clock but did not count: the periods
   from the frame before its first counted one to its last counted one (rounded),
   less the frames counted. With seq_missing 0 these are frames the server did not
   send on time (ticks it skipped), not frames lost on the way. A late frame that
   the next one makes up for (a shorter interval) owes nothing. */
static uint64_t conn_late_ticks(const conn *c) {
    if (!c->win_frames || opt.rate <= 0) return 0;
    double periods = (c->last_counted_time - c->ref_time) * opt.rate / 1000.0;
    uint64_t owed = periods > 0 ? (uint64_t)(periods + 0.5) : 0;
    return owed > c->win_frames ? owed - c->win_frames : 0;
}

/* The value after "key": (whitespace skipped) in a NUL-terminated JSON prefix, or NULL. */
static const char *json_value(const char *s, const char *key) {
    const char *p = strstr(s, key);
    if (!p) return NULL;
    p += strlen(key);
    while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r') p++;
    if (*p != ':') return NULL;
    p++;
    while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r') p++;
    return p;
}

static void on_message(conn *c, double now_ms) {
    if (c->msg_op == 2) { /* binary: kind 1, flags, seq u64 LE at 2, time f64 LE at 10 */
        if (c->keep_len >= 18 && c->keep[0] == 1) {
            uint64_t bits = le64(c->keep + 10);
            double t;
            memcpy(&t, &bits, sizeof t);
            on_frame(c, 0, le64(c->keep + 2), t, now_ms);
        } else g.unparsed++;
        return;
    }
    c->keep[c->keep_len] = 0;
    const char *s = (const char *)c->keep;
    const char *type = json_value(s, "\"type\"");
    if (type && strncmp(type, "\"frame\"", 7) == 0) {
        const char *sv = json_value(s, "\"seq\"");
        const char *tv = json_value(s, "\"time\"");
        char *end1 = NULL, *end2 = NULL;
        uint64_t seq = sv ? strtoull(sv, &end1, 10) : 0;
        double t = tv ? strtod(tv, &end2) : 0;
        if (sv && tv && end1 != sv && end2 != tv) on_frame(c, 1, seq, t, now_ms);
        else g.unparsed++;
    } else if (type && strncmp(type, "\"welcome\"", 9) == 0 && !c->joined) {
        c->joined = 1;
        g.joined++;
        g.open++;
        g.inflight--;
    } else if (type && strncmp(type, "\"error\"", 7) == 0) {
        g.server_errors++;
        first_error("hub error: %.160s", s);
    } else {
        g.other_messages++;
    }
}

/* A complete frame; returns -1 to end the connection. */
static int on_frame_done(conn *c, double now_ms) {
    switch (c->op) {
    case 0x9: /* ping: answer pong with the same payload */
        send_frame(c, 0xA, c->ctl, c->ctl_len);
        return flush_out(c);
    case 0xA: return 0;
    case 0x8: { /* close: answer with the status code, then end */
        int code = c->ctl_len >= 2 ? c->ctl[0] << 8 | c->ctl[1] : 1005;
        g.server_closes++;
        first_error("closed by the server: %d %.*s", code, c->ctl_len > 2 ? c->ctl_len - 2 : 0, (const char *)c->ctl + 2);
        send_frame(c, 0x8, c->ctl, c->ctl_len >= 2 ? 2 : 0);
        flush_out(c);
        return -1;
    }
    default:
        if (c->fin) {
            on_message(c, now_ms);
            c->msg_op = 0;
        }
        return 0;
    }
}

static size_t header_size(const uint8_t *h) {
    size_t len7 = h[1] & 0x7f;
    return 2 + (len7 == 126 ? 2 : len7 == 127 ? 8 : 0) + (h[1] & 0x80 ? 4 : 0);
}

/* Checks a complete frame header and sets up its payload; -1 on a protocol error. */
static int on_header(conn *c) {
    const uint8_t *h = c->hdr;
    c->fin = h[0] >> 7;
    c->op = h[0] & 0x0f;
    if (h[0] & 0x70) { first_error("frame with RSV bits set"); return -1; }
    if (h[1] & 0x80) { first_error("masked frame from the server"); return -1; }
    uint64_t len = h[1] & 0x7f;
    if (len == 126) len = (uint64_t)h[2] << 8 | h[3];
    else if (len == 127) {
        len = 0;
        for (int i = 0; i < 8; i++) len = len << 8 | h[2 + i];
        if (len >> 63) { first_error("64-bit length with its top bit set"); return -1; }
    }
    c->left = len;
    if (c->op >= 0x8) {
        if (c->op > 0xA || !c->fin || len > 125) { first_error("bad control frame (opcode %d)", c->op); return -1; }
        c->ctl_len = 0;
    } else if (c->op == 0x1 || c->op == 0x2) {
        if (c->msg_op) { first_error("new message inside a fragmented one"); return -1; }
        c->msg_op = c->op;
        c->keep_len = 0;
    } else if (c->op == 0x0) {
        if (!c->msg_op) { first_error("continuation without a message"); return -1; }
    } else {
        first_error("reserved opcode %d", c->op);
        return -1;
    }
    return 0;
}

/* Feeds bytes read from the socket to the frame parser; -1 ends the connection. */
static int ws_feed(conn *c, const uint8_t *p, size_t n, double now_ms) {
    while (n > 0) {
        if (!c->in_payload) {
            size_t need = c->hlen < 2 ? 2 : header_size(c->hdr);
            while (c->hlen < need && n > 0) {
                c->hdr[c->hlen++] = *p++;
                n--;
                if (c->hlen == 2) need = header_size(c->hdr);
            }
            if (c->hlen < need) return 0;
            c->hlen = 0;
            if (on_header(c) < 0) { g.protocol_errors++; return -1; }
            c->in_payload = 1;
        }
        size_t take = c->left < n ? (size_t)c->left : n;
        if (c->op >= 0x8) {
            memcpy(c->ctl + c->ctl_len, p, take);
            c->ctl_len += (uint8_t)take;
        } else if (c->keep_len < KEEP) {
            size_t k = KEEP - c->keep_len < take ? KEEP - c->keep_len : take;
            memcpy(c->keep + c->keep_len, p, k);
            c->keep_len += (uint16_t)k;
        }
        p += take;
        n -= take;
        c->left -= take;
        if (c->left == 0) {
            c->in_payload = 0;
            if (on_frame_done(c, now_ms) < 0) return -1;
        }
    }
    return 0;
}

/* ---------------------------------------------------------------- connecting */

static struct sockaddr_in server_addr;

static void send_hello(conn *c) {
    char hello[256];
    int n = snprintf(hello, sizeof hello, "{\"type\":\"hello\",\"room\":\"%s\",\"role\":\"follower\"", opt.room);
    if (opt.rate > 0) n += snprintf(hello + n, sizeof hello - (size_t)n, ",\"rate\":%g", opt.rate);
    if (!c->json) n += snprintf(hello + n, sizeof hello - (size_t)n, ",\"encoding\":\"binary\"");
    n += snprintf(hello + n, sizeof hello - (size_t)n, "}");
    send_frame(c, 0x1, (const uint8_t *)hello, (size_t)n);
}

static void start_connect(conn *c) {
    int fd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    g.started++;
    g.inflight++;
    c->state = ST_CONNECTING;
    if (fd < 0) { first_error("socket: %s", strerror(errno)); conn_end(c, 1); return; }
    int one = 1;
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    c->fd = fd;
    if (connect(fd, (struct sockaddr *)&server_addr, sizeof server_addr) < 0 && errno != EINPROGRESS) {
        first_error("connect: %s", strerror(errno));
        close(fd);
        c->fd = -1;
        conn_end(c, 1);
        return;
    }
    struct epoll_event ev = {.events = EPOLLOUT | EPOLLIN, .data.u64 = (uint64_t)(c - conns)};
    if (epoll_ctl(epfd, EPOLL_CTL_ADD, fd, &ev) < 0) die("epoll_ctl: %s", strerror(errno));
    c->mask = ev.events;
}

static void on_connected(conn *c) {
    int err = 0;
    socklen_t len = sizeof err;
    if (getsockopt(c->fd, SOL_SOCKET, SO_ERROR, &err, &len) < 0 || err) {
        first_error("connect: %s", strerror(err ? err : errno));
        conn_end(c, 1);
        return;
    }
    uint8_t nonce[16];
    uint64_t a = rng(), b = rng();
    memcpy(nonce, &a, 8);
    memcpy(nonce + 8, &b, 8);
    char key[32];
    base64(nonce, 16, key);
    ws_accept(key, c->accept);
    char req[512];
    int n = snprintf(req, sizeof req,
                     "GET %s HTTP/1.1\r\nHost: %s:%d\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                     "Sec-WebSocket-Key: %s\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Protocol: camhub.v1\r\n\r\n",
                     opt.path, opt.host, opt.port, key);
    out_append(c, (const uint8_t *)req, (size_t)n);
    c->hs = malloc(HS_MAX + 1);
    if (!c->hs) die("out of memory");
    c->hs_len = 0;
    c->state = ST_HANDSHAKE;
    if (flush_out(c) < 0) { first_error("send: %s", strerror(errno)); conn_end(c, 1); }
}

/* Case-insensitive search for a header line's value in a NUL-terminated response. */
static const char *header_value(const char *resp, const char *name, size_t *vlen) {
    size_t nl = strlen(name);
    for (const char *line = strstr(resp, "\r\n"); line; line = strstr(line, "\r\n")) {
        line += 2;
        if (strncasecmp(line, name, nl) == 0 && line[nl] == ':') {
            const char *v = line + nl + 1;
            while (*v == ' ' || *v == '\t') v++;
            const char *e = strstr(v, "\r\n");
            size_t l = e ? (size_t)(e - v) : strlen(v);
            while (l > 0 && (v[l - 1] == ' ' || v[l - 1] == '\t')) l--;
            *vlen = l;
            return v;
        }
    }
    return NULL;
}

/* Reads the upgrade response; bytes after it go to the frame parser. */
static void on_handshake_readable(conn *c, double now_ms) {
    ssize_t r = recv(c->fd, c->hs + c->hs_len, HS_MAX - c->hs_len, 0);
    if (r < 0 && (errno == EAGAIN || errno == EINTR)) return;
    if (r <= 0) { first_error("connection ended during the handshake"); conn_end(c, 1); return; }
    c->hs_len += (uint16_t)r;
    c->hs[c->hs_len] = 0;
    char *end = strstr(c->hs, "\r\n\r\n");
    if (!end) {
        if (c->hs_len >= HS_MAX) { first_error("upgrade response too long"); conn_end(c, 1); }
        return;
    }
    *end = 0;
    size_t vlen = 0;
    const char *v = header_value(c->hs, "Sec-WebSocket-Accept", &vlen);
    if (strncmp(c->hs, "HTTP/1.1 101", 12) != 0) {
        first_error("upgrade refused: %.150s", c->hs);
        conn_end(c, 1);
        return;
    }
    if (!v || vlen != 28 || memcmp(v, c->accept, 28) != 0) {
        first_error("wrong Sec-WebSocket-Accept");
        conn_end(c, 1);
        return;
    }
    size_t head = (size_t)(end + 4 - c->hs);
    size_t extra = c->hs_len - head;
    uint8_t rest[HS_MAX];
    memcpy(rest, c->hs + head, extra);
    free(c->hs);
    c->hs = NULL;
    c->state = ST_OPEN;
    send_hello(c);
    if (flush_out(c) < 0) { first_error("send: %s", strerror(errno)); conn_end(c, 1); return; }
    if (extra && ws_feed(c, rest, extra, now_ms) < 0) conn_end(c, 1);
}

/* ---------------------------------------------------------------- the loop */

static uint8_t readbuf[1 << 16];

static void on_readable(conn *c) {
    for (;;) {
        ssize_t r = recv(c->fd, readbuf, sizeof readbuf, 0);
        if (r < 0) {
            if (errno == EINTR) continue;
            if (errno == EAGAIN || errno == EWOULDBLOCK) return;
            first_error("recv: %s", strerror(errno));
            conn_end(c, 1);
            return;
        }
        if (r == 0) { first_error("connection closed without a close frame"); conn_end(c, 1); return; }
        double now = real_ms(); /* one arrival time per read */
        if (g.phase == PH_WINDOW) g.bytes += (uint64_t)r;
        if (ws_feed(c, readbuf, (size_t)r, now) < 0) { conn_end(c, 1); return; }
        if ((size_t)r < sizeof readbuf) return; /* drained (level-triggered: more will wake us) */
    }
}

static void on_event(conn *c, uint32_t ev) {
    if (c->state == ST_DONE || c->fd < 0) return;
    if (c->state == ST_CONNECTING) {
        if (ev & (EPOLLOUT | EPOLLERR | EPOLLHUP)) on_connected(c);
        return;
    }
    if ((ev & EPOLLOUT) && c->out_len) {
        if (flush_out(c) < 0) { first_error("send: %s", strerror(errno)); conn_end(c, 1); return; }
    }
    if (ev & (EPOLLIN | EPOLLERR | EPOLLHUP)) {
        if (c->state == ST_HANDSHAKE) on_handshake_readable(c, real_ms());
        else on_readable(c);
    }
}

/* ---------------------------------------------------------------- self-test */

static int failures;
static double absd(double x) { return x < 0 ? -x : x; }
#define CHECK(cond, ...) do { if (!(cond)) { failures++; fprintf(stderr, "self-test: FAIL %s:%d: ", __FILE__, __LINE__); \
    fprintf(stderr, __VA_ARGS__); fputc('\n', stderr); } } while (0)

static size_t put_frame(uint8_t *b, int fin_op, const uint8_t *payload, size_t len, int force64) {
    size_t h = 0;
    b[h++] = (uint8_t)fin_op;
    if (force64 || len > 65535) { b[h++] = 127; for (int i = 7; i >= 0; i--) b[h++] = (uint8_t)((uint64_t)len >> (8 * i)); }
    else if (len >= 126) { b[h++] = 126; b[h++] = (uint8_t)(len >> 8); b[h++] = (uint8_t)len; }
    else b[h++] = (uint8_t)len;
    memcpy(b + h, payload, len);
    return h + len;
}

static size_t put_binary(uint8_t *b, uint64_t seq, double t) {
    uint8_t p[83] = {1, 0x05};
    uint64_t bits;
    memcpy(&bits, &t, 8);
    for (int i = 0; i < 8; i++) p[2 + i] = (uint8_t)(seq >> (8 * i)), p[10 + i] = (uint8_t)(bits >> (8 * i));
    p[78] = 2, p[79] = 0, p[80] = 'c', p[81] = '1';
    return put_frame(b, 0x82, p, 82, 0);
}

static int self_test(void) {
    char acc[29];
    ws_accept("dGhlIHNhbXBsZSBub25jZQ==", acc); /* RFC 6455's example */
    CHECK(strcmp(acc, "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=") == 0, "accept %s", acc);
    uint8_t d[20];
    sha1((const uint8_t *)"abc", 3, d);
    char hex[41];
    for (int i = 0; i < 20; i++) sprintf(hex + 2 * i, "%02x", d[i]);
    CHECK(strcmp(hex, "a9993e364706816aba3e25717850c26c9cd0d89d") == 0, "sha1 %s", hex);

    /* A stream: welcome (16-bit length), binary frames, a JSON frame split in
       fragments with a ping between them, a JSON frame with a 64-bit length, an
       event, a ping, a close. Fed whole, in chunks of every size 1..40, and byte by byte. */
    static uint8_t s[90000];
    size_t n = 0;
    char big[300];
    int bl = snprintf(big, sizeof big, "{\"type\":\"welcome\",\"client\":\"c1\",\"room\":\"bench\",\"pad\":\"%0200d\"}", 0);
    n += put_frame(s + n, 0x81, (const uint8_t *)big, (size_t)bl, 0);
    n += put_binary(s + n, 7, 1718000000123.5);
    n += put_binary(s + n, 8, 1718000000140.25);
    const char *f9 = "{\"type\":\"frame\",\"seq\":9,\"time\":1718000000156.75,\"camera\":{\"lat\":1}}";
    n += put_frame(s + n, 0x01, (const uint8_t *)f9, 20, 0);              /* text, not final */
    n += put_frame(s + n, 0x89, (const uint8_t *)"hi", 2, 0);            /* ping between fragments */
    n += put_frame(s + n, 0x80, (const uint8_t *)f9 + 20, strlen(f9) - 20, 0); /* continuation, final */
    const char *f11 = "{\"type\":\"frame\",\"seq\":11,\"time\":1718000000190,\"moving\":true}";
    n += put_frame(s + n, 0x81, (const uint8_t *)f11, strlen(f11), 1);   /* 64-bit length */
    char ev[70000]; /* an event longer than 65535 bytes: 64-bit length, mostly skipped */
    int el = snprintf(ev, sizeof ev, "{\"type\":\"event\",\"name\":\"audience\",\"pad\":\"");
    memset(ev + el, 'x', 66000);
    el += 66000;
    el += snprintf(ev + el, sizeof ev - (size_t)el, "\"}");
    n += put_frame(s + n, 0x81, (const uint8_t *)ev, (size_t)el, 0);
    n += put_binary(s + n, 12, 1718000000206.5);
    n += put_frame(s + n, 0x89, (const uint8_t *)"", 0, 0);             /* empty ping */
    n += put_frame(s + n, 0x88, (const uint8_t *)"\x03\xe8" "bye", 5, 0); /* close 1000 */
    size_t stream_len = n;

    for (int chunk = 0; chunk <= 41; chunk++) {
        memset(&g, 0, sizeof g);
        memset(hist, 0, sizeof hist);
        hist_count = 0;
        hist_max = -1;
        g.phase = PH_WINDOW;
        g.w0_ms = 1718000000000.0;
        opt.rate = 0;
        opt.seconds = 3600;
        conn c = {.fd = -1, .state = ST_OPEN, .counted = 1};
        size_t step = chunk == 0 ? stream_len : chunk == 41 ? 1 : (size_t)chunk;
        int rc = 0;
        size_t off = 0;
        for (; off < stream_len && rc == 0; off += step) {
            size_t m = stream_len - off < step ? stream_len - off : step;
            rc = ws_feed(&c, s + off, m, 1718000000300.0);
        }
        CHECK(rc == -1 && off >= stream_len, "chunk %zu: the close ends the stream (rc %d at %zu of %zu)", step, rc, off, stream_len);
        CHECK(c.joined == 1, "chunk %zu: joined", step);
        CHECK(g.frames == 5 && g.frames_binary == 3 && g.frames_json == 2, "chunk %zu: frames %llu", step,
              (unsigned long long)g.frames);
        CHECK(g.gaps == 1 && conn_missing(&c) == 1 && g.backwards == 0, "chunk %zu: gaps %llu missing %llu", step,
              (unsigned long long)g.gaps, (unsigned long long)conn_missing(&c));
        CHECK(g.other_messages == 1 && g.unparsed == 0 && g.server_closes == 1, "chunk %zu: other %llu unparsed %llu",
              step, (unsigned long long)g.other_messages, (unsigned long long)g.unparsed);
        CHECK(absd(hist_max - (1718000000300.0 - 1718000000123.5)) < 1e-3, "chunk %zu: max latency %f", step, hist_max);
        /* out: pong "hi", pong "", close 1000; each masked */
        const uint8_t *o = c.out;
        CHECK(c.out_len == 8 + 6 + 8, "chunk %zu: %u bytes written", step, c.out_len);
        if (c.out_len == 22) {
            CHECK(o[0] == 0x8A && o[1] == (0x80 | 2) && (o[6] ^ o[2]) == 'h' && (o[7] ^ o[3]) == 'i', "pong 'hi'");
            CHECK(o[8] == 0x8A && o[9] == 0x80, "empty pong");
            CHECK(o[14] == 0x88 && o[15] == (0x80 | 2) && (o[20] ^ o[16]) == 0x03 && (o[21] ^ o[17]) == 0xe8, "close 1000");
        }
        free(c.out);
    }
    /* Protocol errors: a masked server frame, a reserved opcode. */
    {
        memset(&g, 0, sizeof g);
        conn c = {.fd = -1, .state = ST_OPEN};
        uint8_t bad[] = {0x81, 0x80 | 1, 1, 2, 3, 4, 'x'};
        CHECK(ws_feed(&c, bad, sizeof bad, 0) == -1, "masked server frame refused");
        conn c2 = {.fd = -1, .state = ST_OPEN};
        uint8_t bad2[] = {0x83, 0};
        CHECK(ws_feed(&c2, bad2, sizeof bad2, 0) == -1, "reserved opcode refused");
    }
    /* The window: 30 Hz for 1 s is 30 frames whatever the follower's phase; a
       follower whose first three frames of the window were lost is owed them. */
    {
        memset(&g, 0, sizeof g);
        g.phase = PH_WINDOW;
        g.w0_ms = 1000;
        opt.rate = 30;
        opt.seconds = 1;
        double first[] = {1000.5, 1030, 1100}; /* the first frame stamped in the window */
        uint64_t want[] = {30, 30, 27}, missing = 0, late = 0;
        for (int i = 0; i < 3; i++) {
            conn c = {.fd = -1, .state = ST_OPEN, .counted = 1};
            uint64_t before = g.frames;
            on_frame(&c, 0, 1, 990, 0); /* before the window */
            for (int k = 0; k < 40; k++) on_frame(&c, 0, (uint64_t)(k + (i == 2 ? 5 : 2)), first[i] + 1000.0 / 30 * k, 0);
            CHECK(g.frames - before == want[i], "window from %.1f: %llu frames", first[i], (unsigned long long)(g.frames - before));
            CHECK(c.past_window, "window from %.1f ends", first[i]);
            missing += conn_missing(&c);
            late += conn_late_ticks(&c);
        }
        CHECK(g.gaps == 1 && missing == 3, "frames lost at the window's start are missing (%llu, %llu)",
              (unsigned long long)g.gaps, (unsigned long long)missing);
        CHECK(g.late_intervals == 1 && late == 2 && absd(g.max_interval_ms - 110) < 1e-9,
              "one late interval (%llu, %llu ticks, %f ms)", (unsigned long long)g.late_intervals,
              (unsigned long long)late, g.max_interval_ms);
    }
    /* A frame 20 ms late that the next one makes up for is a late interval, not a late tick;
       two skipped ticks are two. */
    {
        memset(&g, 0, sizeof g);
        g.phase = PH_WINDOW;
        g.w0_ms = 1000;
        opt.rate = 30;
        opt.seconds = 1;
        conn c = {.fd = -1, .state = ST_OPEN, .counted = 1}, d = c;
        for (int k = 0; k < 30; k++) on_frame(&c, 0, (uint64_t)k + 1, 1001 + 1000.0 / 30 * k + (k == 10 ? 20 : 0), 0);
        CHECK(c.win_frames == 30 && g.late_intervals == 1 && conn_late_ticks(&c) == 0, "made up: %u frames, %llu late",
              c.win_frames, (unsigned long long)conn_late_ticks(&c));
        uint64_t seq = 0; /* a skipped tick sends no frame: the seqs stay consecutive */
        for (int k = 0; k < 30; k++)
            if (k != 10 && k != 11) on_frame(&d, 0, ++seq, 1001 + 1000.0 / 30 * k, 0);
        CHECK(d.win_frames == 28 && conn_late_ticks(&d) == 2 && conn_missing(&d) == 0, "skipped: %u frames, %llu late",
              d.win_frames, (unsigned long long)conn_late_ticks(&d));
    }
    /* Histogram quantiles. */
    memset(hist, 0, sizeof hist);
    hist_count = 0;
    hist_max = -1;
    for (int i = 1; i <= 100; i++) hist_add(i * 0.5); /* 0.5 … 50 ms */
    CHECK(absd(hist_quantile(0.5) - 25.01) < 0.011, "p50 %f", hist_quantile(0.5));
    CHECK(absd(hist_quantile(0.99) - 49.51) < 0.011, "p99 %f", hist_quantile(0.99));
    CHECK(hist_quantile(1.0) == 50, "max %f", hist_quantile(1.0));
    hist_add(250.5);
    CHECK(hist_max == 250.5 && hist_quantile(1.0) == 250.5, "coarse max");
    if (failures) { fprintf(stderr, "self-test: %d failures\n", failures); return 1; }
    fprintf(stderr, "self-test: ok\n");
    return 0;
}

/* ---------------------------------------------------------------- report */

static void print_num(const char *key, double v, const char *sep) {
    if (isfinite(v)) printf("\"%s\":%.10g%s", key, v, sep);
    else printf("\"%s\":null%s", key, sep);
}

static void print_report(double connect_s, double window_s, double client_cpu_s, double server_cpu_s, long server_rss,
                         double server_ticks, double machine_busy) {
    uint32_t minf = UINT32_MAX, maxf = 0;
    int counted = 0;
    for (int i = 0; i < opt.followers; i++) {
        if (!conns[i].counted) continue;
        counted++;
        if (conns[i].win_frames < minf) minf = conns[i].win_frames;
        if (conns[i].win_frames > maxf) maxf = conns[i].win_frames;
    }
    if (!counted) minf = 0;
    double expected = opt.rate > 0 ? opt.followers * opt.rate * opt.seconds : NAN;
    printf("{\"client\":\"busy_follower\",\"mode\":\"%s\",\"cpu\":%d,\"url\":\"ws://%s:%d%s\",\"room\":\"%s\",\"encoding\":\"%s\",",
           opt.sleep_mode ? "sleep" : "busy", opt.cpu, opt.host, opt.port, opt.path, opt.room, encoding_names[opt.encoding]);
    print_num("rate", opt.rate > 0 ? opt.rate : NAN, ",");
    printf("\"followers\":%d,\"connected\":%d,\"failed\":%d,\"disconnected\":%d,", opt.followers, counted, g.failed,
           g.disconnected);
    print_num("connect_seconds", connect_s, ",");
    print_num("settle_seconds", opt.settle, ",");
    print_num("window_seconds", window_s, ",");
    printf("\"frames\":%llu,\"frames_binary\":%llu,\"frames_json\":%llu,", (unsigned long long)g.frames,
           (unsigned long long)g.frames_binary, (unsigned long long)g.frames_json);
    print_num("frames_per_second", window_s > 0 ? (double)g.frames / window_s : NAN, ",");
    print_num("expected", expected, ",");
    print_num("delivered_fraction", expected > 0 ? (double)g.frames / expected : NAN, ",");
    printf("\"per_follower_min\":%u,\"per_follower_max\":%u,", minf, maxf);
    printf("\"bytes\":%llu,", (unsigned long long)g.bytes);
    print_num("bytes_per_frame", g.frames ? (double)g.bytes / (double)g.frames : NAN, ",");
    print_num("latency_p50_ms", hist_quantile(0.5), ",");
    print_num("latency_p90_ms", hist_quantile(0.9), ",");
    print_num("latency_p99_ms", hist_quantile(0.99), ",");
    print_num("latency_p999_ms", hist_quantile(0.999), ",");
    print_num("latency_max_ms", hist_count ? hist_max : NAN, ",");
    print_num("latency_mean_ms", hist_count ? hist_sum / (double)hist_count : NAN, ",");
    printf("\"latency_negative\":%llu,", (unsigned long long)hist_negative);
    uint64_t missing = 0;
    for (int i = 0; i < opt.followers; i++) missing += conns[i].counted ? conn_missing(&conns[i]) : 0;
    printf("\"seq_step\":%d,\"seq_missing\":%llu,\"seq_gaps\":%llu,\"seq_short\":%llu,\"seq_backwards\":%llu,",
           opt.seq_step, (unsigned long long)missing, (unsigned long long)g.gaps, (unsigned long long)g.shorts,
           (unsigned long long)g.backwards);
    printf("\"seq_steps\":{\"1\":%llu,\"2\":%llu,\"3\":%llu,\"4+\":%llu},", (unsigned long long)g.steps[0],
           (unsigned long long)g.steps[1], (unsigned long long)g.steps[2], (unsigned long long)g.steps[3]);
    uint64_t late_ticks = 0;
    for (int i = 0; i < opt.followers; i++) late_ticks += conns[i].counted ? conn_late_ticks(&conns[i]) : 0;
    printf("\"late_intervals\":%llu,\"late_ticks\":%llu,", (unsigned long long)g.late_intervals,
           (unsigned long long)late_ticks);
    print_num("max_interval_ms", g.frames ? g.max_interval_ms : NAN, ",");
    printf("\"other_messages\":%llu,\"server_errors\":%llu,\"server_closes\":%d,\"protocol_errors\":%d,\"unparsed\":%llu,",
           (unsigned long long)g.other_messages, (unsigned long long)g.server_errors, g.server_closes,
           g.protocol_errors, (unsigned long long)g.unparsed);
    print_num("client_cpu_percent", window_s > 0 ? 100 * client_cpu_s / window_s : NAN, ",");
    print_num("client_busy_percent", window_s > 0 ? 100 * g.handling_s / window_s : NAN, ",");
    printf("\"polls\":%llu,\"empty_polls\":%llu,", (unsigned long long)g.polls, (unsigned long long)g.empty_polls);
    print_num("machine_busy_percent", machine_busy, ",");
    if (opt.server_pid > 0) {
        printf("\"server_pid\":%d,", opt.server_pid);
        print_num("server_cpu_percent", server_cpu_s >= 0 && window_s > 0 ? 100 * server_cpu_s / window_s : NAN, ",");
        print_num("server_us_per_frame", server_cpu_s >= 0 && g.frames ? 1e6 * server_cpu_s / (double)g.frames : NAN, ",");
        printf("\"server_rss_kb\":%ld,", server_rss);
    }
    if (opt.ticks_metric[0]) print_num("server_ticks_per_second", server_ticks >= 0 && window_s > 0 ? server_ticks / window_s : NAN, ",");
    printf("\"first_error\":");
    if (g.first_error[0]) {
        putchar('"');
        for (const char *p = g.first_error; *p; p++) {
            if (*p == '"' || *p == '\\') printf("\\%c", *p);
            else if ((unsigned char)*p < 0x20) printf("\\u%04x", *p);
            else putchar(*p);
        }
        putchar('"');
    } else printf("null");
    printf("}\n");
    fflush(stdout);
}

/* ---------------------------------------------------------------- main */

static void usage(FILE *f) {
    fprintf(f,
            "usage: busy_follower --port PORT [options]\n"
            "  --host IP            server address, IPv4 (default 127.0.0.1)\n"
            "  --port N             server port (required)\n"
            "  --path P             WebSocket path (default /hub)\n"
            "  --room R             room (default bench)\n"
            "  --followers N        connections (default 100)\n"
            "  --encoding E         binary, json, or mixed (odd followers json) (default binary)\n"
            "  --rate R             frames per second asked for in hello; gives the expected count\n"
            "  --seconds S          measurement window (default 10)\n"
            "  --settle S           reading without counting before the window (default 2)\n"
            "  --drain S            longest wait after the window for frames stamped in it (default 2)\n"
            "  --connect-timeout S  longest connect phase (default 30 + followers / 500)\n"
            "  --batch N            handshakes in flight at once (default 128)\n"
            "  --cpu N              pin to this CPU (default: not pinned)\n"
            "  --sleep              block in epoll_wait instead of polling with a zero timeout\n"
            "  --server-pid PID     measure this process's CPU over the window (/proc/PID/stat)\n"
            "  --ticks-metric NAME  the server's tick counter in its GET /metrics, read as the window\n"
            "                       begins and ends: server_ticks_per_second (labelled series: their mean)\n"
            "  --seq-step K         seq increase expected between a follower's frames (default 1;\n"
            "                       2 for a hub ticking at twice the rate)\n"
            "  --quiet              no progress on stderr\n"
            "  --self-test          check the frame parser and handshake digest, then exit\n");
}

static double num_arg(const char *name, const char *v, double lo, double hi) {
    char *end;
    double x = strtod(v, &end);
    if (end == v || *end || !(x >= lo && x <= hi)) {
        fprintf(stderr, "busy_follower: --%s must be a number in %g…%g (got '%s')\n", name, lo, hi, v);
        exit(2);
    }
    return x;
}

int main(int argc, char **argv) {
    static const struct option longopts[] = {
        {"host", required_argument, 0, 'h'},         {"port", required_argument, 0, 'p'},
        {"path", required_argument, 0, 'P'},         {"room", required_argument, 0, 'r'},
        {"followers", required_argument, 0, 'n'},    {"encoding", required_argument, 0, 'e'},
        {"rate", required_argument, 0, 'R'},         {"seconds", required_argument, 0, 's'},
        {"settle", required_argument, 0, 'S'},       {"drain", required_argument, 0, 'D'},
        {"connect-timeout", required_argument, 0, 'T'}, {"batch", required_argument, 0, 'b'},
        {"cpu", required_argument, 0, 'c'},          {"sleep", no_argument, 0, 'z'},
        {"server-pid", required_argument, 0, 'x'},   {"seq-step", required_argument, 0, 'k'},
        {"quiet", no_argument, 0, 'q'},              {"self-test", no_argument, 0, 't'},
        {"ticks-metric", required_argument, 0, 'm'},
        {"help", no_argument, 0, 'H'},               {0, 0, 0, 0}};
    int ch;
    while ((ch = getopt_long(argc, argv, "", longopts, NULL)) != -1) {
        switch (ch) {
        case 'h': snprintf(opt.host, sizeof opt.host, "%s", optarg); break;
        case 'p': opt.port = (int)num_arg("port", optarg, 1, 65535); break;
        case 'P':
            if (optarg[0] != '/' || strlen(optarg) >= sizeof opt.path || strpbrk(optarg, " \"\\\r\n\t")) {
                fprintf(stderr, "busy_follower: --path must start with / and hold no spaces or quotes\n");
                return 2;
            }
            snprintf(opt.path, sizeof opt.path, "%s", optarg);
            break;
        case 'r':
            if (strlen(optarg) < 1 || strlen(optarg) > 64 || strspn(optarg, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-") != strlen(optarg)) {
                fprintf(stderr, "busy_follower: --room must be 1-64 of [A-Za-z0-9_-]\n");
                return 2;
            }
            snprintf(opt.room, sizeof opt.room, "%s", optarg);
            break;
        case 'n': opt.followers = (int)num_arg("followers", optarg, 1, 60000); break;
        case 'e':
            if (!strcmp(optarg, "binary")) opt.encoding = 0;
            else if (!strcmp(optarg, "json")) opt.encoding = 1;
            else if (!strcmp(optarg, "mixed")) opt.encoding = 2;
            else { fprintf(stderr, "busy_follower: --encoding is binary, json or mixed\n"); return 2; }
            break;
        case 'R': opt.rate = num_arg("rate", optarg, 1, 1000); break;
        case 's': opt.seconds = num_arg("seconds", optarg, 0.1, 3600); break;
        case 'S': opt.settle = num_arg("settle", optarg, 0, 600); break;
        case 'D': opt.drain = num_arg("drain", optarg, 0, 60); break;
        case 'T': opt.connect_timeout = num_arg("connect-timeout", optarg, 0.1, 3600); break;
        case 'b': opt.batch = (int)num_arg("batch", optarg, 1, 10000); break;
        case 'c': opt.cpu = (int)num_arg("cpu", optarg, 0, CPU_SETSIZE - 1); break;
        case 'z': opt.sleep_mode = 1; break;
        case 'x': opt.server_pid = (int)num_arg("server-pid", optarg, 1, 1e9); break;
        case 'k': opt.seq_step = (int)num_arg("seq-step", optarg, 1, 1000); break;
        case 'q': opt.quiet = 1; break;
        case 'm':
            if (strlen(optarg) < 1 || strlen(optarg) >= sizeof opt.ticks_metric || strpbrk(optarg, " \r\n\t")) {
                fprintf(stderr, "busy_follower: --ticks-metric is a metric name (no spaces, under %zu characters)\n", sizeof opt.ticks_metric);
                return 2;
            }
            snprintf(opt.ticks_metric, sizeof opt.ticks_metric, "%s", optarg);
            break;
        case 't': return self_test();
        case 'H': usage(stdout); return 0;
        default: usage(stderr); return 2;
        }
    }
    if (optind < argc || opt.port == 0) { usage(stderr); return 2; }
    if (opt.connect_timeout < 0) opt.connect_timeout = 30 + opt.followers / 500.0;
    memset(&server_addr, 0, sizeof server_addr);
    server_addr.sin_family = AF_INET;
    server_addr.sin_port = htons((uint16_t)opt.port);
    if (inet_pton(AF_INET, opt.host, &server_addr.sin_addr) != 1) {
        fprintf(stderr, "busy_follower: --host must be an IPv4 address (got '%s')\n", opt.host);
        return 2;
    }
    rng_seed();

    if (opt.cpu >= 0) {
        cpu_set_t set;
        CPU_ZERO(&set);
        CPU_SET(opt.cpu, &set);
        if (sched_setaffinity(0, sizeof set, &set) < 0) die("cannot pin to CPU %d: %s", opt.cpu, strerror(errno));
    }
    /* One descriptor per follower, plus epoll and stdio. */
    struct rlimit rl;
    rlim_t need = (rlim_t)opt.followers + 64;
    if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur < need) {
        if (rl.rlim_max < need) rl.rlim_max = need; /* allowed for root only */
        rl.rlim_cur = need;
        if (setrlimit(RLIMIT_NOFILE, &rl) < 0) {
            getrlimit(RLIMIT_NOFILE, &rl);
            rl.rlim_cur = rl.rlim_max;
            setrlimit(RLIMIT_NOFILE, &rl);
            getrlimit(RLIMIT_NOFILE, &rl);
            if (rl.rlim_cur < need)
                die("%d followers need %llu open files; the limit is %llu (raise the hard limit: ulimit -Hn)",
                    opt.followers, (unsigned long long)need, (unsigned long long)rl.rlim_cur);
        }
    }
    conns = calloc((size_t)opt.followers, sizeof *conns);
    if (!conns) die("out of memory");
    for (int i = 0; i < opt.followers; i++) {
        conns[i].fd = -1;
        conns[i].json = opt.encoding == 1 || (opt.encoding == 2 && i % 2 == 1);
    }
    epfd = epoll_create1(EPOLL_CLOEXEC);
    if (epfd < 0) die("epoll_create1: %s", strerror(errno));

    struct epoll_event evs[1024];
    double t_start = mono_s(), t_phase = t_start, connect_s = 0, window_s = 0;
    double cpu0 = 0, cpu_client = 0, srv0 = -1, srv_cpu = -1, machine_busy = NAN, t_window = 0, ticks0 = -1, srv_ticks = -1;
    unsigned long long mb0 = 0, mt0 = 0;
    long srv_rss = -1;
    double last_note = t_start;
    note("connecting %d followers to ws://%s:%d%s room %s (%s frames, %s mode)", opt.followers, opt.host, opt.port,
         opt.path, opt.room, encoding_names[opt.encoding], opt.sleep_mode ? "sleep" : "busy");
    while (g.phase != PH_DONE) {
        double now = mono_s();
        switch (g.phase) {
        case PH_CONNECT:
            while (g.started < opt.followers && g.inflight < opt.batch) start_connect(&conns[g.started]);
            if (g.joined + g.failed >= opt.followers || now - t_phase >= opt.connect_timeout) {
                connect_s = now - t_phase;
                int late = 0;
                for (int i = 0; i < opt.followers; i++)
                    if (!conns[i].joined && conns[i].state != ST_DONE) {
                        if (conns[i].state == ST_IDLE) { g.inflight++; conns[i].state = ST_CONNECTING; }
                        first_error("not joined within --connect-timeout");
                        conn_end(&conns[i], 1);
                        late++;
                    }
                note("%d joined, %d failed (%d not in time) in %.1f s", g.joined, g.failed, late, connect_s);
                g.phase = g.joined > 0 ? PH_SETTLE : PH_DONE; /* nobody to measure */
                t_phase = now;
            } else if (now - last_note >= 2) {
                note("connecting: %d started, %d joined, %d failed", g.started, g.joined, g.failed);
                last_note = now;
            }
            break;
        case PH_SETTLE:
            if (now - t_phase >= opt.settle) {
                g.counted = 0;
                for (int i = 0; i < opt.followers; i++) {
                    conns[i].counted = conns[i].joined && conns[i].state == ST_OPEN;
                    g.counted += conns[i].counted;
                }
                g.w0_ms = real_ms();
                cpu0 = rusage_s();
                if (opt.ticks_metric[0]) ticks0 = scrape_counter(opt.ticks_metric);
                if (opt.server_pid > 0) srv0 = proc_cpu_s(opt.server_pid);
                machine_jiffies(&mb0, &mt0);
                g.polls = g.empty_polls = 0;
                g.handling_s = 0;
                g.phase = PH_WINDOW;
                t_phase = t_window = now;
            }
            break;
        case PH_WINDOW:
            if (now - t_phase >= opt.seconds) {
                window_s = now - t_window;
                cpu_client = rusage_s() - cpu0;
                if (opt.server_pid > 0) {
                    double s1 = proc_cpu_s(opt.server_pid);
                    srv_cpu = srv0 >= 0 && s1 >= 0 ? s1 - srv0 : -1;
                    srv_rss = proc_rss_kb(opt.server_pid);
                }
                if (opt.ticks_metric[0]) {
                    double t1 = scrape_counter(opt.ticks_metric);
                    srv_ticks = ticks0 >= 0 && t1 >= 0 ? t1 - ticks0 : -1;
                }
                unsigned long long mb1, mt1;
                if (machine_jiffies(&mb1, &mt1) == 0 && mt1 > mt0) machine_busy = 100.0 * (double)(mb1 - mb0) / (double)(mt1 - mt0);
                g.phase = PH_DRAIN;
                t_phase = now;
                for (int i = 0; i < opt.followers; i++) /* connections already gone owe nothing more */
                    if (conns[i].counted && conns[i].state == ST_DONE && !conns[i].past_window) { conns[i].past_window = 1; g.past_window++; }
            }
            break;
        case PH_DRAIN:
            if (g.past_window >= g.counted || now - t_phase >= opt.drain) g.phase = PH_DONE;
            break;
        }
        if (g.phase == PH_DONE) break;
        int timeout = 0;
        if (opt.sleep_mode) timeout = g.phase == PH_CONNECT ? 10 : 5; /* bounded, so phase ends are seen */
        int n = epoll_wait(epfd, evs, 1024, timeout);
        if (n < 0) {
            if (errno == EINTR) continue;
            die("epoll_wait: %s", strerror(errno));
        }
        if (g.phase == PH_WINDOW) {
            g.polls++;
            if (n == 0) g.empty_polls++;
        }
        if (n == 0) continue;
        double h0 = g.phase == PH_WINDOW ? mono_s() : 0;
        for (int i = 0; i < n; i++) on_event(&conns[evs[i].data.u64], evs[i].events);
        if (g.phase == PH_WINDOW) g.handling_s += mono_s() - h0;
    }
    note("window %.2f s: %llu frames, %d of %d followers counted, %d disconnected", window_s,
         (unsigned long long)g.frames, g.counted, opt.followers, g.disconnected);
    if (g.first_error[0]) note("first problem: %s", g.first_error);
    print_report(connect_s, window_s, cpu_client, srv_cpu, srv_rss, srv_ticks, machine_busy);
    return g.counted == opt.followers && g.disconnected == 0 ? 0 : 1;
}
