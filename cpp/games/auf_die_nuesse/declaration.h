// Auf die Nüsse!: every fact about it, and what the engine calls (engine/declaration.h says what
// each entry means). The hooks' bodies are in declaration.cc.
#pragma once

#include "engine/declaration.h"

namespace nutcore::auf_die_nuesse {
class Game;
struct State;
struct Params;
}  // namespace nutcore::auf_die_nuesse

namespace nutcore::declare {

struct auf_die_nuesse : Defaults {
  static constexpr const char* kName = "auf_die_nuesse";
  static constexpr const char* kTitle = "Auf die Nüsse!";
  static constexpr uint8_t kGameTag = 1;
  static constexpr uint8_t kFormatVersion = 1;
  static constexpr bool kHasChance = true;
  static constexpr bool kHiddenInformation = false;
  static constexpr int kMaxPlayers = 4;
  static constexpr AlgorithmSet kAlgorithms = {Algorithm::kMcts, Algorithm::kExpectimax, Algorithm::kSolver};
  // A progressive bias towards the greedy policy: at 100 iterations 0.84 against greedy instead
  // of 0.42 (bench/RESULTS.md, "A bias towards the greedy policy, and per-game defaults").
  static constexpr const char* kSearchDefaults = R"({"mcts": {"policy_bias": 1.0}})";
  // Search stops gaining against itself at about 300 iterations (1,000 still gains a little
  // against greedy); slips cost about 100 points per 0.15 of noise (docs/levels.md).
  static constexpr std::array<const char*, kNumLevels> kLevels = {"greedy:noise=0.6",
                                                                  "greedy:noise=0.45",
                                                                  "greedy:noise=0.3",
                                                                  "greedy:noise=0.15",
                                                                  "greedy",
                                                                  "auto:iterations=20",
                                                                  "auto:iterations=50",
                                                                  "auto:iterations=120",
                                                                  "auto:iterations=300",
                                                                  "auto:iterations=1000",
                                                                  "auto:iterations=1000,evaluator=learned+playout"};

  using Game = nutcore::auf_die_nuesse::Game;
  // (MCTS plays better than the turn solver's heuristic optimum, so "auto" keeps the default.)
  // At a roll / stop or choose-space decision the turn solver decides (kWholeGameSolver false: it
  // optimises one turn over a heuristic).
  static bool solver_applies(const Game&, const nutcore::auf_die_nuesse::State& s);
  static SolverAnswer solve(const Game& game, const nutcore::auf_die_nuesse::State& s, const StopFlag*);
  static nutcore::auf_die_nuesse::Params fuzz_params(int players, int turn_cap, int variant);
};

}  // namespace nutcore::declare

#include "games/auf_die_nuesse/auf_die_nuesse.h"  // the rules, which read the facts above
