// The games as a front end sees them (list_games, nc_list_games), and the JSON files that a trusted
// client or caller may name for a game parameter that is data by default (a card set): read here
// and nowhere else, by every door (the protocol, the C ABI, Python's load_game and command line).
#pragma once

#include <cstddef>
#include <string>

#include "core/json.h"

namespace nutcore::engine {

// The largest JSON file read_json_file reads (a card set is a few kB).
constexpr size_t kMaxJsonFileBytes = size_t{1} << 20;

// Per game: name, title, players, hidden_information, memory_aids, algorithms, default_params (one
// object per player count), default_bot, bots and levels (bots.h). Built once.
const Json& game_catalogue();
// A game's entry; std::invalid_argument for an unknown game.
const Json& catalogue_entry(const std::string& game);
// A game's default parameters at `players` (players included); nullptr for a player count it lacks.
const Json* default_params(const std::string& game, int players);

// A JSON file: a regular file (not a device, a pipe or a directory, which could block or never
// end) of at most kMaxJsonFileBytes of UTF-8 JSON, named by a path without NUL bytes. Any problem
// is std::invalid_argument starting "<what>: " and naming the path.
Json read_json_file(const std::string& path, const std::string& what);

// Gives every game parameter that is data by default (a list or an object, such as Nutz!'s card
// set) and is given as a string its file's JSON (read_json_file).
void read_file_params(const std::string& game, Json& params);

}  // namespace nutcore::engine
