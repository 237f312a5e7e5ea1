// Uniformly random play to the end of the game: the throughput primitive for benchmarks and the
// default leaf evaluation of Monte-Carlo search. Chance nodes follow their exact probabilities.
#pragma once

#include "core/game_concept.h"

namespace nutcore {

// Plays `state` to the end; returns the number of actions applied (decisions and chance outcomes).
template <GameConcept G>
long random_playout(const G& game, typename G::StateType& state, Rng& rng) {
  typename G::Actions legal;
  long steps = 0;
  while (!game.is_terminal(state)) {
    Action a;
    if (game.is_chance(state)) {
      a = game.sample_chance(state, rng);
    } else {
      game.legal_actions(state, legal);
      a = legal[static_cast<int>(rng.below(static_cast<uint32_t>(legal.size())))];
    }
    game.apply(state, a);
    ++steps;
  }
  return steps;
}

}  // namespace nutcore
