// Purzelbaum: every fact about it, and what the engine calls (engine/declaration.h says what each
// entry means). The hooks' bodies are in declaration.cc.
#pragma once

#include "engine/declaration.h"

namespace nutcore::purzelbaum {
class Game;
struct State;
struct Params;
}  // namespace nutcore::purzelbaum

namespace nutcore::declare {

struct purzelbaum : Defaults {
  static constexpr const char* kName = "purzelbaum";
  static constexpr const char* kTitle = "Purzelbaum";
  static constexpr uint8_t kGameTag = 2;
  static constexpr uint8_t kFormatVersion = 1;
  static constexpr bool kHasChance = true;
  static constexpr bool kHiddenInformation = false;
  static constexpr int kMaxPlayers = 4;
  static constexpr AlgorithmSet kAlgorithms = {Algorithm::kMcts, Algorithm::kExpectimax, Algorithm::kSolver};
  static constexpr bool kWholeGameSolver = true;  // any winter position, to the end of the game
  // (No bias towards the greedy policy in kSearchDefaults: it loses strength here, 0.67 instead
  // of 0.76 at 1,000.)
  // Luck caps what search adds (MCTS wins about 75% against greedy at any budget), while slips
  // and memory decide a lot: most levels are greedy players, less noisy and forgetful each step,
  // the steps read off a first ladder (rating against noise is steep near 0 and flat above 0.4).
  static constexpr std::array<const char*, kNumLevels> kLevels = {"greedy:noise=0.6,memory=0.3",
                                                                  "greedy:noise=0.34,memory=0.56",
                                                                  "greedy:noise=0.26,memory=0.64",
                                                                  "greedy:noise=0.2,memory=0.7",
                                                                  "greedy:noise=0.14,memory=0.78",
                                                                  "greedy:noise=0.1,memory=0.83",
                                                                  "greedy:noise=0.065,memory=0.88",
                                                                  "greedy:noise=0.03,memory=0.94",
                                                                  "auto:iterations=30",
                                                                  "auto:iterations=1000",
                                                                  "auto:iterations=1000,evaluator=learned+playout"};

  using Game = nutcore::purzelbaum::Game;
  // Perfect memory makes the winter a game of perfect information: "auto" solves it exactly.
  static Algorithm auto_algorithm(const Game& g, const nutcore::purzelbaum::State& s);
  static bool solver_applies(const Game&, const nutcore::purzelbaum::State& s);
  static SolverAnswer solve(const Game& game, const nutcore::purzelbaum::State& s, const StopFlag* stop);
  static nutcore::purzelbaum::Params fuzz_params(int players, int turn_cap, int variant);
};

}  // namespace nutcore::declare

#include "games/purzelbaum/purzelbaum.h"  // the rules, which read the facts above
