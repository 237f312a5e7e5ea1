/*
 * A race on one engine handle (nutcore.h's thread rules): in each round two threads send at once
 * while a third receives, and one of the senders quits while searches are starting and ending.
 * Built and run by tests/doors/test_engine_threads.py, and by .ci/tsan against the library built with
 * ThreadSanitizer.
 *
 *   engine_race [ROUNDS [SEED]]     (defaults: 300 rounds, seed 1)
 *
 * Each round: a fresh engine; the reader takes replies until NC_CLOSED, in even rounds waiting in
 * receive(-1), in odd rounds spinning on receive(0) as a game loop polls. Sender A starts a
 * game, asks for a short search, waits a moment and quits; sender B meanwhile sends status, stop,
 * searches and plays (go), a few of them after A's quit. What must hold, else the round fails:
 * - the quit reply is the last line received, and NC_CLOSED comes after it (not before: the reply
 *   must never be lost), and stays: receive(0) and receive(-1) answer NC_CLOSED at once, and a
 *   send answers NC_CLOSED;
 * - every line a send accepted (NC_OK) gets exactly one answer (progress lines aside), and a line
 *   refused with NC_CLOSED none;
 * - no round stalls: a watchdog ends the process with exit code 3 if one takes longer than
 *   NUTCORE_RACE_STALL seconds (default 60), naming the round.
 * Exit code 0: every round held; 1: a round failed (the first failure is printed); 2: bad usage.
 */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "nutcore.h"

#define MAX_REQUESTS 64
#define MAX_LINES 4096

typedef struct {
  char id[16];
  nc_status sent; /* what nc_engine_send answered */
  int answers;    /* non-progress lines that carried this id */
} request;

typedef struct {
  nc_engine* engine;
  unsigned seed_a, seed_b;
  pthread_mutex_t mutex; /* guards requests (the senders add, the checker reads after the join) */
  request requests[MAX_REQUESTS];
  int count;
  char* lines[MAX_LINES];
  int line_count;
  nc_status reader_end; /* the status that ended the reader */
  int spin;             /* the reader polls with receive(0) instead of waiting */
} round_state;

static int rounds_done = 0; /* under progress_mutex: read by the watchdog */
static pthread_mutex_t progress_mutex = PTHREAD_MUTEX_INITIALIZER;

static unsigned next_random(unsigned* s) {
  *s = *s * 1103515245u + 12345u;
  return (*s >> 8) & 0xFFFFFF;
}

static void pause_us(unsigned us) {
  struct timespec t = {0, (long)us * 1000};
  nanosleep(&t, NULL);
}

static void send_line(round_state* r, const char* id, const char* body) {
  char line[256];
  int n;
  nc_status status;
  if (id[0])
    n = snprintf(line, sizeof line, "{%s, \"id\": \"%s\"}", body, id);
  else
    n = snprintf(line, sizeof line, "{%s}", body);
  if (n < 0 || (size_t)n >= sizeof line) abort();
  status = nc_engine_send(r->engine, line);
  if (!id[0]) return;
  pthread_mutex_lock(&r->mutex);
  if (r->count < MAX_REQUESTS) {
    snprintf(r->requests[r->count].id, sizeof r->requests[r->count].id, "%s", id);
    r->requests[r->count].sent = status;
    r->requests[r->count].answers = 0;
    r->count++;
  }
  pthread_mutex_unlock(&r->mutex);
}

static void* sender_a(void* arg) {
  round_state* r = arg;
  char body[128];
  send_line(r, "a0", "\"cmd\": \"new_game\", \"game\": \"purzelbaum\", \"seed\": 7");
  snprintf(body, sizeof body, "\"cmd\": \"best_move\", \"iterations\": %u, \"seed\": 1",
           1 + next_random(&r->seed_a) % 400);
  send_line(r, "a1", body);
  pause_us(next_random(&r->seed_a) % 3000);
  send_line(r, "q", "\"cmd\": \"quit\"");
  return NULL;
}

static void* sender_b(void* arg) {
  static const char* const bodies[] = {
      "\"cmd\": \"status\"",
      "\"cmd\": \"stop\"",
      "\"cmd\": \"best_move\", \"iterations\": 50, \"seed\": 2",
      "\"cmd\": \"go\", \"iterations\": 30, \"seed\": 3",
      "\"cmd\": \"go\", \"bot\": \"greedy\"",
      "\"cmd\": \"hello\"",
      "\"cmd\": \"legal\"",
  };
  round_state* r = arg;
  int i;
  for (i = 0; i < 12; ++i) {
    char id[16];
    snprintf(id, sizeof id, "b%d", i);
    send_line(r, id, bodies[next_random(&r->seed_b) % (sizeof bodies / sizeof bodies[0])]);
    pause_us(next_random(&r->seed_b) % 600);
  }
  return NULL;
}

static void* reader(void* arg) {
  round_state* r = arg;
  for (;;) {
    char* line = NULL;
    nc_status status = nc_engine_receive(r->engine, r->spin ? 0 : -1, &line);
    if (status == NC_TIMEOUT && r->spin) continue;
    if (status != NC_OK) {
      r->reader_end = status;
      return NULL;
    }
    if (r->line_count < MAX_LINES)
      r->lines[r->line_count++] = line;
    else
      nc_free(line);
  }
}

/* The id a reply line echoes ("id":"..."), into out; 0 if it has none. */
static int reply_id(const char* line, char* out, size_t size) {
  const char* at = strstr(line, "\"id\":\"");
  size_t n = 0;
  if (!at) return 0;
  at += 6;
  while (at[n] && at[n] != '"' && n + 1 < size) {
    out[n] = at[n];
    ++n;
  }
  out[n] = '\0';
  return 1;
}

static int fail(int round, const char* what, const char* detail) {
  fprintf(stderr, "round %d: %s%s%s\n", round, what, detail ? ": " : "", detail ? detail : "");
  return 1;
}

static int play_round(int round, unsigned seed) {
  round_state r;
  pthread_t a, b, rd;
  char* line = NULL;
  int i, failed = 0;
  memset(&r, 0, sizeof r);
  pthread_mutex_init(&r.mutex, NULL);
  r.seed_a = seed * 2654435761u + 1;
  r.seed_b = seed * 40503u + 7;
  r.spin = round % 2;
  if (nc_engine_new(NULL, &r.engine) != NC_OK) return fail(round, "nc_engine_new", nc_last_error());
  pthread_create(&rd, NULL, reader, &r);
  pthread_create(&a, NULL, sender_a, &r);
  pthread_create(&b, NULL, sender_b, &r);
  pthread_join(a, NULL);
  pthread_join(b, NULL);
  pthread_join(rd, NULL);

  if (r.reader_end != NC_CLOSED) {
    char text[64];
    snprintf(text, sizeof text, "status %d (%s)", (int)r.reader_end, nc_last_error());
    failed = fail(round, "receive ended other than by NC_CLOSED", text);
  } else if (r.line_count == 0 || strcmp(r.lines[r.line_count - 1], "{\"type\":\"quit\",\"id\":\"q\"}") != 0) {
    failed = fail(round, "the last line before NC_CLOSED is not the quit reply",
                  r.line_count ? r.lines[r.line_count - 1] : "(no line)");
  }
  /* NC_CLOSED is final. */
  if (!failed && nc_engine_receive(r.engine, 0, &line) != NC_CLOSED)
    failed = fail(round, "receive(0) after NC_CLOSED", line ? line : nc_last_error());
  if (!failed && nc_engine_receive(r.engine, -1, &line) != NC_CLOSED)
    failed = fail(round, "receive(-1) after NC_CLOSED", line ? line : nc_last_error());
  if (!failed && nc_engine_send(r.engine, "{\"cmd\": \"hello\", \"id\": \"late\"}") != NC_CLOSED)
    failed = fail(round, "a send after NC_CLOSED was not refused with NC_CLOSED", NULL);
  if (!failed && nc_engine_receive(r.engine, 0, &line) != NC_CLOSED)
    failed = fail(round, "a send after NC_CLOSED got a reply", line ? line : nc_last_error());
  /* One answer per accepted line, none for a refused one. */
  for (i = 0; i < r.line_count && !failed; ++i) {
    char id[16];
    int k;
    if (strstr(r.lines[i], "\"type\":\"info\"") || !reply_id(r.lines[i], id, sizeof id)) continue;
    for (k = 0; k < r.count; ++k)
      if (strcmp(r.requests[k].id, id) == 0) r.requests[k].answers++;
  }
  for (i = 0; i < r.count && !failed; ++i) {
    const int want = r.requests[i].sent == NC_OK ? 1 : 0;
    char text[96];
    if (r.requests[i].sent != NC_OK && r.requests[i].sent != NC_CLOSED) {
      snprintf(text, sizeof text, "request %s: send answered %d", r.requests[i].id, (int)r.requests[i].sent);
      failed = fail(round, text, NULL);
    } else if (r.requests[i].answers != want) {
      snprintf(text, sizeof text, "request %s (send %d) got %d answers, not %d", r.requests[i].id,
               (int)r.requests[i].sent, r.requests[i].answers, want);
      failed = fail(round, text, NULL);
    }
  }
  if (failed)
    for (i = 0; i < r.line_count; ++i) fprintf(stderr, "  < %.160s\n", r.lines[i]);
  for (i = 0; i < r.line_count; ++i) nc_free(r.lines[i]);
  nc_engine_free(r.engine);
  pthread_mutex_destroy(&r.mutex);
  return failed;
}

static double stall_seconds = 60;

static void* watchdog(void* arg) {
  int last = -1;
  double still = 0;
  (void)arg;
  for (;;) {
    int now;
    pause_us(100000);
    pthread_mutex_lock(&progress_mutex);
    now = rounds_done;
    pthread_mutex_unlock(&progress_mutex);
    still = now == last ? still + 0.1 : 0;
    last = now;
    if (still >= stall_seconds) {
      fprintf(stderr, "stall: round %d did not end within %.0f s\n", now, stall_seconds);
      fflush(stderr);
      _exit(3);
    }
  }
  return NULL;
}

int main(int argc, char** argv) {
  const int rounds = argc > 1 ? atoi(argv[1]) : 300;
  const unsigned seed = argc > 2 ? (unsigned)strtoul(argv[2], NULL, 10) : 1;
  const char* stall = getenv("NUTCORE_RACE_STALL");
  pthread_t dog;
  int round;
  if (rounds < 1 || argc > 3) {
    fprintf(stderr, "usage: engine_race [ROUNDS [SEED]]\n");
    return 2;
  }
  if (stall && atof(stall) > 0) stall_seconds = atof(stall);
  pthread_create(&dog, NULL, watchdog, NULL);
  for (round = 0; round < rounds; ++round) {
    if (play_round(round, seed + (unsigned)round)) return 1;
    pthread_mutex_lock(&progress_mutex);
    rounds_done = round + 1;
    pthread_mutex_unlock(&progress_mutex);
  }
  printf("engine_race: %d rounds held (seed %u)\n", rounds, seed);
  return 0;
}
