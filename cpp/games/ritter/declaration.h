// Die Ritter von der Haselnuss: every fact about it, and what the engine calls
// (engine/declaration.h says what each entry means). The hooks' bodies are in declaration.cc.
#pragma once

#include "engine/declaration.h"

namespace nutcore::ritter {
class Game;
struct Params;
}  // namespace nutcore::ritter

namespace nutcore::declare {

struct ritter : Defaults {
  static constexpr const char* kName = "ritter";
  static constexpr const char* kTitle = "Die Ritter von der Haselnuss";
  static constexpr uint8_t kGameTag = 3;
  static constexpr uint8_t kFormatVersion = 1;
  static constexpr bool kHasChance = true;
  static constexpr bool kHiddenInformation = true;
  static constexpr int kMaxPlayers = 4;
  // Hidden information: only the searches that play from the seat's information set (no exact
  // solver: the defaults).
  static constexpr AlgorithmSet kAlgorithms = {Algorithm::kIsmcts, Algorithm::kPimc};
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

  using Game = nutcore::ritter::Game;
  static nutcore::ritter::Params fuzz_params(int players, int turn_cap, int variant);
};

}  // namespace nutcore::declare

#include "games/ritter/ritter.h"  // the rules, which read the facts above
