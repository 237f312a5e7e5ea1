// Die Ritter von der Haselnuss: game knowledge for the AI, apart from the rules. Found by search
// through argument-dependent lookup. Both read only what the seat concerned knows: the greedy bot
// plays on the real state, so it must not peek (tests pin this).
//
//   evaluate_all: score plus the carried hazelnuts at what delivering them would bring, discounted
//                 (public information only)
//   rollout_action: the greedy policy of a careful player with perfect memory (the greedy bot and
//                 the ISMCTS playout policy):
//     - shout only when sure: the drawer's stack has a known top this seat has seen; else silent;
//     - deliver at a hiding place when carrying 2 or more hazelnuts;
//     - otherwise prefer a bush whose top is undrawn (a hazelnut with the pool's odds, and a fresh
//       thief costs nothing: nobody can know it), avoid stacks with a known thief on top when
//       carrying hazelnuts and another seat has seen it (it would be shouted, the hazelnuts lost);
//     - set-up: the free bush with the most neighbours.
//   Ties go to the lowest action id.
//   greedy_bot_action: the greedy bot's move, the rollout policy's but for one rule that ends the
//     stalls of two-player play (bench/RESULTS.md): when every stack is empty or topped by a known
//     thief and the seat is not ahead, it shouts at a drawn known top it has not seen, naming the
//     likeliest thief by what it knows. Kept out of the playouts: there it made ISMCTS weaker.
#pragma once

#include "games/ritter/ritter.h"

namespace nutcore::ritter {

inline void evaluate_all(const Game& g, const State& s, double* out) {
  for (int p = 0; p < s.num_players; ++p) out[p] = s.score[p] + 0.6 * g.delivery_value(s.carried[p]);
}

inline Action rollout_action(const Game& g, const State& s, Rng&) {
  const int me = s.current;
  if (s.phase == Phase::kShout) {
    const int b = s.knight[s.drawer];
    if (s.top[b] != kNone && (s.seen[b] >> me & 1)) return act::kShout + s.top[b];
    return act::kSilent;
  }
  ActionList legal;
  g.legal_actions(s, legal);
  if (legal.empty()) return -1;  // not a decision node: the caller broke the contract
  Action best = legal[0];
  double best_score = -1e18;
  const int carried = s.carried[me];
  // Public odds that an undrawn top is a hazelnut.
  const int undrawn = s.pool[0] + s.pool[1] + s.pool[2] + s.pool[3];
  const double p_nut = undrawn ? static_cast<double>(s.pool[0]) / undrawn : 0.0;
  for (Action a : legal) {
    const int node = a - act::kTo;
    double score = 0.0;
    if (s.phase == Phase::kPlace) {
      score = g.degree(node);
    } else if (!g.is_bush(node)) {
      score = carried >= 2 ? 10.0 + g.delivery_value(carried) : -1.0;
    } else if (s.cards[node] == 0) {
      score = 0.0;
    } else if (s.top[node] == kNone) {
      score = 1.0 + p_nut * (g.delivery_value(carried + 1) - g.delivery_value(carried) + 1);
    } else {
      const bool others_know = (s.seen[node] & ~(1u << me)) != 0;
      score = others_know ? -1.0 - 2.0 * carried : 0.5;
    }
    if (score > best_score) {
      best_score = score;
      best = a;
    }
  }
  return best;
}

// Whether every stack is empty or topped by a known thief (public), and `me` is not ahead.
inline bool stalled_behind(const Game& g, const State& s, int me) {
  for (int b = 0; b < g.num_nodes() && g.is_bush(b); ++b)
    if (s.cards[b] != 0 && s.top[b] == kNone) return false;
  for (int p = 0; p < s.num_players; ++p)
    if (p != me && s.score[p] >= s.score[me]) return true;
  return false;
}

inline Action greedy_bot_action(const Game& g, const State& s, Rng& rng) {
  if (s.phase == Phase::kShout) {
    const int me = s.current, b = s.knight[s.drawer];
    if (s.top[b] != kNone && !(s.seen[b] >> me & 1) && stalled_behind(g, s, me)) {
      // Per kind, the thieves that can be that top as far as `me` knows: neither removed (public)
      // nor a known top it has seen.
      int free[kKinds];
      for (int k = 0; k < kKinds; ++k) free[k] = g.params().thieves_per_kind - g.removed(s, k);
      for (int c = 0; c < g.num_nodes() && g.is_bush(c); ++c)
        if (s.top[c] != kNone && (s.seen[c] >> me & 1)) --free[s.top[c]];
      int best = 0;
      for (int k = 1; k < kKinds; ++k)
        if (free[k] > free[best]) best = k;
      return act::kShout + best;
    }
  }
  return rollout_action(g, s, rng);
}

}  // namespace nutcore::ritter
