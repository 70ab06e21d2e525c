/*
 * ps_crc16.h - CRC-16/CCITT-FALSE (poly 0x1021, init 0xFFFF, not reflected, xorout 0),
 * the frame checksum of spec/protocol.json. Check value: CRC of "123456789" = 0x29B1.
 */
#ifndef PS_CRC16_H
#define PS_CRC16_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Continue a running CRC (start with PS_CRC16_INIT); lets a frame be checked in pieces. */
uint16_t ps_crc16_update(uint16_t crc, const uint8_t *data, size_t len);

/* CRC of one buffer: init, update, xorout. */
uint16_t ps_crc16(const uint8_t *data, size_t len);

#ifdef __cplusplus
}
#endif

#endif /* PS_CRC16_H */
