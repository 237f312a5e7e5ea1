// Exact push-your-luck solver for one Auf die Nüsse! turn.
//
// At a roll / stop decision (phases roll_or_stop and choose_space) the rest of the turn depends
// only on which start-track spaces are taken. With E(t) the end-of-turn evaluation after stopping
// with track t, F the evaluation after a failed roll and P(o | t) the exact roll distribution:
//
//   V(t)      = max( E(t),  R(t) )                 (R only while a squirrel is left in the supply)
//   R(t)      = sum_o P(o | t) * { F            if o fails
//                                 V(t + a)      if o frees one space a
//                                 max(V(t + a), V(t + b))  if o frees a and b }
//
// over at most 2^11 tracks, memoised. The evaluation defaults to the heuristic margin of the
// active player (own estimated points minus the best opponent's), taken at the first node after
// the turn's stop or failure; any `Eval(const State&, int player) -> double` may be given.
#pragma once

#include <algorithm>
#include <chrono>
#include <cmath>
#include <stdexcept>
#include <vector>

#include "core/types.h"
#include "games/auf_die_nuesse/auf_die_nuesse.h"
#include "games/auf_die_nuesse/heuristic.h"

namespace nutcore::auf_die_nuesse {

inline double heuristic_margin(const Game& g, const State& s, int p) {
  double best_other = -1e18;
  for (int q = 0; q < s.num_players; ++q)
    if (q != p) best_other = std::max(best_other, evaluate(g, s, q));
  return evaluate(g, s, p) - best_other;
}

struct TurnSolverResult {
  Action best_action = -1;
  std::vector<ActionTally> actions;  // mean_value: exact expected evaluation of the action
  double value = 0.0;                // of the best action
  long tracks = 0;                   // distinct start tracks evaluated
  double elapsed = 0.0;
};

template <typename Eval>
class TurnSolver {
 public:
  TurnSolver(const Game& game, Eval eval) : game_(game), eval_(eval) {}

  TurnSolverResult solve(const State& root) {
    if (root.phase != Phase::kRollOrStop && root.phase != Phase::kChooseSpace)
      throw std::invalid_argument("the turn solver needs a roll / stop or choose-space decision");
    const auto start = std::chrono::steady_clock::now();
    root_ = root;
    me_ = root.active;
    base_track_ = root.start_track;
    base_supply_ = game_.supply(root, me_);
    std::fill(memo_, memo_ + 2048, kUnknown);
    // A failed roll ends the turn the same way whatever the track held.
    State failed = root_;
    failed.phase = Phase::kRoll;
    failed.roll_a = failed.roll_b = kNone;
    game_.apply(failed, act::kRollFail);
    fail_value_ = eval_(failed, me_);

    TurnSolverResult result;
    if (root.phase == Phase::kRollOrStop) {
      result.actions.push_back({act::kStop, 1, stop_value(base_track_)});
      if (base_supply_ > 0) result.actions.insert(result.actions.begin(), {act::kRoll, 1, roll_value(base_track_)});
    } else {
      for (int space : {int(root.roll_a), int(root.roll_b)})
        result.actions.push_back({act::kSpace + space, 1, value(base_track_ | (1u << (space - 2)))});
    }
    const ActionTally* best = &result.actions[0];
    for (const auto& a : result.actions)
      if (a.mean_value > best->mean_value) best = &a;
    result.best_action = best->action;
    result.value = best->mean_value;
    result.tracks = tracks_;
    result.elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return result;
  }

 private:
  static constexpr double kUnknown = -1e300;
  const Game& game_;
  Eval eval_;
  State root_;
  int me_ = 0;
  unsigned base_track_ = 0;
  int base_supply_ = 0;
  double fail_value_ = 0.0;
  double memo_[2048];
  double stop_memo_[2048];
  bool stop_known_[2048] = {};
  long tracks_ = 0;

  double stop_value(unsigned track) {
    if (!stop_known_[track]) {
      stop_known_[track] = true;
      State s = root_;
      s.phase = Phase::kRollOrStop;
      s.roll_a = s.roll_b = kNone;
      s.start_track = static_cast<uint16_t>(track);
      game_.apply(s, act::kStop);
      stop_memo_[track] = eval_(s, me_);
      ++tracks_;
    }
    return stop_memo_[track];
  }

  double roll_value(unsigned track) {
    double sum = 0.0;
    // The exact distribution, enumerated as chance_outcomes() does.
    int count[act::kNumDistinct - act::kRollFail] = {};
    for (int g = 1; g <= 6; ++g)
      for (int w1 = 1; w1 <= 6; ++w1)
        for (int w2 = 1; w2 <= 6; ++w2) ++count[roll_outcome(track, g + w1, g + w2) - act::kRollFail];
    for (int i = 0; i < act::kNumDistinct - act::kRollFail; ++i) {
      if (!count[i]) continue;
      const double p = count[i] / 216.0;
      if (i == 0) {
        sum += p * fail_value_;
        continue;
      }
      const int a = 2 + (i - 1) / 11, b = 2 + (i - 1) % 11;
      const double va = value(track | (1u << (a - 2)));
      sum += p * (a == b ? va : std::max(va, value(track | (1u << (b - 2)))));
    }
    return sum;
  }

  double value(unsigned track) {
    if (memo_[track] != kUnknown) return memo_[track];
    const double stop = stop_value(track);
    const int supply_left = base_supply_ - (popcount(track) - popcount(base_track_));
    const double v = supply_left > 0 ? std::max(stop, roll_value(track)) : stop;
    memo_[track] = v;
    return v;
  }
};

inline TurnSolverResult solve_turn(const Game& game, const State& state) {
  auto eval = [&game](const State& s, int p) { return heuristic_margin(game, s, p); };
  return TurnSolver<decltype(eval)>(game, eval).solve(state);
}

}  // namespace nutcore::auf_die_nuesse
