/* png_synth: seeded noise images as valid PNG files (--images). */
#ifndef TT_RECORD_PNG_SYNTH_H
#define TT_RECORD_PNG_SYNTH_H

#include <stdint.h>

#include "buf.h"

/* The largest width or height --images takes. */
#define PNG_SYNTH_MAX_SIDE 4096

/* Appends a w x h 8-bit RGB PNG whose pixels are splitmix64 noise from
 * seed (common/rng.h: the same seed gives the same bytes everywhere). The
 * image data is zlib with stored (uncompressed) deflate blocks, so the
 * file is (3*w + 1)*h bytes plus 68 (and 5 per 64 KiB), and a server
 * decodes it as any PNG.
 * w and h are 1..PNG_SYNTH_MAX_SIDE. Returns the buffer's sticky error
 * (buf.h), BUF_OK when the whole file went in. */
int png_synth(uint64_t seed, unsigned w, unsigned h, struct buf *out);

#endif
