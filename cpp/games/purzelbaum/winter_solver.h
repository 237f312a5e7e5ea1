// Exact solver for the winter of Purzelbaum (perfect memory makes it a deterministic game of
// perfect information).
//
// A winter position is the multiset of white holes' contents (a leaf or not, the nuts in it) and
// the player to move; the disks' places do not matter. A dig at a hole with nuts yields its leaf
// and nuts and leaves the disk white and empty; a dig at a hole without nuts yields its leaf and
// turns the disk green. Each dig gains the mover g = 64 * (leaves + nuts) + nuts, so that comparing
// sums of g compares points first and nuts second (the rulebook's tie-break).
//
//   2 players:   V(s) = max_m [ g(m) - V(s after m) ]     (negamax on the future margin)
//   3-4 players: max-n on the vector of future gains; the mover maximises its own entry; among
//                equal entries the first move in canonical order (contents ascending) is taken.
//
// Memoised in a transposition table keyed by (contents multiset, mover). Scores so far only shift
// the result, so they are not part of the key.
#pragma once

#include <algorithm>
#include <array>
#include <chrono>
#include <cstring>
#include <stdexcept>
#include <string>
#include <unordered_map>
#include <vector>

#include "core/stop.h"
#include "games/purzelbaum/purzelbaum.h"

namespace nutcore::purzelbaum {

struct WinterSolution {
  std::vector<double> value;  // per seat: final points * 64 + nuts under best play
  std::vector<long> future;   // per seat: the part of that still to be dug
  Action best_action = -1;
  std::vector<std::pair<Action, long>> action_values;  // the mover's future gain after each dig
  int outcome = 0;                                     // 2 players: +1 the mover wins, 0 draw, -1 loses
  long positions = 0;                                  // distinct positions solved (transposition table entries)
  double elapsed = 0.0;
};

class WinterSolver {
 public:
  static constexpr int kCodes = 2 * (kMaxEnds + 1);  // content code = 2 * nuts + leaf

  explicit WinterSolver(int players, const StopFlag* stop = nullptr) : n_(players), stop_(stop) {}

  WinterSolution solve(const Game& game, const State& s) {
    if (s.phase != Phase::kDig) throw std::invalid_argument("the winter solver needs a winter position (phase dig)");
    const auto start = std::chrono::steady_clock::now();
    Counts counts{};
    for (int h = 0; h < game.num_holes(); ++h)
      if (s.white >> h & 1) ++counts[code(s, h)];
    WinterSolution out;
    const int mover = s.current;
    // Root: every white hole separately, so that each action gets its value.
    std::vector<long> best;
    for (int h = 0; h < game.num_holes(); ++h) {
      if (!(s.white >> h & 1)) continue;
      const int c = code(s, h);
      Counts next = counts;
      apply(next, c);
      std::vector<long> v = search(next, (mover + 1) % n_);
      v[mover] += gain(c);
      out.action_values.push_back({act::kDig + h, v[mover]});
      if (best.empty() || v[mover] > best[mover]) {
        best = v;
        out.best_action = act::kDig + h;
      }
    }
    out.future = best;
    for (int p = 0; p < n_; ++p)
      out.value.push_back(static_cast<double>(64 * (s.leaves[p] + s.nuts[p]) + s.nuts[p] + best[p]));
    if (n_ == 2) {
      const double margin = out.value[mover] - out.value[1 - mover];
      out.outcome = margin > 0 ? 1 : margin < 0 ? -1 : 0;
    }
    out.positions = static_cast<long>(table_.size());
    out.elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return out;
  }

 private:
  using Counts = std::array<uint8_t, kCodes>;
  int n_;
  const StopFlag* stop_;
  long calls_ = 0;
  std::unordered_map<std::string, std::vector<long>> table_;

  static int code(const State& s, int h) { return 2 * s.hole_nuts[h] + (s.leaf >> h & 1); }
  static long gain(int c) {
    const int nuts = c / 2, leaf = c % 2;
    return 64L * (leaf + nuts) + nuts;
  }
  // Digging at a hole with content c: nuts found keep the disk white and empty, else it goes green.
  static void apply(Counts& counts, int c) {
    --counts[c];
    if (c >= 2) ++counts[0];
  }

  std::vector<long> search(const Counts& counts, int mover) {
    bool any = false;
    for (int c = 0; c < kCodes && !any; ++c) any = counts[c] != 0;
    if (!any) return std::vector<long>(n_, 0);
    if ((++calls_ & 1023) == 0 && stop_requested(stop_)) throw Stopped();
    std::string key(reinterpret_cast<const char*>(counts.data()), counts.size());
    key.push_back(static_cast<char>(mover));
    if (auto it = table_.find(key); it != table_.end()) return it->second;
    std::vector<long> best;
    for (int c = 0; c < kCodes; ++c) {
      if (!counts[c]) continue;
      Counts next = counts;
      apply(next, c);
      std::vector<long> v = search(next, (mover + 1) % n_);
      v[mover] += gain(c);
      if (best.empty() || v[mover] > best[mover]) best = std::move(v);
    }
    table_.emplace(std::move(key), best);
    return best;
  }
};

}  // namespace nutcore::purzelbaum
