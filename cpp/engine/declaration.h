// What a game declares about itself, once, in cpp/games/<g>/declaration.h: a struct
// nutcore::declare::<g> (named after its folder, which CMake's NUTCORE_GAMES lists) holding every
// fact about the game; the Game class's constants (kName, kHasChance, ...) refer to these, and the
// engine, the bindings and the searches read them. It derives from declare::Defaults (below) and
// gives what differs. Required:
//
//   kName                                      its folder's name ("auf_die_nuesse")
//   kTitle                                     its name for people ("Auf die Nüsse!")
//   kGameTag                                   the byte that marks its serialized states (unique)
//   kFormatVersion                             the version of its states' byte layout
//   kHasChance                                 whether it has chance nodes
//   kHiddenInformation                         whether seats know different things
//   kMaxPlayers                                the most seats it is played by
//   kAlgorithms                                the searches it offers (an AlgorithmSet)
//   kLevels                                    difficulty levels 1..kNumLevels as bot specs, or
//                                              nullptr each for the generic level (engine/bots.cc)
//   using Game = ...;                          the rules (a GameConcept, core/game_concept.h)
//   fuzz_params(players, turn_cap, variant)    a game for the fuzzers: its players, its turn cap
//     -> Game::Params                          and a variant number, from a fuzz input's first byte
//
// Optional, with the default Defaults gives:
//
//   kMinPlayers                                the fewest seats (2)
//   kWholeGameSolver                           whether its solver solves to the end of the game
//                                              (false)
//   kSearchDefaults                            JSON text: per algorithm, options over the generic
//                                              defaults ({"mcts": {"policy_bias": 1.0}}; "{}")
//   auto_algorithm(game, state)                what "auto" plays at a decision (ISMCTS with hidden
//                                              information, else MCTS); an exact algorithm only
//                                              where it takes milliseconds: "auto" gives it no time
//                                              limit (engine/any.h)
//   solver_applies(game, state)                where its exact solver decides (nowhere)
//   solve(game, state, stop) -> SolverAnswer   its exact solver (throws: none), with kSolver in
//                                              kAlgorithms
//
// The facts come first in the file and need no game header: the rules header includes the
// declaration for them, and the declaration includes the rules header at its end. So the hooks'
// bodies (fuzz_params, solve, ...) are in the game's declaration.cc, where everything is complete.
//
// This header is vocabulary only: it includes no game and no search.
#pragma once

#include <array>
#include <cstdint>
#include <initializer_list>
#include <stdexcept>
#include <string>
#include <type_traits>
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

// What an exact solver answers: the move, per-move values for the mover (ActionTally' visits
// unused), the value per seat (NaN where the solver does not know it), positions or nodes, seconds,
// and what else it wants to say.
struct SolverAnswer {
  Action best_action = -1;
  std::vector<ActionTally> actions;
  std::vector<double> value;
  long nodes = 0;
  double elapsed = 0.0;
  Json extra = Json::object();
};

namespace declare {

// The optional part of a declaration, for a game to derive from: a member of the same name in the
// game's declaration hides the default (so a declaration lists only what differs).
struct Defaults {
  static constexpr int kMinPlayers = 2;
  static constexpr bool kWholeGameSolver = false;
  static constexpr const char* kSearchDefaults = "{}";

  // The search made for the game's kind: information sets where seats know different things.
  template <typename Game, typename State>
  static Algorithm auto_algorithm(const Game&, const State&) {
    return Game::kHiddenInformation ? Algorithm::kIsmcts : Algorithm::kMcts;
  }
  template <typename Game, typename State>
  static bool solver_applies(const Game&, const State&) {
    return false;
  }
  template <typename Game, typename State>
  static SolverAnswer solve(const Game&, const State&, const StopFlag*) {
    throw std::invalid_argument(std::string(Game::kName) + " has no exact solver");
  }
};

}  // namespace declare

// Whether a declaration has no solver of its own: its solve is still Defaults' template (a solve of
// its own hides it).
template <typename D>
concept UsesDefaultSolver = requires {
  &D::template solve<typename D::Game, typename D::Game::StateType>;
};

// True for a declaration that has every required entry; else a compile error naming the first it
// lacks. (The game's own contract is checked by check_game, core/game_concept.h.)
template <typename D>
constexpr bool check_declaration() {
  static_assert(std::is_base_of_v<declare::Defaults, D>,
                "a declaration derives from declare::Defaults (engine/declaration.h)");
  static_assert(
      requires { D::kName; }, "a declaration has kName, its folder's name");
  static_assert(
      requires { D::kTitle; }, "a declaration has kTitle, its name for people");
  static_assert(
      requires { D::kGameTag; }, "a declaration has kGameTag, the byte that marks its serialized states");
  static_assert(
      requires { D::kFormatVersion; }, "a declaration has kFormatVersion, its states' byte layout's version");
  static_assert(
      requires { D::kHasChance; }, "a declaration has kHasChance");
  static_assert(
      requires { D::kHiddenInformation; }, "a declaration has kHiddenInformation");
  static_assert(
      requires { D::kMaxPlayers; }, "a declaration has kMaxPlayers");
  static_assert(D::kMinPlayers >= 1 && D::kMinPlayers <= D::kMaxPlayers, "a declaration's kMinPlayers <= kMaxPlayers");
  static_assert(
      requires { D::kAlgorithms; }, "a declaration has kAlgorithms, the searches it offers");
  static_assert(
      requires { D::kLevels; }, "a declaration has kLevels, its kNumLevels difficulty levels");
  static_assert(
      requires { typename D::Game; }, "a declaration has `using Game = ...`, its rules");
  static_assert(
      requires { D::fuzz_params(2, 0, 0); }, "a declaration has fuzz_params(players, turn_cap, variant)");
  static_assert(D::kAlgorithms.has(Algorithm::kSolver) != UsesDefaultSolver<D>,
                "a declaration offers Algorithm::kSolver exactly when it has its own solve (and solver_applies)");
  return true;
}

}  // namespace nutcore
