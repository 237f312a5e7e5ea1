// The engine protocol (docs/engine-protocol.md): one JSON object per line each way, for front ends
// in any language. One implementation, every door: nutcore-engine (stdio), the C ABI's engine
// handle, Python's nutcore.engine.Engine (and through it `nutcore engine` and `nutcore serve`),
// the WebAssembly worker.
//
// An Engine holds one connection's game and answers its commands: give it lines (handle) and it
// calls `send(line)` with every reply, a line of JSON without its newline, from the caller's thread
// or, while a search runs, from the engine's own threads; never two at once, and in the order the
// engine decided them. A build without threads (the WebAssembly one) runs searches on the caller's
// thread instead (set_host_yield).
//
// Threads and locks. handle(), close(), searching() and the others may be called from any threads
// at once. An Engine has three locks, taken only in this order (a thread holding one never waits
// for one above it):
//   1. delivery_mutex_: held while lines are handed to `send`, one at a time, in order. `send`
//      may take its transport's own locks or Python's GIL, and may read searching() or closed();
//      it must not call handle(), close() or wait_for_search() (those wait for deliveries).
//   2. mutex_: the game, the position and the search. Held only for short work: no reply is sent,
//      no thread joined and no other lock waited for while it is held (except outbox_mutex_ and a
//      SearchSlots' own lock, which are held for a few instructions and never wait either). A
//      reply decided under it is queued under it (so replies keep the order of the changes they
//      report) and sent after it is released.
//   3. outbox_mutex_: the queue of lines not yet sent.
// Whoever drives an Engine from a runtime with its own lock (Python's GIL) must release that lock
// before calling any of its functions that take mutex_: else a search that is delivering a line
// (holding 1, waiting for the GIL) and a caller holding the GIL (waiting for 2) wait for each other.
//
// Quit. Once quit is accepted no search starts, whatever thread sends; a running search is
// stopped and answers first; then the quit reply is queued, and only then is the engine closed():
// the quit reply is the last line it ever sends (lines handled meanwhile get not_now, lines after
// it get nothing) and on_closed, if set, is called right after it was sent.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "core/json.h"
#include "core/rng.h"
#include "core/stop.h"
#include "engine/any.h"
#include "engine/bots.h"
#include "engine/catalogue.h"
#include "engine/limits.h"
#include "engine/search_slots.h"
#include "engine/session.h"

namespace nutcore::engine {

constexpr int kProtocolVersion = 1;
constexpr size_t kMaxLineBytes = size_t{1} << 20;  // a line's bytes, its line ending not counted
constexpr int kMaxMoves = 10'000;                  // per apply
constexpr double kProgressInterval = 0.25;         // seconds between "info" lines while a search runs
constexpr double kYieldInterval = 0.04;            // one thread (NUTCORE_NO_THREADS): seconds between yields

class Engine {
 public:
  using Send = std::function<void(const std::string& line)>;
  Engine(Send send, Limits limits = {}, std::shared_ptr<SearchSlots> slots = nullptr);
  // Called once, on the thread that sent it, right after the quit reply (the last line) was given
  // to `send` (or dropped). Set it before the first line is handled.
  void set_on_closed(std::function<void()> on_closed) { on_closed_ = std::move(on_closed); }
  ~Engine();  // stops a running search and waits for it
  Engine(const Engine&) = delete;
  Engine& operator=(const Engine&) = delete;

  // One line from the client (its line ending may be there). Blank lines are ignored; anything else
  // gets exactly one answer or error (a search's after its progress lines), except after the quit
  // reply, which is the last line: false then (the line was not answered). Never throws. The
  // replies it decides are sent before it returns (a search's later, from its own thread).
  bool handle(const std::string& line);
  // Stops a running search (within milliseconds) and, with `wait`, waits for it to end (its reply
  // is still sent). Without: the search ends on its own thread; a transport whose client has gone
  // passes false, and drop() makes its reply go nowhere.
  void close(bool wait = true);
  void drop();                                    // from now on nothing is sent
  bool closed() const { return closed_.load(); }  // the quit reply is queued: nothing follows it
  bool searching() const;
  void wait_for_search();  // until no search runs and the last one's reply was sent

  // For tests of the hidden-information rules: the true position, and a replacement for it (a
  // state the connection's seat cannot tell from it). Not part of the protocol (with
  // Limits::test_hooks, the commands _full_state and _replace_full_state do the same).
  Json full_state_json() const;
  void replace_full_state(const Json& position);
  Json connection_json() const;  // {"game", "params", "seat"} of the game being played

  // Without threads (NUTCORE_NO_THREADS: the WebAssembly build) a search runs inside handle(),
  // and every kYieldInterval it calls `yield`: the host's chance to deliver the replies so far,
  // run its event loop and give the engine the lines that came meanwhile (handle() may be called
  // from inside `yield`; a stop line stops the search). Unused with threads.
  void set_host_yield(std::function<void()> yield) { host_yield_ = std::move(yield); }

  // The protocol's commands in hello's order (test hooks aside), each with its request's fields
  // besides cmd and id.
  static std::vector<std::pair<std::string, std::vector<std::string>>> command_fields();

 private:
  struct Search;

  // A reply is queued (emit, error: any thread, any lock held but delivery_mutex_) and then sent
  // by deliver() (no lock held). They answer false when the quit reply was queued before: nothing
  // follows it.
  bool emit(const Json& reply, bool last = false);
  bool error(const std::string& code, const std::string& message, const Json* rid, const std::string* command);
  void deliver();
  bool dispatch(const Json& msg);
  bool quit_cmd(const Json& msg, const Json* rid);
  bool finish_quit();  // queues the quit reply once the search, if any, has answered

  // A command's handler: its reply's fields, or null for a search (which answers when it ends).
  using Handler = Json (Engine::*)(const Json& msg, const Json* rid);
  struct Command {
    const char* name;
    std::vector<std::string> fields;  // the request's fields besides cmd and id
    Handler handler;                  // null: quit, answered by dispatch itself
    bool hook = false;                // a test hook (Limits::test_hooks)
  };
  static const std::vector<Command>& commands();
  static const Command* find_command(const std::string& name, bool hooks);

  Json hello(const Json& msg, const Json* rid);
  Json list_games(const Json& msg, const Json* rid);
  Json new_game(const Json& msg, const Json* rid);
  Json set_position(const Json& msg, const Json* rid);
  Json get_position(const Json& msg, const Json* rid);
  Json apply(const Json& msg, const Json* rid);
  Json chance(const Json& msg, const Json* rid);
  Json legal(const Json& msg, const Json* rid);
  Json board(const Json& msg, const Json* rid);
  Json status_cmd(const Json& msg, const Json* rid);
  Json best_move_cmd(const Json& msg, const Json* rid);
  Json go(const Json& msg, const Json* rid);
  Json stop(const Json& msg, const Json* rid);
  Json undo(const Json& msg, const Json* rid);
  Json record(const Json& msg, const Json* rid);
  Json test_hook(const Json& msg, const Json* rid);

  // Helpers (the caller holds mutex_ where they read the game).
  const AnyState& need_game(const std::string& cmd) const;
  void need_idle(const std::string& cmd) const;
  Json status() const;
  Json played_json(const Played& played) const;
  Json search_settings(const Json& msg, const std::string& cmd) const;
  void apply_limits(const std::string& cmd, Json& settings) const;
  std::function<void(Json&)> limiter(const std::string& cmd) const;  // apply_limits, for the Session
  void check_file_params(const std::string& cmd, const std::string& game, int players, Json& params) const;
  void start(const Json* rid, SearchJob job);
  void run_search(std::shared_ptr<Search> search);
  void answer(Search& search, const std::optional<SearchResult>& outcome, Action action, const std::string& error_code,
              const std::string& error_message);
  void stop_search(Search& search);
  Json play_reply(const Played& played, const std::optional<SearchResult>& outcome, bool stopped);
  void reap();  // joins the threads of searches that have ended (never with mutex_ held)

  Send send_;
  std::function<void()> on_closed_;
  Limits limits_;
  std::shared_ptr<SearchSlots> slots_;
  std::atomic<bool> dropped_{false};
  // The locks, in their order (see the top of this file).
  std::mutex delivery_mutex_;
  mutable std::recursive_mutex mutex_;  // the game, the position, the search, quit
  std::mutex outbox_mutex_;
  struct Line {
    std::string text;
    bool last = false;  // the quit reply
  };
  std::deque<Line> outbox_;      // under outbox_mutex_
  std::thread::id delivering_;   // under outbox_mutex_: the thread in deliver(), if any
  bool sealed_ = false;          // under outbox_mutex_: the last line is queued
  bool quitting_ = false;        // under mutex_: quit accepted
  std::optional<Json> quit_id_;  // under mutex_: its request's id
  Session session_;              // under mutex_: the game in play
  std::shared_ptr<Search> search_;
  std::thread search_thread_;          // of the running or last search
  std::vector<std::thread> finished_;  // earlier searches' threads, joined outside mutex_ (reap)
  std::shared_ptr<Search> to_run_;     // without threads: the search handle() runs once mutex_ is free
  std::atomic<bool> closed_{false};
  std::function<void()> host_yield_;
};

// A line (its newline excluded) as JSON, as the protocol reads it: strict, finite JSON of at most
// kMaxLineBytes bytes of UTF-8. Throws ProtocolError.
struct ProtocolError {
  std::string code;
  std::string message;
  std::optional<Json> rid;  // the request's id, where a line is refused after it was read
};
Json parse_line(std::string line);

// The protocol's line for a reply: compact JSON (what UTF-8 cannot carry escaped).
std::string encode_reply(const Json& reply);

}  // namespace nutcore::engine
