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
 * nc_last_error() gives, per thread, until that thread's next call. Out parameters are set only on
 * NC_OK. No C++ exception crosses the boundary.
 *
 * Threads. Handles are independent: different handles may be used from different threads at once.
 * One handle is used by one thread at a time, with one exception: an nc_engine takes
 * nc_engine_send and nc_engine_receive from any threads at once (a reader thread may wait on
 * receive while another sends), and its searches run on the library's own threads. nc_free,
 * nc_last_error, nc_abi_version, nc_version, nc_game_count and nc_game_name may be called anywhere.
 * The WebAssembly build (docs/web.md) has no threads: an engine's search runs inside
 * nc_engine_send, yielding to the JavaScript event loop as it goes, and nc_engine_receive never waits.
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

/* The ABI's version: it grows with every incompatible change (a call removed or changed). */
#define NC_ABI_VERSION 1

typedef enum nc_status {
  NC_OK = 0,
  NC_INVALID_ARGUMENT = 1, /* a bad value: NULL, a bad action, JSON the loader refuses, ... */
  NC_INVALID_HANDLE = 2,   /* NULL, freed, or of another kind */
  NC_STOPPED = 3,          /* a search stopped before it had a move */
  NC_TIMEOUT = 4,          /* nc_engine_receive: no reply within the time given */
  NC_CLOSED = 5,           /* nc_engine_receive: the engine has quit and every reply was taken */
  NC_INTERNAL = 6          /* a bug in nutcore (please report it) */
} nc_status;

typedef struct nc_game nc_game;
typedef struct nc_state nc_state;
typedef struct nc_bot nc_bot;
typedef struct nc_engine nc_engine;

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
 * throughput figure of `nutcore bench` and `nutcore playouts`. */
NC_API nc_status nc_state_random_playouts(const nc_state* state, int64_t count, uint64_t seed,
                                          int64_t* transitions_out);
/* The position as `seat` knows it: what it has not seen marked "hidden" (what to show that seat). */
NC_API nc_status nc_state_observation_json(const nc_state* state, int seat, char** json_out);

/* ----- the AI */

/* best_move at a decision node: request_json {"algorithm", "iterations", "time_limit", "threads",
 * "seed", ...options} (NULL or "" for the game's defaults); the result as the protocol's
 * best_move answers it ("action", "action_string", "value", "actions", ...). Every algorithm takes
 * time_limit: expectimax answers with its deepest complete depth, a solver that cannot finish in
 * time fails with NC_STOPPED (docs/engine-protocol.md, best_move). */
NC_API nc_status nc_best_move(const nc_state* state, const char* request_json, char** result_json);
/* A bot from a spec ("greedy", "auto:iterations=1000", "level:5", ...: docs/levels.md). */
NC_API nc_status nc_bot_new(const char* spec, nc_bot** out);
NC_API void nc_bot_free(nc_bot* bot);
NC_API nc_status nc_bot_reset(nc_bot* bot, uint64_t seed); /* before every game */
NC_API nc_status nc_bot_move(nc_bot* bot, const nc_state* state, int* action_out);

/* ----- the engine protocol (docs/engine-protocol.md): lines in, replies out */

/* limits_json: {"iterations", "time_limit", "threads", "max_nodes", "depth", "search_seconds",
 * "searches", "file_params", "nice", "test_hooks"} (NULL or "" for none but the default: no files
 * read). test_hooks is for test suites only: commands that show the truth behind a seat. */
NC_API nc_status nc_engine_new(const char* limits_json, nc_engine** out);
/* One request line (its newline optional). Every line gets its replies through receive; a line
 * sent after quit is answered with the error not_now. */
NC_API nc_status nc_engine_send(nc_engine* engine, const char* line);
/* The same for a line of `length` bytes, which may hold any byte (a NUL too, as a line read from
 * a stream may: the protocol refuses such a line with bad_json, as on stdio). */
NC_API nc_status nc_engine_send_bytes(nc_engine* engine, const char* data, size_t length);
/* The next reply line (no newline), waiting up to timeout_ms (0: do not wait; negative: forever).
 * NC_TIMEOUT if none came; NC_CLOSED after quit once every reply was taken. */
NC_API nc_status nc_engine_receive(nc_engine* engine, int timeout_ms, char** line_out);
/* Stops a running search, waits for it, and frees the engine (its last replies are dropped). */
NC_API void nc_engine_free(nc_engine* engine);

#ifdef __cplusplus
}
#endif

#endif /* NUTCORE_H */
