#ifndef WSH_CCOMPRESSION_SHIM_H
#define WSH_CCOMPRESSION_SHIM_H

#include <zlib.h>
#include <brotli/decode.h>

// inflateInit2 is a macro that passes zlib's version and the stream's size, which Swift cannot import.
static inline int wsh_inflate_init(z_stream *stream, int window_bits) {
    return inflateInit2(stream, window_bits);
}

#endif
