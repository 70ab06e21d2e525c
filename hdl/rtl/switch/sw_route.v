`resetall
`timescale 1ns / 1ps
`default_nettype none

`include "pcie_scope_regs.vh"

/*
 * Routing decision for one TLP header arriving at one port of the two-port switch
 * (combinational). The rules, with their sources, are in docs/pcie.md ("Switch
 * routing"); every TLP gets exactly one counter (PS_SW_CNT_*): the one of its fate.
 */
module sw_route #
(
    // 1: the TLP arrived at the upstream port (host side), 0: at the downstream port
    parameter FROM_UP = 1,
    // 0: the switch answers its upstream port's configuration (sw_cfg_space), today's design;
    // 1: a hard block in switch-upstream-port mode owns that Type 1 header, its bus numbers and
    // windows (Versal CPM5 / PL PCIE, hdl/xilinx/boards/vpk120/README.md): what reaches the
    // upstream ingress was already claimed by the block, a Type 0 request reaching it gets UR, and the upstream
    // port's header state is neither kept nor consulted here
    parameter UP_CFG_IN_BLOCK = 0
)
(
    input  wire [127:0] hdr,

    // upstream port's configuration
    input  wire         up_mem_enable,
    input  wire         up_bus_master,
    input  wire [7:0]   up_secondary_bus,
    input  wire [7:0]   up_subordinate_bus,
    input  wire [11:0]  up_mem_base,
    input  wire [11:0]  up_mem_limit,
    input  wire [43:0]  up_pref_base,
    input  wire [43:0]  up_pref_limit,
    // downstream port's configuration
    input  wire         dn_mem_enable,
    input  wire         dn_bus_master,
    input  wire [7:0]   dn_secondary_bus,
    input  wire [7:0]   dn_subordinate_bus,
    input  wire [11:0]  dn_mem_base,
    input  wire [11:0]  dn_mem_limit,
    input  wire [43:0]  dn_pref_base,
    input  wire [43:0]  dn_pref_limit,

    // fate: forward to the other port, answer locally from a configuration space,
    // answer with UR, or discard
    output reg  [1:0]   act,
    // counter of the fate (PS_SW_CNT_*)
    output reg  [2:0]   cnt,
    // ordering class: 0 posted, 1 non-posted, 2 completion
    output wire [1:0]   cls,
    // forwarded as configuration type 0 (Type bit 0 cleared)
    output reg          to_type0,
    // a local configuration access targets the downstream port (else the upstream port)
    output reg          cfg_dn
);

localparam ACT_FWD = 2'd0, ACT_CFG = 2'd1, ACT_UR = 2'd2, ACT_DROP = 2'd3;
localparam [0:0] BLK = UP_CFG_IN_BLOCK != 0;

wire [2:0] fmt = hdr[127:125];
wire [4:0] typ = hdr[124:120];

wire prefix   = fmt[2];
wire is_mem   = typ[4:1] == 4'b0000;
wire is_io    = typ == 5'b00010;
wire is_cfg   = typ[4:1] == 4'b0010;
wire is_cpl   = typ[4:1] == 4'b0101;
wire is_atom  = typ[4:2] == 3'b011 && typ != 5'b01111;
wire is_msg   = typ[4:3] == 2'b10;
wire is_write = is_mem && fmt[1];
wire posted   = is_write || is_msg;

assign cls = posted ? 2'd0 : is_cpl ? 2'd2 : 2'd1;

// memory and address-routed message address in 1 MiB units (3DW: 32-bit, 4DW: 64-bit)
wire [43:0] a_mb = fmt[0] ? {hdr[63:32], hdr[31:20]} : {32'd0, hdr[63:52]};

function in_win;
    input [43:0] a;
    input [11:0] mb, ml;
    input [43:0] pb, pl;
    begin
        in_win = (a[43:12] == 32'd0 && a[11:0] >= mb && a[11:0] <= ml) || (a >= pb && a <= pl);
    end
endfunction

wire up_hit = in_win(a_mb, up_mem_base, up_mem_limit, up_pref_base, up_pref_limit);
wire dn_hit = in_win(a_mb, dn_mem_base, dn_mem_limit, dn_pref_base, dn_pref_limit);

// memory space downward: claimed by both ports' windows with memory space enabled;
// upward: outside both windows (negative decode) with bus mastering enabled on both
// (UP_CFG_IN_BLOCK: the block applied its own windows, Memory Space and Bus Master Enable)
wire mem_ok = BLK ? (FROM_UP ? (dn_mem_enable && dn_hit) : (dn_bus_master && !dn_hit))
            : FROM_UP ? (up_mem_enable && dn_mem_enable && up_hit && dn_hit)
                      : (up_bus_master && dn_bus_master && !up_hit && !dn_hit);

// ID routing: configuration target bus, completion Requester ID bus, message target bus
wire [7:0] bus = hdr[63:56];
wire dev0 = hdr[55:51] == 5'd0;
wire fn0 = hdr[50:48] == 3'd0;
wire in_up_range = bus >= up_secondary_bus && bus <= up_subordinate_bus;
wire in_dn_range = bus >= dn_secondary_bus && bus <= dn_subordinate_bus;
// ID-routed TLP crossing the switch: down into the downstream port's buses, up from anywhere else
// (UP_CFG_IN_BLOCK: the block forwards only its own bus range; the downstream port's decides)
wire id_ok = BLK ? (FROM_UP ? in_dn_range : !in_dn_range)
           : FROM_UP ? (in_up_range && in_dn_range) : !in_up_range;
// the internal bus: the upstream port's secondary bus, or (UP_CFG_IN_BLOCK) any bus of the
// block's range that is not the downstream port's
wire internal_bus = BLK ? !in_dn_range : bus == up_secondary_bus;
wire below_dn = BLK ? in_dn_range : in_up_range && in_dn_range;

always @* begin
    act = ACT_FWD;
    cnt = `PS_SW_CNT_FWD;
    to_type0 = 1'b0;
    cfg_dn = 1'b0;
    if (prefix || (is_mem && fmt[1] && typ[0])) begin
        // TLP prefixes are not routed; a locked write is no TLP
        act = ACT_DROP;
        cnt = `PS_SW_CNT_MALFORMED;
    end else if (is_mem || is_atom) begin
        if (!mem_ok || (!FROM_UP && typ[0] && is_mem)) begin
            // MRdLk goes downstream only
            act = posted ? ACT_DROP : ACT_UR;
            cnt = posted ? `PS_SW_CNT_DROP_POSTED : `PS_SW_CNT_UR;
        end
    end else if (is_cfg) begin
        if (!FROM_UP) begin
            act = ACT_UR;
            cnt = `PS_SW_CNT_UR;
        end else if (!typ[0]) begin
            // type 0: the upstream port itself (function 0 of device 0 only); the block's own
            // header when UP_CFG_IN_BLOCK, so none should arrive
            act = dev0 && fn0 && !BLK ? ACT_CFG : ACT_UR;
            cnt = dev0 && fn0 && !BLK ? `PS_SW_CNT_CFG_LOCAL : `PS_SW_CNT_UR;
        end else if (internal_bus) begin
            // type 1 on the internal bus: the downstream port is device 0, function 0
            act = dev0 && fn0 ? ACT_CFG : ACT_UR;
            cnt = dev0 && fn0 ? `PS_SW_CNT_CFG_LOCAL : `PS_SW_CNT_UR;
            cfg_dn = 1'b1;
        end else if ((BLK ? in_dn_range : in_up_range) && bus == dn_secondary_bus) begin
            // the link below has one device: device 0, converted to type 0
            act = dev0 ? ACT_FWD : ACT_UR;
            cnt = dev0 ? `PS_SW_CNT_FWD : `PS_SW_CNT_UR;
            to_type0 = 1'b1;
        end else if (!below_dn) begin
            act = ACT_UR;
            cnt = `PS_SW_CNT_UR;
        end
    end else if (is_cpl) begin
        if (!id_ok) begin
            act = ACT_DROP;
            cnt = `PS_SW_CNT_DROP_CPL;
        end
    end else if (is_msg) begin
        case (typ[2:0])
            3'b000, 3'b101: begin
                // to the root complex / gathered to the root complex: upward only
                act = FROM_UP ? ACT_DROP : ACT_FWD;
                cnt = FROM_UP ? `PS_SW_CNT_MALFORMED : `PS_SW_CNT_FWD;
            end
            3'b001: begin
                act = mem_ok ? ACT_FWD : ACT_DROP;
                cnt = mem_ok ? `PS_SW_CNT_FWD : `PS_SW_CNT_DROP_POSTED;
            end
            3'b010: begin
                act = id_ok ? ACT_FWD : ACT_DROP;
                cnt = id_ok ? `PS_SW_CNT_FWD : `PS_SW_CNT_DROP_POSTED;
            end
            3'b011: begin
                // broadcast from the root complex: downward only
                act = FROM_UP ? ACT_FWD : ACT_DROP;
                cnt = FROM_UP ? `PS_SW_CNT_FWD : `PS_SW_CNT_MALFORMED;
            end
            default: begin
                // local, and the reserved codes, which receivers treat as local
                act = ACT_DROP;
                cnt = `PS_SW_CNT_MSG_LOCAL;
            end
        endcase
    end else if (is_io) begin
        // no I/O window: I/O Base/Limit read zero
        act = ACT_UR;
        cnt = `PS_SW_CNT_UR;
    end else begin
        act = ACT_DROP;
        cnt = `PS_SW_CNT_MALFORMED;
    end
end

// DW1 and the rest of DW0 do not steer routing
wire unused_hdr = &{1'b0, hdr[119:64], hdr[19:0], 1'b0};

endmodule

`resetall
