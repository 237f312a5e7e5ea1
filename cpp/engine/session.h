// A game in play, as one connection sees it: the engine's typed face below the protocol. It holds
// the game, the optional seat the connection plays, the position, the record of the game so far
// (which undo walks back), and the generator that draws chance; it sets up and runs the searches
// (best_move and go, with a stop flag and their figures as they go); it answers in types, parses
// no text, and decides alone what a seat may see. Its errors are SessionError, each with the
// stable code the protocol sends (docs/engine-protocol.md, "Errors").
//
// The protocol (protocol.cc) reads a request's fields, calls one of these and writes the reply;
// it keeps what belongs to a connection: the lines, its limits, and the threads a search runs on
// (Session::search runs without the owner's lock, on a copy of the position).
// A Session is not thread-safe: its owner locks.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "core/json.h"
#include "core/rng.h"
#include "engine/any.h"
#include "engine/bots.h"
#include "engine/settings.h"

namespace nutcore::engine {

// code: the protocol's error code (no_game, not_now, hidden, illegal_move, bad_request).
struct SessionError {
  std::string code;
  std::string message;
};

// A move or a chance outcome, as a connection may see it.
struct MoveView {
  Action action = -1;                 // -1: the connection sees only part of it (JSON: null)
  std::string text;                   // its action string, or what the seat saw of it
  std::optional<double> probability;  // a chance outcome's, where the outcomes may be seen
  Json to_json() const;
};

// Where the game stands. Scores and returns are absent where the seat may not know them yet.
struct StatusView {
  int current_player = -1;  // -1: nobody (a chance node or the end)
  bool chance = false;
  bool terminal = false;
  std::optional<std::vector<int>> scores;
  std::optional<std::vector<double>> returns;
  Json to_json(bool searching) const;
};

// A move that was played: whose, and what the connection saw of it.
struct Played {
  int player = -1;
  std::optional<MoveView> move;  // nullopt: the connection's seat saw nothing of it
  // Whether it saw the move whole (its id): not so for part of a move, or none.
  bool whole() const { return move && move->action >= 0; }
};

// A move as a client names it: an action id or an action string.
struct MoveRef {
  std::variant<int64_t, std::string> move;
  std::string shown;  // as the client wrote it, for messages (empty: the move's own text)
};

// A search the session set up, on a copy of the position so that it runs without the owner's
// lock: best_move's (a search of the connection's own decision) or go's (a search or a bot that
// chooses the move of whoever is to move).
struct SearchJob {
  std::string command;                   // "best_move" or "go"
  std::unique_ptr<AnyState> state;       // the position searched
  std::optional<SearchRequest> request;  // a search's settings, its seed drawn, or
  std::unique_ptr<Bot> bot;              // the bot that chooses go's move
  bool show_stats = false;               // whether the connection may see the search's figures
};

// What a search found: best_move's outcome, or go's move (a bot's comes with no outcome).
struct Found {
  std::optional<SearchResult> outcome;
  Action action = -1;
};

class Session {
 public:
  // A new game: `seat` is the seat the connection plays (nullopt: it hosts the game and sees
  // everything); `seed` seeds the draws of chance.
  void start(std::shared_ptr<const AnyGame> game, std::optional<int> seat, uint64_t seed);
  // A position of the same game, in its JSON form; the history starts again from it.
  void set_position(const Json& position, const std::string& who);

  bool started() const { return state_ != nullptr; }
  const std::string& name() const { return game_->info().name; }
  std::optional<int> seat() const { return seat_; }
  uint64_t seed() const { return seed_; }
  const AnyGame& game() const { return *game_; }
  // The position (no_game if none): its truth, for the searches and the test hooks.
  const AnyState& state(const std::string& who) const;

  // The position a search starts from (not_now at a chance node or the end). own_seat_only: a
  // seat's connection searches only for its own seat (hidden otherwise; go plays the others).
  const AnyState& to_search(const std::string& who, bool own_seat_only) const;
  // Whether the connection sees only a seat's part of a game of hidden information.
  bool hiding() const;
  // Whether the connection may see the choices at `state` (the legal moves, the outcomes'
  // probabilities, the mover's search).
  bool may_see_choice(const AnyState& state) const;
  // What the connection sees of `action` played at `state`: all of it, or for a seat of a game of
  // hidden information what the game's observe hook shows that seat (its id only where the seat
  // knows which action it was).
  std::optional<MoveView> seen(const AnyState& state, Action action) const;

  StatusView status() const;
  // The legal moves (a chance node's outcomes with their probabilities); nullopt where the
  // connection may not see them.
  std::optional<std::vector<MoveView>> legal() const;
  // The position in the game's JSON form; hidden for a seat of a game of hidden information.
  Json position(const std::string& who) const;
  // The board reply (seat, memory_aids, text, json) as `seat` (nullopt: everyone) sees it, drawn
  // by board_json as the C ABI's nc_state_board draws it; a seat's connection sees its own only.
  Json board(std::optional<int> seat, bool memory_aids, const std::string& who) const;

  // Plays the connection's moves, all or none (illegal_move, hidden: nothing changed).
  std::vector<Played> apply(const std::vector<MoveRef>& moves, const std::string& who);
  // Draws the chance outcome with the session's generator and plays it.
  Played chance(const std::string& who);
  // Plays a move chosen by the engine (go) on the position.
  Played play(Action action);
  // Back to before the connection's count-th last move; the truth behind a seat's view is drawn
  // afresh. Returns the count.
  int undo(int count, const std::string& who);

  // The searches. `limit` is the owner's: it refuses settings above its limits or caps them (it
  // may throw its own error). A refusal changes nothing, the generator included.
  // best_move: a search of the connection's own decision, with the settings request_settings reads.
  // Without memory aids it searches the belief of a mover who forgot every fact the game asks its
  // players to remember (forget with recall 0), as the board without memory aids shows it.
  SearchJob best_move(Json settings, const std::function<void(Json&)>& limit, const std::string& who,
                      bool memory_aids = true);
  // go: the move of whoever is to move, by a search (settings) or a bot (`bot`; a level is this
  // game's). A bot that chooses at once (greedy, random) plays here, and go answers its Played.
  std::variant<SearchJob, Played> go(Json settings, std::optional<BotSpec> bot, const std::function<void(Json&)>& limit,
                                     const std::string& who);
  // Runs a job to its end or to `stop`, its figures in `progress` as it goes: the one way a
  // connection's searches run. It reads only the job, so its owner calls it without the lock.
  static Found search(SearchJob& job, const StopFlag* stop, SearchProgress* progress);

  // The game so far, since start or set_position: every move and chance outcome in order, as the
  // connection saw it when it was played (undo takes moves back off it).
  std::vector<Played> record() const;

  uint64_t next_seed() { return rng_.next(); }  // for searches and bots
  void reseed(uint64_t seed) { rng_.reseed(seed); }
  // For the test hooks: a state the seat cannot tell from the truth.
  void replace_full_state(const Json& position);

 private:
  Action resolve_move(const AnyState& state, const MoveRef& move, size_t index, const std::string& who) const;
  static SearchRequest checked_request(const AnyState& state, Json settings, const std::function<void(Json&)>& limit,
                                       const std::string& who);

  std::shared_ptr<const AnyGame> game_;
  std::unique_ptr<AnyState> state_;
  std::optional<int> seat_;
  uint64_t seed_ = 0;
  Rng rng_{0};
  // Each change since start / set_position: the position before it (for undo), whether the
  // connection gave the move itself by apply (what undo counts), and the move as it saw it.
  struct Step {
    std::unique_ptr<AnyState> before;
    bool own = false;
    Played played;
  };
  std::vector<Step> steps_;
};

}  // namespace nutcore::engine
