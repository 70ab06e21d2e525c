/* ps_crc16.c - bitwise CRC-16/CCITT-FALSE: no table, ~20 instructions a bit, fine for 245 B. */
#include "ps_crc16.h"

#include "generated/pcie_scope_protocol.h"

uint16_t ps_crc16_update(uint16_t crc, const uint8_t *data, size_t len)
{
    for (size_t i = 0; i < len; i++) {
        crc = (uint16_t)(crc ^ (uint16_t)((uint16_t)data[i] << 8));
        for (unsigned bit = 0; bit < 8u; bit++) {
            crc = (crc & 0x8000u) ? (uint16_t)((uint16_t)(crc << 1) ^ PS_CRC16_POLY)
                                  : (uint16_t)(crc << 1);
        }
    }
    return crc;
}

uint16_t ps_crc16(const uint8_t *data, size_t len)
{
    return (uint16_t)(ps_crc16_update((uint16_t)PS_CRC16_INIT, data, len) ^ PS_CRC16_XOROUT);
}
