/*
 * nutcore's C ABI (C99): every nutcore game, its AI and the engine protocol, from any language
 * that can call C. Link with libnutcore (docs/embedding.md tells where the package installs it).
 *
 * Handles. nc_game, nc_state, nc_bot and nc_engine are opaque, typed handles, each made by a
 * function that returns it through an out parameter and destroyed by its own _free function
 * (NULL is accepted there and ignored). A handle that was freed, or was never made by the
 * library, is refused with NC_INVALID_HANDLE: no call crashes on a bad handle (except one whose
 * memory the library has since given to a new handle of the same kind, which is then that handle).
 *
 * Memory. Every string the library returns (char **out) is UTF-8, NUL-terminated, owned by the
 * caller and freed with nc_free. Strings passed in are UTF-8 and copied: the caller keeps them.
 *
 * Errors. Every call that can fail returns an nc_status: NC_OK (0) or an error, whose message
 * nc_last_error() gives, per thread, until that thread's next call. Messages are always valid
 * UTF-8: a byte of the caller's that is not (in a name, a spec, an action string) is shown as \xNN.
 * Out parameters are set only on NC_OK. No C++ exception crosses the boundary. A NULL where a
 * pointer is needed is NC_INVALID_ARGUMENT.
 *
 * Threads. Handles are independent: different handles may be used from different threads at once.
 * One handle is used by one thread at a time, with these exceptions:
 * - an nc_engine takes nc_engine_send and nc_engine_receive from any threads at once (several
 *   senders, and a reader waiting on receive), and its searches run on the library's own threads;
 *   only nc_engine_free must wait until no other call on it is under way;
 * - an nc_stop is tripped by nc_stop_trigger from any thread while calls on other threads use it
 *   (one stop may serve several calls at once); it is freed once none of them runs.
 * nc_free, nc_last_error, nc_abi_version, nc_version, nc_game_count and nc_game_name may be called
 * anywhere. The WebAssembly build (docs/web.md) has no threads: an engine's search runs inside
 * nc_engine_send, yielding to the JavaScript event loop as it goes, and nc_engine_receive never
 * waits; a direct call (nc_best_move, ...) runs to its end without yielding, so give it a budget.
 *
 * Stopping. Every call that may run long takes a stop handle (NULL: none) and a budget: a search
 * its time_limit (every algorithm takes one), nc_state_random_playouts its count. A tripped stop
 * ends the call within milliseconds: a sampling search answers with its best move so far (its
 * result says "stopped"), an exact search with its deepest complete depth or NC_STOPPED, and
 * nc_state_random_playouts with NC_STOPPED.
 *
 * JSON. Parameters, positions, views, search requests and results are JSON text, in the forms
 * docs/engine-protocol.md and docs/rules/<game>.md define (the same as the protocol's).
 */
#ifndef NUTCORE_H
#define NUTCORE_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(_WIN32)
#define NC_API __declspec(dllexport)
#else
#define NC_API __attribute__((visibility("default")))
#endif

/* The ABI's version: it grows with every incompatible change (a call removed or changed).
 * 2: nc_status is int32_t; nc_best_move, nc_bot_move and nc_state_random_playouts take an nc_stop. */
#define NC_ABI_VERSION 2

/* A status is a 32-bit integer on every platform (not an enum, whose size a compiler may choose). */
typedef int32_t nc_status;
#define NC_OK 0
#define NC_INVALID_ARGUMENT 1 /* a bad value: NULL, a bad action, JSON the loader refuses, ... */
#define NC_INVALID_HANDLE 2   /* NULL, freed, or of another kind */
#define NC_STOPPED 3          /* stopped (nc_stop, time_limit) before there was an answer */
#define NC_TIMEOUT 4          /* nc_engine_receive: no reply within the time given */
#define NC_CLOSED 5           /* the engine has quit and every reply was taken: final */
#define NC_INTERNAL 6         /* a bug in nutcore (please report it) */

typedef struct nc_game nc_game;
typedef struct nc_state nc_state;
typedef struct nc_bot nc_bot;
typedef struct nc_engine nc_engine;
typedef struct nc_stop nc_stop;

NC_API int nc_abi_version(void);        /* NC_ABI_VERSION of the library loaded */
NC_API const char* nc_version(void);    /* nutcore's version, "0.1.0" (static) */
NC_API const char* nc_last_error(void); /* this thread's last error message ("" after NC_OK) */
NC_API void nc_free(void* p);           /* frees a string the library returned */

/* ----- games */

NC_API int nc_game_count(void);         /* the games this library plays */
NC_API const char* nc_game_name(int i); /* by name: "auf_die_nuesse", ... (static); NULL out of range */
/* Every game with its players, default parameters and algorithms: list_games' "games". */
NC_API nc_status nc_list_games(char** json_out);
/* A game by name; params_json an object of parameters (players included; NULL or "" for {}). */
NC_API nc_status nc_game_load(const char* name, const char* params_json, nc_game** out);
NC_API void nc_game_free(nc_game* game);
NC_API nc_status nc_game_params(const nc_game* game, char** json_out); /* every parameter, defaults filled in */
NC_API nc_status nc_game_num_players(const nc_game* game, int* out);

/* ----- states (a state keeps its game alive) */

NC_API nc_status nc_state_new(const nc_game* game, nc_state** out);
NC_API nc_status nc_state_from_json(const nc_game* game, const char* position_json, nc_state** out);
NC_API nc_status nc_state_clone(const nc_state* state, nc_state** out);
NC_API void nc_state_free(nc_state* state);
NC_API nc_status nc_state_to_json(const nc_state* state, char** json_out);
/* The seat to act, NC_CHANCE at a chance node, NC_TERMINAL when the game is over. */
#define NC_CHANCE (-1)
#define NC_TERMINAL (-4)
NC_API nc_status nc_state_current_player(const nc_state* state, int* out);
/* {"current_player", "chance", "terminal", "scores", "returns"} */
NC_API nc_status nc_state_status(const nc_state* state, char** json_out);
/* The legal actions (at a chance node the outcomes): [{"action", "action_string"[, "probability"]}] */
NC_API nc_status nc_state_legal_actions(const nc_state* state, char** json_out);
/* The same as ids: up to `capacity` into `actions`, their number into *count (which may exceed
 * capacity: call again with more room). */
NC_API nc_status nc_state_legal_action_ids(const nc_state* state, int* actions, size_t capacity, size_t* count);
NC_API nc_status nc_state_action_string(const nc_state* state, int action, char** out);
NC_API nc_status nc_state_string_to_action(const nc_state* state, const char* text, int* action_out);
/* Plays an action (or a chance outcome); NC_INVALID_ARGUMENT, state unchanged, if it is not legal. */
NC_API nc_status nc_state_apply(nc_state* state, int action);
/* A chance outcome drawn by its probability from a generator seeded with `seed`. */
NC_API nc_status nc_state_sample_chance(const nc_state* state, uint64_t seed, int* action_out);
/* `count` uniformly random games played from the state to their end (game i from a generator
 * seeded by seed and i): the actions applied over all of them, in *transitions_out. The
 * throughput figure of `nutcore bench` and `nutcore playouts`. NC_STOPPED if `stop` (or NULL)
 * is tripped first. */
NC_API nc_status nc_state_random_playouts(const nc_state* state, int64_t count, uint64_t seed, nc_stop* stop,
                                          int64_t* transitions_out);
/* The position as `seat` knows it: what it has not seen marked "hidden" (what to show that seat). */
NC_API nc_status nc_state_observation_json(const nc_state* state, int seat, char** json_out);
/* The position drawn for a seat, as the protocol's board answers it: {"seat", "memory_aids",
 * "text", "json"}, "text" the board as text. seat: a seat, or NC_NO_SEAT for everyone's (the
 * whole position with memory aids; without them what lies in front of everyone). memory_aids
 * nonzero: what the seat knows (text as information_state_string, json as
 * nc_state_observation_json); 0: only what lies in front of it now, without what the game asks its
 * players to remember (docs/engine-protocol.md, board). The same text and JSON as the protocol's
 * board for that seat and position. */
#define NC_NO_SEAT (-1)
NC_API nc_status nc_state_board(const nc_state* state, int seat, int memory_aids, char** json_out);

/* ----- stopping a call from another thread */

/* A stop: made untripped; nc_stop_trigger (any thread, any number of times) trips it, and every
 * call given it ends within milliseconds (see Stopping above) and so does every later call given
 * it, until nc_stop_reset. */
NC_API nc_status nc_stop_new(nc_stop** out);
NC_API nc_status nc_stop_trigger(nc_stop* stop);
NC_API nc_status nc_stop_reset(nc_stop* stop);
NC_API nc_status nc_stop_triggered(const nc_stop* stop, int* out); /* 1 if tripped, else 0 */
NC_API void nc_stop_free(nc_stop* stop);                           /* once no call uses it */

/* ----- the AI */

/* best_move at a decision node: request_json the protocol's best_move request, {"algorithm",
 * "iterations", "time_limit", "threads", "seed", "options": {...}}, read and checked as the
 * protocol reads it (a field left out takes its default; null is refused); the options may also
 * stand beside the fields ({"iterations": 500, "exploration": 1.0}), but no option in both places.
 * NULL or "" for the game's defaults. The result as the protocol's best_move answers it ("action",
 * "action_string", "value", "actions", ...). Every algorithm takes time_limit: expectimax answers
 * with its deepest complete depth, a solver that cannot finish in time fails with NC_STOPPED
 * (docs/engine-protocol.md, best_move). `stop`: NULL, or a stop that ends the search early (its
 * best move so far, or NC_STOPPED: see Stopping above). */
NC_API nc_status nc_best_move(const nc_state* state, const char* request_json, nc_stop* stop, char** result_json);
/* A bot from a spec ("greedy", "auto:iterations=1000", "level:5", ...: docs/levels.md), the
 * protocol's go "bot" specs. */
NC_API nc_status nc_bot_new(const char* spec, nc_bot** out);
NC_API void nc_bot_free(nc_bot* bot);
NC_API nc_status nc_bot_reset(nc_bot* bot, uint64_t seed); /* before every game */
/* The bot's move; `stop` as for nc_best_move (its search's best move so far, or NC_STOPPED). */
NC_API nc_status nc_bot_move(nc_bot* bot, const nc_state* state, nc_stop* stop, int* action_out);

/* ----- the engine protocol (docs/engine-protocol.md): lines in, replies out */

/* limits_json: {"iterations", "time_limit", "threads", "max_nodes", "depth", "search_seconds",
 * "searches", "file_params", "nice", "test_hooks"} (NULL or "" for none but the default: no files
 * read). test_hooks is for test suites only: commands that show the truth behind a seat. */
NC_API nc_status nc_engine_new(const char* limits_json, nc_engine** out);
/* One request line (its newline optional). Every line gets its replies through receive. Once quit
 * is accepted, a line gets the error not_now until the quit reply is queued; the quit reply is
 * the last line, and a send after it returns NC_CLOSED.
 * One send is one line, never split at a newline (unlike a stream, where each newline ends a
 * line): send each request on its own. A newline inside the text is JSON whitespace, so a request
 * written over several lines is still one request, but two requests in one send are not one JSON
 * value: they get one reply, the error bad_json, and neither is run. */
NC_API nc_status nc_engine_send(nc_engine* engine, const char* line);
/* The same for a line of `length` bytes, which may hold any byte (a NUL too, as a line read from
 * a stream may: the protocol refuses such a line with bad_json, as on stdio). data is never NULL. */
NC_API nc_status nc_engine_send_bytes(nc_engine* engine, const char* data, size_t length);
/* The next reply line (no newline), waiting up to timeout_ms (0: do not wait; negative: as long as
 * it takes). NC_TIMEOUT if none came in time; NC_CLOSED once the quit reply was taken, and from
 * then on at once, every time. */
NC_API nc_status nc_engine_receive(nc_engine* engine, int timeout_ms, char** line_out);
/* Stops a running search, waits for it, and frees the engine (its last replies are dropped). */
NC_API void nc_engine_free(nc_engine* engine);

#ifdef __cplusplus
}
#endif

#endif /* NUTCORE_H */
