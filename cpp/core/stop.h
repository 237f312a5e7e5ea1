// Cooperative cancellation. Long loops (search, solvers, batches of playouts) poll a flag that
// their caller owns: the Python bindings set it on Ctrl-C or when a StopToken is used, an
// embedding front end sets it to end a search early. Polling is one relaxed atomic load.
#pragma once

#include <atomic>
#include <stdexcept>

namespace nutcore {

using StopFlag = std::atomic<bool>;

inline bool stop_requested(const StopFlag* stop) { return stop && stop->load(std::memory_order_relaxed); }

// Thrown by work that cannot return a meaningful partial result when it is stopped.
struct Stopped : std::runtime_error {
  Stopped() : std::runtime_error("stopped before a result was available") {}
};

}  // namespace nutcore
