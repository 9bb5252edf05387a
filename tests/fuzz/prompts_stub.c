/* prompts_stub: empty built-in prompts, so the workload fuzz target links
 * record/workload/workload.c without the recorder's generated prompts_data.c.
 */
#include "prompts.h"

const unsigned char prompts_short_short[] = "";
const size_t prompts_short_short_len = 0;
const unsigned char prompts_short_long[] = "";
const size_t prompts_short_long_len = 0;
const unsigned char prompts_long_context[] = "";
const size_t prompts_long_context_len = 0;
const unsigned char prompts_long_short[] = "";
const size_t prompts_long_short_len = 0;
const unsigned char prompts_agent_system[] = "";
const size_t prompts_agent_system_len = 0;
const unsigned char prompts_agent_sessions[] = "";
const size_t prompts_agent_sessions_len = 0;
