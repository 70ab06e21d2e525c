// PM sampling (cupti_pmsampling.h, CUDA 12.6+): the GPU's performance monitors read every
// interval into a hardware buffer, device-wide, whichever process makes the traffic. Compiled
// against the CUPTI headers, but CUPTI and the CUDA driver are dlopen'd: a machine without them
// loads this code and answers "unavailable" with the reason.
#include <cuda.h>
#include <cupti_pmsampling.h>
#include <cupti_profiler_host.h>
#include <cupti_profiler_target.h>
#include <cupti_result.h>
#include <cupti_target.h>
#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>

#include <string>

#include "source.h"

namespace ps::sampler {

bool pm_sampling_built() { return true; }

namespace {

// The CUPTI entry points used, typed from the headers, bound by dlsym.
#define PS_CUPTI_FUNCTIONS(X)                    \
    X(cuptiGetResultString)                      \
    X(cuptiProfilerInitialize)                   \
    X(cuptiProfilerDeInitialize)                 \
    X(cuptiDeviceGetChipName)                    \
    X(cuptiProfilerHostInitialize)               \
    X(cuptiProfilerHostDeinitialize)             \
    X(cuptiProfilerHostGetBaseMetrics)           \
    X(cuptiProfilerHostConfigAddMetrics)         \
    X(cuptiProfilerHostGetConfigImageSize)       \
    X(cuptiProfilerHostGetConfigImage)           \
    X(cuptiProfilerHostGetNumOfPasses)           \
    X(cuptiProfilerHostEvaluateToGpuValues)      \
    X(cuptiPmSamplingGetCounterAvailability)     \
    X(cuptiPmSamplingEnable)                     \
    X(cuptiPmSamplingDisable)                    \
    X(cuptiPmSamplingSetConfig)                  \
    X(cuptiPmSamplingStart)                      \
    X(cuptiPmSamplingStop)                       \
    X(cuptiPmSamplingDecodeData)                 \
    X(cuptiPmSamplingGetCounterDataSize)         \
    X(cuptiPmSamplingCounterDataImageInitialize) \
    X(cuptiPmSamplingGetCounterDataInfo)         \
    X(cuptiPmSamplingCounterDataGetSampleInfo)

struct Cupti {
#define PS_FIELD(f) decltype(&::f) f = nullptr;
    PS_CUPTI_FUNCTIONS(PS_FIELD)
#undef PS_FIELD
};

// The counters wanted, by base name, and what each means; those the chip offers are sampled.
struct Wanted {
    const char *base;
    Role role;
};
constexpr Wanted kWanted[] = {
    {"pcie__read_bytes", Role::ReadBytes},
    {"pcie__write_bytes", Role::WriteBytes},
    {"lts__t_sectors_aperture_sysmem_op_read", Role::SysmemReadSectors},
    {"lts__t_sectors_aperture_sysmem_op_write", Role::SysmemWriteSectors},
};

void *open_first(const char *const *names, size_t n, std::string *tried)
{
    for (size_t i = 0; i < n; ++i) {
        if (!names[i] || !*names[i])
            continue;
        if (void *h = dlopen(names[i], RTLD_NOW | RTLD_LOCAL))
            return h;
        *tried += (tried->empty() ? "" : ", ") + std::string(names[i]);
    }
    return nullptr;
}

// A parameter block zeroed, with its structSize set (CUPTI's versioning of its structs).
#define PS_PARAMS(T, v) \
    T v{};              \
    v.structSize = T##_STRUCT_SIZE

#ifndef PS_CUPTI_LIBDIR
#define PS_CUPTI_LIBDIR ""
#endif

class PmSource final : public Source {
public:
    ~PmSource() override { close(); }

    bool open(const Config &cfg, std::string *why)
    {
        if (!load(why) || !driver(cfg.device, why))
            return false;
        PS_PARAMS(CUpti_Profiler_Initialize_Params, ip);
        if (!ok(c_.cuptiProfilerInitialize(&ip), "cuptiProfilerInitialize", why))
            return false;
        profiler_ = true;
        PS_PARAMS(CUpti_Device_GetChipName_Params, cp);
        cp.deviceIndex = (size_t)cfg.device;
        if (!ok(c_.cuptiDeviceGetChipName(&cp), "cuptiDeviceGetChipName", why))
            return false;
        info.chip = cp.pChipName;

        PS_PARAMS(CUpti_PmSampling_GetCounterAvailability_Params, ap);
        ap.deviceIndex = (size_t)cfg.device;
        if (!ok(c_.cuptiPmSamplingGetCounterAvailability(&ap), "counter availability", why))
            return false;
        avail_.resize(ap.counterAvailabilityImageSize);
        ap.pCounterAvailabilityImage = avail_.data();
        if (!ok(c_.cuptiPmSamplingGetCounterAvailability(&ap), "counter availability", why))
            return false;

        if (!pick_metrics(why) || !enable(cfg, why))
            return false;
        info.source = "pm-sampling";
        info.interval_ns = cfg.interval_ns;
        return true;
    }

    bool poll(std::vector<double> *flat, uint64_t *lost, bool *overflow, std::string *err) override
    {
        if (overflowed_)
            return true; // the hardware buffer overflow is permanent: nothing more comes
        for (int pass = 0; pass < 64; ++pass) {
            PS_PARAMS(CUpti_PmSampling_DecodeData_Params, dp);
            dp.pPmSamplingObject = pm_;
            dp.pCounterDataImage = image_.data();
            dp.counterDataImageSize = image_.size();
            const CUptiResult r = c_.cuptiPmSamplingDecodeData(&dp);
            if (dp.overflow || r == CUPTI_ERROR_OUT_OF_MEMORY) {
                overflowed_ = *overflow = true;
                ++*lost; // at least one; the gap to the end is unknown
                return true;
            }
            if (r != CUPTI_SUCCESS)
                return ok(r, "cuptiPmSamplingDecodeData", err);
            PS_PARAMS(CUpti_PmSampling_GetCounterDataInfo_Params, ip);
            ip.pCounterDataImage = image_.data();
            ip.counterDataImageSize = image_.size();
            if (!ok(c_.cuptiPmSamplingGetCounterDataInfo(&ip), "counter data info", err))
                return false;
            for (size_t i = 0; i < ip.numCompletedSamples; ++i)
                if (!sample(i, flat, lost, err))
                    return false;
            if (ip.numPopulatedSamples > 0 && !reset_image(err))
                return false;
            if (dp.decodeStopReason != CUPTI_PM_SAMPLING_DECODE_STOP_REASON_COUNTER_DATA_FULL)
                return true;
        }
        return true;
    }

    void stop() override
    {
        if (pm_ && started_) {
            PS_PARAMS(CUpti_PmSampling_Stop_Params, sp);
            sp.pPmSamplingObject = pm_;
            c_.cuptiPmSamplingStop(&sp);
            started_ = false;
        }
    }

private:
    bool ok(CUptiResult r, const char *what, std::string *why)
    {
        if (r == CUPTI_SUCCESS)
            return true;
        const char *s = nullptr;
        if (c_.cuptiGetResultString)
            c_.cuptiGetResultString(r, &s);
        *why = std::string(what) + " failed: " + (s ? s : "CUPTI error " + std::to_string((int)r));
        if (r == CUPTI_ERROR_INSUFFICIENT_PRIVILEGES)
            *why += " (profiling is restricted to administrators: "
                    "NVreg_RestrictProfilingToAdminUsers=0 or root)";
        return false;
    }

    bool load(std::string *why)
    {
        std::string tried;
        const std::string env = getenv("PS_CUPTI_LIB") ? getenv("PS_CUPTI_LIB") : "";
        const std::string dir = PS_CUPTI_LIBDIR;
        const std::string in_dir = dir.empty() ? "" : dir + "/libcupti.so";
        const char *names[] = {env.c_str(), "libcupti.so", "libcupti.so.13", "libcupti.so.12",
                               in_dir.c_str()};
        cupti_ = open_first(names, sizeof names / sizeof *names, &tried);
        if (!cupti_) {
            *why = "CUPTI is not installed (tried " + tried + "; PS_CUPTI_LIB names another)";
            return false;
        }
#define PS_BIND(f)                                                                \
    c_.f = reinterpret_cast<decltype(c_.f)>(dlsym(cupti_, #f));                   \
    if (!c_.f) {                                                                  \
        *why = "this CUPTI has no " #f " (PM sampling needs CUDA 12.6 or later)"; \
        return false;                                                             \
    }
        PS_CUPTI_FUNCTIONS(PS_BIND)
#undef PS_BIND
        return true;
    }

    // CUPTI needs the driver initialised and a context on the device: the primary one.
    bool driver(int device, std::string *why)
    {
        cuda_ = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
        if (!cuda_) {
            *why = "libcuda.so.1 is not installed (no NVIDIA driver)";
            return false;
        }
        auto init = reinterpret_cast<decltype(&::cuInit)>(dlsym(cuda_, "cuInit"));
        auto get = reinterpret_cast<decltype(&::cuDeviceGet)>(dlsym(cuda_, "cuDeviceGet"));
        auto retain = reinterpret_cast<decltype(&::cuDevicePrimaryCtxRetain)>(
            dlsym(cuda_, "cuDevicePrimaryCtxRetain"));
        auto current =
            reinterpret_cast<decltype(&::cuCtxSetCurrent)>(dlsym(cuda_, "cuCtxSetCurrent"));
        release_ = reinterpret_cast<decltype(&::cuDevicePrimaryCtxRelease)>(
            dlsym(cuda_, "cuDevicePrimaryCtxRelease_v2"));
        if (!init || !get || !retain || !current || !release_) {
            *why = "libcuda.so.1 lacks the context calls";
            return false;
        }
        if (init(0) != CUDA_SUCCESS) {
            *why = "cuInit failed (no usable GPU)";
            return false;
        }
        if (get(&dev_, device) != CUDA_SUCCESS) {
            *why = "there is no CUDA device " + std::to_string(device);
            return false;
        }
        CUcontext ctx = nullptr;
        if (retain(&ctx, dev_) != CUDA_SUCCESS || current(ctx) != CUDA_SUCCESS) {
            *why = "the device's primary context cannot be made current";
            return false;
        }
        retained_ = true;
        return true;
    }

    // A host object with `names` added and its config image in config_; false with *why when
    // CUPTI refuses them.
    bool configure(const std::vector<const char *> &names, std::string *why)
    {
        deinit_host();
        PS_PARAMS(CUpti_Profiler_Host_Initialize_Params, hp);
        hp.profilerType = CUPTI_PROFILER_TYPE_PM_SAMPLING;
        hp.pChipName = info.chip.c_str();
        hp.pCounterAvailabilityImage = avail_.data();
        if (!ok(c_.cuptiProfilerHostInitialize(&hp), "cuptiProfilerHostInitialize", why))
            return false;
        host_ = hp.pHostObject;
        if (names.empty())
            return true;
        PS_PARAMS(CUpti_Profiler_Host_ConfigAddMetrics_Params, ap);
        ap.pHostObject = host_;
        ap.ppMetricNames = const_cast<const char **>(names.data());
        ap.numMetrics = names.size();
        if (!ok(c_.cuptiProfilerHostConfigAddMetrics(&ap), "adding the metrics", why))
            return false;
        PS_PARAMS(CUpti_Profiler_Host_GetConfigImageSize_Params, sp);
        sp.pHostObject = host_;
        if (!ok(c_.cuptiProfilerHostGetConfigImageSize(&sp), "config image size", why))
            return false;
        config_.assign(sp.configImageSize, 0);
        PS_PARAMS(CUpti_Profiler_Host_GetConfigImage_Params, gp);
        gp.pHostObject = host_;
        gp.configImageSize = config_.size();
        gp.pConfigImage = config_.data();
        return ok(c_.cuptiProfilerHostGetConfigImage(&gp), "config image", why);
    }

    size_t passes()
    {
        PS_PARAMS(CUpti_Profiler_Host_GetNumOfPasses_Params, np);
        np.configImageSize = config_.size();
        np.pConfigImage = config_.data();
        return c_.cuptiProfilerHostGetNumOfPasses(&np) == CUPTI_SUCCESS ? np.numOfPasses : 0;
    }

    // The wanted counters the chip offers, each kept only if the set still fits one pass
    // (PM sampling cannot replay: SetConfig refuses a config of two passes).
    bool pick_metrics(std::string *why)
    {
        if (!configure({}, why))
            return false;
        PS_PARAMS(CUpti_Profiler_Host_GetBaseMetrics_Params, bp);
        bp.pHostObject = host_;
        bp.metricType = CUPTI_METRIC_TYPE_COUNTER;
        if (!ok(c_.cuptiProfilerHostGetBaseMetrics(&bp), "listing the PM sampling metrics", why))
            return false;
        for (size_t i = 0; i < bp.numMetrics; ++i) {
            const char *m = bp.ppMetricNames[i];
            if (strstr(m, "pcie") || strstr(m, "sysmem"))
                info.offered.push_back(m);
        }
        std::vector<std::string> kept;
        std::vector<Role> roles;
        for (const Wanted &w : kWanted) {
            bool offered = false;
            for (const std::string &o : info.offered)
                offered = offered || o == w.base;
            if (!offered)
                continue;
            std::vector<std::string> trial = kept;
            trial.push_back(std::string(w.base) + ".sum");
            std::vector<const char *> ptrs;
            for (const std::string &t : trial)
                ptrs.push_back(t.c_str());
            std::string ignored;
            if (configure(ptrs, &ignored) && passes() == 1) {
                kept = trial;
                roles.push_back(w.role);
            } else {
                info.dropped.push_back(trial.back());
            }
        }
        bool pcie = false;
        for (size_t k = 0; k < kept.size(); ++k) {
            info.metrics.push_back({kept[k], roles[k]});
            pcie = pcie || roles[k] == Role::ReadBytes || roles[k] == Role::WriteBytes;
        }
        if (!pcie) {
            *why =
                "the chip " + info.chip + " offers no PCIe byte counter to PM sampling in one pass";
            return false;
        }
        for (const Metric &m : info.metrics)
            names_.push_back(m.name.c_str());
        return configure(names_, why);
    }

    bool enable(const Config &cfg, std::string *why)
    {
        PS_PARAMS(CUpti_PmSampling_Enable_Params, ep);
        ep.deviceIndex = (size_t)cfg.device;
        if (!ok(c_.cuptiPmSamplingEnable(&ep), "cuptiPmSamplingEnable", why))
            return false;
        pm_ = ep.pPmSamplingObject;
        PS_PARAMS(CUpti_PmSampling_SetConfig_Params, sp);
        sp.pPmSamplingObject = pm_;
        sp.configSize = config_.size();
        sp.pConfig = config_.data();
        sp.hardwareBufferSize = cfg.hw_buffer_bytes;
        sp.samplingInterval = cfg.interval_ns;
        sp.triggerMode = CUPTI_PM_SAMPLING_TRIGGER_MODE_GPU_TIME_INTERVAL;
        info.trigger = "time";
        std::string time_why;
        if (!ok(c_.cuptiPmSamplingSetConfig(&sp), "cuptiPmSamplingSetConfig", &time_why)) {
            // chips without the time trigger (Turing, GA100) count sys clocks: 1 per ns asked,
            // the samples' own timestamps say what that came to
            sp.triggerMode = CUPTI_PM_SAMPLING_TRIGGER_MODE_GPU_SYSCLK_INTERVAL;
            info.trigger = "sysclk";
            if (!ok(c_.cuptiPmSamplingSetConfig(&sp), "cuptiPmSamplingSetConfig", why)) {
                *why = time_why + "; with the sysclk trigger: " + *why;
                return false;
            }
        }
        // a whole poll's samples must fit one image (a full image loses samples): twice a
        // poll's, + 256; run() keeps a poll under kMaxSamplesPerPoll
        const uint64_t per_poll = (uint64_t)cfg.poll_ms * 1000000ull / cfg.interval_ns + 1;
        const uint64_t slots = per_poll * 2 + 256;
        PS_PARAMS(CUpti_PmSampling_GetCounterDataSize_Params, zp);
        zp.pPmSamplingObject = pm_;
        zp.pMetricNames = names_.data();
        zp.numMetrics = names_.size();
        zp.maxSamples = (uint32_t)slots;
        if (!ok(c_.cuptiPmSamplingGetCounterDataSize(&zp), "counter data size", why))
            return false;
        image_.resize(zp.counterDataSize);
        if (!reset_image(why))
            return false;
        PS_PARAMS(CUpti_PmSampling_Start_Params, st);
        st.pPmSamplingObject = pm_;
        if (!ok(c_.cuptiPmSamplingStart(&st), "cuptiPmSamplingStart", why))
            return false;
        started_ = true;
        return true;
    }

    bool reset_image(std::string *why)
    {
        PS_PARAMS(CUpti_PmSampling_CounterDataImage_Initialize_Params, ip);
        ip.pPmSamplingObject = pm_;
        ip.counterDataSize = image_.size();
        ip.pCounterData = image_.data();
        return ok(c_.cuptiPmSamplingCounterDataImageInitialize(&ip), "counter data image", why);
    }

    bool sample(size_t i, std::vector<double> *flat, uint64_t *lost, std::string *err)
    {
        PS_PARAMS(CUpti_PmSampling_CounterData_GetSampleInfo_Params, sp);
        sp.pPmSamplingObject = pm_;
        sp.pCounterDataImage = image_.data();
        sp.counterDataImageSize = image_.size();
        sp.sampleIndex = i;
        if (!ok(c_.cuptiPmSamplingCounterDataGetSampleInfo(&sp), "sample info", err))
            return false;
        if (sp.startTimestamp == 0 && sp.endTimestamp == 0) {
            ++*lost; // a slot the decoder could not fill
            return true;
        }
        if (origin_ == 0) {
            origin_ = sp.startTimestamp;
            info.origin_ns = std::to_string(origin_);
        }
        double values[8] = {};
        PS_PARAMS(CUpti_Profiler_Host_EvaluateToGpuValues_Params, vp);
        vp.pHostObject = host_;
        vp.pCounterDataImage = image_.data();
        vp.counterDataImageSize = image_.size();
        vp.rangeIndex = i;
        vp.ppMetricNames = names_.data();
        vp.numMetrics = names_.size();
        vp.pMetricValues = values;
        if (!ok(c_.cuptiProfilerHostEvaluateToGpuValues(&vp), "evaluating a sample", err))
            return false;
        flat->push_back((double)(int64_t)(sp.startTimestamp - origin_));
        flat->push_back((double)(int64_t)(sp.endTimestamp - origin_));
        for (size_t m = 0; m < names_.size(); ++m)
            flat->push_back(values[m]);
        return true;
    }

    void deinit_host()
    {
        if (host_) {
            PS_PARAMS(CUpti_Profiler_Host_Deinitialize_Params, dp);
            dp.pHostObject = host_;
            c_.cuptiProfilerHostDeinitialize(&dp);
            host_ = nullptr;
        }
    }

    void close()
    {
        stop();
        if (pm_) {
            PS_PARAMS(CUpti_PmSampling_Disable_Params, dp);
            dp.pPmSamplingObject = pm_;
            c_.cuptiPmSamplingDisable(&dp);
            pm_ = nullptr;
        }
        deinit_host();
        if (profiler_) {
            PS_PARAMS(CUpti_Profiler_DeInitialize_Params, dp);
            c_.cuptiProfilerDeInitialize(&dp);
            profiler_ = false;
        }
        if (retained_)
            release_(dev_);
        retained_ = false;
        // the libraries stay loaded: CUPTI and the driver keep threads that outlive a close
    }

    Cupti c_;
    void *cupti_ = nullptr, *cuda_ = nullptr;
    decltype(&::cuDevicePrimaryCtxRelease) release_ = nullptr;
    CUdevice dev_ = 0;
    bool retained_ = false, profiler_ = false, started_ = false, overflowed_ = false;
    CUpti_Profiler_Host_Object *host_ = nullptr;
    CUpti_PmSampling_Object *pm_ = nullptr;
    std::vector<uint8_t> avail_, config_, image_;
    std::vector<const char *> names_;
    uint64_t origin_ = 0;
};

} // namespace

std::unique_ptr<Source> open_pm_sampling(const Config &cfg, std::string *why,
                                         std::vector<std::string> *offered)
{
    if (cfg.interval_ns == 0) {
        *why = "the interval is zero";
        return nullptr;
    }
    auto s = std::make_unique<PmSource>();
    if (!s->open(cfg, why)) {
        if (offered)
            *offered = s->info.offered;
        return nullptr;
    }
    return s;
}

} // namespace ps::sampler
