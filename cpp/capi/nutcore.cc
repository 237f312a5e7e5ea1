// The C ABI (cpp/include/nutcore.h) over the engine: typed handles checked against a registry of
// live ones, status codes with a per-thread message, library-owned strings freed with nc_free,
// and no exception across the boundary.
#include "nutcore.h"

#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <exception>
#include <memory>
#include <mutex>
#include <new>
#include <optional>
#include <stdexcept>
#include <string>
#include <unordered_map>

#include "core/rng.h"
#include "core/stop.h"
#include "engine/any.h"
#include "engine/bots.h"
#include "engine/protocol.h"

#ifndef NUTCORE_VERSION
#define NUTCORE_VERSION "0.0.0"
#endif

using nutcore::Json;
namespace engine = nutcore::engine;

enum class Kind { kGame, kState, kBot, kEngine, kStop };

struct nc_game {
  std::shared_ptr<const engine::AnyGame> game;
};
struct nc_state {
  std::unique_ptr<engine::AnyState> state;
};
struct nc_bot {
  std::unique_ptr<engine::Bot> bot;
};
// An engine handle: the engine and the queue its replies wait in for nc_engine_receive. Its mutex
// guards the queue and `closed` only, and is never held while calling into the engine (whose
// delivery lock is held while it pushes here: protocol.h's lock order).
struct nc_engine {
  std::mutex mutex;
  std::condition_variable cv;
  std::deque<std::string> replies;
  bool closed = false;  // the quit reply is in `replies` (or was taken): nothing follows it
  std::unique_ptr<engine::Engine> engine;
};
struct nc_stop {
  nutcore::StopFlag flag{false};
};

#if defined(NUTCORE_NO_THREADS)
// The WebAssembly host (cpp/wasm/host.js, docs/web.md). An engine's search runs inside
// nc_engine_send and yields every few milliseconds: the replies so far go to the host, which runs
// its event loop (Asyncify unwinds to it and back), and the lines that came meanwhile are handled.
extern "C" {
int nutcore_host_replies(const char* lines);        // 1: the host took them; 0: it has no hook for them
void nutcore_host_yield();                          // returns once the host's event loop has run
int nutcore_host_take(char* buffer, int capacity);  // next line: its bytes; 0: none; -n: needs n bytes
}
#endif

namespace {

thread_local std::string last_error;

// The live handles and their kinds: a freed or foreign pointer is refused, never followed.
std::mutex registry_mutex;
std::unordered_map<const void*, Kind>& registry() {
  static auto* live = new std::unordered_map<const void*, Kind>();  // never destroyed: outlives every handle
  return *live;
}
void enroll(const void* p, Kind k) {
  std::lock_guard<std::mutex> lock(registry_mutex);
  registry()[p] = k;
}
bool alive(const void* p, Kind k) {
  if (!p) return false;
  std::lock_guard<std::mutex> lock(registry_mutex);
  const auto found = registry().find(p);
  return found != registry().end() && found->second == k;
}
bool retire(const void* p, Kind k) {
  if (!p) return false;
  std::lock_guard<std::mutex> lock(registry_mutex);
  const auto found = registry().find(p);
  if (found == registry().end() || found->second != k) return false;
  registry().erase(found);
  return true;
}

nc_status fail(nc_status status, const std::string& message) {
  last_error = nutcore::utf8_escaped(message);
  return status;
}

// Runs `body`, turning every exception into a status and a message.
template <typename F>
nc_status guarded(F&& body) {
  try {
    last_error.clear();
    body();
    return NC_OK;
  } catch (const nutcore::Stopped& e) {
    return fail(NC_STOPPED, e.what());
  } catch (const std::invalid_argument& e) {
    return fail(NC_INVALID_ARGUMENT, e.what());
  } catch (const std::bad_alloc&) {
    return fail(NC_INTERNAL, "out of memory");
  } catch (const std::exception& e) {
    return fail(NC_INTERNAL, e.what());
  } catch (...) {
    return fail(NC_INTERNAL, "unknown error");
  }
}

nc_status handle_status(const void* p, Kind k, const char* what) {
  if (!alive(p, k)) return fail(NC_INVALID_HANDLE, std::string(what) + ": a NULL, freed or foreign handle");
  return NC_OK;
}

void need(const void* p, const char* what) {
  if (!p) throw std::invalid_argument(std::string(what) + " is NULL");
}

char* copy_out(const std::string& s) {
  char* out = static_cast<char*>(std::malloc(s.size() + 1));
  if (!out) throw std::bad_alloc();
  std::memcpy(out, s.c_str(), s.size() + 1);
  return out;
}

Json json_arg(const char* text, const char* what, bool empty_is_object) {
  if (!text || !*text) {
    if (empty_is_object) return Json::object();
    throw std::invalid_argument(std::string(what) + " is empty");
  }
  const std::string s(text);
  if (!nutcore::valid_utf8(s)) throw std::invalid_argument(std::string(what) + ": not UTF-8 text");
  return Json::parse(s);
}

Json move_json(const engine::AnyState& s, nutcore::Action a) {
  Json m = Json::object();
  m.set("action", Json::integer(a));
  m.set("action_string", Json::string(s.action_to_string(a)));
  return m;
}

}  // namespace

#define NC_CHECK(ptr, kind, what)                                              \
  do {                                                                         \
    if (nc_status st = handle_status(ptr, kind, what); st != NC_OK) return st; \
  } while (0)

extern "C" {

int nc_abi_version(void) { return NC_ABI_VERSION; }
const char* nc_version(void) { return NUTCORE_VERSION; }
const char* nc_last_error(void) { return last_error.c_str(); }
void nc_free(void* p) { std::free(p); }

int nc_game_count(void) {
  try {
    return static_cast<int>(engine::game_infos().size());
  } catch (...) {
    return 0;
  }
}

const char* nc_game_name(int i) {
  try {
    const auto& infos = engine::game_infos();
    return i >= 0 && i < static_cast<int>(infos.size()) ? infos[i].name.c_str() : nullptr;
  } catch (...) {
    return nullptr;
  }
}

nc_status nc_list_games(char** json_out) {
  return guarded([&] {
    need(json_out, "json_out");
    *json_out = copy_out(engine::game_catalogue().dump());
  });
}

nc_status nc_game_load(const char* name, const char* params_json, nc_game** out) {
  return guarded([&] {
    need(name, "name");
    need(out, "out");
    Json params = json_arg(params_json, "params", true);
    if (params.type() != Json::Type::kObject) throw std::invalid_argument("params must be a JSON object");
    auto g = std::make_unique<nc_game>();
    g->game = engine::load_game(name, params);
    enroll(g.get(), Kind::kGame);
    *out = g.release();
  });
}

void nc_game_free(nc_game* game) {
  if (retire(game, Kind::kGame)) delete game;
}

nc_status nc_game_params(const nc_game* game, char** json_out) {
  NC_CHECK(game, Kind::kGame, "game");
  return guarded([&] {
    need(json_out, "json_out");
    *json_out = copy_out(game->game->params_json().dump());
  });
}

nc_status nc_game_num_players(const nc_game* game, int* out) {
  NC_CHECK(game, Kind::kGame, "game");
  return guarded([&] {
    need(out, "out");
    *out = game->game->num_players();
  });
}

static nc_status new_state(std::unique_ptr<engine::AnyState> s, nc_state** out) {
  auto h = std::make_unique<nc_state>();
  h->state = std::move(s);
  enroll(h.get(), Kind::kState);
  *out = h.release();
  return NC_OK;
}

nc_status nc_state_new(const nc_game* game, nc_state** out) {
  NC_CHECK(game, Kind::kGame, "game");
  return guarded([&] {
    need(out, "out");
    new_state(game->game->new_initial_state(), out);
  });
}

nc_status nc_state_from_json(const nc_game* game, const char* position_json, nc_state** out) {
  NC_CHECK(game, Kind::kGame, "game");
  return guarded([&] {
    need(out, "out");
    new_state(game->game->state_from_json(json_arg(position_json, "position", false)), out);
  });
}

nc_status nc_state_clone(const nc_state* state, nc_state** out) {
  NC_CHECK(state, Kind::kState, "state");
  return guarded([&] {
    need(out, "out");
    new_state(state->state->clone(), out);
  });
}

void nc_state_free(nc_state* state) {
  if (retire(state, Kind::kState)) delete state;
}

nc_status nc_state_to_json(const nc_state* state, char** json_out) {
  NC_CHECK(state, Kind::kState, "state");
  return guarded([&] {
    need(json_out, "json_out");
    *json_out = copy_out(state->state->to_json().dump());
  });
}

nc_status nc_state_current_player(const nc_state* state, int* out) {
  NC_CHECK(state, Kind::kState, "state");
  return guarded([&] {
    need(out, "out");
    *out = state->state->current_player();
  });
}

nc_status nc_state_status(const nc_state* state, char** json_out) {
  NC_CHECK(state, Kind::kState, "state");
  return guarded([&] {
    need(json_out, "json_out");
    const engine::AnyState& s = *state->state;
    Json j = Json::object();
    const int p = s.current_player();
    j.set("current_player", p >= 0 ? Json::integer(p) : Json::null());
    j.set("chance", Json::boolean(s.is_chance_node()));
    j.set("terminal", Json::boolean(s.is_terminal()));
    Json scores = Json::array(), returns = Json::array();
    for (int x : s.scores()) scores.push(Json::integer(x));
    for (double x : s.returns()) returns.push(Json::number(x));
    j.set("scores", scores);
    j.set("returns", returns);
    *json_out = copy_out(j.dump());
  });
}

nc_status nc_state_legal_actions(const nc_state* state, char** json_out) {
  NC_CHECK(state, Kind::kState, "state");
  return guarded([&] {
    need(json_out, "json_out");
    const engine::AnyState& s = *state->state;
    Json moves = Json::array();
    if (s.is_chance_node()) {
      for (const auto& [a, p] : s.chance_outcomes()) {
        Json m = move_json(s, a);
        m.set("probability", Json::number(p));
        moves.push(m);
      }
    } else if (!s.is_terminal()) {
      for (nutcore::Action a : s.legal_actions()) moves.push(move_json(s, a));
    }
    *json_out = copy_out(moves.dump());
  });
}

nc_status nc_state_legal_action_ids(const nc_state* state, int* actions, size_t capacity, size_t* count) {
  NC_CHECK(state, Kind::kState, "state");
  return guarded([&] {
    need(count, "count");
    if (capacity > 0) need(actions, "actions");
    const engine::AnyState& s = *state->state;
    std::vector<nutcore::Action> ids;
    if (s.is_chance_node())
      for (const auto& [a, p] : s.chance_outcomes()) ids.push_back(a);
    else if (!s.is_terminal())
      ids = s.legal_actions();
    for (size_t i = 0; i < ids.size() && i < capacity; ++i) actions[i] = ids[i];
    *count = ids.size();
  });
}

nc_status nc_state_action_string(const nc_state* state, int action, char** out) {
  NC_CHECK(state, Kind::kState, "state");
  return guarded([&] {
    need(out, "out");
    *out = copy_out(state->state->action_to_string(action));
  });
}

nc_status nc_state_string_to_action(const nc_state* state, const char* text, int* action_out) {
  NC_CHECK(state, Kind::kState, "state");
  return guarded([&] {
    need(text, "text");
    need(action_out, "action_out");
    *action_out = state->state->string_to_action(text);
  });
}

nc_status nc_state_apply(nc_state* state, int action) {
  NC_CHECK(state, Kind::kState, "state");
  return guarded([&] { state->state->apply_action(action); });
}

nc_status nc_state_sample_chance(const nc_state* state, uint64_t seed, int* action_out) {
  NC_CHECK(state, Kind::kState, "state");
  return guarded([&] {
    need(action_out, "action_out");
    const engine::AnyState& s = *state->state;
    if (!s.is_chance_node()) throw std::invalid_argument("not a chance node");
    const auto outcomes = s.chance_outcomes();
    nutcore::Rng rng(seed);
    double u = rng.uniform(), sum = 0;
    for (const auto& [a, p] : outcomes) {
      sum += p;
      if (u < sum) {
        *action_out = a;
        return;
      }
    }
    *action_out = outcomes.back().first;
  });
}

nc_status nc_state_random_playouts(const nc_state* state, int64_t count, uint64_t seed, nc_stop* stop,
                                   int64_t* transitions_out) {
  NC_CHECK(state, Kind::kState, "state");
  if (stop) NC_CHECK(stop, Kind::kStop, "stop");
  return guarded([&] {
    need(transitions_out, "transitions_out");
    if (count < 0) throw std::invalid_argument("count must be at least 0, got " + std::to_string(count));
    *transitions_out = state->state->random_playouts(count, seed, stop ? &stop->flag : nullptr);
  });
}

nc_status nc_state_observation_json(const nc_state* state, int seat, char** json_out) {
  NC_CHECK(state, Kind::kState, "state");
  return guarded([&] {
    need(json_out, "json_out");
    *json_out = copy_out(state->state->view_json(seat).dump());
  });
}

nc_status nc_state_board(const nc_state* state, int seat, int memory_aids, char** json_out) {
  NC_CHECK(state, Kind::kState, "state");
  return guarded([&] {
    need(json_out, "json_out");
    const std::optional<int> shown_seat = seat == NC_NO_SEAT ? std::nullopt : std::optional<int>(seat);
    *json_out = copy_out(engine::board_json(*state->state, shown_seat, memory_aids != 0).dump());
  });
}

nc_status nc_stop_new(nc_stop** out) {
  return guarded([&] {
    need(out, "out");
    auto s = std::make_unique<nc_stop>();
    enroll(s.get(), Kind::kStop);
    *out = s.release();
  });
}

nc_status nc_stop_trigger(nc_stop* stop) {
  NC_CHECK(stop, Kind::kStop, "stop");
  last_error.clear();
  stop->flag.store(true);
  return NC_OK;
}

nc_status nc_stop_reset(nc_stop* stop) {
  NC_CHECK(stop, Kind::kStop, "stop");
  last_error.clear();
  stop->flag.store(false);
  return NC_OK;
}

nc_status nc_stop_triggered(const nc_stop* stop, int* out) {
  NC_CHECK(stop, Kind::kStop, "stop");
  return guarded([&] {
    need(out, "out");
    *out = stop->flag.load() ? 1 : 0;
  });
}

void nc_stop_free(nc_stop* stop) {
  if (retire(stop, Kind::kStop)) delete stop;
}

nc_status nc_best_move(const nc_state* state, const char* request_json, nc_stop* stop, char** result_json) {
  NC_CHECK(state, Kind::kState, "state");
  if (stop) NC_CHECK(stop, Kind::kStop, "stop");
  return guarded([&] {
    need(result_json, "result_json");
    // The protocol's best_move request (options nested), or its fields and options side by side.
    const Json settings = engine::request_settings(json_arg(request_json, "request", true), "best_move", true);
    const engine::SearchRequest request = engine::parse_search_request(settings);
    const nutcore::StopFlag* flag = stop ? &stop->flag : nullptr;
    *result_json = copy_out(engine::best_move(*state->state, request, flag, nullptr, nullptr).to_json().dump());
  });
}

nc_status nc_bot_new(const char* spec, nc_bot** out) {
  return guarded([&] {
    need(spec, "spec");
    need(out, "out");
    auto b = std::make_unique<nc_bot>();
    b->bot = engine::Bot::make(spec);
    enroll(b.get(), Kind::kBot);
    *out = b.release();
  });
}

void nc_bot_free(nc_bot* bot) {
  if (retire(bot, Kind::kBot)) delete bot;
}

nc_status nc_bot_reset(nc_bot* bot, uint64_t seed) {
  NC_CHECK(bot, Kind::kBot, "bot");
  return guarded([&] { bot->bot->reset(seed); });
}

nc_status nc_bot_move(nc_bot* bot, const nc_state* state, nc_stop* stop, int* action_out) {
  NC_CHECK(bot, Kind::kBot, "bot");
  NC_CHECK(state, Kind::kState, "state");
  if (stop) NC_CHECK(stop, Kind::kStop, "stop");
  return guarded([&] {
    need(action_out, "action_out");
    *action_out = bot->bot->step(*state->state, stop ? &stop->flag : nullptr);
  });
}

nc_status nc_engine_new(const char* limits_json, nc_engine** out) {
  return guarded([&] {
    need(out, "out");
    const engine::Limits limits = engine::Limits::from_json(json_arg(limits_json, "limits", true));
    auto e = std::make_unique<nc_engine>();
    nc_engine* self = e.get();
    e->engine = std::make_unique<engine::Engine>(
        [self](const std::string& line) {
          {
            std::lock_guard<std::mutex> lock(self->mutex);
            if (self->closed) return;  // nothing follows the quit reply
            self->replies.push_back(line);
          }
          self->cv.notify_all();
        },
        limits);
    // Right after the quit reply is queued here: receive answers NC_CLOSED once it was taken.
    e->engine->set_on_closed([self] {
      {
        std::lock_guard<std::mutex> lock(self->mutex);
        self->closed = true;
      }
      self->cv.notify_all();
    });
#if defined(NUTCORE_NO_THREADS)
    e->engine->set_host_yield([self] {
      // A host without a hook for them leaves the replies here, for nc_engine_receive.
      if (!self->replies.empty()) {
        std::string text;
        for (const std::string& line : self->replies) text += line + "\n";
        if (nutcore_host_replies(text.c_str())) self->replies.clear();
      }
      nutcore_host_yield();
      std::vector<char> buffer(4096);
      for (;;) {
        const int n = nutcore_host_take(buffer.data(), static_cast<int>(buffer.size()));
        if (n == 0) break;
        if (n < 0) {
          buffer.resize(static_cast<size_t>(-n));
          continue;
        }
        self->engine->handle(std::string(buffer.data(), static_cast<size_t>(n)));
      }
    });
#endif
    enroll(e.get(), Kind::kEngine);
    *out = e.release();
  });
}

namespace {

nc_status engine_send(nc_engine* engine, const std::string& line) {
  {
    std::lock_guard<std::mutex> lock(engine->mutex);
    if (engine->closed) return fail(NC_CLOSED, "the engine has quit");
  }
  bool answered = true;
  const nc_status status = guarded([&] { answered = engine->engine->handle(line); });
  if (status == NC_OK && !answered) return fail(NC_CLOSED, "the engine has quit");  // after its last reply
  return status;
}

}  // namespace

nc_status nc_engine_send(nc_engine* engine, const char* line) {
  NC_CHECK(engine, Kind::kEngine, "engine");
  if (!line) return fail(NC_INVALID_ARGUMENT, "line is NULL");
  return engine_send(engine, line);
}

nc_status nc_engine_send_bytes(nc_engine* engine, const char* data, size_t length) {
  NC_CHECK(engine, Kind::kEngine, "engine");
  if (!data) return fail(NC_INVALID_ARGUMENT, "data is NULL");
  return engine_send(engine, std::string(data, length));
}

nc_status nc_engine_receive(nc_engine* engine, int timeout_ms, char** line_out) {
  NC_CHECK(engine, Kind::kEngine, "engine");
  if (!line_out) return fail(NC_INVALID_ARGUMENT, "line_out is NULL");
  std::string line;
  {
    std::unique_lock<std::mutex> lock(engine->mutex);
    const auto ready = [&] { return !engine->replies.empty() || engine->closed; };
#if defined(NUTCORE_NO_THREADS)
    timeout_ms = 0;  // one thread: every reply is there when send returns, and none could come later
#endif
    if (timeout_ms < 0)
      engine->cv.wait(lock, ready);
    else
      engine->cv.wait_for(lock, std::chrono::milliseconds(timeout_ms), ready);
    if (engine->replies.empty()) {
      if (engine->closed) return fail(NC_CLOSED, "the engine has quit");
      return fail(NC_TIMEOUT, "no reply within " + std::to_string(timeout_ms) + " ms");
    }
    line = std::move(engine->replies.front());
    engine->replies.pop_front();
  }
  return guarded([&] { *line_out = copy_out(line); });
}

void nc_engine_free(nc_engine* engine) {
  if (!retire(engine, Kind::kEngine)) return;
  engine->engine->drop();
  engine->engine.reset();  // stops a running search and waits for it
  delete engine;
}

}  // extern "C"
