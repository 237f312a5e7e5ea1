// Common vocabulary of every game and every search: actions, player ids, fixed-capacity lists.
#pragma once

#include <array>
#include <cassert>
#include <cstdint>

#include "core/rng.h"

namespace nutcore {

// Set bits of a mask. Without the popcnt instruction enabled (-mpopcnt; not in baseline x86-64)
// __builtin_popcount becomes a library call, which the rules make in their hot paths: count by
// halves instead, inline.
inline int popcount(uint32_t x) {
#if defined(__POPCNT__) || !(defined(__x86_64__) || defined(__i386__))
  return __builtin_popcount(x);
#else
  x = x - ((x >> 1) & 0x55555555u);
  x = (x & 0x33333333u) + ((x >> 2) & 0x33333333u);
  return static_cast<int>((((x + (x >> 4)) & 0x0F0F0F0Fu) * 0x01010101u) >> 24);
#endif
}

// Whether a mask has exactly one member: a forced choice, seen without listing.
inline bool one_bit_set(uint32_t m) { return m != 0 && (m & (m - 1)) == 0; }

namespace detail {
// kSelectInByte[b][k]: the position of the k-th (from 0) set bit of byte b (0 where b has fewer).
constexpr auto kSelectInByte = [] {
  std::array<std::array<uint8_t, 8>, 256> table{};
  for (int b = 0; b < 256; ++b)
    for (int i = 0, k = 0; i < 8; ++i)
      if (b >> i & 1) table[b][k++] = static_cast<uint8_t>(i);
  return table;
}();
}  // namespace detail

// The position of the k-th (from 0) set bit of `bits`, k < popcount(bits): a uniform choice among
// a mask's members, drawn in playouts without listing them. Branch-free: the byte holding it is
// found from the bytes' running counts, the bit within that byte from a table.
inline int nth_set_bit(uint32_t bits, int k) {
  uint32_t x = bits - ((bits >> 1) & 0x55555555u);
  x = (x & 0x33333333u) + ((x >> 2) & 0x33333333u);
  const uint32_t running = ((x + (x >> 4)) & 0x0F0F0F0Fu) * 0x01010101u;  // byte i: bits in bytes 0..i
  // Byte i's high bit: running count > k (counts are at most 32, so no borrow crosses a byte).
  const uint32_t past = ((running | 0x80808080u) - 0x01010101u * static_cast<uint32_t>(k + 1)) & 0x80808080u;
  const int byte = __builtin_ctz(past) >> 3;
  const int before = static_cast<int>(((running << 8) >> (8 * byte)) & 0xFF);
  return 8 * byte + detail::kSelectInByte[(bits >> (8 * byte)) & 0xFF][k - before];
}

// A uniformly drawn member of a nonempty mask, with the draw of listing its bits in ascending
// order and taking list[rng.below(size)] (the contract of a game's random_action).
inline int random_member(uint32_t bits, Rng& rng) {
  return nth_set_bit(bits, static_cast<int>(rng.below(static_cast<uint32_t>(popcount(bits)))));
}

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
  T* begin() { return items_; }
  T* end() { return items_ + size_; }

 private:
  T items_[Capacity];
  int size_ = 0;
};

// The seat after p among n, clockwise. Without a division: a playout turns seats at every move.
inline int next_seat(int p, int n) { return p + 1 == n ? 0 : p + 1; }

// A uniformly random legal action by listing them: legal[rng.below(size)]. The reference draw of
// random play, which a game's random_action (search/random_playout.h) reproduces without the list.
template <typename G, typename S>
Action random_action_by_listing(const G& game, const S& s, Rng& rng) {
  typename G::Actions legal{};  // zeroed: GCC cannot see that legal_actions fills what is read
  game.legal_actions(s, legal);
  return legal[static_cast<int>(rng.below(static_cast<uint32_t>(legal.size())))];
}

// A root action's statistics, as every search and solver reports them.
struct ActionTally {
  Action action;
  long visits;        // MCTS visits; 1 for the exact algorithms
  double mean_value;  // for the player to move at the root
};

struct ChanceOutcome {
  Action action;
  double probability;
};

// One outcome of a list of ChanceOutcome drawn by its probability (the last one takes whatever
// rounding leaves over).
template <typename Outcomes>
Action sample_outcome(const Outcomes& list, Rng& rng) {
  double r = rng.uniform();
  for (int i = 0; i + 1 < list.size(); ++i) {
    r -= list[i].probability;
    if (r < 0) return list[i].action;
  }
  return list[list.size() - 1].action;
}

}  // namespace nutcore
