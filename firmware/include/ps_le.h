/*
 * ps_le.h - explicit little-endian packing. The wire is a byte array; never overlay a
 * struct on it (padding and the CPU's byte order are not the protocol's).
 */
#ifndef PS_LE_H
#define PS_LE_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

static inline void ps_put_u8(uint8_t *p, uint8_t v) { p[0] = v; }

static inline void ps_put_u16le(uint8_t *p, uint16_t v)
{
    p[0] = (uint8_t)(v & 0xFFu);
    p[1] = (uint8_t)(v >> 8);
}

static inline void ps_put_u32le(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)(v & 0xFFu);
    p[1] = (uint8_t)((v >> 8) & 0xFFu);
    p[2] = (uint8_t)((v >> 16) & 0xFFu);
    p[3] = (uint8_t)(v >> 24);
}

static inline void ps_put_u64le(uint8_t *p, uint64_t v)
{
    ps_put_u32le(p, (uint32_t)(v & 0xFFFFFFFFu));
    ps_put_u32le(p + 4, (uint32_t)(v >> 32));
}

static inline uint8_t ps_get_u8(const uint8_t *p) { return p[0]; }

static inline uint16_t ps_get_u16le(const uint8_t *p)
{
    return (uint16_t)((uint16_t)p[0] | (uint16_t)((uint16_t)p[1] << 8));
}

static inline uint32_t ps_get_u32le(const uint8_t *p)
{
    return (uint32_t)p[0] | ((uint32_t)p[1] << 8) | ((uint32_t)p[2] << 16) | ((uint32_t)p[3] << 24);
}

static inline uint64_t ps_get_u64le(const uint8_t *p)
{
    return (uint64_t)ps_get_u32le(p) | ((uint64_t)ps_get_u32le(p + 4) << 32);
}

#ifdef __cplusplus
}
#endif

#endif /* PS_LE_H */
