/* Compile-check shim of xtmrctr_l.h (tmrctr driver v4.x): only what hal_xilinx.c uses. */
#ifndef XTMRCTR_L_H
#define XTMRCTR_L_H
#include "xil_io.h"
#include "xil_types.h"

#define XTC_TCSR_OFFSET 0
#define XTC_TLR_OFFSET 4
#define XTC_TCR_OFFSET 8

#define XTC_CSR_ENABLE_TMR_MASK 0x00000080
#define XTC_CSR_LOAD_MASK 0x00000020
#define XTC_CSR_AUTO_RELOAD_MASK 0x00000010

extern u8 XTmrCtr_Offsets[];

#define XTmrCtr_ReadReg(BaseAddress, TmrCtrNumber, RegOffset) \
    Xil_In32((BaseAddress) + XTmrCtr_Offsets[(TmrCtrNumber)] + (RegOffset))
#define XTmrCtr_WriteReg(BaseAddress, TmrCtrNumber, RegOffset, ValueToWrite) \
    Xil_Out32(((BaseAddress) + XTmrCtr_Offsets[(TmrCtrNumber)] + (RegOffset)), (ValueToWrite))
#define XTmrCtr_SetControlStatusReg(BaseAddress, TmrCtrNumber, RegisterValue) \
    XTmrCtr_WriteReg((BaseAddress), (TmrCtrNumber), XTC_TCSR_OFFSET, (RegisterValue))
#define XTmrCtr_GetTimerCounterReg(BaseAddress, TmrCtrNumber) \
    XTmrCtr_ReadReg((BaseAddress), (TmrCtrNumber), XTC_TCR_OFFSET)
#define XTmrCtr_SetLoadReg(BaseAddress, TmrCtrNumber, RegisterValue) \
    XTmrCtr_WriteReg((BaseAddress), (TmrCtrNumber), XTC_TLR_OFFSET, (RegisterValue))
#define XTmrCtr_Enable(BaseAddress, TmrCtrNumber)                                     \
    XTmrCtr_WriteReg((BaseAddress), (TmrCtrNumber), XTC_TCSR_OFFSET,                  \
                     (XTmrCtr_ReadReg((BaseAddress), (TmrCtrNumber), XTC_TCSR_OFFSET) \
                      | XTC_CSR_ENABLE_TMR_MASK))
#define XTmrCtr_LoadTimerCounterReg(BaseAddress, TmrCtrNumber) \
    XTmrCtr_WriteReg(                                          \
        (BaseAddress), (TmrCtrNumber), XTC_TCSR_OFFSET,        \
        (XTmrCtr_ReadReg((BaseAddress), (TmrCtrNumber), XTC_TCSR_OFFSET) | XTC_CSR_LOAD_MASK))
#endif
