/*
 * A front end in C that owns its game loop: a full game of every nutcore game, seat 0 played by
 * the AI (best_move), the other seats by the greedy bot, chance drawn by the front end. It prints
 * each game's result. Build and run (docs/embedding.md says where the package puts these):
 *
 *   cc play_all.c -I"$INCLUDE" -L"$LIBDIR" -lnutcore -Wl,-rpath,"$LIBDIR" -o play_all && ./play_all
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nutcore.h"

/* Every call is checked: on an error, say what and stop. */
#define CHECK(call)                                                             \
  do {                                                                          \
    nc_status status_ = (call);                                                 \
    if (status_ != NC_OK) {                                                     \
      fprintf(stderr, "%s failed (%d): %s\n", #call, status_, nc_last_error()); \
      exit(1);                                                                  \
    }                                                                           \
  } while (0)

/* The "action" of a best_move result: the first "action": field of the JSON text. */
static int result_action(const char* json) {
  const char* key = strstr(json, "\"action\":");
  if (!key) {
    fprintf(stderr, "no action in %s\n", json);
    exit(1);
  }
  return atoi(key + strlen("\"action\":"));
}

static void play(const char* name, uint64_t seed) {
  nc_game* game;
  nc_state* state;
  nc_bot* greedy;
  int player, moves = 0;
  char* status;
  CHECK(nc_game_load(name, "{\"players\": 2}", &game));
  CHECK(nc_state_new(game, &state));
  CHECK(nc_bot_new("greedy", &greedy));
  CHECK(nc_bot_reset(greedy, seed));
  for (;;) {
    int action;
    CHECK(nc_state_current_player(state, &player));
    if (player == NC_TERMINAL) break;
    if (player == NC_CHANCE) {
      CHECK(nc_state_sample_chance(state, seed++, &action));
    } else if (player == 0) {
      char request[96];
      char* result;
      snprintf(request, sizeof request, "{\"iterations\": 200, \"seed\": %llu}", (unsigned long long)seed++);
      CHECK(nc_best_move(state, request, NULL, &result));
      action = result_action(result);
      nc_free(result);
      ++moves;
    } else {
      CHECK(nc_bot_move(greedy, state, NULL, &action));
      ++moves;
    }
    CHECK(nc_state_apply(state, action));
  }
  CHECK(nc_state_status(state, &status));
  printf("%s: %d moves, %s\n", name, moves, status);
  nc_free(status);
  nc_bot_free(greedy);
  nc_state_free(state);
  nc_game_free(game);
}

int main(void) {
  int i;
  if (nc_abi_version() != NC_ABI_VERSION) {
    fprintf(stderr, "libnutcore has ABI %d, this program was built for %d\n", nc_abi_version(), NC_ABI_VERSION);
    return 1;
  }
  printf("nutcore %s, ABI %d, %d games\n", nc_version(), nc_abi_version(), nc_game_count());
  for (i = 0; i < nc_game_count(); ++i) play(nc_game_name(i), 1000u * (unsigned)i + 1);
  return 0;
}
