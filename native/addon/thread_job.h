// One long native job on a thread of its own, reporting to JS through a ThreadSafeFunction.
// A GPU run holds its thread for seconds (fill, warm-up, repeats, baselines), which on libuv's
// pool of four would stall the file I/O of recordings; so each job gets a std::thread.
// BlockingCall keeps every progress report, in order; the finalizer runs on the JS thread after
// the last one, joins the thread and settles the promise with what `settle` makes of the result.
#ifndef PCIE_SCOPE_ADDON_THREAD_JOB_H
#define PCIE_SCOPE_ADDON_THREAD_JOB_H

#include <napi.h>
#include <stdint.h>
#include <stdio.h>

#include <functional>
#include <memory>
#include <thread>

namespace ps::addon {

struct JobProgress {
    char phase[16];
    uint32_t done, total;
};

// `Result` is whatever the work fills in; `work` runs on the job's thread and may call
// `report` (any number of times, from that thread); `settle` runs on the JS thread afterwards.
template <typename Result> class ThreadJob {
public:
    using Report = void (*)(void *ctx, const char *phase, uint32_t done, uint32_t total);
    using Work = std::function<void(Report report, void *ctx, Result *out)>;
    using Settle = std::function<void(Napi::Env, Napi::Promise::Deferred &, Result &)>;

    static Napi::Promise start(Napi::Env env, Napi::Function on_progress, Work work, Settle settle)
    {
        auto *job = new ThreadJob(env, std::move(work), std::move(settle));
        const Napi::Promise p = job->deferred_.Promise();
        if (on_progress.IsEmpty()) // the TSFN needs a function; progress then goes nowhere
            on_progress = Napi::Function::New(env, [](const Napi::CallbackInfo &) {});
        job->tsfn_ = Napi::ThreadSafeFunction::New(env, on_progress, "pcie-scope:job", 0, 1, job,
                                                   &ThreadJob::finish, (void *)nullptr);
        job->thread_ = std::thread([job] {
            job->work_(&ThreadJob::report, job, &job->result_);
            job->tsfn_.Release(); // the last call: finish() follows once the queue is drained
        });
        return p;
    }

private:
    ThreadJob(Napi::Env env, Work work, Settle settle)
        : work_(std::move(work)), settle_(std::move(settle)),
          deferred_(Napi::Promise::Deferred::New(env))
    {}

    static void report(void *ctx, const char *phase, uint32_t done, uint32_t total)
    {
        auto *self = static_cast<ThreadJob *>(ctx);
        auto *p = new JobProgress{};
        snprintf(p->phase, sizeof p->phase, "%s", phase ? phase : "");
        p->done = done;
        p->total = total;
        const napi_status s =
            self->tsfn_.BlockingCall(p, [](Napi::Env env, Napi::Function fn, JobProgress *data) {
                std::unique_ptr<JobProgress> owned(data);
                if (env == nullptr) // the environment is going away: drop the report
                    return;
                Napi::Object o = Napi::Object::New(env);
                o.Set("phase", Napi::String::New(env, owned->phase));
                o.Set("done", Napi::Number::New(env, owned->done));
                o.Set("total", Napi::Number::New(env, owned->total));
                fn.Call({o});
            });
        if (s != napi_ok)
            delete p; // the queue is closing: the report was not taken
    }

    static void finish(Napi::Env env, void *, ThreadJob *job)
    {
        job->thread_.join();
        std::unique_ptr<ThreadJob> owned(job);
        job->settle_(env, job->deferred_, job->result_);
    }

    Work work_;
    Settle settle_;
    Napi::Promise::Deferred deferred_;
    Napi::ThreadSafeFunction tsfn_;
    std::thread thread_;
    Result result_{};
};

} // namespace ps::addon

#endif
