// Nutz!: every fact about it, and what the engine calls (engine/declaration.h says what each entry
// means). The hooks' bodies are in declaration.cc.
#pragma once

#include "engine/declaration.h"

namespace nutcore::nutz {
class Game;
struct Params;
}  // namespace nutcore::nutz

namespace nutcore::declare {

struct nutz : Defaults {
  static constexpr const char* kName = "nutz";
  static constexpr const char* kTitle = "Nutz!";
  static constexpr uint8_t kGameTag = 4;
  static constexpr uint8_t kFormatVersion = 1;
  static constexpr bool kHasChance = true;
  static constexpr bool kHiddenInformation = true;
  static constexpr int kMaxPlayers = 4;
  // Hidden information: only the searches that play from the seat's information set (no exact
  // solver: the defaults).
  static constexpr AlgorithmSet kAlgorithms = {Algorithm::kIsmcts, Algorithm::kPimc};
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

  using Game = nutcore::nutz::Game;
  static nutcore::nutz::Params fuzz_params(int players, int turn_cap, int variant);
};

}  // namespace nutcore::declare

#include "games/nutz/nutz.h"  // the rules, which read the facts above
