/* Compile-check shim of xuartlite_l.h (uartlite driver v3.x): only what hal_xilinx.c uses. */
#ifndef XUARTLITE_L_H
#define XUARTLITE_L_H
#include "xil_io.h"
#include "xil_types.h"

#define XUL_RX_FIFO_OFFSET 0
#define XUL_TX_FIFO_OFFSET 4
#define XUL_STATUS_REG_OFFSET 8
#define XUL_CONTROL_REG_OFFSET 12

#define XUL_CR_FIFO_RX_RESET 0x02
#define XUL_CR_FIFO_TX_RESET 0x01
#define XUL_SR_TX_FIFO_FULL 0x08
#define XUL_SR_RX_FIFO_VALID_DATA 0x01

#define XUartLite_In32 Xil_In32
#define XUartLite_Out32 Xil_Out32
#define XUartLite_WriteReg(BaseAddress, RegOffset, Data) \
    XUartLite_Out32((BaseAddress) + (RegOffset), (u32)(Data))
#define XUartLite_ReadReg(BaseAddress, RegOffset) XUartLite_In32((BaseAddress) + (RegOffset))
#define XUartLite_SetControlReg(BaseAddress, Mask) \
    XUartLite_WriteReg((BaseAddress), XUL_CONTROL_REG_OFFSET, (Mask))
#define XUartLite_GetStatusReg(BaseAddress) XUartLite_ReadReg((BaseAddress), XUL_STATUS_REG_OFFSET)
#define XUartLite_IsReceiveEmpty(BaseAddress)                            \
    ((XUartLite_GetStatusReg((BaseAddress)) & XUL_SR_RX_FIFO_VALID_DATA) \
     != XUL_SR_RX_FIFO_VALID_DATA)
#define XUartLite_IsTransmitFull(BaseAddress) \
    ((XUartLite_GetStatusReg((BaseAddress)) & XUL_SR_TX_FIFO_FULL) == XUL_SR_TX_FIFO_FULL)

void XUartLite_SendByte(UINTPTR BaseAddress, u8 Data);
u8 XUartLite_RecvByte(UINTPTR BaseAddress);
#endif
