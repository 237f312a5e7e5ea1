// What a game declares about itself to the engine, once, in cpp/games/<g>/declaration.h: a struct
// nutcore::declare::<g> (named after its folder, which CMake's NUTCORE_GAMES lists) with
//
//   using Game = ...;                          the rules (a GameConcept)
//   kTitle                                     its name for people ("Auf die Nüsse!")
//   kAlgorithms                                the searches it offers (an AlgorithmSet)
//   kWholeGameSolver                           whether its solver solves to the end of the game
//   kSearchDefaults                            JSON text: per algorithm, options over the generic
//                                              defaults ({"mcts": {"policy_bias": 1.0}})
//   kLevels                                    difficulty levels 1..kNumLevels as bot specs, or
//                                              nullptr each for the generic level (engine/bots.cc)
//   auto_algorithm(game, state)                what "auto" plays at a decision (an exact
//                                              algorithm only where it takes milliseconds: "auto"
//                                              gives it no time limit, engine/any.h)
//   solver_applies(game, state)                where its exact solver decides
//   solve(game, state, stop) -> SolverAnswer   its exact solver, where it has one
//   fuzz_params(players, turn_cap, variant)    a game for the fuzzers: its players, its turn cap
//     -> Game::Params                          and a variant number, from a fuzz input's first byte
//
// This header is vocabulary only: a game's declaration includes its rules, its heuristics and
// solvers, never a search.
#pragma once

#include <array>
#include <cstdint>
#include <initializer_list>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/json.h"
#include "core/stop.h"
#include "core/types.h"

namespace nutcore {

enum class Algorithm : uint8_t { kMcts, kIsmcts, kPimc, kExpectimax, kSolver };
constexpr int kNumAlgorithms = 5;
constexpr std::array<const char*, kNumAlgorithms> kAlgorithmNames = {"mcts", "ismcts", "pimc", "expectimax", "solver"};

// Difficulty levels are 1..kNumLevels on every game (docs/levels.md): the bot spec level:N, the
// games' tables (kLevels), the generic one, and every door's list of them.
constexpr int kNumLevels = 11;

// A set of algorithms, as a bit mask.
struct AlgorithmSet {
  uint8_t bits = 0;
  constexpr AlgorithmSet() = default;
  constexpr AlgorithmSet(std::initializer_list<Algorithm> algorithms) {
    for (Algorithm a : algorithms) bits |= static_cast<uint8_t>(1u << static_cast<int>(a));
  }
  constexpr bool has(Algorithm a) const { return bits >> static_cast<int>(a) & 1; }
};

// What an exact solver answers: the move, per-move values for the mover (ActionStats' visits
// unused), the value per seat (NaN where the solver does not know it), positions or nodes, seconds,
// and what else it wants to say.
struct SolverAnswer {
  Action best_action = -1;
  std::vector<ActionStats> actions;
  std::vector<double> value;
  long nodes = 0;
  double elapsed = 0.0;
  Json extra = Json::object();
};

namespace declare {}  // namespace declare

}  // namespace nutcore
