// pcie-scope twin: the stdin commands that act on a session rather than queue a workload
// (docs/contracts.md §3): `cancel ID` and `inject KIND [COUNT [SEED]]`. No Verilator dependency.
#ifndef PCIE_SCOPE_TWIN_CONTROL_H
#define PCIE_SCOPE_TWIN_CONTROL_H

#include <stdint.h>

#include <string>

namespace ps {

struct ControlCommand {
    enum Kind {
        None,   // not a control command: the line goes to parse_command
        Cancel, // stop run `id`: issue no more reads, drain those outstanding, answer its done line
        Inject, // a fault on the serial line (firmware/hal/sim/uart_fault.h)
        Error   // a control command with bad arguments: `message` says why
    } kind = None;
    std::string command; // "cancel" or "inject": what an error answer names
    uint64_t id = 0;
    std::string fault; // garbage | truncate | crc | skip-seq
    uint32_t count = 1;
    uint32_t seed = 0;
    std::string message;
};

ControlCommand parse_control(const std::string &line);

// {"event":"error","command":"cancel"|"inject",["id":ID,]"message":"..."}: an answer that no
// run in flight should take for its own.
std::string control_error_event(const std::string &command, const std::string &message,
                                const uint64_t *id = nullptr);
// {"event":"injected","kind":"garbage","count":N,"seed":S}: the fault is armed.
std::string injected_event(const ControlCommand &c);
// The done line of a cancelled run: its done line with "cancelled":true before the closing brace.
std::string cancelled(const std::string &done_line);

} // namespace ps

#endif
