/* workload_images: seeded PNG image parts added to the built-in prompts. */
#include "workload_images.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base64.h"
#include "buf.h"
#include "image_tokens.h"
#include "png_synth.h"
#include "rng.h"

/* The most image bytes (base64) one workload may hold in memory. */
#define IMAGES_MAX_BYTES ((uint64_t)1 << 30)
/* Mixed into --seed first, so the images' numbers are not another
 * stream's (rng_mix(seed, stream) seeds per-stream generators). */
#define IMAGES_STREAM 0x696d61676573ULL /* "images" */

/* One image part of the seeded PNG for api, or NULL (out of memory). */
static cJSON *image_part(enum api_kind api, uint64_t seed, unsigned w,
                         unsigned h)
{
    struct buf png, b64;
    cJSON *part = NULL, *inner;
    buf_init(&png, 0);
    buf_init(&b64, 0);
    if (png_synth(seed, w, h, &png))
        goto done;
    if (api == API_ANTHROPIC) {
        if (base64_put(&b64, (const uint8_t *)png.data, png.len) ||
            !(part = cJSON_CreateObject()))
            goto done;
        if (!cJSON_AddStringToObject(part, "type", "image") ||
            !(inner = cJSON_AddObjectToObject(part, "source")) ||
            !cJSON_AddStringToObject(inner, "type", "base64") ||
            !cJSON_AddStringToObject(inner, "media_type", "image/png") ||
            !cJSON_AddStringToObject(inner, "data", b64.data))
            goto fail;
    } else {
        if (buf_puts(&b64, "data:image/png;base64,") ||
            base64_put(&b64, (const uint8_t *)png.data, png.len) ||
            !(part = cJSON_CreateObject()))
            goto done;
        if (!cJSON_AddStringToObject(part, "type", "image_url") ||
            !(inner = cJSON_AddObjectToObject(part, "image_url")) ||
            !cJSON_AddStringToObject(inner, "url", b64.data))
            goto fail;
    }
    goto done;
fail:
    cJSON_Delete(part);
    part = NULL;
done:
    buf_free(&png);
    buf_free(&b64);
    return part;
}

/* The messages of one prompt: a user message of the text and n images
 * seeded from first on. NULL when out of memory. */
static cJSON *prompt_messages(enum api_kind api, const char *text,
                              const struct workload_images *im, uint64_t seed,
                              uint64_t first)
{
    cJSON *msgs = cJSON_CreateArray(), *m = cJSON_CreateObject(), *content,
          *part;
    if (!msgs || !m || !cJSON_AddItemToArray(msgs, m)) {
        cJSON_Delete(msgs);
        cJSON_Delete(m);
        return NULL;
    }
    part = cJSON_CreateObject();
    if (!cJSON_AddStringToObject(m, "role", "user") ||
        !(content = cJSON_AddArrayToObject(m, "content")) || !part ||
        !cJSON_AddItemToArray(content, part) ||
        !cJSON_AddStringToObject(part, "type", "text") ||
        !cJSON_AddStringToObject(part, "text", text))
        goto fail;
    for (unsigned k = 0; k < im->n; k++) {
        part = image_part(api, rng_mix(seed, first + k), im->w, im->h);
        if (!part || !cJSON_AddItemToArray(content, part))
            goto fail;
    }
    return msgs;
fail:
    cJSON_Delete(msgs);
    return NULL;
}

/* Refuses what --images cannot go into: another API kind, a session, too
 * many bytes. Returns 0 or WORKLOAD_E_INVALID with err set. */
static int images_check(const struct workload *wl, enum api_kind api,
                        const struct workload_images *im, char *err,
                        size_t errlen)
{
    uint64_t items = 0, per;
    if (api != API_OPENAI_CHAT && api != API_ANTHROPIC) {
        snprintf(err, errlen,
                 "--images: --api %s bodies carry no images here (use "
                 "openai-chat or anthropic)",
                 api_kind_name(api));
        return WORKLOAD_E_INVALID;
    }
    for (size_t c = 0; c < wl->n_classes; c++)
        for (size_t i = 0; i < wl->classes[c].n_items; i++) {
            if (!wl->classes[c].items[i].prompt) {
                snprintf(err, errlen,
                         "--images: class %s sends sessions, which get no "
                         "images (--images adds them to the single-request "
                         "built-in prompts): leave it out of --classes",
                         wl->classes[c].name);
                return WORKLOAD_E_INVALID;
            }
            items++;
        }
    per = ((3 * (uint64_t)im->w + 1) * im->h + 100) * 4 / 3;
    if (items * im->n * per > IMAGES_MAX_BYTES) {
        snprintf(err, errlen,
                 "--images %u,%ux%u: %llu prompts would hold %llu MiB of "
                 "images (at most %llu MiB): fewer or smaller images, or "
                 "fewer --classes",
                 im->n, im->w, im->h, (unsigned long long)items,
                 (unsigned long long)(items * im->n * per >> 20),
                 (unsigned long long)(IMAGES_MAX_BYTES >> 20));
        return WORKLOAD_E_INVALID;
    }
    return WORKLOAD_OK;
}

int workload_add_images(struct workload *wl, enum api_kind api,
                        const struct workload_images *im, uint64_t seed,
                        char *err, size_t errlen)
{
    uint64_t j = 0;
    int rc;
    if (im->n == 0)
        return WORKLOAD_OK;
    seed = rng_mix(seed, IMAGES_STREAM);
    rc = images_check(wl, api, im, err, errlen);
    if (rc)
        return rc;
    for (size_t c = 0; c < wl->n_classes; c++)
        for (size_t i = 0; i < wl->classes[c].n_items; i++, j++) {
            struct workload_item *it = &wl->classes[c].items[i];
            cJSON *msgs = prompt_messages(api, it->prompt, im, seed, j * im->n);
            if (!msgs) {
                snprintf(err, errlen, "out of memory making --images");
                return WORKLOAD_E_NOMEM;
            }
            free(it->prompt);
            it->prompt = NULL;
            it->messages = msgs;
            it->input_tokens_est +=
                (int64_t)im->n * image_tokens_est(im->w, im->h);
        }
    return WORKLOAD_OK;
}
