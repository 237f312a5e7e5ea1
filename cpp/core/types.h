// Common vocabulary of every game and every search: actions, player ids, fixed-capacity lists.
#pragma once

#include <cstdint>
#include <cassert>

namespace nutcore {

using Action = int32_t;

// Player ids, as in OpenSpiel: seats are 0..N-1, chance and terminal are negative.
constexpr int kChancePlayer = -1;
constexpr int kTerminalPlayer = -4;

// A list with its capacity fixed at compile time: the hot path never allocates.
template <typename T, int Capacity>
class FixedList {
 public:
  static constexpr int kCapacity = Capacity;

  void clear() { size_ = 0; }
  void push_back(const T& value) {
    assert(size_ < Capacity);
    items_[size_++] = value;
  }
  int size() const { return size_; }
  bool empty() const { return size_ == 0; }
  const T& operator[](int i) const { return items_[i]; }
  T& operator[](int i) { return items_[i]; }
  const T* begin() const { return items_; }
  const T* end() const { return items_ + size_; }

 private:
  T items_[Capacity];
  int size_ = 0;
};

// A root action's statistics, as every search and solver reports them.
struct ActionStats {
  Action action;
  long visits;        // MCTS visits; 1 for the exact algorithms
  double mean_value;  // for the player to move at the root
};

struct ChanceOutcome {
  Action action;
  double probability;
};

}  // namespace nutcore
