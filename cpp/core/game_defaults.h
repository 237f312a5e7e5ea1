// What most games write the same way, given once (the pattern of core/perfect_information.h): a
// game inherits GameDefaults<Game, State> (CRTP) and gets each part below unless it declares its
// own, which hides the default (core/game_concept.h lists the parts and which have defaults).
// Every default reads only the contract: kName, kGameTag, kFormatVersion, kNumDistinctActions,
// action_to_string and num_players.
#pragma once

#include <stdexcept>
#include <string>

#include "core/state_bytes.h"
#include "core/types.h"

namespace nutcore {

template <typename Game, typename State>
struct GameDefaults {
  // The action called `text`: a scan over every action id comparing action_to_string, so that
  // parsing and printing are one function. Cold (a move typed by a person or read from a file);
  // a game with thousands of ids, or with a faster parse, writes its own.
  Action string_to_action(const std::string& text) const {
    for (Action a = 0; a < Game::kNumDistinctActions; ++a)
      if (self().action_to_string(a) == text) return a;
    throw std::invalid_argument(std::string(Game::kName) + ": no action is called \"" + text + "\"");
  }

  // The state's bytes behind the shared header (core/state_bytes.h); deserialize is the game's own,
  // since it validates.
  std::string serialize(const State& s) const {
    return state_to_bytes(s, Game::kGameTag, Game::kFormatVersion, s.num_players);
  }

 protected:
  // The start of every validate(): a failed check is an std::invalid_argument that names the game,
  // "inconsistent <game> state: <what>". Messages are static text: validation runs on every
  // loaded position, and builds a string only on failure.
  static void require(bool ok, const char* what) {
    if (!ok) throw std::invalid_argument(std::string("inconsistent ") + Game::kName + " state: " + what);
  }
  // A state is read for the game's own player count.
  void require_players(const State& s) const {
    require(s.num_players == self().num_players(), "player count differs from the game's");
  }

 private:
  const Game& self() const { return static_cast<const Game&>(*this); }
};

}  // namespace nutcore
