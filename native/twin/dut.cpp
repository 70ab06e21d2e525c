#include "dut.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace ps {

bool settle_check_enabled()
{
    const char *v = std::getenv("PS_TWIN_CHECK_SETTLE");
    return v != nullptr && std::strcmp(v, "1") == 0;
}

void settle_check_failed(const char *mode)
{
    std::fprintf(stderr,
                 "pcie-scope-twin: PS_TWIN_CHECK_SETTLE: in mode %s an output changed on an "
                 "evaluation without a clock edge; the twin's one evaluation a clock would show "
                 "it late (native/twin/rtl)\n",
                 mode);
    std::exit(3);
}

} // namespace ps
