// The engine protocol (protocol.h, docs/engine-protocol.md): reading lines, every command, the
// seat views of games of hidden information, searches on the engine's own threads with progress
// lines, stop, undo, the limits and the errors.
#include "engine/protocol.h"

#include <unistd.h>
#if defined(__linux__)
#include <sys/resource.h>
#include <sys/syscall.h>
#endif

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <set>
#include <stdexcept>

#ifndef NUTCORE_VERSION
#define NUTCORE_VERSION "0.0.0"
#endif

namespace nutcore::engine {

namespace {

using Clock = std::chrono::steady_clock;

[[noreturn]] void refuse(const std::string& code, const std::string& message) {
  throw ProtocolError{code, message, std::nullopt};
}

bool valid_id(const Json& rid) {
  const auto t = rid.type();
  return t == Json::Type::kNull || t == Json::Type::kString || t == Json::Type::kInt || t == Json::Type::kDouble;
}

std::string type_names(const std::vector<Json::Type>& kinds) {
  std::string out;
  for (size_t i = 0; i < kinds.size(); ++i) {
    const char* name = "";
    switch (kinds[i]) {
      case Json::Type::kInt:
        name = "an integer";
        break;
      case Json::Type::kDouble:
        name = "a number";
        break;
      case Json::Type::kString:
        name = "a string";
        break;
      case Json::Type::kBool:
        name = "true or false";
        break;
      case Json::Type::kArray:
        name = "a list";
        break;
      case Json::Type::kObject:
        name = "an object";
        break;
      case Json::Type::kNull:
        name = "null";
        break;
    }
    out += (i ? " or " : "") + std::string(name);
  }
  return out;
}

// msg[key] if it has one of the JSON types `kinds` (an integer is a number too), else an error;
// nullptr when it is absent and optional.
const Json* field(const Json& msg, const std::string& cmd, const std::string& key, std::vector<Json::Type> kinds,
                  bool required = false, const std::string& what = "") {
  const Json* v = msg.find(key);
  if (!v) {
    if (required)
      refuse("bad_request", cmd + ": missing field " + quoted(key) + (what.empty() ? "" : " (" + what + ")"));
    return nullptr;
  }
  bool ok = std::find(kinds.begin(), kinds.end(), v->type()) != kinds.end();
  if (!ok && v->type() == Json::Type::kInt)
    ok = std::find(kinds.begin(), kinds.end(), Json::Type::kDouble) != kinds.end();
  if (!ok) refuse("bad_request", cmd + ": " + key + " must be " + type_names(kinds) + ", got " + shown(*v));
  return v;
}

// `memory_aids` of board and best_move: true unless the request says false.
bool memory_aids_field(const Json& msg, const std::string& cmd) {
  const Json* aids = field(msg, cmd, "memory_aids", {Json::Type::kBool});
  return !aids || aids->as_bool("memory_aids");
}

// An integer field in [lo, hi]; `nullable`: null is allowed (and returned as nullopt, as absence).
std::optional<int64_t> integer_field(const Json& msg, const std::string& cmd, const std::string& key, int64_t lo,
                                     int64_t hi, bool nullable = false) {
  std::vector<Json::Type> kinds = {Json::Type::kInt};
  if (nullable) kinds.push_back(Json::Type::kNull);
  const Json* v = field(msg, cmd, key, kinds);
  if (!v || v->is_null()) return std::nullopt;
  try {
    return integer_in(*v, cmd + ": " + key, lo, hi);
  } catch (const std::invalid_argument& e) {
    refuse("bad_request", e.what());
  }
}

void allowed_fields(const Json& msg, const std::string& cmd, const std::vector<std::string>& allowed) {
  std::vector<std::string> unknown;
  for (const auto& [key, v] : msg.items("request")) {
    (void)v;
    if (key != "cmd" && key != "id" && std::find(allowed.begin(), allowed.end(), key) == allowed.end())
      unknown.push_back(key);
  }
  if (unknown.empty()) return;
  std::sort(unknown.begin(), unknown.end());
  std::string list, known;
  for (size_t i = 0; i < unknown.size(); ++i) list += (i ? ", " : "") + quoted(unknown[i]);
  for (size_t i = 0; i < allowed.size(); ++i) known += (i ? ", " : "") + allowed[i];
  refuse("bad_request", cmd + ": unknown field(s) " + list + "; " +
                            (allowed.empty() ? std::string("it takes no fields") : "its fields are " + known));
}

Json move_json(const AnyState& state, Action action) {
  Json m = Json::object();
  m.set("action", Json::integer(action));
  m.set("action_string", Json::string(state.action_to_string(action)));
  return m;
}

Json seat_or_null(int player) { return player >= 0 ? Json::integer(player) : Json::null(); }

// A move as go and record show it: {"player", "move" (what the connection saw of it, or null),
// "hidden" (not seen whole)}.
Json seen_json(const Played& played) {
  Json entry = Json::object();
  entry.set("player", seat_or_null(played.player));
  entry.set("move", played.move ? played.move->to_json() : Json::null());
  entry.set("hidden", Json::boolean(!played.whole()));
  return entry;
}

double seconds_since(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }

// A cap as Python printed it in its messages (a float keeps its ".0").
std::string cap_text(double cap, bool integral) {
  return integral ? std::to_string(static_cast<long>(cap)) : Json::number(cap).dump();
}

}  // namespace

// ---------------------------------------------------------------------------------------------
// Lines

Json parse_line(std::string line) {
  if (!line.empty() && line.back() == '\n') line.pop_back();
  if (!line.empty() && line.back() == '\r') line.pop_back();
  if (line.size() > kMaxLineBytes)
    refuse("bad_json",
           "line too long (" + std::to_string(line.size()) + " bytes; at most " + std::to_string(kMaxLineBytes) + ")");
  size_t bad = 0;
  if (!valid_utf8(line, &bad))
    refuse("bad_json", "the line is not UTF-8 text (invalid byte at " + std::to_string(bad) + ")");
  std::vector<std::string> duplicates;
  Json msg;
  try {
    msg = Json::parse(line, &duplicates);
  } catch (const std::invalid_argument& e) {
    std::string why = e.what();
    if (why.rfind("JSON: ", 0) == 0) why = why.substr(6);
    if (why == "nested too deeply") refuse("bad_json", "the JSON is nested too deeply");
    // Only a door that takes whole strings (the C ABI, a WebSocket message) passes a newline inside.
    if (line.find('\n') != std::string::npos) why += " (one line is one request, and this one holds a newline)";
    refuse("bad_json", "not valid JSON: " + why);
  }
  if (!duplicates.empty()) {
    std::string keys;
    bool id_repeated = false;
    for (const auto& k : duplicates) {
      keys += (keys.empty() ? "" : ", ") + quoted(k);
      id_repeated |= k == "id";
    }
    std::optional<Json> rid;
    if (msg.type() == Json::Type::kObject && !id_repeated)
      if (const Json* id = msg.find("id")) rid = *id;
    throw ProtocolError{"bad_request", "the request repeats the key(s) " + keys, rid};
  }
  return msg;
}

std::string encode_reply(const Json& reply) { return reply.dump(); }

// ---------------------------------------------------------------------------------------------
// The engine

struct Engine::Search {
  std::optional<Json> rid;
  StopFlag flag{false};
  SearchProgress progress;
  SearchJob job;  // the position searched (a copy) and what searches it
  Json budget = Json::object();
};

Engine::Engine(Send send, Limits limits, std::shared_ptr<SearchSlots> slots)
    : send_(std::move(send)), limits_(limits), slots_(std::move(slots)) {
  if (!slots_ && limits_.searches > 0) slots_ = std::make_shared<SearchSlots>(limits_.searches);
}

Engine::~Engine() {
  close(true);
  if (search_thread_.joinable()) search_thread_.join();
  for (std::thread& t : finished_)
    if (t.joinable()) t.join();
}

bool Engine::emit(const Json& reply, bool last) {
  std::string line;
  try {
    line = encode_reply(reply);
  } catch (const std::exception& e) {
    Json err = Json::object();
    err.set("type", Json::string("error"));
    err.set("error", Json::string("internal"));
    err.set("message", Json::string(std::string("unserializable reply: ") + e.what()));
    line = encode_reply(err);
  }
  std::lock_guard<std::mutex> lock(outbox_mutex_);
  if (sealed_) return false;  // the quit reply was the last line
  outbox_.push_back({std::move(line), last});
  if (last) {
    sealed_ = true;
    closed_.store(true);
  }
  return true;
}

void Engine::deliver() {
  const std::thread::id me = std::this_thread::get_id();
  {
    std::lock_guard<std::mutex> lock(outbox_mutex_);
    if (delivering_ == me) return;  // `send` called back into the engine: the loop below sends what it queued
  }
  std::lock_guard<std::mutex> delivery(delivery_mutex_);
  for (;;) {
    Line line;
    {
      std::lock_guard<std::mutex> lock(outbox_mutex_);
      if (outbox_.empty()) {
        delivering_ = std::thread::id();
        return;
      }
      line = std::move(outbox_.front());
      outbox_.pop_front();
      delivering_ = me;
    }
    if (!dropped_.load()) {
      try {
        send_(line.text);
      } catch (...) {  // a broken transport must not take the engine down
      }
    }
    if (line.last && on_closed_) {
      try {
        on_closed_();
      } catch (...) {
      }
    }
  }
}

bool Engine::error(const std::string& code, const std::string& message, const Json* rid, const std::string* command) {
  Json reply = Json::object();
  reply.set("type", Json::string("error"));
  if (rid) reply.set("id", *rid);
  if (command) reply.set("command", Json::string(*command));
  reply.set("error", Json::string(code));
  reply.set("message", Json::string(message));
  return emit(reply);
}

bool Engine::handle(const std::string& line) {
  if (line.find_first_not_of(" \t\r\n") == std::string::npos) return true;  // blank lines are ignored
  bool answered;
  try {
    answered = dispatch(parse_line(line));
  } catch (const ProtocolError& e) {
    const Json* rid = e.rid && valid_id(*e.rid) ? &*e.rid : nullptr;
    answered = error(e.code, e.message, rid, nullptr);
  }
  deliver();
  reap();
  return answered;
}

bool Engine::dispatch(const Json& msg) {
  if (msg.type() != Json::Type::kObject) {
    return error("bad_request", "a request is a JSON object such as {\"cmd\": \"hello\"}, got " + shown(msg), nullptr,
                 nullptr);
  }
  const Json* rid = msg.find("id");
  if (rid && !valid_id(*rid)) {
    return error("bad_request", "id must be a string, a number or null, got " + shown(*rid), nullptr, nullptr);
  }
  const Json* cmd = msg.find("cmd");
  if (!cmd) {
    return error("bad_request", "a request needs \"cmd\", the command name", rid, nullptr);
  }
  if (cmd->type() != Json::Type::kString)
    return error("bad_request", "cmd must be a command name (a string), got " + shown(*cmd), rid, nullptr);
  const Command* row = find_command(cmd->as_string("cmd"), limits_.test_hooks);
  if (!row) {
    std::string list;
    for (const Command& c : commands())
      if (!c.hook) list += (list.empty() ? "" : ", ") + std::string(c.name);
    return error("unknown_command", "unknown command " + shown(*cmd) + "; commands: " + list, rid, nullptr);
  }
  const std::string name = row->name;
  if (!row->handler) return quit_cmd(msg, rid);
  std::shared_ptr<Search> run;
  bool answered = true;  // a search's answer comes later (no search starts once the answers are sealed)
  {
    // The reply is queued before the lock is released: replies keep the order of the changes.
    std::lock_guard<std::recursive_mutex> lock(mutex_);
    if (quitting_) return error("not_now", "the engine has quit", rid, &name);
    try {
      allowed_fields(msg, name, row->fields);
      Json reply = (this->*row->handler)(msg, rid);
      if (!reply.is_null()) {  // null: a search, which answers when it ends
        Json out = Json::object();
        out.set("type", Json::string(name));
        if (rid) out.set("id", *rid);
        for (const auto& [key, value] : reply.items("reply")) out.set(key, value);
        answered = emit(out);
      }
    } catch (const ProtocolError& e) {
      answered = error(e.code, e.message, rid, &name);
    } catch (const SessionError& e) {
      answered = error(e.code, e.message, rid, &name);
    } catch (const std::exception& e) {  // a bug must cost one reply, not the engine
      answered = error("internal", std::string("internal error: ") + e.what(), rid, &name);
    }
    run = std::move(to_run_);
    to_run_.reset();
  }
  if (run) run_search(run);  // without threads: here, on the caller's thread, with no lock held
  return answered;
}

// The protocol's commands: hello lists them, dispatch checks each request's fields against its row
// and calls its handler (null for quit, which dispatch answers itself), and the protocol doc's
// table is tested against it. A search's handler answers null: the search answers when it ends.
const std::vector<Engine::Command>& Engine::commands() {
  static const std::vector<std::string> search_fields = [] {
    std::vector<std::string> f = request_fields();  // best_move's, read by request_settings
    f.push_back("options");
    return f;
  }();
  static const std::vector<std::string> best_move_fields = [] {
    std::vector<std::string> f = search_fields;
    f.push_back("memory_aids");
    return f;
  }();
  static const std::vector<std::string> go_fields = [] {
    std::vector<std::string> f = search_fields;
    f.push_back("bot");
    return f;
  }();
  static const std::vector<Command> table = {
      {"hello", {}, &Engine::hello},
      {"list_games", {}, &Engine::list_games},
      {"new_game", {"game", "players", "params", "seed", "seat"}, &Engine::new_game},
      {"set_position", {"position"}, &Engine::set_position},
      {"get_position", {}, &Engine::get_position},
      {"apply", {"moves"}, &Engine::apply},
      {"chance", {}, &Engine::chance},
      {"legal", {}, &Engine::legal},
      {"board", {"seat", "memory_aids"}, &Engine::board},
      {"status", {}, &Engine::status_cmd},
      {"best_move", best_move_fields, &Engine::best_move_cmd},
      {"go", go_fields, &Engine::go},
      {"stop", {}, &Engine::stop},
      {"undo", {"count"}, &Engine::undo},
      {"record", {}, &Engine::record},
      {"quit", {}, nullptr},
      {"_full_state", {}, &Engine::test_hook, true},
      {"_replace_full_state", {"position"}, &Engine::test_hook, true},
      {"_reseed", {"seed"}, &Engine::test_hook, true},
  };
  return table;
}

const Engine::Command* Engine::find_command(const std::string& name, bool hooks) {
  for (const Command& c : commands())
    if (name == c.name && (hooks || !c.hook)) return &c;
  return nullptr;
}

std::vector<std::pair<std::string, std::vector<std::string>>> Engine::command_fields() {
  std::vector<std::pair<std::string, std::vector<std::string>>> out;
  for (const Command& c : commands())
    if (!c.hook) out.emplace_back(c.name, c.fields);
  return out;
}

// ----- helpers

const AnyState& Engine::need_game(const std::string& cmd) const { return session_.state(cmd); }

void Engine::need_idle(const std::string& cmd) const {
  if (search_) refuse("busy", cmd + ": a search is running; wait for its reply or send stop");
}

Json Engine::status() const { return session_.status().to_json(search_ != nullptr); }

Json Engine::played_json(const Played& played) const {
  Json entry = Json::object();
  entry.set("player", seat_or_null(played.player));
  if (played.move) {
    const Json move = played.move->to_json();  // named: a range-for would not keep a temporary alive
    for (const auto& [k, v] : move.items("move")) entry.set(k, v);
  }
  return entry;
}

// ----- commands

Json Engine::hello(const Json&, const Json*) {
  Json r = Json::object();
  r.set("protocol", Json::integer(kProtocolVersion));
  r.set("engine", Json::string("nutcore"));
  r.set("version", Json::string(NUTCORE_VERSION));
  Json commands = Json::array();
  for (const auto& c : command_fields()) commands.push(Json::string(c.first));
  r.set("commands", commands);
  return r;
}

Json Engine::list_games(const Json&, const Json*) {
  Json r = Json::object();
  r.set("games", game_catalogue());
  return r;
}

void Engine::check_file_params(const std::string& cmd, const std::string& game, int players, Json& params) const {
  if (limits_.file_params) {
    try {
      Json with_players = params;
      with_players.set("players", Json::integer(players));
      read_file_params(game, with_players);
      Json out = Json::object();
      for (const auto& [key, value] : with_players.items("params"))
        if (key != "players") out.set(key, value);
      params = out;
    } catch (const std::invalid_argument& e) {
      refuse("bad_request", cmd + ": " + e.what());
    }
    return;
  }
  const Json* defaults = nullptr;
  try {
    defaults = default_params(game, players);
  } catch (const std::invalid_argument&) {
    return;  // an unknown game: the loader says so
  }
  if (!defaults) return;
  // The engine names no game: a parameter that is not text by default is data, never a path.
  for (const auto& [key, value] : params.items("params")) {
    const Json* d = defaults->find(key);
    if (value.type() == Json::Type::kString && d && d->type() != Json::Type::kString)
      refuse("bad_request", cmd + ": params." + key +
                                " must be given as its value (as in list_games' default_params), not as a string: this "
                                "engine reads no files for its clients (nutcore engine --allow-files lets a trusted "
                                "client name files)");
  }
}

Json Engine::new_game(const Json& msg, const Json*) {
  const std::string cmd = "new_game";
  const std::string name =
      field(msg, cmd, "game", {Json::Type::kString}, true, "a name from list_games")->as_string("game");
  const Json* players_field = field(msg, cmd, "players", {Json::Type::kInt});
  const Json* params_field = field(msg, cmd, "params", {Json::Type::kObject});
  Json params = params_field ? *params_field : Json::object();
  if (params.find("players")) refuse("bad_request", cmd + ": give players as its own field, not in params");
  const bool small_players = !players_field || players_field->fits_int64();
  const int64_t players = players_field ? (small_players ? players_field->as_int("players") : 0) : 2;
  if (small_players && players >= 2 && players <= 8) check_file_params(cmd, name, static_cast<int>(players), params);
  std::optional<uint64_t> seed;
  if (const Json* s = field(msg, cmd, "seed", {Json::Type::kInt, Json::Type::kNull}); s && !s->is_null()) {
    try {
      seed = seed_in(*s, cmd + ": seed");
    } catch (const std::invalid_argument& e) {
      refuse("bad_request", e.what());
    }
  }
  std::lock_guard<std::recursive_mutex> lock(mutex_);
  need_idle(cmd);
  std::shared_ptr<const AnyGame> game;
  try {
    Json all = Json::object();
    all.set("players", players_field ? *players_field : Json::integer(2));
    for (const auto& [key, value] : params.items("params")) all.set(key, value);
    game = load_game(name, all);
  } catch (const std::invalid_argument& e) {
    refuse("bad_request", cmd + ": " + e.what());
  }
  std::optional<int> seat;
  if (msg.find("seat")) {
    const auto s = integer_field(msg, cmd, "seat", 0, game->num_players() - 1, true);
    if (s) seat = static_cast<int>(*s);
  } else if (game->info().hidden_information) {
    refuse("bad_request",
           cmd + ": " + name + " is a game of hidden information: give seat, the seat this connection plays (0.." +
               std::to_string(game->num_players() - 1) + "), or null to host the game with every seat's information");
  }
  session_.start(game, seat, seed ? *seed : random_seed());
  Json r = Json::object();
  r.set("game", Json::string(name));
  r.set("players", Json::integer(game->num_players()));
  r.set("params", game->params_json());
  r.set("hidden_information", Json::boolean(game->info().hidden_information));
  r.set("seat", seat ? Json::integer(*seat) : Json::null());
  r.set("seed", Json::unsigned_integer(session_.seed()));
  r.set("status", status());
  return r;
}

Json Engine::set_position(const Json& msg, const Json*) {
  const std::string cmd = "set_position";
  const Json& position = *field(msg, cmd, "position", {Json::Type::kObject}, true, "a state's to_json()");
  std::lock_guard<std::recursive_mutex> lock(mutex_);
  need_game(cmd);
  need_idle(cmd);
  session_.set_position(position, cmd);
  Json r = Json::object();
  r.set("status", status());
  return r;
}

Json Engine::get_position(const Json&, const Json*) {
  const std::string cmd = "get_position";
  std::lock_guard<std::recursive_mutex> lock(mutex_);
  Json position = session_.position(cmd);
  Json r = Json::object();
  r.set("game", Json::string(session_.name()));
  r.set("position", std::move(position));
  return r;
}

Json Engine::apply(const Json& msg, const Json*) {
  const std::string cmd = "apply";
  const auto& moves =
      field(msg, cmd, "moves", {Json::Type::kArray}, true, "action ids or action strings")->as_array("moves");
  if (moves.empty() || moves.size() > static_cast<size_t>(kMaxMoves))
    refuse("bad_request",
           cmd + ": moves must hold 1.." + std::to_string(kMaxMoves) + " moves, got " + std::to_string(moves.size()));
  std::vector<MoveRef> refs;
  for (size_t i = 0; i < moves.size(); ++i) {
    const Json& move = moves[i];
    MoveRef ref;
    ref.shown = move.dump();
    if (move.type() == Json::Type::kString)
      ref.move = move.as_string("move");
    else if (move.type() == Json::Type::kInt)
      ref.move = move.fits_int64() ? move.as_int("move") : int64_t{-1};  // out of range: no action
    else
      refuse("bad_request", cmd + ": move " + std::to_string(i) + " (" + ref.shown.substr(0, 80) +
                                "): a move is an action id or an action string");
    refs.push_back(std::move(ref));
  }
  std::lock_guard<std::recursive_mutex> lock(mutex_);
  need_game(cmd);
  need_idle(cmd);
  Json applied = Json::array();
  for (const Played& p : session_.apply(refs, cmd)) applied.push(played_json(p));
  Json r = Json::object();
  r.set("applied", applied);
  r.set("status", status());
  return r;
}

Json Engine::chance(const Json&, const Json*) {
  const std::string cmd = "chance";
  std::lock_guard<std::recursive_mutex> lock(mutex_);
  need_game(cmd);
  need_idle(cmd);
  const Played played = session_.chance(cmd);
  Json r = Json::object();
  r.set("outcome", played.move ? played.move->to_json() : Json::null());
  r.set("hidden", Json::boolean(!played.whole()));
  r.set("status", status());
  return r;
}

Json Engine::legal(const Json&, const Json*) {
  const std::string cmd = "legal";
  std::lock_guard<std::recursive_mutex> lock(mutex_);
  const AnyState& state = need_game(cmd);
  const auto moves = session_.legal();
  Json list = Json::null();
  if (moves) {
    list = Json::array();
    for (const MoveView& m : *moves) list.push(m.to_json());
  }
  Json r = Json::object();
  r.set("player", seat_or_null(state.current_player()));
  r.set("chance", Json::boolean(state.is_chance_node()));
  r.set("terminal", Json::boolean(state.is_terminal()));
  r.set("moves", list);
  r.set("hidden", Json::boolean(!moves));
  return r;
}

Json Engine::board(const Json& msg, const Json*) {
  const std::string cmd = "board";
  const bool memory_aids = memory_aids_field(msg, cmd);
  std::lock_guard<std::recursive_mutex> lock(mutex_);
  need_game(cmd);
  const std::optional<int64_t> seat = integer_field(msg, cmd, "seat", 0, session_.game().num_players() - 1, true);
  return session_.board(seat ? std::optional<int>(static_cast<int>(*seat)) : std::nullopt, memory_aids, cmd);
}

Json Engine::status_cmd(const Json&, const Json*) {
  std::lock_guard<std::recursive_mutex> lock(mutex_);
  need_game("status");
  Json r = Json::object();
  r.set("game", Json::string(session_.name()));
  r.set("seat", session_.seat() ? Json::integer(*session_.seat()) : Json::null());
  r.set("status", status());
  return r;
}

Json Engine::search_settings(const Json& msg, const std::string& cmd) const {
  try {
    return request_settings(msg, cmd, false);  // the C ABI's nc_best_move reads requests the same way
  } catch (const std::invalid_argument& e) {
    refuse("bad_request", e.what());
  }
}

// Refuses search settings above the connection's limits; gives a tree search the cap on its
// memory when it names none.
void Engine::apply_limits(const std::string& cmd, Json& settings) const {
  const struct {
    const char* key;
    double cap;
    bool integral;
  } caps[] = {{"iterations", static_cast<double>(limits_.iterations), true},
              {"time_limit", limits_.time_limit, false},
              {"threads", static_cast<double>(limits_.threads), true},
              {"max_nodes", static_cast<double>(limits_.max_nodes), true},
              {"depth", static_cast<double>(limits_.depth), true}};
  for (const auto& c : caps) {
    const Json* v = settings.find(c.key);
    if (c.cap <= 0 || !v || (v->type() != Json::Type::kInt && v->type() != Json::Type::kDouble)) continue;
    const bool over = v->is_integer() ? (!v->fits_int64() ? v->integer_text()[0] != '-' : v->as_int(c.key) > c.cap)
                                      : v->as_number(c.key) > c.cap;
    if (over)
      refuse("bad_request", cmd + ": " + c.key + " is at most " + cap_text(c.cap, c.integral) +
                                " for this engine (its limits), got " + shown(*v));
  }
  const Json* a = settings.find("algorithm");
  const std::string algorithm = a && a->type() == Json::Type::kString ? a->as_string("algorithm") : "auto";
  if (limits_.max_nodes > 0 && !settings.find("max_nodes")) {
    if (algorithm == "auto" || algorithm == "mcts" || algorithm == "ismcts" || algorithm == "pimc")
      settings.set("max_nodes", Json::integer(limits_.max_nodes));
  }
  // A time-limited expectimax that names no depth deepens as far as the cap, not the library's 64.
  if (limits_.depth > 0 && algorithm == "expectimax" && settings.find("time_limit") && !settings.find("depth"))
    settings.set("depth", Json::integer(limits_.depth));
}

Json Engine::best_move_cmd(const Json& msg, const Json* rid) {
  const std::string cmd = "best_move";
  Json settings = search_settings(msg, cmd);
  const bool memory_aids = memory_aids_field(msg, cmd);
  std::lock_guard<std::recursive_mutex> lock(mutex_);
  need_game(cmd);
  need_idle(cmd);
  start(rid, session_.best_move(std::move(settings), limiter(cmd), cmd, memory_aids));
  return Json::null();
}

Json Engine::go(const Json& msg, const Json* rid) {
  const std::string cmd = "go";
  Json settings = search_settings(msg, cmd);
  std::optional<BotSpec> spec;
  if (const Json* b = field(msg, cmd, "bot", {Json::Type::kString})) {
    if (!settings.items("settings").empty()) refuse("bad_request", cmd + ": give bot or search settings, not both");
    try {
      spec = parse_bot_spec(b->as_string("bot"));
    } catch (const std::invalid_argument& e) {
      refuse("bad_request", cmd + ": " + e.what());
    }
  }
  std::lock_guard<std::recursive_mutex> lock(mutex_);
  need_game(cmd);
  need_idle(cmd);
  auto job = session_.go(std::move(settings), std::move(spec), limiter(cmd), cmd);
  if (auto* played = std::get_if<Played>(&job)) return play_reply(*played, std::nullopt, false);
  start(rid, std::move(std::get<SearchJob>(job)));
  return Json::null();
}

std::function<void(Json&)> Engine::limiter(const std::string& cmd) const {
  return [this, cmd](Json& settings) { apply_limits(cmd, settings); };
}

void Engine::start(const Json* rid, SearchJob job) {
  auto search = std::make_shared<Search>();
  if (rid) search->rid = *rid;
  const auto& request = job.request;
  search->budget.set("iterations",
                     request && request->iterations > 0 ? Json::integer(request->iterations) : Json::null());
  search->budget.set("time_limit",
                     request && request->time_limit > 0 ? Json::number(request->time_limit) : Json::null());
  search->job = std::move(job);
  search_ = search;
#if defined(NUTCORE_NO_THREADS)
  to_run_ = search;  // dispatch runs it once mutex_ is released, lending the thread out as it goes
#else
  // The last search has answered, and its thread is ending: joined later, outside the lock (reap).
  if (search_thread_.joinable()) finished_.push_back(std::move(search_thread_));
  search_thread_ = std::thread([this, search] { run_search(search); });
#endif
}

void Engine::stop_search(Search& search) {
  search.flag.store(true);
  if (slots_) slots_->wake();  // it may be waiting for a slot
}

void Engine::run_search(std::shared_ptr<Search> search) {
  const auto start = Clock::now();
  const AnyState& state = *search->job.state;
  // Another seat's search is none of a seat's business (its statistics would hint at its cards).
  const bool show_stats = search->job.show_stats;
  const auto progress = [&](bool queued) {
    Json info = Json::object();
    info.set("type", Json::string("info"));
    if (search->rid) info.set("id", *search->rid);
    info.set("command", Json::string(search->job.command));
    info.set("elapsed", Json::number(std::round(seconds_since(start) * 1000) / 1000));
    info.set("budget", search->budget);
    if (queued) info.set("queued", Json::boolean(true));
    if (show_stats && !queued) {
      std::lock_guard<std::mutex> lock(search->progress.mutex);
      if (!search->progress.actions.empty()) {
        info.set("iterations", Json::integer(search->progress.iterations));
        Json actions = Json::array();
        for (const auto& a : search->progress.actions) {
          Json m = move_json(state, a.action);
          m.set("visits", Json::integer(a.visits));
          m.set("value", Json::number(a.mean_value));
          actions.push(m);
        }
        info.set("actions", actions);
      }
    }
    emit(info);
    deliver();
  };
#if defined(__linux__)
  // The searches below the event loop and the other clients: the search's own threads inherit it.
  if (limits_.nice > 0) setpriority(PRIO_PROCESS, static_cast<id_t>(syscall(SYS_gettid)), limits_.nice);
#endif
  std::optional<SearchResult> outcome;
  Action action = -1;
  std::string error_code, error_message;
  bool slot = false;
  const auto search_now = [&] {
    Found found = Session::search(search->job, &search->flag, &search->progress);
    outcome = std::move(found.outcome);
    action = found.action;
  };
#if defined(NUTCORE_NO_THREADS)
  // One thread (stop.h): the search lends it to this loop every few milliseconds, which sends the
  // progress lines, stops a search past the limits' search_seconds and lets the host take messages
  // (host_yield_, which may stop this search).
  struct Lending {
    std::function<void()> lend;
    cooperative::Lender saved;
    explicit Lending(std::function<void()> f) : lend(std::move(f)), saved(cooperative::lender) {
      cooperative::lender = {[](void* self) { static_cast<Lending*>(self)->lend(); }, this, 0};
    }
    ~Lending() { cooperative::lender = saved; }
  };
  try {
    slot = !slots_ || slots_->acquire(search->flag, nullptr, kProgressInterval);
    if (!slot) throw Stopped();
    const auto running_since = Clock::now();
    auto next_info =
        start + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(kProgressInterval));
    auto next_yield = running_since;
    bool in_lend = false;
    Lending lending([&] {
      const auto now = Clock::now();
      if (in_lend || now < next_yield) return;
      in_lend = true;  // a message handled below runs no search of its own, but may poll a flag
      if (limits_.search_seconds > 0 &&
          std::chrono::duration<double>(now - running_since).count() >= limits_.search_seconds)
        search->flag.store(true);
      if (now >= next_info) {
        progress(false);
        next_info = now + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(kProgressInterval));
      }
      deliver();
      if (host_yield_) host_yield_();
      next_yield =
          Clock::now() + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(kYieldInterval));
      in_lend = false;
    });
    search_now();
#else
  std::mutex done_mutex;
  std::condition_variable done_cv;
  bool done = false;
  std::thread ticker;
  try {
    // A search that must wait for a slot says so from this thread; the ticker starts with it.
    slot = !slots_ || slots_->acquire(
                          search->flag, [&] { progress(true); }, kProgressInterval);
    if (!slot) throw Stopped();
    const auto running_since = Clock::now();
    ticker = std::thread([&, running_since] {
      // A progress line every kProgressInterval since the request, and the stop of a search that
      // has run for the limits' search_seconds.
      auto next_info =
          start + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(
                      kProgressInterval * (1 + std::floor(std::chrono::duration<double>(running_since - start).count() /
                                                          kProgressInterval))));
      // Never, until a time limit sets it (a plain time point: GCC sees an optional's as uninitialised).
      auto stop_at = Clock::time_point::max();
      if (limits_.search_seconds > 0)
        stop_at = running_since +
                  std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(limits_.search_seconds));
      std::unique_lock<std::mutex> lock(done_mutex);
      for (;;) {
        if (done_cv.wait_until(lock, std::min(next_info, stop_at), [&] { return done; })) return;
        const auto now = Clock::now();
        if (now >= stop_at) {
          search->flag.store(true);
          stop_at = Clock::time_point::max();
        }
        if (now >= next_info) {
          next_info =
              now + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(kProgressInterval));
          lock.unlock();
          progress(false);
          lock.lock();
        }
      }
    });
    search_now();
#endif
  } catch (const Stopped&) {
    // An exact search has no move until it finishes, nor MCTS before its first iteration.
    error_code = "stopped";
    error_message = search->job.command + ": stopped before the search had a move; nothing was played";
  } catch (const std::invalid_argument& e) {
    const std::string text = e.what();
    error_code = "bad_request";
    error_message = text.rfind(search->job.command + ":", 0) == 0 ? text : search->job.command + ": " + text;
  } catch (const std::exception& e) {  // the engine outlives any failure of one search
    error_code = "internal";
    error_message = std::string("internal error: ") + e.what();
  }
  if (slot && slots_) slots_->release();
#if !defined(NUTCORE_NO_THREADS)
  {
    std::lock_guard<std::mutex> lock(done_mutex);
    done = true;
  }
  done_cv.notify_all();
  if (ticker.joinable()) ticker.join();
#endif

  {
    std::lock_guard<std::recursive_mutex> lock(mutex_);
    answer(*search, outcome, action, error_code, error_message);
#if defined(NUTCORE_NO_THREADS)
    // A quit taken while this search lent its thread out waited for this answer (quit_cmd).
    if (quitting_) finish_quit();
#endif
  }
  deliver();  // with no lock held
}

// Queues a search's reply (the caller holds mutex_): its move played for go, or its error.
void Engine::answer(Search& search, const std::optional<SearchResult>& outcome, Action action,
                    const std::string& error_code, const std::string& error_message) {
  // Cleared before the reply, so the client may start the next search as soon as it reads it.
  if (search_.get() == &search) search_.reset();
  const Json* rid = search.rid ? &*search.rid : nullptr;
  if (!error_code.empty()) {
    error(error_code, error_message, rid, &search.job.command);
    return;
  }
  try {
    Json reply = Json::object();
    reply.set("type", Json::string(search.job.command));
    if (rid) reply.set("id", *rid);
    if (search.job.command == "best_move") {
      reply.set("result", outcome->to_json());
      reply.set("stopped", Json::boolean(outcome->stopped()));
    } else {
      // go: the position searched is the engine's (nothing else may change it while a search runs).
      const Json played =
          play_reply(session_.play(action), search.job.show_stats ? outcome : std::nullopt, search.flag.load());
      for (const auto& [key, value] : played.items("reply")) reply.set(key, value);
    }
    emit(reply);
  } catch (const std::exception& e) {
    error("internal", std::string("internal error: ") + e.what(), rid, &search.job.command);
  }
}

// The fields of go's reply for its move, played (the caller holds mutex_). `outcome`: the search's,
// where the connection may see its statistics (never another seat's search on a seat's connection,
// even of a public move); the bots that play as bots have none. `stopped`: the move was chosen
// after a stop (a bot's search's best so far counts as stopped).
Json Engine::play_reply(const Played& played, const std::optional<SearchResult>& outcome, bool stopped) {
  const bool stats = outcome.has_value();
  Json reply = seen_json(played);
  reply.set("result", stats ? outcome->to_json() : Json::null());
  reply.set("stopped", Json::boolean(stats ? outcome->stopped() : stopped));
  reply.set("status", status());
  return reply;
}

Json Engine::stop(const Json&, const Json*) {
  std::lock_guard<std::recursive_mutex> lock(mutex_);
  if (search_) stop_search(*search_);
  Json r = Json::object();
  r.set("searching", Json::boolean(search_ != nullptr));
  return r;
}

Json Engine::undo(const Json& msg, const Json*) {
  const std::string cmd = "undo";
  const int count = static_cast<int>(integer_field(msg, cmd, "count", 1, kMaxMoves).value_or(1));
  std::lock_guard<std::recursive_mutex> lock(mutex_);
  need_game(cmd);
  need_idle(cmd);
  session_.undo(count, cmd);
  Json r = Json::object();
  r.set("undone", Json::integer(count));
  r.set("status", status());
  return r;
}

Json Engine::record(const Json&, const Json*) {
  const std::string cmd = "record";
  std::lock_guard<std::recursive_mutex> lock(mutex_);
  need_game(cmd);
  Json moves = Json::array();
  for (const Played& played : session_.record()) moves.push(seen_json(played));
  Json r = Json::object();
  r.set("game", Json::string(session_.name()));
  r.set("seat", session_.seat() ? Json::integer(*session_.seat()) : Json::null());
  r.set("moves", moves);
  r.set("status", status());
  return r;
}

bool Engine::quit_cmd(const Json& msg, const Json* rid) {
  const std::string cmd = "quit";
  {
    std::lock_guard<std::recursive_mutex> lock(mutex_);
    if (quitting_) return error("not_now", "the engine has quit", rid, &cmd);
    try {
      allowed_fields(msg, cmd, find_command(cmd, false)->fields);
    } catch (const ProtocolError& e) {
      return error(e.code, e.message, rid, &cmd);
    }
    quitting_ = true;  // from here on no search starts, whatever thread sends
    quit_id_.reset();
    if (rid) quit_id_ = *rid;
    if (search_) {
      stop_search(*search_);
#if defined(NUTCORE_NO_THREADS)
      return true;  // the search runs below this call (it lent its thread out): it answers, then quits
#endif
    }
  }
  wait_for_search();  // its reply is sent first
  return finish_quit();
}

bool Engine::finish_quit() {
  Json out = Json::object();
  out.set("type", Json::string("quit"));
  if (quit_id_) out.set("id", *quit_id_);
  return emit(out, true);
}

// The test suites' view behind the protocol (Limits::test_hooks): what no client may see or do.
Json Engine::test_hook(const Json& msg, const Json*) {
  const std::string cmd = msg.find("cmd")->as_string("cmd");
  std::lock_guard<std::recursive_mutex> lock(mutex_);
  need_game(cmd);
  Json r = Json::object();
  if (cmd == "_full_state") {
    r.set("position", full_state_json());
  } else if (cmd == "_replace_full_state") {
    need_idle(cmd);
    try {
      replace_full_state(*field(msg, cmd, "position", {Json::Type::kObject}, true));
    } catch (const std::invalid_argument& e) {
      refuse("bad_request", cmd + ": " + e.what());
    }
  } else {
    try {
      session_.reseed(seed_in(*field(msg, cmd, "seed", {Json::Type::kInt}, true), cmd + ": seed"));
    } catch (const std::invalid_argument& e) {
      refuse("bad_request", e.what());
    }
  }
  return r;
}

void Engine::close(bool wait) {
  std::shared_ptr<Search> search;
  {
    std::lock_guard<std::recursive_mutex> lock(mutex_);
    search = search_;
    if (search) stop_search(*search);
  }
  if (wait) wait_for_search();
}

namespace {

// Moves the threads of `from` that are not the calling thread into `to` (a thread cannot join
// itself: `send` may have called back into the engine from a search's thread).
void take_joinable(std::vector<std::thread>& from, std::vector<std::thread>& to) {
  const std::thread::id me = std::this_thread::get_id();
  std::vector<std::thread> kept;
  for (std::thread& t : from) {
    if (!t.joinable()) continue;
    (t.get_id() == me ? kept : to).push_back(std::move(t));
  }
  from = std::move(kept);
}

}  // namespace

void Engine::wait_for_search() {
  std::vector<std::thread> threads;
  {
    std::lock_guard<std::recursive_mutex> lock(mutex_);
    if (search_thread_.joinable()) finished_.push_back(std::move(search_thread_));
    take_joinable(finished_, threads);
  }
  for (std::thread& t : threads) t.join();  // no lock held: the search's last reply may be on its way
}

void Engine::reap() {
#if !defined(NUTCORE_NO_THREADS)
  std::vector<std::thread> threads;
  {
    std::lock_guard<std::recursive_mutex> lock(mutex_);
    take_joinable(finished_, threads);
  }
  for (std::thread& t : threads) t.join();  // they have answered; they are ending
#endif
}

void Engine::drop() { dropped_.store(true); }

bool Engine::searching() const {
  std::lock_guard<std::recursive_mutex> lock(mutex_);
  return search_ != nullptr;
}

Json Engine::full_state_json() const {
  std::lock_guard<std::recursive_mutex> lock(mutex_);
  if (!session_.started()) throw std::invalid_argument("no game yet");
  return session_.state("full state").to_json();
}

Json Engine::connection_json() const {
  std::lock_guard<std::recursive_mutex> lock(mutex_);
  if (!session_.started()) throw std::invalid_argument("no game yet");
  Json j = Json::object();
  j.set("game", Json::string(session_.name()));
  j.set("params", session_.game().params_json());
  j.set("seat", session_.seat() ? Json::integer(*session_.seat()) : Json::null());
  return j;
}

void Engine::replace_full_state(const Json& position) {
  std::lock_guard<std::recursive_mutex> lock(mutex_);
  session_.replace_full_state(position);
}

}  // namespace nutcore::engine
