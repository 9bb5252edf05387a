/* workload_images: --images N,WxH, seeded PNG images in the built-in
 * prompts' user messages. */
#ifndef TT_RECORD_WORKLOAD_IMAGES_H
#define TT_RECORD_WORKLOAD_IMAGES_H

#include <stddef.h>
#include <stdint.h>

#include "api_kind.h"
#include "workload.h"

/* What --images adds to each prompt. */
struct workload_images {
    unsigned n; /* images per prompt, 0: none */
    unsigned w, h;
};

/* Turns every text-prompt item of wl into one user message whose content
 * is the text part then im->n PNG images (png_synth.h) of im->w x im->h:
 * openai-chat "image_url" parts with a data:image/png;base64 URL,
 * anthropic "image" parts with a base64 source. Image k of the j-th
 * prompt (counted over the classes in order) is seeded from
 * rng_mix(rng_mix(seed, "images" as a number), j * n + k): the same
 * seed gives the same bytes. Each image adds image_tokens_est
 * (image_tokens.h) to the item's input_tokens_est. Items with no text
 * prompt (sessions) are refused, and so are other API kinds:
 * WORKLOAD_E_INVALID with err saying why. WORKLOAD_E_NOMEM when out of
 * memory. */
int workload_add_images(struct workload *wl, enum api_kind api,
                        const struct workload_images *im, uint64_t seed,
                        char *err, size_t errlen);

#endif
