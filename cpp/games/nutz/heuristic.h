// Nutz!: game knowledge for the AI, apart from the rules. Found by search through argument-
// dependent lookup. Both functions read only what the seat concerned knows (they work on its view:
// other seats' hands and face-down cards are masked), so the greedy bot cannot peek.
//
//   evaluate_all: each display's score, plus half credit for an unpaired card of a kind scored in
//                 groups and for the next step of an unfinished set (public information only)
//   rollout_action: the greedy policy (the greedy bot and the ISMCTS playout policy):
//     - summer: the card and tree that most raise what the column is worth to this seat, less
//       what it adds for the opponent it helps most (so predators go where they hurt others);
//       face down when the card is worth 3 or more to this seat and it holds 2 tokens or more;
//     - winter: the tree worth most to this seat (its cards at their marginal value, a face-down
//       card it cannot see at the average value of the cards it has not seen, 0.6 a token it
//       would gain, a little for a lower squirrel number: playing earlier next year);
//     - predators and the final two cards: the order that leaves its own score highest.
//   Ties go to the lowest action id.
#pragma once

#include "games/nutz/nutz.h"

namespace nutcore::nutz {

namespace heuristic {

// Display d after its holder receives a card of kind k: a food card joins it; a predator aimed at
// its holder (self or everyone) takes its cards, as the rules do.
inline void receive(const Game& g, uint8_t* d, int k) {
  const Kind& kd = g.kind(k);
  if (kd.food)
    ++d[k];
  else if (kd.target != Kind::Target::kOthers)
    g.discard_from(d, k);
}

inline int display_score(const Game& g, const uint8_t* d) {
  int total = 0;
  for (int k = 0; k < g.num_kinds(); ++k) total += g.kind(k).points(d[k]);
  return total;
}

// display_score(after) - display_score(before), scoring only the kinds that changed (the hot path:
// the policy scores every card and tree this way).
inline int score_change(const Game& g, const uint8_t* before, const uint8_t* after) {
  int change = 0;
  for (int k = 0; k < g.num_kinds(); ++k)
    if (after[k] != before[k]) change += g.kind(k).points(after[k]) - g.kind(k).points(before[k]);
  return change;
}

// Points a card of kind k adds to (or takes from) display d.
inline double marginal(const Game& g, const uint8_t* d, int k) {
  uint8_t copy[kMaxKinds];
  std::memcpy(copy, d, kMaxKinds);
  receive(g, copy, k);
  return score_change(g, d, copy);
}

// What taking column j (plus one extra card of type `extra`, or -1) would add to seat q's score,
// as q's view shows it: food first, then predators; hidden cards at `hidden_value`.
inline double column_value(const Game& g, const State& v, int q, int j, int extra, double hidden_value) {
  uint8_t d[kMaxKinds];
  std::memcpy(d, v.display[q], kMaxKinds);
  double hidden = 0;
  int predators[kColumnMax + 1], np = 0;
  auto add = [&](int t) {
    const int k = g.type_kind(t);
    if (g.kind(k).food)
      ++d[k];
    else
      predators[np++] = k;
  };
  for (int i = 0; i < kColumnMax && v.column[j][i] != kNone; ++i) {
    const int t = code_type(v.column[j][i]);
    if (t == kHiddenType)
      hidden += hidden_value;
    else
      add(t);
  }
  if (extra >= 0) add(extra);
  for (int i = 0; i < np; ++i) receive(g, d, predators[i]);  // applied after the food
  return score_change(g, v.display[q], d) + hidden;
}

// The average marginal value to seat q of a card it has not seen.
inline double hidden_value(const Game& g, const State& s, int viewer, int q) {
  int counts[kTypeSlots] = {}, per_kind[kMaxKinds] = {};
  g.unseen(s, viewer, counts);
  double total = 0, sum = 0;
  for (int t = 0; t < g.num_types(); ++t) per_kind[g.type_kind(t)] += counts[t];  // types of a kind score alike
  for (int k = 0; k < g.num_kinds(); ++k) {
    if (!per_kind[k]) continue;
    total += per_kind[k];
    sum += per_kind[k] * marginal(g, s.display[q], k);
  }
  return total > 0 ? sum / total : 0.0;
}

}  // namespace heuristic

inline void evaluate_all(const Game& g, const State& s, double* out) {
  for (int p = 0; p < s.num_players; ++p) {
    double v = g.score_of(s, p);
    for (int k = 0; k < g.num_kinds(); ++k) {
      const Kind& kd = g.kind(k);
      if (!kd.food || kd.score == Kind::Score::kEach) continue;
      v += 0.5 * (kd.points(s.display[p][k] + 1) - kd.points(s.display[p][k]));
    }
    out[p] = v;
  }
}

inline Action rollout_action(const Game& g, const State& s, Rng&) {
  ActionList legal;
  g.legal_actions(s, legal);
  if (legal.empty()) return -1;  // not a decision node: the caller broke the contract
  if (legal.size() == 1) return legal[0];
  const int me = s.current, n = s.num_players;
  const State v = g.view(s, me);
  Action best = legal[0];
  double best_score = -1e18;
  if (s.phase == Phase::kSummer) {
    const double hidden_me = heuristic::hidden_value(g, s, me, me);
    double base_me[kMaxTrees], base_opp[kMaxPlayers][kMaxTrees];
    for (int j = 0; j < n + 1; ++j) {
      base_me[j] = heuristic::column_value(g, v, me, j, -1, hidden_me);
      for (int q = 0; q < n; ++q)
        if (q != me) base_opp[q][j] = heuristic::column_value(g, v, q, j, -1, 0.0);
    }
    int scored = -1;  // the card and tree last scored: face up and face down follow each other
    double gain = 0, help = 0;
    for (Action a : legal) {
      const int t = a / 10, j = a % 10 / 2;
      const bool down = a & 1;
      if (a / 2 != scored) {
        scored = a / 2;
        gain = heuristic::column_value(g, v, me, j, t, hidden_me) - base_me[j];
        help = -1e18;
        for (int q = 0; q < n; ++q)
          if (q != me) help = std::max(help, heuristic::column_value(g, v, q, j, t, 0.0) - base_opp[q][j]);
      }
      double score = gain - 0.7 * help;
      if (down) score += (gain >= 3 && s.tokens[me] >= 2) ? 0.5 : -0.5;
      if (score > best_score) {
        best_score = score;
        best = a;
      }
    }
    return best;
  }
  if (s.phase == Phase::kWinter) {
    const double hidden_me = heuristic::hidden_value(g, s, me, me);
    const int cap = g.params().token_cap;
    for (Action a : legal) {
      const int j = a - act::kTake;
      int tokens = 0, moons = 0;
      for (int i = 0; i < kColumnMax && v.column[j][i] != kNone; ++i) {
        const uint8_t c = v.column[j][i];
        tokens += code_down(c);
        if (code_type(c) != kHiddenType) moons += g.type_moons(code_type(c));
      }
      if (j == n) tokens += s.last_squirrel_token;
      const int gained = std::min(cap - s.tokens[me], tokens + std::min<int>(moons, s.supply));
      const double score = heuristic::column_value(g, v, me, j, -1, hidden_me) + 0.6 * std::max(0, gained) +
                           0.2 * (n + 1 - j) / (n + 1);
      if (score > best_score) {
        best_score = score;
        best = a;
      }
    }
    return best;
  }
  // Predators and the final cards: the order that leaves this seat's display worth most (its own
  // cards and display only, all known to it).
  for (Action a : legal) {
    uint8_t d[kMaxKinds];
    std::memcpy(d, s.display[me], kMaxKinds);
    if (s.phase == Phase::kPredators) {
      const int first = a - act::kApply;
      heuristic::receive(g, d, first);
      for (int k = 0; k < g.num_kinds(); ++k)
        for (int c = s.pending[k] - (k == first); c > 0; --c) heuristic::receive(g, d, k);
    } else {  // final: this card, then the rest of the hand
      const int first = a - act::kFinal;
      heuristic::receive(g, d, first);
      bool skipped = false;
      for (int i = 0; i < kHandSize && s.hand[me][i] != kNone; ++i) {
        const int k = g.type_kind(s.hand[me][i]);
        if (k == first && !skipped) {
          skipped = true;
          continue;
        }
        heuristic::receive(g, d, k);
      }
    }
    const double score = heuristic::display_score(g, d);
    if (score > best_score) {
      best_score = score;
      best = a;
    }
  }
  return best;
}

}  // namespace nutcore::nutz
