/* image_tokens: the input tokens an image is estimated at, one rule for
 * the recorder's estimate (--images) and the replay server's count. */
#ifndef TT_COMMON_IMAGE_TOKENS_H
#define TT_COMMON_IMAGE_TOKENS_H

#include <stdbool.h>
#include <stdint.h>

/* What an image counts when its size is not known (not a base64 PNG):
 * a 448 x 448 image's. */
#define IMAGE_TOKENS_UNSIZED 256

/* One token per 28 x 28 pixel patch, rounded up on each side (Qwen2-VL's
 * 14-pixel patches merged 2 x 2; other models count otherwise): 64 x 64
 * is 9. */
int64_t image_tokens_est(unsigned w, unsigned h);

/* Reads a PNG's width and height from the start of its base64 text b64
 * (NUL-terminated; the signature and IHDR are its first 32 characters).
 * Returns true when it is a PNG, else false (*w, *h untouched). */
bool image_png_size_b64(const char *b64, unsigned *w, unsigned *h);

#endif
