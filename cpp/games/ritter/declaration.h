// Die Ritter von der Haselnuss as the engine knows it (engine/declaration.h says what each entry
// means).
#pragma once

#include "engine/declaration.h"
#include "games/ritter/heuristic.h"
#include "games/ritter/ritter.h"

namespace nutcore::declare {

struct ritter {
  using Game = nutcore::ritter::Game;
  static constexpr const char* kTitle = "Die Ritter von der Haselnuss";
  // Hidden information: only the searches that play from the seat's information set.
  static constexpr AlgorithmSet kAlgorithms = {Algorithm::kIsmcts, Algorithm::kPimc};
  static constexpr bool kWholeGameSolver = false;
  static constexpr const char* kSearchDefaults = "{}";
  // The generic table's last step (3,000 to 10,000 iterations) gained nothing, and its greedy
  // steps were uneven: one more greedy level, and budgets up to 3,000.
  static constexpr std::array<const char*, kNumLevels> kLevels = {
      "greedy:noise=0.6,memory=0.3",
      "greedy:noise=0.45,memory=0.45",
      "greedy:noise=0.3,memory=0.6",
      "greedy:noise=0.15,memory=0.75",
      "greedy:memory=0.9",
      "auto:iterations=30,memory=0.9",
      "auto:iterations=100,memory=0.95",
      "auto:iterations=300",
      "auto:iterations=1000",
      "auto:iterations=3000",
      nullptr,  // level 11: the generic one (the learned search)
  };

  static Algorithm auto_algorithm(const Game&, const nutcore::ritter::State&) { return Algorithm::kIsmcts; }
  static bool solver_applies(const Game&, const nutcore::ritter::State&) { return false; }
  static SolverAnswer solve(const Game&, const nutcore::ritter::State&, const StopFlag*) {
    throw std::invalid_argument("ritter has no exact solver");
  }
  static nutcore::ritter::Params fuzz_params(int players, int turn_cap, int variant) {
    nutcore::ritter::Params p;
    p.players = players;
    if (turn_cap) p.turn_cap = turn_cap;
    p.first_only = variant % 2;  // both shouting rules
    return p;
  }
};

}  // namespace nutcore::declare
