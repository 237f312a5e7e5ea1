// Leaf evaluation for the tree searches (MCTS, ISMCTS). By default a new leaf is worth what a
// playout from it returns, and selection is UCT. An evaluator instead gives every leaf a value per
// seat and a prior over its moves, and selection follows the priors (PUCT; Silver et al.,
// "Mastering the game of Go without human knowledge", Nature 2017):
//
//   pick the child maximising  Q(c) + C * P(c) * sqrt(N) / (1 + n(c))
//     N: 1 + the selections made at the node before (its own evaluation counts as its first visit)
//     Q(c): the mover's mean return through c; for an unvisited child, the mean over the visited
//           ones (first-play urgency at the node's own value; 0 while none is, so the priors decide)
//     P(c): the prior, normalised over the legal moves
//
// The evaluation happens at a decision node: the leaf is a node's first visit; chance nodes on the
// way are walked through (an outcome sampled by its probability), never evaluated. The end of the
// game is worth its returns, as with playouts. The root is evaluated before the first iteration
// (its priors are needed to choose); that evaluation is not counted as an iteration.
#pragma once

#include <cmath>
#include <cstdint>
#include <stdexcept>

#include "core/types.h"

namespace nutcore {

enum class Evaluator : uint8_t {
  kPlayout,  // a playout to the end (UCT): the default
  kUniform,  // 1 / players to every seat, uniform priors: a tree search informed only by the game's ends
  kOutside,  // given by the caller, leaf by leaf (MctsTree / IsmctsTree's begin_iteration, end_iteration)
};

// The names the settings take ("outside" is not one: the batched search sets it).
inline const char* evaluator_name(Evaluator e) {
  switch (e) {
    case Evaluator::kPlayout:
      return "playout";
    case Evaluator::kUniform:
      return "uniform";
    case Evaluator::kOutside:
      return "outside";
  }
  return "playout";
}

namespace detail {

// A built-in evaluator's values at a leaf (the priors of both are uniform: none are written).
inline void builtin_values(Evaluator e, int players, double* values) {
  if (e != Evaluator::kUniform) throw std::logic_error("this evaluator is given by the caller, leaf by leaf");
  for (int p = 0; p < players; ++p) values[p] = 1.0 / players;
}

// The priors of `count` moves, `actions[i]`'s from `priors` (indexed by action; null: uniform),
// normalised over them: out[i]. Negative or missing mass counts as 0; none at all: uniform.
template <typename Actions>
void normalised_priors(const Actions& actions, int count, const float* priors, float* out) {
  double sum = 0;
  if (priors)
    for (int i = 0; i < count; ++i) sum += priors[actions[i]] > 0 ? priors[actions[i]] : 0.0f;
  for (int i = 0; i < count; ++i) {
    const double p = priors && priors[actions[i]] > 0 ? priors[actions[i]] : 0.0;
    out[i] = static_cast<float>(sum > 0 ? p / sum : 1.0 / count);
  }
}

// PUCT (above) over `count` children, child(i) -> {visits, summed value, prior}; the first best.
struct PuctChild {
  uint32_t visits;
  double value;
  float prior;
};
template <typename Child>
int select_puct(int count, uint32_t parent_visits, double exploration, Child&& child) {
  double visited_value = 0;
  double visited = 0;
  for (int i = 0; i < count; ++i) {
    const PuctChild c = child(i);
    if (c.visits) {
      visited_value += c.value;
      visited += c.visits;
    }
  }
  const double first_play = visited > 0 ? visited_value / visited : 0.0;
  const double scale = exploration * std::sqrt(static_cast<double>(parent_visits));
  int best = 0;
  double best_score = -1e300;
  for (int i = 0; i < count; ++i) {
    const PuctChild c = child(i);
    const double q = c.visits ? c.value / c.visits : first_play;
    const double score = q + scale * c.prior / (1.0 + c.visits);
    if (score > best_score) {
      best_score = score;
      best = i;
    }
  }
  return best;
}

}  // namespace detail

}  // namespace nutcore
