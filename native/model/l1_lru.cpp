// pcie-scope capacity-limited L1 (l1_lru.h).
#include "l1_lru.h"

namespace ps {

LruL1::LruL1(uint32_t capacity_bytes, bool random) : random_(random)
{
    const uint32_t lines = capacity_bytes / kLineBytes;
    slots_.resize(lines < kNone ? lines : kNone);
    size_t n = 2;
    while (n < 2 * slots_.size())
        n <<= 1;
    table_.assign(n, kEmpty);
    table_mask_ = n - 1;
}

void LruL1::clear()
{
    for (auto &t : table_)
        t = kEmpty;
    used_ = 0;
    newest_ = oldest_ = kNone;
}

size_t LruL1::home(uint64_t line_addr) const
{
    return (size_t)(((line_addr / kLineBytes) * 0x9E3779B97F4A7C15ull) >> 20) & table_mask_;
}

uint32_t LruL1::find(uint64_t line_addr) const
{
    const uint64_t key = line_addr / kLineBytes;
    for (size_t i = home(line_addr);; i = (i + 1) & table_mask_) {
        const uint64_t t = table_[i];
        if (t == kEmpty)
            return kNone;
        if (t >> 16 == key)
            return (uint32_t)(t & 0xFFFF);
    }
}

void LruL1::table_insert(uint64_t line_addr, uint32_t slot)
{
    size_t i = home(line_addr);
    while (table_[i] != kEmpty)
        i = (i + 1) & table_mask_;
    table_[i] = (line_addr / kLineBytes) << 16 | slot;
}

void LruL1::table_erase(uint64_t line_addr)
{
    size_t i = home(line_addr);
    const uint64_t key = line_addr / kLineBytes;
    while (table_[i] >> 16 != key || table_[i] == kEmpty)
        i = (i + 1) & table_mask_;
    // backward-shift deletion: later entries of the probe run move up so lookups stay unbroken
    for (size_t j = (i + 1) & table_mask_; table_[j] != kEmpty; j = (j + 1) & table_mask_) {
        const size_t h = home((table_[j] >> 16) * kLineBytes);
        // entry j may fill hole i when its home is not cyclically within (i, j]
        if (((j - h) & table_mask_) >= ((j - i) & table_mask_)) {
            table_[i] = table_[j];
            i = j;
        }
    }
    table_[i] = kEmpty;
}

void LruL1::unlink(uint32_t s)
{
    Slot &x = slots_[s];
    if (x.newer != kNone)
        slots_[x.newer].older = x.older;
    else
        newest_ = x.older;
    if (x.older != kNone)
        slots_[x.older].newer = x.newer;
    else
        oldest_ = x.newer;
}

void LruL1::push_newest(uint32_t s)
{
    Slot &x = slots_[s];
    x.newer = (uint16_t)kNone;
    x.older = (uint16_t)newest_;
    if (newest_ != kNone)
        slots_[newest_].newer = (uint16_t)s;
    newest_ = s;
    if (oldest_ == kNone)
        oldest_ = s;
}

uint32_t LruL1::fetch(uint64_t line_addr, uint32_t mask)
{
    if (slots_.empty())
        return mask;
    uint32_t s = find(line_addr);
    if (s != kNone) {
        const uint32_t missing = mask & ~(uint32_t)slots_[s].mask;
        slots_[s].mask = (uint8_t)(slots_[s].mask | mask);
        if (s != newest_) {
            unlink(s);
            push_newest(s);
        }
        return missing;
    }
    if (used_ < slots_.size()) {
        s = used_++;
    } else {
        if (random_) { // xorshift64: the victim is any held line
            rng_ ^= rng_ << 13;
            rng_ ^= rng_ >> 7;
            rng_ ^= rng_ << 17;
            s = (uint32_t)(rng_ % used_);
        } else {
            s = oldest_;
        }
        unlink(s);
        table_erase(slots_[s].line);
        ++evictions_;
    }
    slots_[s].line = line_addr;
    slots_[s].mask = (uint8_t)mask;
    table_insert(line_addr, s);
    push_newest(s);
    return mask;
}

uint32_t LruL1::sectors_of(uint64_t line_addr) const
{
    if (slots_.empty())
        return 0;
    const uint32_t s = find(line_addr);
    return s == kNone ? 0 : slots_[s].mask;
}

} // namespace ps
