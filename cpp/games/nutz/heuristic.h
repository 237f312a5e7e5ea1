// Nutz!: game knowledge for the AI, apart from the rules. Found by search through argument-
// dependent lookup. Both functions read only what the seat concerned knows (never another seat's
// hand; another seat's face-down card only as hidden, through seen_type), so the greedy bot cannot
// peek. tests/test_information_nutz.py checks the policy's move is a function of the seat's view.
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

// display_points(after) - display_points(before), scoring only the kinds that changed (the hot path:
// the policy scores every card and tree this way).
inline int score_change(const Game& g, const uint8_t* before, const uint8_t* after) {
  int change = 0;
  for (int k = 0; k < g.num_kinds(); ++k)
    if (after[k] != before[k]) change += g.points(k, after[k]) - g.points(k, before[k]);
  return change;
}

// Points a card of kind k adds to (or takes from) display d.
inline double marginal(const Game& g, const uint8_t* d, int k) {
  const Kind& kd = g.kind(k);
  if (kd.food) return g.points(k, d[k] + 1) - g.points(k, d[k]);
  uint8_t copy[kMaxKinds];
  std::memcpy(copy, d, kMaxKinds);
  receive(g, copy, k);
  return score_change(g, d, copy);
}

// Column j as seat q's view shows it, ready to be valued with or without one extra card: its food
// already on q's display, its predators still to come (they act after the food), hidden cards at
// `hidden_value` each.
// (Fields are set by prepare_take; no initialisers, as the policy declares a table of them per call.)
struct ColumnTake {
  uint8_t display[kMaxKinds];
  int predators[kColumnMax + 1];
  int num_predators;
  double hidden;
  int points;  // what taking the column without an extra card adds to q's score, hidden cards aside
};

// Column j of `s` as `viewer` sees it, taken by seat q.
inline ColumnTake prepare_take(const Game& g, const State& s, int viewer, int q, int j, double hidden_value) {
  ColumnTake c;
  c.num_predators = 0;
  c.hidden = 0;
  c.points = 0;  // food only: the sum of each card's step (it telescopes to the change)
  std::memcpy(c.display, s.display[q], kMaxKinds);
  for (int i = 0; i < kColumnMax && s.column[j][i] != kNone; ++i) {
    const int t = seen_type(s.column[j][i], viewer);
    if (t == kHiddenType) {
      c.hidden += hidden_value;
      continue;
    }
    const int k = g.type_kind(t);
    if (g.kind(k).food) {
      c.points += g.points(k, c.display[k] + 1) - g.points(k, c.display[k]);
      ++c.display[k];
    } else {
      c.predators[c.num_predators++] = k;
    }
  }
  if (c.num_predators) {  // predators take cards after the food: score the result whole
    uint8_t d[kMaxKinds];
    std::memcpy(d, c.display, kMaxKinds);
    for (int i = 0; i < c.num_predators; ++i) receive(g, d, c.predators[i]);
    c.points = score_change(g, s.display[q], d);
  }
  return c;
}

// The points (hidden cards aside) that taking the column with one extra card of type t adds to
// seat q's display `before`.
inline int take_points(const Game& g, const uint8_t* before, const ColumnTake& c, int t) {
  const int k = g.type_kind(t);
  const Kind& kd = g.kind(k);
  if (kd.food && c.num_predators == 0)  // the common case: one more of kind k, nothing taken
    return c.points + g.points(k, c.display[k] + 1) - g.points(k, c.display[k]);
  uint8_t d[kMaxKinds];
  std::memcpy(d, c.display, kMaxKinds);
  if (kd.food) ++d[k];
  for (int i = 0; i < c.num_predators; ++i) receive(g, d, c.predators[i]);
  if (!kd.food) receive(g, d, k);
  return score_change(g, before, d);
}

// Whether a column holds a card `viewer` cannot see (another seat's face-down card).
inline bool any_hidden(const State& s, int viewer) {
  for (int j = 0; j < s.num_players + 1; ++j)
    for (int i = 0; i < kColumnMax && s.column[j][i] != kNone; ++i)
      if (seen_type(s.column[j][i], viewer) == kHiddenType) return true;
  return false;
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
  Action best = legal[0];
  double best_score = -1e18;
  if (s.phase == Phase::kSummer) {
    // What a hidden card is worth, only where one lies in a column (the count is not cheap).
    const double hidden_me = heuristic::any_hidden(s, me) ? heuristic::hidden_value(g, s, me, me) : 0.0;
    heuristic::ColumnTake take[kMaxPlayers][kMaxTrees];  // [seat][tree], for the trees a card can go to
    for (int j = 0; j < n + 1; ++j) {
      if (!has_room(s, j)) continue;  // full: no card is played there
      for (int q = 0; q < n; ++q) take[q][j] = heuristic::prepare_take(g, s, me, q, j, q == me ? hidden_me : 0.0);
    }
    int scored = -1;  // the card and tree last scored: face up and face down follow each other
    double gain = 0, help = 0;
    for (Action a : legal) {
      const int t = a / 10, j = a % 10 / 2;
      const bool down = a & 1;
      if (a / 2 != scored) {
        scored = a / 2;
        const heuristic::ColumnTake& mine = take[me][j];
        gain = (heuristic::take_points(g, s.display[me], mine, t) + mine.hidden) - (mine.points + mine.hidden);
        help = -1e18;
        for (int q = 0; q < n; ++q)
          if (q != me) {
            const heuristic::ColumnTake& theirs = take[q][j];
            help = std::max(help, double(heuristic::take_points(g, s.display[q], theirs, t)) - theirs.points);
          }
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
    // What a hidden card is worth, only where one lies in a column (the count is not cheap).
    const double hidden_me = heuristic::any_hidden(s, me) ? heuristic::hidden_value(g, s, me, me) : 0.0;
    const int cap = g.params().token_cap;
    for (Action a : legal) {
      const int j = a - act::kTake;
      int tokens = 0, moons = 0;
      for (int i = 0; i < kColumnMax && s.column[j][i] != kNone; ++i) {
        const uint8_t c = s.column[j][i];
        tokens += code_down(c);
        if (seen_type(c, me) != kHiddenType) moons += g.type_moons(code_type(c));
      }
      if (j == n) tokens += s.last_squirrel_token;
      const int gained = std::min(cap - s.tokens[me], tokens + std::min<int>(moons, s.supply));
      const heuristic::ColumnTake whole = heuristic::prepare_take(g, s, me, me, j, hidden_me);
      const double score = whole.points + whole.hidden + 0.6 * std::max(0, gained) + 0.2 * (n + 1 - j) / (n + 1);
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
    const double score = g.display_points(d);
    if (score > best_score) {
      best_score = score;
      best = a;
    }
  }
  return best;
}

}  // namespace nutcore::nutz
