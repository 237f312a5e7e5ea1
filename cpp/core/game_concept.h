// The game concept: what search and bindings may use of a game. A game is a small class holding
// its parameters, with a trivially copyable State and functions over it; no virtual calls, no
// heap memory per state. Static facts (chance, hidden information) are constants checked by each
// algorithm on entry.
#pragma once

#include <concepts>
#include <cstdint>
#include <string>
#include <type_traits>

#include "core/json.h"
#include "core/rng.h"
#include "core/types.h"

namespace nutcore {

template <typename G>
concept GameConcept = requires(const G& game, typename G::StateType& state, const typename G::StateType& cstate,
                               typename G::Actions& actions, typename G::Chances& chances, Rng& rng, Action a,
                               double* values, int* points) {
  requires std::is_trivially_copyable_v<typename G::StateType>;
  { G::kName } -> std::convertible_to<const char*>;
  { G::kHasChance } -> std::convertible_to<bool>;
  { G::kHiddenInformation } -> std::convertible_to<bool>;
  { G::kMaxNumPlayers } -> std::convertible_to<int>;
  { G::kNumDistinctActions } -> std::convertible_to<int>;
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
  { game.params_json() } -> std::same_as<Json>;
  // A sound upper bound on the actions in one game, chance outcomes included (for adapters).
  { game.max_game_length() } -> std::same_as<int64_t>;
};

// Optional: imperfect memory, for bots that forget as people do (not a rule). `forget(s, player,
// recall, rng)` is `s` as `player` might remember it: each fact it had to memorise is kept with
// probability `recall`, a forgotten one is as if never seen (hidden information) or mixed up with
// the other forgotten ones (public facts hidden on the table). Legal actions are unchanged. A game
// with nothing to remember has no hook.
template <typename G>
concept HasForget = requires(const G& g, const typename G::StateType& s, Rng& rng) {
  { g.forget(s, 0, 0.5, rng) } -> std::same_as<typename G::StateType>;
};

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

}  // namespace nutcore
