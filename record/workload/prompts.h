/* prompts: the built-in workload files (record/workload/prompts/NAME.txt),
 * embedded at build time by record/workload/embed_prompts.cmake into a
 * generated prompts_data.c.
 * Each array is NUL-terminated; its _len excludes the NUL. */
#ifndef TT_RECORD_PROMPTS_H
#define TT_RECORD_PROMPTS_H

#include <stddef.h>

extern const unsigned char prompts_short_short[];
extern const size_t prompts_short_short_len;
extern const unsigned char prompts_short_long[];
extern const size_t prompts_short_long_len;
extern const unsigned char prompts_long_context[];
extern const size_t prompts_long_context_len;
extern const unsigned char prompts_long_short[];
extern const size_t prompts_long_short_len;
extern const unsigned char prompts_agent_system[];
extern const size_t prompts_agent_system_len;
extern const unsigned char prompts_agent_sessions[];
extern const size_t prompts_agent_sessions_len;

#endif
