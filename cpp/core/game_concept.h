// The game contract: everything the searches, the engine and the bindings may use of a game, in
// one place. A game is a small class holding its parameters, with a trivially copyable State and
// functions over it; no virtual calls, no heap memory per state. Its static facts (chance, hidden
// information) are constants each algorithm checks on entry; what the engine alone needs (its
// title, algorithms, levels, solver) is in its declaration (engine/declaration.h).
//
// The required part is GameConcept. The optional parts below are each a concept that the code
// using them tests with `if constexpr`; a game without one gets the generic behaviour written
// beside it. core/perfect_information.h gives a game of perfect information its information-set
// functions; core/game_defaults.h gives string_to_action and serialize (and validate's checks),
// which a game declares only to override. A game's facts (kName, kGameTag, kHasChance, ...) are its
// declaration's (engine/declaration.h, with that part's defaults); the Game's constants read them. check_game<G>()
// names the first required part a game lacks.
#pragma once

#include <concepts>
#include <cstdint>
#include <string>
#include <type_traits>

#include "core/json.h"
#include "core/rng.h"
#include "core/types.h"

namespace nutcore {

// ----- Required

template <typename G>
concept GameConcept = requires(const G& game, typename G::StateType& state, const typename G::StateType& cstate,
                               typename G::Actions& actions, typename G::Chances& chances, Rng& rng, Action a,
                               double* values, int* points) {
  requires std::is_trivially_copyable_v<typename G::StateType>;
  { cstate == cstate } -> std::convertible_to<bool>;  // tree reuse finds a position again by it
  { G::kName } -> std::convertible_to<const char*>;
  { G::kGameTag } -> std::convertible_to<uint8_t>;  // its states' bytes say whose they are
  { G::kHasChance } -> std::convertible_to<bool>;
  { G::kHiddenInformation } -> std::convertible_to<bool>;
  { G::kMaxNumPlayers } -> std::convertible_to<int>;
  { G::kNumDistinctActions } -> std::convertible_to<int>;
  // Its parameters from their JSON form (std::invalid_argument naming a bad one), and back.
  G(G::params_from_json(Json()));
  { game.params_json() } -> std::same_as<Json>;
  { game.num_players() } -> std::same_as<int>;
  { game.new_initial_state() } -> std::same_as<typename G::StateType>;
  { game.current_player(cstate) } -> std::same_as<int>;
  { game.is_chance(cstate) } -> std::same_as<bool>;
  { game.is_terminal(cstate) } -> std::same_as<bool>;
  game.legal_actions(cstate, actions);
  game.chance_outcomes(cstate, chances);
  { game.sample_chance(cstate, rng) } -> std::same_as<Action>;
  game.apply(state, a);
  game.returns(cstate, values);
  game.scores(cstate, points);
  // Information sets: what `player` knows, as a 64-bit key (hot: search keys its tree by it) and as
  // text; its observation tensor; and a full state drawn from the posterior given that knowledge.
  // Legal actions must be a function of the acting seat's information set.
  { game.information_key(cstate, 0) } -> std::same_as<uint64_t>;
  { game.information_string(cstate, 0) } -> std::same_as<std::string>;
  { game.observation_tensor_size() } -> std::same_as<int>;
  game.observation_tensor(cstate, 0, static_cast<float*>(nullptr));
  { game.resample(cstate, 0, rng) } -> std::same_as<typename G::StateType>;
  // Cold path.
  { game.action_to_string(a) } -> std::same_as<std::string>;
  { game.string_to_action(std::string()) } -> std::same_as<Action>;
  { game.to_json(cstate) } -> std::same_as<Json>;
  // The position as `player` knows it: to_json with what it has not seen masked ("hidden").
  { game.view_json(cstate, 0) } -> std::same_as<Json>;
  { game.from_json(Json()) } -> std::same_as<typename G::StateType>;
  { game.serialize(cstate) } -> std::same_as<std::string>;
  { game.deserialize(std::string()) } -> std::same_as<typename G::StateType>;
  { game.to_string(cstate) } -> std::same_as<std::string>;
  // A sound upper bound on the actions in one game, chance outcomes included (for adapters).
  { game.max_game_length() } -> std::same_as<int64_t>;
};

// ----- Optional: faster or stronger play

// `Action random_action(const State&, Rng&)`, the uniform choice without listing every legal action
// (a game with hundreds of them per turn). Contract: the same action and the same draws from `rng`
// as `legal[rng.below(legal.size())]` over legal_actions(), so a search's results do not depend on
// whether a game has it (tests check this). Without: search/random_playout.h lists them.
template <typename G>
concept HasRandomAction = requires(const G& g, const typename G::StateType& s, Rng& rng) {
  { g.random_action(s, rng) } -> std::same_as<Action>;
};

// The hooks below are free functions found by argument-dependent lookup (a game's heuristic.h).

// A playout policy better than uniform: `Action rollout_action(const G&, const State&, Rng&)`, a
// legal action at a decision node. Without: uniform playouts.
template <typename G>
concept HasRolloutPolicy = requires(const G& g, const typename G::StateType& s, Rng& rng) {
  { rollout_action(g, s, rng) } -> std::same_as<Action>;
};

// The greedy bot's move apart from the playout policy: `Action greedy_bot_action(const G&, const
// State&, Rng&)`, a legal action at a decision node. A rule that makes a stronger player can make
// worse playouts (Ritter's, bench/RESULTS.md). Without: the rollout policy, else uniform.
template <typename G>
concept HasGreedyBot = requires(const G& g, const typename G::StateType& s, Rng& rng) {
  { greedy_bot_action(g, s, rng) } -> std::same_as<Action>;
};

// An order of the legal actions, best first: `void order_actions(const G&, const State&, Actions&)`
// permutes the list legal_actions() gave. With widening or a policy bias, MCTS expands children in
// this order, so progressive widening opens the likeliest moves first.
template <typename G>
concept HasActionOrder = requires(const G& g, const typename G::StateType& s, typename G::Actions& actions) {
  order_actions(g, s, actions);
};

// A static evaluation for expectimax (and MCTS's evaluator "heuristic"): `void evaluate_all(const
// G&, const State&, double* out)`, each seat's value. Without: no expectimax.
template <typename G>
concept HasEvaluation = requires(const G& g, const typename G::StateType& s, double* out) {
  evaluate_all(g, s, out);
};

// ----- Optional: memory

// Imperfect memory, for bots that forget as people do (not a rule). `forget(s, player, recall,
// rng)` is `s` as `player` might remember it: each fact it had to memorise is kept with probability
// `recall`, a forgotten one is as if never seen (hidden information) or mixed up with the other
// forgotten ones (public facts hidden on the table). Legal actions are unchanged. A game with
// nothing to remember has no hook.
template <typename G>
concept HasForget = requires(const G& g, const typename G::StateType& s, Rng& rng) {
  { g.forget(s, 0, 0.5, rng) } -> std::same_as<typename G::StateType>;
};

// Memory aids: `unaided_json(s, player)` and `unaided_string(s, player)` are the board as a player
// sees it on the table, without what it must remember (the engine's board with memory_aids false).
// Without: the board is the player's whole view.
template <typename G>
concept HasMemoryAids = requires(const G& g, const typename G::StateType& s) {
  { g.unaided_json(s, 0) } -> std::same_as<Json>;
  { g.unaided_string(s, 0) } -> std::same_as<std::string>;
};

// ----- Optional: what a seat sees

// What a seat sees of a move or a chance outcome as it happens (HasObserve).
struct Observed {
  std::string text;    // what it sees, in words like the action's string; empty: nothing
  bool whole = false;  // it knows which action it was: the action's id may be told it
};

// Optional, for games of hidden information: `observe(s, a, player)` is what `player` sees of
// action or outcome `a` (legal at `s`) as it is played: its string where the rules show it to that
// seat, a public part of it, or nothing; and what the event reveals at that moment (a card turned
// over). Equal for every `s` the seat cannot tell apart and every `a` that leaves it knowing the
// same. A game without the hook: everything is seen (perfect information) or, with hidden
// information, a seat's own decisions only.
template <typename G>
concept HasObserve = requires(const G& g, const typename G::StateType& s, Action a) {
  { g.observe(s, a, 0) } -> std::same_as<Observed>;
};

// ----- A readable check

// True for a game that meets the contract; else a compile error naming the first part it lacks
// (a failed concept deep in template code is hard to read).
template <typename G>
constexpr bool check_game() {
  static_assert(
      requires { typename G::StateType; }, "a game has a StateType: its position, a value type");
  static_assert(
      requires { typename G::Actions; }, "a game has Actions: a fixed-capacity list of actions");
  static_assert(
      requires { typename G::Chances; }, "a game has Chances: a fixed-capacity list of chance outcomes");
  static_assert(std::is_trivially_copyable_v<typename G::StateType>, "a game's StateType is trivially copyable");
  static_assert(
      requires(const typename G::StateType& s) { s == s; }, "a game's StateType has operator== (a byte compare)");
  static_assert(
      requires { G::kName; }, "a game has kName, its folder's name (declare::<g>::kName)");
  static_assert(
      requires { G::kGameTag; }, "a game has kGameTag, the byte that marks its serialized states");
  static_assert(
      requires { G::kHasChance; }, "a game has kHasChance");
  static_assert(
      requires { G::kHiddenInformation; }, "a game has kHiddenInformation");
  static_assert(
      requires { G::kMaxNumPlayers; }, "a game has kMaxNumPlayers");
  static_assert(
      requires { G::kNumDistinctActions; }, "a game has kNumDistinctActions");
  static_assert(
      requires { G::params_from_json(Json()); },
      "a game has a static params_from_json(const Json&) giving what its constructor takes");
  static_assert(GameConcept<G>, "a game meets GameConcept (core/game_concept.h): see the first unmet requirement");
  return true;
}

}  // namespace nutcore
