// A pool of worker threads for the vector environment and its batched search: a run cuts [0, n)
// into one contiguous share per thread.
#pragma once

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <exception>
#include <mutex>
#include <thread>
#include <utility>
#include <vector>

namespace nutcore::engine {

// Runs f(ctx, begin, end) over [0, n) cut into one contiguous share per thread; the calling thread
// takes the first share. The workers live as long as the pool. Between runs they spin for a short
// while before they sleep: a step of a few thousand environments takes well under a millisecond,
// and waking a sleeping thread costs about a tenth of one.
class WorkerPool {
 public:
  using Task = void (*)(void* ctx, int begin, int end);

  explicit WorkerPool(int threads) : threads_(std::max(1, threads)) {
#ifndef NUTCORE_NO_THREADS
    for (int t = 1; t < threads_; ++t) workers_.emplace_back([this, t] { work(t); });
#else
    threads_ = 1;
#endif
  }
  ~WorkerPool() {
    quit_.store(true);
    {
      std::lock_guard<std::mutex> lock(mutex_);
      generation_.fetch_add(1);
    }
    wake_.notify_all();
    for (auto& w : workers_) w.join();
  }
  WorkerPool(const WorkerPool&) = delete;
  WorkerPool& operator=(const WorkerPool&) = delete;

  int threads() const { return threads_; }

  void run(int n, Task task, void* ctx) {
    if (threads_ == 1 || n < 2) {
      task(ctx, 0, n);
      return;
    }
    task_ = task;
    ctx_ = ctx;
    n_ = n;
    failed_ = nullptr;
    pending_.store(threads_ - 1);
    {
      std::lock_guard<std::mutex> lock(mutex_);
      generation_.fetch_add(1, std::memory_order_release);
    }
    wake_.notify_all();
    const auto [begin, end] = share(0, n);
    std::exception_ptr mine;
    try {
      task(ctx, begin, end);
    } catch (...) {
      mine = std::current_exception();
    }
    if (!spin_until([this] { return pending_.load(std::memory_order_acquire) == 0; })) {
      std::unique_lock<std::mutex> lock(mutex_);
      done_.wait(lock, [this] { return pending_.load(std::memory_order_acquire) == 0; });
    }
    if (mine) std::rethrow_exception(mine);
    if (failed_) std::rethrow_exception(failed_);
  }

 private:
  std::pair<int, int> share(int t, int n) const {
    return {static_cast<int>(int64_t{n} * t / threads_), static_cast<int>(int64_t{n} * (t + 1) / threads_)};
  }

  // Polls `ready` for about 200 microseconds; whether it became true.
  template <typename Ready>
  static bool spin_until(Ready ready) {
    const auto until = std::chrono::steady_clock::now() + std::chrono::microseconds(200);
    for (int i = 0;; ++i) {
      if (ready()) return true;
      if ((i & 63) == 63 && std::chrono::steady_clock::now() > until) return false;
    }
  }

  void work(int t) {
    uint64_t seen = 0;
    for (;;) {
      const auto moved = [&] { return generation_.load(std::memory_order_acquire) != seen; };
      if (!spin_until(moved)) {
        std::unique_lock<std::mutex> lock(mutex_);
        wake_.wait(lock, moved);
      }
      seen = generation_.load(std::memory_order_acquire);
      if (quit_.load()) return;
      const auto [begin, end] = share(t, n_);
      try {
        task_(ctx_, begin, end);
      } catch (...) {
        std::lock_guard<std::mutex> lock(mutex_);
        if (!failed_) failed_ = std::current_exception();
      }
      if (pending_.fetch_sub(1, std::memory_order_acq_rel) == 1) {
        std::lock_guard<std::mutex> lock(mutex_);
        done_.notify_one();
      }
    }
  }

  int threads_;
  std::vector<std::thread> workers_;
  std::mutex mutex_;
  std::condition_variable wake_, done_;
  std::atomic<uint64_t> generation_{0};
  std::atomic<int> pending_{0};
  std::atomic<bool> quit_{false};
  // Written before generation_ moves, read after: published by its release and acquire.
  Task task_ = nullptr;
  void* ctx_ = nullptr;
  int n_ = 0;
  std::exception_ptr failed_;
};

}  // namespace nutcore::engine
