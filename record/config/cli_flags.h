/* cli_flags: the recorder's flag values that need more than a type of
 * the option engine (common/opt.h): each is an opt_parse_fn over struct
 * config, named after its flag. Private to record/config (cli.c's table). */
#ifndef TT_RECORD_CLI_FLAGS_H
#define TT_RECORD_CLI_FLAGS_H

#include <stddef.h>

#include "opt.h"

int cli_value_model(const char *v, void *cfg, const struct opt_spec *spec,
                    char *err, size_t errlen);
int cli_value_api(const char *v, void *cfg, const struct opt_spec *spec,
                  char *err, size_t errlen);
int cli_value_api_key_env(const char *v, void *cfg, const struct opt_spec *spec,
                          char *err, size_t errlen);
int cli_value_api_key(const char *v, void *cfg, const struct opt_spec *spec,
                      char *err, size_t errlen);
int cli_value_seed(const char *v, void *cfg, const struct opt_spec *spec,
                   char *err, size_t errlen);
int cli_value_extra_body(const char *v, void *cfg, const struct opt_spec *spec,
                         char *err, size_t errlen);
int cli_value_label(const char *v, void *cfg, const struct opt_spec *spec,
                    char *err, size_t errlen);
int cli_value_server_metrics(const char *v, void *cfg,
                             const struct opt_spec *spec, char *err,
                             size_t errlen);
int cli_value_think_time(const char *v, void *cfg, const struct opt_spec *spec,
                         char *err, size_t errlen);
/* What --images takes. */
#define CLI_IMAGES_WANT                                                        \
    "N,WxH: N images (1 to 64) per prompt of W x H pixels (1 to 4096)"

/* --images N,WxH into images_n, images_w, images_h. */
int cli_value_images(const char *v, void *cfg, const struct opt_spec *spec,
                     char *err, size_t errlen);

int cli_value_tokens(const char *v, void *cfg, const struct opt_spec *spec,
                     char *err, size_t errlen);
int cli_value_shard(const char *v, void *cfg, const struct opt_spec *spec,
                    char *err, size_t errlen);
int cli_value_start_at(const char *v, void *cfg, const struct opt_spec *spec,
                       char *err, size_t errlen);
int cli_value_run_id(const char *v, void *cfg, const struct opt_spec *spec,
                     char *err, size_t errlen);
int cli_value_keep_awake(const char *v, void *cfg, const struct opt_spec *spec,
                         char *err, size_t errlen);
int cli_value_search(const char *v, void *cfg, const struct opt_spec *spec,
                     char *err, size_t errlen);
int cli_value_sweep(const char *v, void *cfg, const struct opt_spec *spec,
                    char *err, size_t errlen);

#endif
