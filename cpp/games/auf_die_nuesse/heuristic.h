// Auf die Nüsse!: game knowledge for the AI, kept apart from the rules. A heuristic evaluation
// (estimated final points per player) and a greedy policy used as the greedy bot and as the
// playout policy of MCTS. Found by search through argument-dependent lookup:
//   double evaluate(const Game&, const State&, int player)
//   void evaluate_all(const Game&, const State&, double* out)
//   Action rollout_action(const Game&, const State&, Rng&)
#pragma once

#include <algorithm>

#include "games/auf_die_nuesse/auf_die_nuesse.h"

namespace nutcore::auf_die_nuesse {

// Points a store is worth now plus the hope of filling it: a partial store's bonus grows with the
// square of how full it is.
inline double store_potential(int nuts, int capacity, int value) {
  if (nuts >= capacity) return value;
  const double f = static_cast<double>(nuts) / capacity;
  return nuts + (value - capacity) * f * f;
}

// Gain of putting one nut of `kind` into `store` of seat p (negative infinity if it does not fit).
inline double placement_gain(const Game& g, const State& s, int p, int store, int kind) {
  const int cap = g.params().store_capacities[store];
  const int nuts = s.store_nuts(p, store);
  if (nuts == cap) return -1e9;
  const int held = s.store_kind(p, store);
  if (held >= 0 && held != kind) return -1e9;
  const int value = g.params().store_values[store];
  return store_potential(nuts + 1, cap, value) - store_potential(nuts, cap, value);
}

// Best gain for a card (a joker may be either kind) over p's stores.
inline double best_card_gain(const Game& g, const State& s, int p, int card) {
  double best = 0.0;
  for (int which = 0; which < (card < kNumKinds ? 1 : 2); ++which) {
    const int kind = card < kNumKinds ? card : kJokerKinds[card - kNumKinds][which];
    for (int st = 0; st < kNumStores; ++st) best = std::max(best, placement_gain(g, s, p, st, kind));
  }
  return best;
}

constexpr double kNutWorth = 2.5;  // rough value of one future nut in points

inline double evaluate(const Game& g, const State& s, int p) {
  double points = 0.0;
  for (int st = 0; st < kNumStores; ++st)
    points += store_potential(s.store_nuts(p, st), g.params().store_capacities[st], g.params().store_values[st]);
  if (g.is_terminal(s)) return points;
  // Squirrels on the way to a nut, kept jokers and a pending card.
  for (int sp = 0; sp < kNumSpaces; ++sp) points += kNutWorth * 0.6 * s.squirrels_at(sp, p) / kThreshold[sp];
  for (int t = 0; t < kNumJokerTypes; ++t) points += kNutWorth * s.kept[p][t];
  if (p == s.active) points += kNutWorth * 0.3 * popcount(s.start_track);
  if (s.pending != kNone && s.seat == p) points += kNutWorth;
  return points;
}

inline void evaluate_all(const Game& g, const State& s, double* out) {
  for (int p = 0; p < s.num_players; ++p) out[p] = evaluate(g, s, p);
}

// Probability that the next roll fails with the current start track.
inline double fail_probability(unsigned track) {
  int fails = 0;
  for (int g = 1; g <= 6; ++g)
    for (int w1 = 1; w1 <= 6; ++w1)
      for (int w2 = 1; w2 <= 6; ++w2) fails += (track >> (g + w1 - 2) & 1) && (track >> (g + w2 - 2) & 1);
  return fails / 216.0;
}

// Would stopping now let the active player collect somewhere in the 2-area?
inline bool stop_collects(const State& s) {
  int added[kNumSpaces] = {};
  for (unsigned t = s.start_track; t; t &= t - 1) ++added[kAboveStart[__builtin_ctz(t)]];
  for (int sp = kA; sp <= kE; ++sp)
    if (added[sp] && s.squirrels_at(sp, s.active) + added[sp] >= 2) return true;
  return false;
}

// The greedy policy: a sensible stop rule, nuts into the stores where they gain most, steals that
// gain most for us and cost the victim most. Deterministic; ties go to the lowest action id.
inline Action rollout_action(const Game& g, const State& s, Rng&) {
  ActionList legal;
  g.legal_actions(s, legal);
  const int me = g.current_player(s);
  switch (s.phase) {
    case Phase::kRollOrStop: {
      if (legal[0] != act::kRoll) return act::kStop;
      const double fail = fail_probability(s.start_track);
      const bool collects = stop_collects(s);
      return (collects && fail > 0.12) || fail > 0.3 ? act::kStop : act::kRoll;
    }
    case Phase::kPrePlace:
      return legal.size() > 1 ? legal[1] : legal[0];  // put, never stop
    default:
      break;
  }
  Action best = legal[0];
  double best_score = -1e18;
  for (Action a : legal) {
    double score = 0.0;
    if (a >= act::kSpace + 2 && a <= act::kSpace + 12) {
      const int target = kAboveStart[a - 2];
      int mine = s.squirrels_at(target, me);
      for (unsigned t = s.start_track; t; t &= t - 1) mine += kAboveStart[__builtin_ctz(t)] == target;
      score = (mine + 1 >= 2 ? 10.0 : 0.0) - (mine + 1 > 2 ? 4.0 : 0.0);
    } else if (a >= act::kTake && a < act::kStore) {
      score = best_card_gain(g, s, me, s.face_up[a - act::kTake]);
    } else if (a >= act::kStore && a < act::kJoker) {
      score = placement_gain(g, s, me, a - act::kStore, s.pending);
    } else if (a >= act::kJoker && a < act::kKeep) {
      const int j = a - act::kJoker;
      score = placement_gain(g, s, me, j % 8, kJokerKinds[j / 16][(j / 8) % 2]);
    } else if (a == act::kKeep) {
      score = 0.5;
    } else if (a >= act::kSteal && a < act::kNoSteal) {
      const int v = (a - act::kSteal) / 8, st = (a - act::kSteal) % 8;
      const int cap = g.params().store_capacities[st], value = g.params().store_values[st], nuts = s.store_nuts(v, st);
      const double loss = store_potential(nuts, cap, value) - store_potential(nuts - 1, cap, value);
      score = best_card_gain(g, s, me, s.store_kind(v, st)) + loss;
    } else if (a == act::kNoSteal) {
      score = 0.0;
    } else if (a == act::kDone) {
      score = 3.0;  // keep a joker unless placing it gains about as much as filling a store
    }
    if (score > best_score) {
      best_score = score;
      best = a;
    }
  }
  return best;
}

}  // namespace nutcore::auf_die_nuesse
