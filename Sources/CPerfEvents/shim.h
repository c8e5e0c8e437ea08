// Linux perf events (linux/perf_event.h, from linux-libc-dev) for `camhub bench`:
// counting a local hub's send syscalls. perf_event_open has no libc wrapper
// and `syscall` is variadic, so Swift calls it through this inline function.
#include <linux/perf_event.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

/// A counter of tracepoint `id` (tracefs events/<group>/<name>/id) hit by
/// thread `tid` and the threads it starts later; counting from now. Returns
/// the counter's fd (read 8 bytes for the count) or -1 with errno set.
static inline int camhub_open_tracepoint_counter(int tid, unsigned long long id) {
    struct perf_event_attr attr;
    memset(&attr, 0, sizeof attr);
    attr.type = PERF_TYPE_TRACEPOINT;
    attr.size = sizeof attr;
    attr.config = id;
    attr.inherit = 1;
    return (int)syscall(SYS_perf_event_open, &attr, tid, -1, -1, PERF_FLAG_FD_CLOEXEC);
}

/// The calling thread's Linux thread id (what /proc/PID/task lists).
static inline int camhub_current_thread_id(void) {
    return (int)syscall(SYS_gettid);
}
