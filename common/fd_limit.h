/* fd_limit: raising the open-file soft limit, shared by the recorder, the
 * replay server and the proxy (every concurrent stream holds a socket). */
#ifndef TT_FD_LIMIT_H
#define TT_FD_LIMIT_H

#include <stddef.h>
#include <stdint.h>

/* Raises RLIMIT_NOFILE's soft limit to the hard one (an infinite hard
 * limit counts as 1,048,576) and reads both back into *soft and *hard
 * (UINT64_MAX: infinite). Returns 0; -1 when the limits cannot be read
 * (*soft = *hard = 0); 1 when the raise was refused, with the reason in
 * err (the limits as they stay). */
int fd_limit_raise(uint64_t *soft, uint64_t *hard, char *err, size_t errlen);

#endif
