// The searches that may run at once over many engines, shared by a server's connections.
#pragma once

#include <condition_variable>
#include <deque>
#include <functional>
#include <mutex>

#include "core/stop.h"

namespace nutcore::engine {

// The searches that may run at once over many engines (a server's connections): a search waits
// for a free slot, first come first served, and a stopped search leaves the queue.
class SearchSlots {
 public:
  explicit SearchSlots(int size);
  int size() const { return size_; }
  // Waits for a slot; false if `stop` is set first. While it waits, `waiting()` is called every
  // `interval` seconds, without the lock.
  bool acquire(const StopFlag& stop, const std::function<void()>& waiting, double interval);
  void release();
  void wake();  // lets the waiting searches look at their stop flags

 private:
  const int size_;
  std::mutex mutex_;
  std::condition_variable cv_;
  int running_ = 0;
  std::deque<const void*> waiting_;
};

}  // namespace nutcore::engine
