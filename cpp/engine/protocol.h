// The engine protocol (docs/engine-protocol.md): one JSON object per line each way, for front ends
// in any language. One implementation, every door: nutcore-engine (stdio), the C ABI's engine
// handle, Python's nutcore.engine.Engine (and through it `nutcore engine` and `nutcore serve`),
// the WebAssembly worker.
//
// An Engine holds one connection's game and answers its commands: give it lines (handle) and it
// calls `send(line)` with every reply, a line of JSON without its newline, from the caller's thread
// or, while a search runs, from the engine's own threads; never two at once. A build without
// threads (the WebAssembly one) runs searches on the caller's thread instead (set_host_yield).
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

namespace nutcore::engine {

constexpr int kProtocolVersion = 1;
constexpr size_t kMaxLineBytes = size_t{1} << 20;  // a line's bytes, its line ending not counted
constexpr int kMaxMoves = 10'000;                  // per apply
constexpr double kProgressInterval = 0.25;         // seconds between "info" lines while a search runs
constexpr double kYieldInterval = 0.04;            // one thread (NUTCORE_NO_THREADS): seconds between yields

// What a client may ask of the engine; a cap of 0 (or a negative one) is no cap. The defaults cap
// nothing but files: a client never makes the engine open one unless whoever started it allows it.
struct Limits {
  long iterations = 0;
  double time_limit = 0;
  int threads = 0;
  long max_nodes = 0;         // also the tree memory of a search that names none
  int depth = 0;              // expectimax
  double search_seconds = 0;  // every search is stopped after this, whatever its budget
  int searches = 0;           // searches at once over the engines that share one SearchSlots
  bool file_params = false;   // a game parameter that is data by default may name a JSON file
  int nice = 0;               // the searches' threads run at this nice value (Linux)
  // For the test suites only (nutcore-engine --test-hooks): the commands _truth (the true
  // position), _replace_truth {position} and _reseed {seed}, which no client must have.
  bool test_hooks = false;
  // From {"iterations": ..., "file_params": true, ...}; unknown keys and bad values are errors.
  static Limits from_json(const Json& j);
  Json to_json() const;
};

// The searches that may run at once over many engines (a server's connections): a search waits
// for a free slot, first come first served, and a stopped search leaves the queue.
class SearchSlots {
 public:
  explicit SearchSlots(int size);
  int size() const { return size_; }
  // Waits for a slot; false if `stop` is set first. While it waits, `waiting()` is called every
  // `interval` seconds, without the lock.
  bool acquire(const StopFlag& stop, const std::function<void()>& waiting, double interval);
  void release();
  void wake();  // lets the waiting searches look at their stop flags

 private:
  const int size_;
  std::mutex mutex_;
  std::condition_variable cv_;
  int running_ = 0;
  std::deque<const void*> waiting_;
};

class Engine {
 public:
  using Send = std::function<void(const std::string& line)>;
  Engine(Send send, Limits limits = {}, std::shared_ptr<SearchSlots> slots = nullptr);
  ~Engine();  // stops a running search and waits for it
  Engine(const Engine&) = delete;
  Engine& operator=(const Engine&) = delete;

  // One line from the client (its line ending may be there). Blank lines are ignored; anything else
  // gets exactly one answer or error (a search's after its progress lines). Never throws.
  void handle(const std::string& line);
  // Stops a running search (within milliseconds) and, with `wait`, waits for it to end (its reply
  // is still sent). Without: the search ends on its own thread; a transport whose client has gone
  // passes false, and drop() makes its reply go nowhere.
  void close(bool wait = true);
  void drop();  // from now on nothing is sent
  bool closed() const { return closed_.load(); }
  bool searching() const;
  void wait_for_search();  // until no search runs

  // For tests of the hidden-information rules: the true position, and a replacement for it (a
  // state the connection's seat cannot tell from it). Not part of the protocol (with
  // Limits::test_hooks, the commands _truth and _replace_truth do the same).
  Json truth_json() const;
  void replace_truth(const Json& position);
  Json connection_json() const;  // {"game", "params", "seat"} of the game being played

  // Without threads (NUTCORE_NO_THREADS: the WebAssembly build) a search runs inside handle(),
  // and every kYieldInterval it calls `yield`: the host's chance to deliver the replies so far,
  // run its event loop and give the engine the lines that came meanwhile (handle() may be called
  // from inside `yield`; a stop line stops the search). Unused with threads.
  void set_host_yield(std::function<void()> yield) { host_yield_ = std::move(yield); }

 private:
  struct Search;

  void emit(const Json& reply);
  void error(const std::string& code, const std::string& message, const Json* rid, const std::string* command);
  void dispatch(const Json& msg);
  Json command(const std::string& cmd, const Json& msg, const Json* rid);

  Json hello(const Json& msg);
  Json list_games(const Json& msg);
  Json new_game(const Json& msg);
  Json set_position(const Json& msg);
  Json get_position(const Json& msg);
  Json apply(const Json& msg);
  Json chance(const Json& msg);
  Json legal(const Json& msg);
  Json board(const Json& msg);
  Json status_cmd(const Json& msg);
  void best_move_cmd(const Json& msg, const Json* rid);
  void go(const Json& msg, const Json* rid);
  Json stop(const Json& msg);
  Json undo(const Json& msg);
  Json quit(const Json& msg);
  Json test_hook(const std::string& cmd, const Json& msg);

  // Helpers (the caller holds mutex_ where they read the game).
  AnyState& need_game(const std::string& cmd);
  void need_idle(const std::string& cmd) const;
  bool hiding() const;
  bool may_see_choice(const AnyState& state) const;
  Json choices(const AnyState& state) const;
  Json seen(const AnyState& state, Action action) const;
  Json status() const;
  Json search_settings(const Json& msg, const std::string& cmd) const;
  void apply_limits(const std::string& cmd, Json& settings) const;
  AnyState& check_search(const std::string& cmd, bool own_seat_only);
  Action resolve_move(const AnyState& state, const Json& move, size_t index, const std::string& cmd) const;
  void check_file_params(const std::string& cmd, const std::string& game, int players, Json& params) const;
  void start(const Json* rid, const std::string& cmd, std::unique_ptr<AnyState> state,
             std::optional<SearchRequest> request, std::unique_ptr<Bot> bot);
  void run_search(std::shared_ptr<Search> search);
  void stop_search(Search& search);

  Send send_;
  Limits limits_;
  std::shared_ptr<SearchSlots> slots_;
  std::mutex send_mutex_;
  std::atomic<bool> dropped_{false};
  mutable std::recursive_mutex mutex_;  // the game, the position, the search slot
  std::shared_ptr<const AnyGame> game_;
  std::string name_;
  std::unique_ptr<AnyState> state_;
  std::optional<int> seat_;
  uint64_t seed_ = 0;
  Rng rng_;
  std::shared_ptr<Search> search_;
  std::thread search_thread_;  // of the running or last search (joined before the next)
  // Positions before each change since new_game / set_position, for undo: (state, own), own
  // marking a move the connection gave itself by apply (what undo counts).
  std::vector<std::pair<std::unique_ptr<AnyState>, bool>> undo_;
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

// The games with their player counts, default parameters per count and algorithms (list_games).
const Json& game_catalogue();

// A JSON file that a trusted client or caller names: a regular file (not a device, a pipe or a
// directory, which could block or never end) of at most 1 MiB; std::invalid_argument otherwise.
Json read_json_file(const std::string& path, const std::string& what);

// Gives every game parameter that is data by default (a list or an object, such as Nutz!'s card set)
// and is given as a string its file's JSON (read_json_file).
void read_file_params(const std::string& game, Json& params);

}  // namespace nutcore::engine
