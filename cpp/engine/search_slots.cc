#include "engine/search_slots.h"

#include <algorithm>
#include <chrono>
#include <stdexcept>

namespace nutcore::engine {

using Clock = std::chrono::steady_clock;

SearchSlots::SearchSlots(int size) : size_(size) {
  if (size < 1) throw std::invalid_argument("searches must be at least 1");
}

bool SearchSlots::acquire(const StopFlag& stop, const std::function<void()>& waiting, double interval) {
  int ticket = 0;  // its address identifies this waiter
  std::unique_lock<std::mutex> lock(mutex_);
  waiting_.push_back(&ticket);
  auto next_call = Clock::now() + std::chrono::duration<double>(interval);
  bool got = false;
  for (;;) {
    if (waiting_.front() == &ticket && running_ < size_) {
      ++running_;
      got = true;
      break;
    }
    if (stop.load()) break;
    if (Clock::now() >= next_call) {
      next_call = Clock::now() + std::chrono::duration<double>(interval);
      if (waiting) {
        lock.unlock();
        waiting();
        lock.lock();
      }
      continue;
    }
    cv_.wait_until(lock, next_call);  // woken by release() and wake()
  }
  waiting_.erase(std::find(waiting_.begin(), waiting_.end(), &ticket));
  cv_.notify_all();
  return got;
}

void SearchSlots::release() {
  std::lock_guard<std::mutex> lock(mutex_);
  --running_;
  cv_.notify_all();
}

void SearchSlots::wake() {
  std::lock_guard<std::mutex> lock(mutex_);
  cv_.notify_all();
}

}  // namespace nutcore::engine
