// Uniformly random play to the end of the game: the throughput primitive for benchmarks and the
// default leaf evaluation of Monte-Carlo search. Chance nodes follow their exact probabilities.
#pragma once

#include <concepts>

#include "core/game_concept.h"

namespace nutcore {

// A uniformly random legal action at a decision node: the game's random_action where it has one.
template <GameConcept G>
Action random_decision(const G& game, const typename G::StateType& state, Rng& rng) {
  if constexpr (HasRandomAction<G>)
    return game.random_action(state, rng);
  else
    return random_action_by_listing(game, state, rng);
}

// Plays `state` to the end; returns the number of actions applied (decisions and chance outcomes).
template <GameConcept G>
long random_playout(const G& game, typename G::StateType& state, Rng& rng) {
  long steps = 0;
  while (!game.is_terminal(state)) {
    game.apply(state, game.is_chance(state) ? game.sample_chance(state, rng) : random_decision(game, state, rng));
    ++steps;
  }
  return steps;
}

// The generator of playout `i` of a batch seeded with `seed`: each game's draws are its own, so a
// batch's results do not depend on how it is split (the Python bindings, the C ABI).
inline uint64_t playout_seed(uint64_t seed, int64_t i) {
  return seed * 0x9E3779B97F4A7C15ULL + static_cast<uint64_t>(i);
}

}  // namespace nutcore
