// Purzelbaum: game knowledge for the AI, apart from the rules. Found by search through
// argument-dependent lookup (core/game_concept.h lists the hooks).
//   evaluate_all: points so far plus an equal share of what is still to be won
//   rollout_action: the greedy policy (the greedy bot and the MCTS playout policy)
//   order_actions: the legal actions best first by the same judgement (MCTS's progressive widening)
#pragma once

#include <algorithm>
#include <cassert>

#include "games/purzelbaum/purzelbaum.h"

namespace nutcore::purzelbaum {

inline void evaluate_all(const Game& g, const State& s, double* out) {
  const int n = s.num_players;
  // Leaves and nuts not yet collected: on the tree, on disks, in holes (and one in the air).
  int open = 2 * popcount(s.ends) + popcount(s.leaf) + (s.phase == Phase::kBury ? 1 : 0);
  for (int h = 0; h < g.num_holes(); ++h) open += s.hole_nuts[h];
  for (int p = 0; p < n; ++p) out[p] = s.leaves[p] + s.nuts[p] + static_cast<double>(open) / n;
}

// Whether shove `a` is legal: its target disk is one of the `open` ones and its branch end still
// holds its nut and leaf.
inline bool shove_is_legal(const State& s, uint32_t open, Action a) {
  return (open >> ((a - act::kShove) / 16) & 1) && (s.ends >> ((a - act::kShove) % 16) & 1);
}

// Greedy: in autumn, the shove most likely to hit (the model's own table, so a player's skill
// counts); burying a stray nut, the hole whose disk is green (it is dug last, when the burier may
// be the one to move); in winter, the dig that yields most now, preferring holes with nuts.
inline Action rollout_action(const Game& g, const State& s, Rng&) {
  if (s.phase == Phase::kShove) {  // the first legal shove in the seat's likeliest-hit order
    const uint32_t open = g.open_targets(s);
    for (Action a : g.shoves_by_hit(s.current))
      if (shove_is_legal(s, open, a)) return a;
    return -1;
  }
  // Without listing: the same choice as scoring legal_actions in order, the first best kept.
  if (s.phase == Phase::kBury) {  // the first hole whose disk is green, else hole 0
    const uint32_t green = g.open_targets(s);
    return act::kBury + (green ? __builtin_ctz(green) : 0);
  }
  if (s.phase == Phase::kDig) {
    Action best = -1;
    double best_score = -1e18;
    for (uint32_t m = s.white & g.all_holes(); m; m &= m - 1) {
      const int h = __builtin_ctz(m);
      const double score = (s.leaf >> h & 1) + 1.01 * s.hole_nuts[h];
      if (score > best_score) {
        best_score = score;
        best = act::kDig + h;
      }
    }
    return best;
  }
  return -1;  // not a decision node: the caller broke the contract
}

// The legal actions (as legal_actions lists them) reordered best first: shoves by the seat's hit
// probability, a stray nut's holes green first, digs by what they yield now (ties keep their order).
inline void order_actions(const Game& g, const State& s, Game::Actions& actions) {
  if (s.phase == Phase::kShove) {  // the legal shoves are exactly the open targets times the full ends
    const uint32_t open = g.open_targets(s);
    int k = 0;
    for (Action a : g.shoves_by_hit(s.current))
      if (shove_is_legal(s, open, a)) actions[k++] = a;
    assert(k == actions.size());
    return;
  }
  const uint32_t green = g.open_targets(s);
  auto score = [&](Action a) -> double {
    if (s.phase == Phase::kBury) return green >> (a - act::kBury) & 1;
    const int h = a - act::kDig;
    return (s.leaf >> h & 1) + 1.01 * s.hole_nuts[h];
  };
  std::stable_sort(actions.begin(), actions.end(), [&](Action a, Action b) { return score(a) > score(b); });
}

}  // namespace nutcore::purzelbaum
