// The host above the switch's upstream port in switch mode: a root complex that answers the
// memory reads leaving the switch upstream (up_tx) with CplDs into its upstream ingress (up_rx),
// with the BAR responder's rules (bar_responder.v: first CplD max(latency, 2) clocks after the
// read was taken plus a draw in 0..BAR_JITTER from the responder's LFSR, in request order, split
// at the Read Completion Boundary when CPL_SPLIT is 64 or 128, payload DW i = A + 4 i of the
// CplD's DW-aligned start address A), so the twin's completion checker verifies
// every byte as in endpoint mode; a read taken reserves its payload DWs in a completion buffer of
// CPL_BUFFER_BYTES until its last CplD, and a full buffer takes no read, as the responder (it
// lowers up_tx_np_ok, no non-posted credit, and keeps up_tx_ready for everything else);
// and the configuration requester the enumerator uses.
//
// Clocking: sample() on the settled signals before a rising edge, then drive(), also before it,
// with what the host drives for the clock after that edge: twin_switch_top (native/twin/rtl)
// registers those inputs at the edge, so the switch sees them as from a host that drove them
// after it. drive() reads the completer settings (BAR_LATENCY, CPL_SPLIT) as they stand before
// the edge: a CSR write reaches the host model one clock after it lands. Segments (Vswitch: 1 per
// beat, Vswitch_s2 / Vswitch_s4: 2 / 4): up_tx takes up to that many reads per beat; up_rx beats
// are filled segment by segment, the TLP in flight first, then as many new ones as the link lets
// start (each in the segment after the last one's end), and a beat offered is offered unchanged
// until the switch takes it.
#ifndef PCIE_SCOPE_TWIN_HOST_ROOT_COMPLEX_H
#define PCIE_SCOPE_TWIN_HOST_ROOT_COMPLEX_H

#include <stdint.h>

#include <deque>
#include <map>

#include "gpu_function.h"
#include "link.h"
#include "tlp.h"

namespace ps {

// The root complex's own ID: the completer of the host-memory reads and the requester of
// configuration requests (bus 0, device 0, function 0).
constexpr uint16_t kHostId = 0x0000;

struct CfgTarget {
    bool type1;
    uint8_t bus, device, function;
    uint16_t reg; // DW index
};

struct CfgResult {
    uint8_t status; // kCplStatus*
    uint32_t data;  // reads; 0xFFFFFFFF for a failed read, as a root complex returns it
};

class HostRootComplex {
public:
    HostRootComplex();
    // The link between the switch's upstream port and the root port (both directions).
    void set_link(const LinkConfig &link, uint64_t clock_hz);

    // Queues a configuration request; returns its tag.
    uint8_t cfg_issue(const CfgTarget &t, bool write, uint32_t data, uint8_t byte_enables);
    // True once the request of that tag has completed; *out then holds the result.
    bool cfg_take(uint8_t tag, CfgResult *out);

    // Top: Vswitch, Vswitch_s2 or Vswitch_s4 (instantiated in host_root_complex.cpp)
    template <class Top> void sample(const Top &top);
    template <class Top> void drive(Top &top);

    uint64_t reads_answered() const { return reads_answered_; }
    uint64_t unexpected() const { return unexpected_; }

private:
    struct Read {
        uint64_t addr;  // first requested byte
        uint32_t bytes; // requested bytes (0: a zero-length read)
        uint16_t requester;
        uint8_t tag;
        uint32_t tc_attr;  // DW0 bits carrying T9, TC, T8 and Attr, echoed
        uint64_t taken;    // cycle the read was taken
        uint32_t reserved; // completion buffer it holds until its last CplD (Length DWs x 4)
    };
    struct Sending { // a TLP being handed to up_rx, beat by beat
        TlpHeader hdr{};
        uint32_t dws = 0;   // payload DWs
        uint32_t sent = 0;  // payload DWs handed over
        uint32_t first = 0; // value of payload DW 0
        uint32_t cfg_data = 0;
        bool is_cfg = false;
        uint32_t in_beat = 0; // payload DWs of it in the beat offered
    };

    void take_request(const TlpHeader &h, uint16_t jitter);
    void take_completion(const TlpHeader &h, uint32_t data0);
    bool next_completion(uint16_t latency, uint8_t split);
    // starts the next TLP for up_rx (a configuration request first) when the wire is free
    bool start_next(uint16_t latency, uint8_t split);
    template <class Top> void compose(Top &top);

    uint64_t cycle_ = 0;
    // bar_responder.v's latency draw: the same Galois LFSR and seed, stepped once per read taken
    uint16_t lfsr_ = 0xACE1;
    LinkGate to_switch_, from_switch_;
    std::deque<Read> reads_;
    uint32_t split_done_ = 0;     // bytes of the head read already completed
    uint64_t reserved_bytes_ = 0; // completion buffer held by the reads taken (Length DWs x 4)
    std::deque<ConfigTlp> cfg_out_;
    std::map<uint8_t, CfgResult> cfg_done_;
    uint8_t next_tag_ = 0;
    std::deque<Sending> tx_; // the TLPs of the beat offered on up_rx, the first maybe begun before
    bool offered_ = false;   // a beat is offered on up_rx and not yet taken
    bool rx_in_tlp_ = false; // a multi-beat TLP from up_tx is being dropped
    uint64_t reads_answered_ = 0;
    uint64_t unexpected_ = 0;
};

} // namespace ps

#endif
