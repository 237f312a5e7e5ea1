// A time limit for work that knows only a stop flag (the exact searches, the solvers): a flag that
// is set once the caller's flag is set or `seconds` have passed, whichever comes first. The work
// polls it as it polls any stop flag, so its hot path gains neither a clock read nor a branch.
//
// With threads a watcher thread sets it: it sleeps until the deadline, waking every 2 ms to pass
// the caller's flag on (a caller's flag is a bare atomic, nothing to wait on), and is joined when
// the DeadlineStop goes. Without threads (NUTCORE_NO_THREADS, the WebAssembly build) it chains a
// cooperative lender (stop.h): every 64th poll of a stop flag lends the thread to whoever lent it
// before (the engine's loop, which may set the caller's flag), then reads the caller's flag and
// the clock.
#pragma once

#include <algorithm>
#include <atomic>
#include <chrono>

#include "core/stop.h"

#if !defined(NUTCORE_NO_THREADS)
#include <condition_variable>
#include <mutex>
#include <thread>
#endif

namespace nutcore {

class DeadlineStop {
 public:
  using Clock = std::chrono::steady_clock;

  // seconds <= 0: no time limit, and flag() is the caller's own (which may be null).
  DeadlineStop(const StopFlag* caller, double seconds)
      : caller_(caller), timed_(seconds > 0), flag_(caller && caller->load(std::memory_order_relaxed)) {
    if (!timed_) return;
    // Beyond ~30 years is never (a time point that far would overflow).
    deadline_ = seconds < 1e9
                    ? Clock::now() + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(seconds))
                    : Clock::time_point::max();
#if defined(NUTCORE_NO_THREADS)
    saved_ = cooperative::lender;
    cooperative::lender = {&lend, this, 0};
#else
    watcher_ = std::thread([this] { watch(); });
#endif
  }

  ~DeadlineStop() {
    if (!timed_) return;
#if defined(NUTCORE_NO_THREADS)
    cooperative::lender = saved_;
#else
    {
      std::lock_guard<std::mutex> lock(mutex_);
      done_ = true;
    }
    cv_.notify_all();
    watcher_.join();
#endif
  }

  DeadlineStop(const DeadlineStop&) = delete;
  DeadlineStop& operator=(const DeadlineStop&) = delete;

  // The flag for the work to poll.
  const StopFlag* flag() const { return timed_ ? &flag_ : caller_; }
  // Whether the caller asked to stop (not the deadline): what a result calls "stopped".
  bool caller_stopped() const { return caller_ && caller_->load(std::memory_order_relaxed); }

 private:
  bool due() const { return caller_stopped() || (deadline_ != Clock::time_point::max() && Clock::now() >= deadline_); }

#if defined(NUTCORE_NO_THREADS)
  static void lend(void* self) {
    auto* d = static_cast<DeadlineStop*>(self);
    if (d->saved_.lend) d->saved_.lend(d->saved_.context);
    if (d->due()) d->flag_.store(true, std::memory_order_relaxed);
  }
#else
  void watch() {
    std::unique_lock<std::mutex> lock(mutex_);
    while (!done_) {
      if (due()) {
        flag_.store(true, std::memory_order_relaxed);
        return;
      }
      if (caller_)
        cv_.wait_until(lock, std::min(deadline_, Clock::now() + std::chrono::milliseconds(2)));
      else if (deadline_ != Clock::time_point::max())
        cv_.wait_until(lock, deadline_);
      else
        cv_.wait(lock);  // never due: until the work ends
    }
  }
#endif

  const StopFlag* caller_;
  const bool timed_;
  Clock::time_point deadline_ = Clock::time_point::max();
  StopFlag flag_;
#if defined(NUTCORE_NO_THREADS)
  cooperative::Lender saved_;
#else
  std::mutex mutex_;
  std::condition_variable cv_;
  bool done_ = false;
  std::thread watcher_;
#endif
};

}  // namespace nutcore
