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
// The evaluation happens at a decision node: the leaf is a node's first visit (ISMCTS: of the
// searching seat's nodes where the game has a rollout policy, search/ismcts.h); chance nodes on the
// way are walked through (an outcome sampled by its probability), never evaluated. The end of the
// game is worth its returns, as with playouts. The root is evaluated before the first iteration
// (its priors are needed to choose); that evaluation is not counted as an iteration.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/game_concept.h"
#include "core/types.h"
#include "search/network.h"

namespace nutcore {

enum class Evaluator : uint8_t {
  kPlayout,         // a playout to the end (UCT): the default
  kUniform,         // 1 / players to every seat, uniform priors: a tree search informed only by the game's ends
  kLearned,         // a network's (search/network.h), from the leaf's seat's observation alone
  kLearnedPlayout,  // the network's priors, and values mixed with a playout's (playout_weight; AlphaGo's mix)
  kOutside,         // given by the caller, leaf by leaf (MctsTree / IsmctsTree's begin_iteration, end_iteration)
};

// The names the settings take ("outside" is not one: the batched search sets it).
inline const char* evaluator_name(Evaluator e) {
  switch (e) {
    case Evaluator::kPlayout:
      return "playout";
    case Evaluator::kUniform:
      return "uniform";
    case Evaluator::kLearned:
      return "learned";
    case Evaluator::kLearnedPlayout:
      return "learned+playout";
    case Evaluator::kOutside:
      return "outside";
  }
  return "playout";
}

namespace detail {

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

// The built-in evaluators (uniform, learned) at a decision node, with the scratch memory a network
// needs, allocated once (a tree holds one).
template <GameConcept G>
class LeafEvaluator {
 public:
  using State = typename G::StateType;

  // `options`: the search's (MctsOptions or one derived from it): its evaluator, network and playout_weight.
  template <typename Options>
  LeafEvaluator(const G& game, const Options& options)
      : game_(&game), kind_(options.evaluator), network_(options.network), playout_weight_(options.playout_weight) {
    if (kind_ != Evaluator::kLearned && kind_ != Evaluator::kLearnedPlayout) return;
    if (!network_) throw std::invalid_argument("the learned evaluator needs a network");
    if (network_->game() != G::kName || network_->players() != game.num_players() ||
        network_->input_size() != game.observation_tensor_size() || network_->num_actions() != G::kNumDistinctActions)
      throw std::invalid_argument("the network is for " + network_->game() + " at " +
                                  std::to_string(network_->players()) + " players, not for this game");
    observation_.resize(game.observation_tensor_size());
    scratch_.resize(network_->scratch_size());
    priors_.resize(G::kNumDistinctActions);
  }

  Evaluator kind() const { return kind_; }

  // values[num_players] at `state`; the priors by action (null: uniform). `playout(values)` writes
  // the returns of a playout from `state` (the tree's own, with its generator).
  template <typename Playout>
  const float* evaluate(const State& state, double* values, Playout&& playout) {
    const G& game = *game_;
    if (kind_ == Evaluator::kUniform) {
      for (int p = 0; p < game.num_players(); ++p) values[p] = 1.0 / game.num_players();
      return nullptr;
    }
    if (kind_ != Evaluator::kLearned && kind_ != Evaluator::kLearnedPlayout)
      throw std::logic_error("this evaluator is given by the caller, leaf by leaf");
    typename G::Actions legal;
    game.legal_actions(state, legal);
    game.observation_tensor(state, game.current_player(state), observation_.data());
    float logits[G::Actions::kCapacity];
    network_->evaluate(observation_.data(), scratch_.data(), values, legal.begin(), legal.size(), logits);
    float top = logits[0];
    for (int i = 1; i < legal.size(); ++i) top = std::max(top, logits[i]);
    for (int i = 0; i < legal.size(); ++i) priors_[legal[i]] = std::exp(logits[i] - top);
    if (kind_ == Evaluator::kLearnedPlayout) {
      double played[G::kMaxNumPlayers] = {};
      playout(played);
      for (int p = 0; p < game.num_players(); ++p)
        values[p] = (1 - playout_weight_) * values[p] + playout_weight_ * played[p];
    }
    return priors_.data();
  }

 private:
  const G* game_;
  Evaluator kind_;
  const Network* network_;
  double playout_weight_;
  std::vector<float> observation_, scratch_, priors_;
};

// A Gamma(alpha, 1) variate (Marsaglia & Tsang 2000; alpha < 1 through Gamma(alpha + 1) * U^(1/alpha)).
inline double gamma_variate(double alpha, Rng& rng) {
  if (alpha < 1) {
    const double u = rng.uniform();
    return gamma_variate(alpha + 1, rng) * std::pow(u > 0 ? u : 1e-300, 1.0 / alpha);
  }
  const double d = alpha - 1.0 / 3, c = 1.0 / std::sqrt(9 * d);
  for (;;) {
    double x, v;
    do {  // a standard normal by Box-Muller
      const double u1 = rng.uniform(), u2 = rng.uniform();
      x = std::sqrt(-2 * std::log(u1 > 0 ? u1 : 1e-300)) * std::cos(6.283185307179586 * u2);
      v = 1 + c * x;
    } while (v <= 0);
    v = v * v * v;
    const double u = rng.uniform();
    if (u < 1 - 0.0331 * x * x * x * x || std::log(u > 0 ? u : 1e-300) < 0.5 * x * x + d * (1 - v + std::log(v)))
      return d * v;
  }
}

// AlphaZero's exploration at the root of self-play: priors (normalised, `count` of them) mixed
// with Dirichlet(alpha) noise, (1 - fraction) * P + fraction * noise.
inline void add_root_noise(float* priors, int count, double fraction, double alpha, Rng& rng) {
  if (fraction <= 0 || count < 2) return;
  double noise[1024];
  const int n = count < 1024 ? count : 1024;
  double sum = 0;
  for (int i = 0; i < n; ++i) sum += (noise[i] = gamma_variate(alpha, rng));
  for (int i = 0; i < n; ++i)
    priors[i] = static_cast<float>((1 - fraction) * priors[i] + fraction * (sum > 0 ? noise[i] / sum : 1.0 / n));
}

}  // namespace detail

}  // namespace nutcore
