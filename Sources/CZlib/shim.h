// zlib (Debian zlib1g-dev) for recordings: deflateInit2/inflateInit2 are
// macros, so Swift calls them through these inline functions.
#include <zlib.h>

/// A gzip stream writer (window 15 bits, +16 selects the gzip wrapper).
static inline int camhub_deflate_gzip(z_streamp stream, int level) {
    return deflateInit2(stream, level, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY);
}

/// A reader of gzip (or zlib) streams (+32: detect the wrapper from the header).
static inline int camhub_inflate_auto(z_streamp stream) {
    return inflateInit2(stream, 15 + 32);
}

/// A raw deflate stream (no wrapper: a zip entry's data).
static inline int camhub_deflate_raw(z_streamp stream, int level) {
    return deflateInit2(stream, level, Z_DEFLATED, -15, 8, Z_DEFAULT_STRATEGY);
}

/// A reader of raw deflate data (a zip entry's).
static inline int camhub_inflate_raw(z_streamp stream) {
    return inflateInit2(stream, -15);
}
