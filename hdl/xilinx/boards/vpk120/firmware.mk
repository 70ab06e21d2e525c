# firmware.mk - the VPK120 firmware: the portable sources (firmware/src), the Versal port
# (firmware/hal/versal) and firmware/app/main_versal.c, for the RPU's first Cortex-R5F, then
# the boot image with it. Run after build.tcl, with Vitis 2023.2 on the PATH (xsct,
# armr5-none-eabi-gcc, bootgen):
#
#   make -f hdl/xilinx/boards/vpk120/firmware.mk   -> build/vivado/vpk120/BOOT.pdi
#
# No Arm toolchain here: test/hdl/xilinx/boards/vpk120/board.test.ts checks this file's commands
# with make -n; `make -C firmware versal-check` compiles the same C with the host compiler and
# runs the port against a register model.

BOARD := $(patsubst %/,%,$(dir $(abspath $(lastword $(MAKEFILE_LIST)))))
ROOT  := $(abspath $(BOARD)/../../../..)
include $(BOARD)/board.mk

FW    := $(ROOT)/firmware
OUT   ?= $(ROOT)/build/vivado/vpk120
BSP   := $(OUT)/bsp/psv_cortexr5_0
OBJ   := $(OUT)/fw
ELF   := $(OUT)/pcie_scope_fw.elf

R5_CC ?= armr5-none-eabi-gcc
XSCT  ?= xsct
BOOTGEN ?= bootgen

CPU     := -mcpu=cortex-r5 -mfloat-abi=hard -mfpu=vfpv3-d16 -DARMR5
SRC     := $(sort $(wildcard $(FW)/src/*.c)) $(sort $(wildcard $(FW)/hal/versal/*.c)) $(FW)/app/main_versal.c
CFLAGS  := -std=c11 -Wall -Wextra -Werror -pedantic -Os -ffunction-sections -fdata-sections $(CPU) \
           -I$(FW)/include -I$(FW)/hal/versal -isystem $(BSP)/include -DPS_CONFIG_PORT \
           -DPS_VSL_CSR_BASEADDR=$(PS_VSL_CSR_BASEADDR)u
# the BSP's linker script (code and data in the R5F's TCM / OCM), its start-up code in libxil
LDFLAGS := $(CPU) -Wl,--gc-sections -Wl,-T,$(BSP)/lscript.ld -Wl,-defsym,_STACK_SIZE=$(PS_STACK_BYTES) \
           -Wl,-defsym,_HEAP_SIZE=0 -L$(BSP)/lib -Wl,--start-group -lxil -lgcc -lc -Wl,--end-group

OBJS := $(patsubst $(FW)/%.c,$(OBJ)/%.o,$(SRC))

.PHONY: all elf bsp
all: $(OUT)/BOOT.pdi
elf: $(ELF)
bsp: $(BSP)/lib/libxil.a

$(BSP)/lib/libxil.a: $(OUT)/top.xsa $(BOARD)/bsp.tcl
	$(XSCT) $(BOARD)/bsp.tcl $(OUT)/top.xsa $(OUT)/bsp

$(OBJ)/%.o: $(FW)/%.c $(BSP)/lib/libxil.a
	@mkdir -p $(@D)
	$(R5_CC) $(CFLAGS) -c $< -o $@

$(ELF): $(OBJS)
	$(R5_CC) $(OBJS) $(LDFLAGS) -o $@

$(OUT)/BOOT.pdi: $(ELF) $(OUT)/top.pdi $(BOARD)/boot.bif
	cd $(OUT) && $(BOOTGEN) -arch versal -image $(BOARD)/boot.bif -w -o $(OUT)/BOOT.pdi
