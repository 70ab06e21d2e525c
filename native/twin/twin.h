// pcie-scope twin core: the Verilated pcie_scope_bar_top, driven cycle by cycle by the GPU
// traffic model (requests), a completion checker (completions) and an AXI4-Lite master
// (the firmware's register accesses).
//
// One tick() = one clock cycle. Inputs are set while clk is low and settled with eval();
// tick() samples every valid/ready pair from the settled outputs, raises clk (the DUT sees
// the same handshakes), then updates every driver for the next cycle and settles again. How a
// mode evaluates its design is its Dut's business: the BAR top once a clock, at the edge
// (bar_dut.cpp), the switch top on both edges (switch_dut.cpp).
#ifndef PCIE_SCOPE_TWIN_H
#define PCIE_SCOPE_TWIN_H

#include <stdint.h>

#include <functional>
#include <memory>
#include <string>

#include "link.h"
#include "tlp.h"
#include "traffic.h"

class VerilatedContext;

namespace ps {

class Dut;
// Builds the design under test (dut.h): make_bar_dut by default, a SwitchDut in switch mode.
using DutFactory = std::function<std::unique_ptr<Dut>(VerilatedContext *)>;
std::unique_ptr<Dut> make_bar_dut(VerilatedContext *ctx, unsigned segments);
// make_bar_dut with 1 segment per beat
std::unique_ptr<Dut> make_endpoint_dut(VerilatedContext *ctx);

struct WorkloadResult {
    uint64_t mrds = 0;
    uint64_t by_size[kSizeClassCount] = {}; // by size class (generated/workloads.h)
    uint64_t mrd_bytes = 0;
    uint64_t completions = 0;
    uint64_t payload_errors = 0;
    uint64_t lost = 0; // completions never seen (watchdog)
    uint64_t sim_cycles = 0;
};

class Twin {
public:
    explicit Twin(uint32_t tag_budget, const DutFactory &make_dut = make_endpoint_dut);
    ~Twin();
    Twin(const Twin &) = delete;
    Twin &operator=(const Twin &) = delete;

    // Holds rst for a few cycles.
    void reset();
    // The PCIe link between the GPU and the FPGA (both directions); ideal until set.
    void set_link(const LinkConfig &link, uint64_t clock_hz);
    double link_bytes_per_clock() const { return down_.bytes_per_clock(); }
    // One clock cycle.
    void tick();
    // n cycles, or fewer when the workload finishes first (returns right after its last cycle).
    void run_cycles(uint32_t n);

    // AXI4-Lite transactions; they tick the clock until the handshake completes (traffic keeps
    // flowing). On a bus that never answers they give up after a timeout (read -> 0xFFFFFFFF).
    uint32_t axi_read(uint32_t offset);
    void axi_write(uint32_t offset, uint32_t value);
    uint64_t axi_timeouts() const { return axi_timeouts_; }

    // Workloads: one at a time.
    void start_workload(const TrafficConfig &cfg);
    // Any MRd stream (a graph kernel's); the twin owns it until finish_workload().
    void start_workload(std::unique_ptr<MrdSource> source);
    bool workload_active() const { return gen_ != nullptr; }
    // True once the generator is exhausted and no tag is outstanding (or the watchdog gave up).
    bool workload_done() const;
    // Ends the workload and returns its counts.
    WorkloadResult finish_workload();
    // Cancels the workload: no read is issued after this one; those outstanding still complete
    // (and are counted), and workload_done() turns true once the last has.
    void cancel_workload();

    // The GPU's Requester ID and the Completer ID its completions must carry (BAR-endpoint
    // values until set; in switch mode the bus the GPU was given and the host's ID).
    void set_ids(uint16_t requester_id, uint16_t completer_id)
    {
        requester_id_ = requester_id;
        completer_id_ = completer_id;
    }

    uint64_t cycle() const { return cycle_; }
    // TLP segments per beat of the design (--segments): up to this many MRds per request beat
    // and completions per completion beat.
    unsigned segments() const { return segments_; }
    uint32_t outstanding() const { return outstanding_; }

private:
    struct TagState {
        uint64_t addr;      // request address
        uint32_t len;       // requested bytes
        uint32_t remaining; // bytes not yet completed
        bool active;
    };
    struct CplRx { // the completion being received
        bool active;
        bool error;
        bool has_data;
        bool last;
        uint8_t tag;
        uint32_t dws_expected;
        uint32_t dws_seen;
        uint32_t next_value; // expected value of the next payload DW
        uint32_t bytes;      // payload bytes this completion retires
    };
    enum class AxiState : uint8_t {
        Idle,
        Read,
        Write
    };

    void sample_completion_beat();
    void check_payload_dws(uint32_t strb, uint32_t first, uint32_t count);
    void start_completion(const TlpHeader &hdr);
    void end_completion();
    void drive_request();
    void release_tag(uint8_t tag);

    std::unique_ptr<VerilatedContext> ctx_;
    std::unique_ptr<Dut> top_;
    uint64_t cycle_ = 0;

    // link serialisation: up = GPU -> FPGA (MRd), down = FPGA -> GPU (completions)
    LinkGate up_;
    LinkGate down_;

    // requester
    std::unique_ptr<MrdSource> gen_;
    bool req_valid_ = false; // a request beat is on the bus
    unsigned segments_ = 1;
    unsigned req_count_ = 0; // MRds in that beat, one per segment from segment 0
    bool have_next_ = false;
    Mrd next_{};
    uint32_t tag_budget_;
    uint16_t requester_id_;
    uint16_t completer_id_;
    uint8_t free_tags_[256];
    uint32_t free_head_ = 0, free_count_ = 0;
    TagState tags_[256];
    uint32_t outstanding_ = 0;
    uint8_t req_tag_[4] = {};
    Mrd req_[4] = {};

    // completer side
    CplRx cpl_{};
    WorkloadResult res_;
    uint64_t start_cycle_ = 0;
    uint64_t last_progress_cycle_ = 0;
    bool gave_up_ = false;
    bool cancelled_ = false;
    bool done_ = false;
    uint64_t done_cycle_ = 0;

    // AXI master
    AxiState axi_ = AxiState::Idle;
    bool aw_done_ = false, w_done_ = false, axi_complete_ = false;
    uint32_t axi_rdata_ = 0;
    uint64_t axi_timeouts_ = 0;
};

} // namespace ps

#endif
