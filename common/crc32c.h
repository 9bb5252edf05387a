/* crc32c: CRC-32C (Castagnoli, the polynomial of iSCSI, ext4 and SCTP),
 * the checksum of every record of a version 2 trace. */
#ifndef TT_CRC32C_H
#define TT_CRC32C_H

#include <stddef.h>
#include <stdint.h>

/* The CRC-32C of n bytes at p, continuing crc (0 to start). Can't fail;
 * crc32c(0, "123456789", 9) == 0xe3069283. */
uint32_t crc32c(uint32_t crc, const void *p, size_t n);

#endif
