// The protocol on a pair of file descriptors (stdin and stdout): requests in, replies out, one JSON
// object per line. nutcore-engine runs it; so does `nutcore engine`, in the Python process.
#pragma once

#include <functional>

#include "engine/protocol.h"

namespace nutcore::engine {

// Reads lines from `in_fd` until the end of input or quit, answers on `out_fd`, and returns 0. A
// line longer than kMaxLineBytes is refused (its rest skipped). `interrupted`, when given, is
// asked about every 10 ms while input is awaited: true ends the loop at once (the running search
// stopped), and run_stdio returns 130.
int run_stdio(int in_fd, int out_fd, const Limits& limits, const std::function<bool()>& interrupted = nullptr);

}  // namespace nutcore::engine
