# firmware.mk - the VCU118 firmware: the portable sources (firmware/src), the board port
# (firmware/hal/xilinx) and firmware/app/main.c, for cpu_bd's MicroBlaze, then the bitstream
# with that ELF in the MicroBlaze's BRAM. Run after build.tcl, with Vitis 2022.2 on the PATH
# (xsct, mb-gcc, updatemem):
#
#   make -f hdl/xilinx/boards/vcu118/firmware.mk DESIGN=switch|bar
#                                     -> build/vivado/vcu118-<design>/top_fw.bit
#
# No Xilinx toolchain here: test/hdl/xilinx/boards/vcu118/board.test.ts checks this file's
# commands with make -n; `make -C firmware xilinx-check` compiles the same C against shims.

BOARD := $(patsubst %/,%,$(dir $(abspath $(lastword $(MAKEFILE_LIST)))))
ROOT  := $(abspath $(BOARD)/../../../..)
include $(BOARD)/board.mk

FW    := $(ROOT)/firmware
DESIGN ?= switch
OUT   ?= $(ROOT)/build/vivado/vcu118-$(DESIGN)
BSP   := $(OUT)/bsp/microblaze_0
OBJ   := $(OUT)/fw
ELF   := $(OUT)/pcie_scope_fw.elf

MB_CC ?= mb-gcc
XSCT  ?= xsct
MB_SIZE ?= mb-size
UPDATEMEM ?= updatemem

# cpu_bd's MicroBlaze has no hardware multiplier, divider or barrel shifter configured: soft ones
CPU     := -mcpu=v11.0 -mlittle-endian -mxl-soft-mul -mxl-soft-div -mno-xl-barrel-shift
SRC     := $(sort $(wildcard $(FW)/src/*.c)) $(sort $(wildcard $(FW)/hal/xilinx/*.c)) $(FW)/app/main.c
CFLAGS  := -std=c11 -Wall -Wextra -Werror -pedantic -Os -ffunction-sections -fdata-sections $(CPU) \
           -I$(FW)/include -I$(FW)/hal/xilinx -isystem $(BSP)/include \
           -DPS_XIL_CSR_BASEADDR=$(PS_XIL_CSR_BASEADDR)u
# mb-gcc's default linker script starts at address 0, where cpu_bd's local memory is
LDFLAGS := $(CPU) -Wl,--gc-sections -Wl,-defsym,_STACK_SIZE=$(PS_STACK_BYTES) -Wl,-defsym,_HEAP_SIZE=0 \
           -L$(BSP)/lib -Wl,--start-group -lxil -lgcc -lc -Wl,--end-group

OBJS := $(patsubst $(FW)/%.c,$(OBJ)/%.o,$(SRC))

.PHONY: all elf bsp
all: $(OUT)/top_fw.bit
elf: $(ELF)
bsp: $(BSP)/lib/libxil.a

$(BSP)/lib/libxil.a: $(OUT)/top.xsa $(BOARD)/bsp.tcl
	$(XSCT) $(BOARD)/bsp.tcl $(OUT)/top.xsa $(OUT)/bsp

$(OBJ)/%.o: $(FW)/%.c $(BSP)/lib/libxil.a
	@mkdir -p $(@D)
	$(MB_CC) $(CFLAGS) -c $< -o $@

# the image (text, data, BSS with the stack) must fit the local memory
$(ELF): $(OBJS)
	$(MB_CC) $(OBJS) $(LDFLAGS) -o $@
	@size=$$($(MB_SIZE) -B $@ | awk 'NR == 2 { print $$4 }'); \
	 test $$size -le $(PS_LMB_BYTES) || { echo "$@: $$size bytes, local memory $(PS_LMB_BYTES)"; exit 1; }

$(OUT)/top_fw.bit: $(ELF) $(OUT)/top.bit $(OUT)/top.mmi
	$(UPDATEMEM) -force -meminfo $(OUT)/top.mmi -data $(ELF) -bit $(OUT)/top.bit \
	  -proc cpu_bd_inst/cpu_bd_i/microblaze_0 -out $@
