// Bots: every way nutcore chooses a move, made from one spec grammar, parsed here and nowhere else.
//
//   random[:seed=S]                  uniformly random legal moves
//   greedy[:memory=R,noise=P]        the game's greedy policy
//   ALGORITHM[:settings]             best_move with fixed settings: auto (the game's own choice),
//                                    mcts, ismcts, pimc, expectimax, solver; the search's settings
//                                    (iterations=N, threads=T, depth=D, ...; the sampling searches
//                                    default to iterations=1000), and memory=R, noise=P, and for
//                                    auto, mcts and ismcts reuse=true (a tree kept between moves)
//   level:N                          difficulty level N in 1..kNumLevels: the game's own table of specs
//                                    (its declaration's kLevels) or the generic one; a level whose
//                                    search needs a trained network the game lacks at that player
//                                    count (evaluator=learned) plays the level below it
//
// memory: the chance of remembering each fact the game asks a player to memorise, drawn afresh at
// every move (AnyState::forget); noise: the chance of a uniformly random legal move instead. Each
// setting is given once; an empty one (a stray comma) is an error.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/json.h"
#include "core/rng.h"
#include "engine/any.h"

namespace nutcore::engine {

struct BotSpec {
  enum class Kind : uint8_t { kRandom, kGreedy, kSearch, kLevel };
  Kind kind = Kind::kGreedy;
  std::optional<Algorithm> algorithm;  // kSearch: nullopt is "auto"
  Json settings = Json::object();      // kSearch: best_move's settings (iterations, options), checked
  double memory = 1.0;
  double noise = 0.0;
  bool reuse = false;
  std::optional<uint64_t> seed;  // kRandom
  int level = 0;                 // kLevel
  std::string name;              // the spec that makes this bot, written canonically
  // kSearch, kGreedy: (the kind as a spec's name, the settings as given): level_settings's answer.
  std::string kind_name() const;
};

// Parses and checks a spec (std::invalid_argument names what is wrong).
BotSpec parse_bot_spec(const std::string& spec);
// The same from a spec's parts: the bot's name ("greedy", "mcts", ...) and its settings.
BotSpec make_bot_spec(const std::string& name, const Json& settings);

// The spec of level `level` on `game` (its own table, else the generic one); with `players`, the
// level below where that one needs a network the engine has not built in for that player count.
std::string level_spec(const std::string& game, int level, int players = 0);
const std::vector<std::string>& generic_levels();

// What a front end may offer on a game (list_games), each spec written canonically; an unknown game
// is std::invalid_argument. The bot the engine plays where a request names none (best_move "auto"
// at its default budget); example specs of every kind the game offers, that one first; and its
// levels: level:N with the spec the game declares for it (level_spec without a player count: at a
// count without the network a learned level needs, level:N plays the level below).
std::string default_bot(const std::string& game);
std::vector<std::string> example_bots(const std::string& game);
struct OfferedLevel {
  std::string bot;    // "level:N"
  std::string plays;  // level_spec(game, N)
};
std::vector<OfferedLevel> level_bots(const std::string& game);

class Bot {
 public:
  explicit Bot(BotSpec spec);
  static std::unique_ptr<Bot> make(const std::string& spec) { return std::make_unique<Bot>(parse_bot_spec(spec)); }

  const BotSpec& spec() const { return spec_; }
  const std::string& name() const { return name_; }
  void set_name(std::string name) { name_ = std::move(name); }

  // Before every game: the bot's generator (its noise, its forgetting, its searches' seeds).
  void reset(uint64_t seed);
  // std::invalid_argument unless the bot can play `state`'s game (a search the game offers).
  void check_for(const AnyState& state);
  // Its move at a decision node. A stop ends its search early (its best move so far, or Stopped
  // for an exact search); `progress` receives a sampling search's root statistics as it runs.
  Action step(const AnyState& state, const StopFlag* stop = nullptr, SearchProgress* progress = nullptr);
  // The search a plain search bot (no memory, noise or reuse) runs: the engine runs it as
  // best_move, to answer with its statistics. nullopt for every other bot.
  std::optional<SearchRequest> plain_search() const;

 private:
  Bot& for_game(const AnyState& state);  // a level's bot for this game (itself otherwise)
  Action choose(const AnyState& state, const StopFlag* stop, SearchProgress* progress);

  BotSpec spec_;
  std::string name_;
  SearchRequest request_;  // kSearch
  Rng rng_;
  uint64_t seed_ = 0;
  KeptTree tree_;
  std::map<std::string, std::unique_ptr<Bot>> levels_;  // kLevel: one bot per game
};

}  // namespace nutcore::engine
