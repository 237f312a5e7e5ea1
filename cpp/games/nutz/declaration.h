// Nutz! as the engine knows it (engine/declaration.h says what each entry means).
#pragma once

#include "engine/declaration.h"
#include "games/nutz/heuristic.h"
#include "games/nutz/nutz.h"

namespace nutcore::declare {

struct nutz {
  using Game = nutcore::nutz::Game;
  static constexpr const char* kTitle = "Nutz!";
  // Hidden information: only the searches that play from the seat's information set.
  static constexpr AlgorithmSet kAlgorithms = {Algorithm::kIsmcts, Algorithm::kPimc};
  static constexpr bool kWholeGameSolver = false;
  static constexpr const char* kSearchDefaults = "{}";
  // Slips cost little in a game of hidden hands; beyond about 30 iterations each doubling of the
  // budget gains only some 35 points: few greedy levels, then budgets growing about 3-fold.
  static constexpr std::array<const char*, kNumLevels> kLevels = {"greedy:noise=0.8",
                                                                  "greedy:noise=0.4",
                                                                  "greedy",
                                                                  "auto:iterations=6",
                                                                  "auto:iterations=15",
                                                                  "auto:iterations=40",
                                                                  "auto:iterations=120",
                                                                  "auto:iterations=400",
                                                                  "auto:iterations=1500",
                                                                  "auto:iterations=6000",
                                                                  "auto:iterations=30000,evaluator=learned"};

  static Algorithm auto_algorithm(const Game&, const nutcore::nutz::State&) { return Algorithm::kIsmcts; }
  static bool solver_applies(const Game&, const nutcore::nutz::State&) { return false; }
  static SolverAnswer solve(const Game&, const nutcore::nutz::State&, const StopFlag*) {
    throw std::invalid_argument("nutz has no exact solver");
  }
  static nutcore::nutz::Params fuzz_params(int players, int turn_cap, int variant) {
    nutcore::nutz::Params p;
    p.players = players;
    if (turn_cap) p.turn_cap = turn_cap;
    p.last_tree_tokens = 1 + variant % 4;  // short games too
    return p;
  }
};

}  // namespace nutcore::declare
