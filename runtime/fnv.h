/* FNV-1a 64: the container checksum and the cache key hash.  Hashes bytes,
 * never pointers, so results are the same on every machine and run. */
#ifndef USCC_FNV_H
#define USCC_FNV_H

#include <stddef.h>
#include <stdint.h>

#define FNV64_BASIS 0xcbf29ce484222325ULL
#define FNV64_PRIME 0x100000001b3ULL

static inline uint64_t fnv64_update(uint64_t h, const void *data, size_t n)
{
	const uint8_t *p = data;
	/* still a byte at a time (the format's checksum): unrolled, the loop's
	 * own count and branch no longer cost as much as the hash */
#pragma GCC unroll 8
	for (size_t i = 0; i < n; i++) {
		h ^= p[i];
		h *= FNV64_PRIME;
	}
	return h;
}

static inline uint64_t fnv64(const void *data, size_t n)
{
	return fnv64_update(FNV64_BASIS, data, n);
}

#endif
