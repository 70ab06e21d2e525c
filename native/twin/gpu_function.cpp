#include "gpu_function.h"

namespace ps {

namespace {
constexpr uint32_t kBarFlags = 0xC; // memory, 64-bit (type 10b), prefetchable
constexpr uint64_t kBarMask = ~(kGpuBarBytes - 1);

uint32_t byte_mask(uint8_t be)
{
    uint32_t m = 0;
    for (int i = 0; i < 4; ++i)
        if ((be >> i) & 1u)
            m |= 0xFFu << (8 * i);
    return m;
}
} // namespace

uint32_t GpuFunction::read(uint32_t dw) const
{
    switch (dw) {
    case 0:
        return ((uint32_t)kGpuDeviceId << 16) | kGpuVendorId;
    case 1:
        return command_; // status 0: no capability list
    case 2:
        return (kGpuClassCode << 8) | kGpuRevisionId;
    case 3:
        return cache_line_; // header type 0, single function
    case 4:
        return (uint32_t)(bar_ & kBarMask) | kBarFlags;
    case 5:
        return (uint32_t)((bar_ & kBarMask) >> 32);
    default:
        return 0; // optional registers absent
    }
}

void GpuFunction::write(uint32_t dw, uint32_t value, uint8_t byte_enables)
{
    const uint32_t m = byte_mask(byte_enables);
    const auto merge = [m, value](uint32_t old) { return (old & ~m) | (value & m); };
    switch (dw) {
    case 1:
        command_ = (uint16_t)(merge(command_) & 0x6); // memory space, bus master
        break;
    case 3:
        cache_line_ = (uint8_t)merge(cache_line_);
        break;
    case 4:
        bar_ = (bar_ & ~0xFFFFFFFFull) | merge((uint32_t)bar_);
        break;
    case 5:
        bar_ = (bar_ & 0xFFFFFFFFull) | ((uint64_t)merge((uint32_t)(bar_ >> 32)) << 32);
        break;
    default:
        break; // read-only
    }
}

ConfigTlp GpuFunction::answer(const ConfigTlp &req)
{
    const uint32_t d0 = req.hdr.dw[0];
    const uint32_t d1 = req.hdr.dw[1];
    const uint32_t d2 = req.hdr.dw[2];
    const bool is_write = ((d0 >> 30) & 1u) != 0;
    const uint32_t type = (d0 >> 24) & 0x1Fu;
    const bool function0 = ((d2 >> 16) & 0xFFu) == 0; // device 0, function 0
    const uint32_t dw = (d2 >> 2) & 0x3FFu;
    const uint16_t requester = (uint16_t)(d1 >> 16);
    const uint8_t tag = (uint8_t)(d1 >> 8);
    ConfigTlp cpl{};
    if (type != 0x04 || !function0) { // a type-1 request or another function: no such target
        cpl.hdr = make_cpl_header(false, 0, kCplStatusUR, 4, tag, 0, requester, id());
        return cpl;
    }
    if (is_write) {
        bus_ = (uint8_t)(d2 >> 24);
        write(dw, req.data, (uint8_t)(d1 & 0xFu));
        cpl.hdr = make_cpl_header(false, 0, kCplStatusSC, 4, tag, 0, requester, id());
    } else {
        cpl.hdr = make_cpl_header(true, 1, kCplStatusSC, 4, tag, 0, requester, id());
        cpl.data = read(dw);
    }
    cpl.hdr.dw[0] |= d0 & 0x00700000u; // TC echoed
    return cpl;
}

} // namespace ps
