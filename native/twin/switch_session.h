// Switch mode's part of the twin's session: at start the host model enumerates the tree through
// the RTL and the GPU model takes the Requester ID it was given; the ready line then carries the
// topology; the stdin command `cfg-read BB:DD.F REG` sends one configuration read through the
// switch as the root port would (type 0 to bus 1, type 1 beyond) and reports its completion
// and the switch's fate counters.
#ifndef PCIE_SCOPE_TWIN_SWITCH_SESSION_H
#define PCIE_SCOPE_TWIN_SWITCH_SESSION_H

#include <string>

#include "host_enumerator.h"
#include "switch_dut.h"
#include "twin.h"

namespace ps {

class SwitchSession {
public:
    // dut: the design twin was built with (a SwitchDut)
    SwitchSession(Twin &twin, SwitchDut &dut);
    // Enumerates; false (with *err) when the tree was not found.
    bool start(const LinkConfig &link, uint64_t clock_hz, std::string *err);
    // Fields for the ready line: ,"mode":"switch","topology":{...}
    std::string ready_fields() const;
    // A `cfg-read` line: true when it was one (*reply: the cfg or error event).
    bool handle(const std::string &line, std::string *reply);

private:
    Twin &twin_;
    SwitchDut &dut_;
    ConfigAccess cfg_;
    Topology topo_;
};

} // namespace ps

#endif
