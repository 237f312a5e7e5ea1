// Cooperative cancellation. Long loops (search, solvers, batches of playouts) poll a flag that
// their caller owns: the Python bindings set it on Ctrl-C or when a StopToken is used, an
// embedding front end sets it to end a search early. Polling is one relaxed atomic load.
#pragma once

#include <atomic>
#include <mutex>
#include <stdexcept>
#include <vector>

#include "core/types.h"

namespace nutcore {

using StopFlag = std::atomic<bool>;

#if defined(NUTCORE_NO_THREADS)
// With one thread for everything (the WebAssembly build, run by a Web Worker's message loop), a
// search lends that thread out: every 64th poll of a stop flag calls the lender that whoever runs
// the search installed (the engine: progress lines, the stop watchdog and the worker's messages,
// which may set the flag). Nothing is installed outside the engine's searches.
namespace cooperative {
struct Lender {
  void (*lend)(void* context) = nullptr;
  void* context = nullptr;
  unsigned polls = 0;
};
inline Lender lender;
inline void poll() {
  if (lender.lend && (++lender.polls & 63) == 0) lender.lend(lender.context);
}
}  // namespace cooperative

inline bool stop_requested(const StopFlag* stop) {
  cooperative::poll();
  return stop && stop->load(std::memory_order_relaxed);
}
#else
inline bool stop_requested(const StopFlag* stop) { return stop && stop->load(std::memory_order_relaxed); }
#endif

// A live view of a running search, for front ends that show the AI thinking: the search's first
// thread copies its root statistics here every `interval` seconds (readers take the mutex). The
// search never reads it back, so it cannot change what the search does.
struct SearchProgress {
  double interval = 0.2;
  std::mutex mutex;
  long iterations = 0;               // of the reporting thread (with several threads, a share of the total)
  std::vector<ActionTally> actions;  // per root move, the mean value for the seat to move there

  void clear() {
    std::lock_guard<std::mutex> lock(mutex);
    iterations = 0;
    actions.clear();
  }
};

// Thrown by work that cannot return a meaningful partial result when it is stopped.
struct Stopped : std::runtime_error {
  Stopped() : std::runtime_error("stopped before a result was available") {}
};

}  // namespace nutcore
