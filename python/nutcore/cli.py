"""The `nutcore` command (also `python -m nutcore`).

nutcore match GAME --players N --bot mcts:iterations=2000 --bot greedy --games 100
nutcore play GAME --players N [--seat 0] [--bot mcts:iterations=2000]
nutcore bestmove GAME --json POSITION_FILE [--algorithm auto] [--iterations N] ...
nutcore tournament GAME --players N --bot SPEC --bot SPEC ... --games K [--backend ray] [--output DIR]
nutcore playouts GAME --players N --games K
nutcore bench [--game G ...]   (a fixed search workload: nodes, speeds and a signature)
nutcore engine            (JSON lines on stdin/stdout: docs/engine-protocol.md)
nutcore serve [--host 127.0.0.1] [--port 8000] [--open]   (the web page; needs nutcore[web])
nutcore export-web DIR    (the page with the engine inside, for any static file server)
nutcore train GAME --players N --dir RUN_DIR [--generations G] ...   (self-play; needs nutcore[train])
"""

from __future__ import annotations

import argparse
import json
import queue
import random
import shlex
import sys
import time
from typing import TYPE_CHECKING, Any, Callable, NoReturn

import nutcore
from nutcore import _checks
from nutcore.bots import check_bot_for
from nutcore.games import read_json_file
from nutcore.tournaments import SCHEDULES

if TYPE_CHECKING:
    from tqdm import tqdm

    from nutcore._types import Game
    from nutcore.engine import Limits

# The AI when none is given, on every game: best_move's "auto" (the game's own search: MCTS,
# ISMCTS on games of hidden information, an exact solver where one decides).
DEFAULT_AI = "auto:iterations=2000"
DEFAULT_MATCH = ("auto:iterations=1000", "greedy")


class _Parser(argparse.ArgumentParser):
    """Usage mistakes: one line naming the problem, exit code 2."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: error: {message} (see {self.prog} --help)\n")


def _reject_constant(name: str) -> NoReturn:
    raise ValueError(f"{name} is not a JSON number")


def _option_value(text: str) -> Any:
    """An --option value: JSON where it parses (numbers, true/false, lists), else the string."""
    try:
        return json.loads(text, parse_constant=_reject_constant)
    except (ValueError, RecursionError):
        return text


class _ProgressBar:
    """play_match's progress callback as a tqdm bar on stderr (games, games per second, time left)."""

    def __init__(self, desc: str):
        self.desc = desc
        self.bar: tqdm[Any] | None = None

    def __call__(self, done: int, total: int) -> None:
        if self.bar is None:
            from tqdm import tqdm

            self.bar = tqdm(total=total, unit="game", desc=self.desc, dynamic_ncols=True)
        bar = self.bar
        bar.update(done - bar.n)
        if done == total:
            bar.close()


def _match(args: argparse.Namespace) -> int:
    game = nutcore.load_game(args.game, players=args.players)
    bots = args.bot or list(DEFAULT_MATCH)
    start = time.perf_counter()
    result = nutcore.play_match(
        game,
        bots,
        games=args.games,
        seed=args.seed,
        rotate_seats=not args.no_rotate,
        progress=None if args.quiet else _ProgressBar(f"{args.game} match"),
    )
    print(f"{args.game}, {args.players} players, seed {args.seed}, seats {'fixed' if args.no_rotate else 'rotated'}")
    print(result.table())
    print(f"{time.perf_counter() - start:.1f} s")
    return 0


def _tournament(args: argparse.Namespace) -> int:
    from nutcore.tournaments import pyplot, tournament

    bots = args.bot or list(DEFAULT_MATCH)
    if len(bots) < 2:
        raise ValueError("give at least two --bot specs")
    if args.plot:
        pyplot()  # fails now, not after the games, when matplotlib is missing
    result = tournament(
        args.game,
        args.players,
        bots,
        games=args.games,
        seed=args.seed,
        backend=args.backend,
        workers=args.workers,
        address=args.address,
        output=args.output,
        progress=not args.quiet,
        schedule=args.schedule,
    )
    print(result.table())
    if args.output:
        print(f"\nresults in {args.output}/: results.json, ratings.csv, games.csv (rerun to resume)")
    if args.plot:
        print(f"plot: {result.plot(args.plot)}")
    return 0


class _Refused(ValueError):
    """An engine's error reply: its code ("illegal_move", ...) and message."""

    def __init__(self, code: str, message: str):
        super().__init__(message)
        self.code = code


class _Connection:
    """An engine connection (nutcore.engine.Engine), one request at a time: what `nutcore play`
    shows its human comes from the engine's rules for a seat (docs/engine-protocol.md), not from
    rules of its own."""

    def __init__(self) -> None:
        from nutcore.engine import Engine

        self._replies: queue.SimpleQueue[dict[str, Any]] = queue.SimpleQueue()
        self._engine = Engine(self._replies.put)  # replies come from the engine's threads too
        self._id = 0

    def ask(self, cmd: str, **fields: Any) -> dict[str, Any]:
        """The reply to one request (its progress lines skipped); _Refused for an error."""
        self._id += 1
        self._engine.handle_message({"cmd": cmd, "id": self._id, **fields})
        while True:
            reply = self._replies.get()
            if reply.get("id") == self._id and reply["type"] != "info":
                break
        if reply["type"] == "error":
            raise _Refused(reply["error"], reply["message"])
        return reply

    def close(self) -> None:
        self._engine.close()


def _read_move(moves: list[dict[str, Any]], prompt: str, hint: Callable[[], None]) -> int | str | None:
    """The human's move: its number in the list (as its action id) or its text (for the engine to
    read); None to quit."""
    while True:
        try:
            text = input(prompt).strip()
        except EOFError:
            return None
        if text in ("q", "quit", "exit"):
            return None
        if text in ("h", "hint", "?"):
            hint()
            continue
        if text.isdigit() and int(text) < len(moves):
            action: int = moves[int(text)]["action"]
            return action
        return text


def _note_view(engine: _Connection, views: list[str] | None) -> None:
    """The seat's view after a move (its board with everything it has seen), for its record."""
    if views is not None:
        views.append(engine.ask("board", memory_aids=True)["text"])


def _save(args: argparse.Namespace, game: Game, engine: _Connection, views: list[str] | None) -> None:
    """Writes the game so far as the engine's `record` shows it to the human's seat (--save)."""
    if not args.save:
        return
    from nutcore.records import GameRecord

    reply = engine.ask("record")
    seats: list[dict[str, str] | str | None] = [{"bot": args.bot}] * args.players
    seats[args.seat] = {"person": args.name}
    record = GameRecord.from_protocol(reply, game, seats, {"seed": args.seed}, views=views)
    record.save(args.save)
    print(f"record saved to {args.save} ({'seat ' + str(record.seat) + ' view' if record.is_seat_record else 'full'})")


def _play(args: argparse.Namespace) -> int:
    game = nutcore.load_game(args.game, players=args.players)
    if not 0 <= args.seat < args.players:
        raise ValueError(f"--seat must be 0..{args.players - 1}")
    hint_iterations = _checks.integer(args.hint_iterations, "--hint-iterations", 1, 10**9)
    seed = _checks.seed(args.seed, "--seed")
    ai = nutcore.make_bot(args.bot)
    check_bot_for(ai, game.new_initial_state())  # before the first move, not at the AI's first turn
    rng = random.Random(seed)  # the hints' seeds: asking for one leaves the game's draws as they were
    # The engine holds the game and plays the human's seat: it decides what that seat may see (its
    # board, its own moves; a game of hidden information shows no other seat's move or draw).
    engine = _Connection()
    # A game of hidden information is saved as the seat's record: its view after each move with it.
    views: list[str] | None = [] if game.hidden_information else None
    try:
        status = engine.ask("new_game", game=args.game, players=args.players, seat=args.seat, seed=seed)["status"]

        def board() -> str:
            text: str = engine.ask("board", memory_aids=args.memory_aids)["text"]
            return text

        def hint() -> None:
            # "auto": the game's own search with this budget, or its exact solver where it applies.
            result = engine.ask("best_move", iterations=hint_iterations, seed=rng.getrandbits(62))["result"]
            print(f"  AI suggests: {result['action_string']} ({result['algorithm']})")
            for stat in sorted(result["actions"], key=lambda s: (-(s.get("visits") or 0), -(s.get("value") or 0))):
                visits = stat.get("visits")
                shown = f"visits {visits:6d}  win share" if visits is not None else "value"
                print(f"    {stat['action_string']:45s} {shown} {stat['value']:.3f}")

        while not status["terminal"]:
            player = status["current_player"]
            if status["chance"]:
                drawn = engine.ask("chance")
                if drawn["outcome"]:  # what the seat saw of it, whole or in part
                    print(f"  chance: {drawn['outcome']['action_string']}")
                status = drawn["status"]
                _note_view(engine, views)
            elif player == args.seat:
                print()
                print(board())
                moves = engine.ask("legal")["moves"]
                for i, m in enumerate(moves):
                    print(f"  [{i}] {m['action_string']}")
                while True:
                    move = _read_move(moves, f"seat {player}, your move> ", hint)
                    if move is None:
                        print("bye")
                        _save(args, game, engine, views)
                        return 0
                    try:
                        status = engine.ask("apply", moves=[move])["status"]
                        _note_view(engine, views)
                        break
                    except _Refused as e:
                        if e.code != "illegal_move":
                            raise
                        print(f"  not a legal move: {move!r} (type its number, its text, 'hint' or 'quit')")
            else:
                played = engine.ask("go", bot=args.bot)
                # What the seat saw of it: the move, its public part, or nothing (docs/engine-protocol.md).
                shown = played["move"]["action_string"] if played["move"] else "(hidden: see your board)"
                print(f"  seat {player} ({ai.name}): {shown}")
                status = played["status"]
                _note_view(engine, views)
        print()
        print(board())
        print(f"game over: points {status['scores']}, returns {status['returns']}")
        _save(args, game, engine, views)
        return 0
    finally:
        engine.close()


def _bestmove(args: argparse.Namespace) -> int:
    data = read_json_file(args.json, "--json")
    if not isinstance(data, dict):
        raise ValueError(f"{args.json}: a position is a JSON object, as state.to_json() writes it")
    players = data.get("players", 2)
    game = nutcore.load_game(args.game, players=players)
    state = game.state_from_json(data)
    options = {}
    for item in args.option or []:
        key, eq, value = item.partition("=")
        if not eq or not key:
            raise ValueError(f"--option takes key=value (e.g. depth=3), got {item!r}")
        options[key.strip()] = _option_value(value.strip())
    result = nutcore.best_move(
        state,
        algorithm=args.algorithm,
        iterations=args.iterations,
        time_limit=args.time_limit,
        threads=args.threads,
        seed=args.seed,
        **options,
    )
    print(json.dumps(result.to_dict(), indent=2))
    return 0


def _playouts(args: argparse.Namespace) -> int:
    game = nutcore.load_game(args.game, players=args.players)
    _checks.integer(args.games, "--games", 1, 10**9)
    start = time.perf_counter()
    returns, lengths = game.random_playouts(args.games, args.seed)
    elapsed = time.perf_counter() - start
    print(f"{args.games} random games of {args.game}, {args.players} players, seed {args.seed}")
    print(f"  {lengths.sum():,} actions in {elapsed:.3f} s: {lengths.sum() / elapsed:,.0f} actions/s on one core")
    print(f"  game length: mean {lengths.mean():.1f}, min {lengths.min()}, max {lengths.max()} actions")
    for seat in range(args.players):
        print(f"  seat {seat}: win share {returns[:, seat].mean():.3f}")
    return 0


def _bench(args: argparse.Namespace) -> int:
    from nutcore import benchmark

    if args.workload:
        with open(args.workload, "w", encoding="utf-8") as f:
            json.dump(benchmark.workload(args.game), f)
        print(f"wrote the workload to {args.workload} (positions as JSON, best_move's requests, playouts)")
        return 0
    rows = benchmark.run(args.game)
    print(f"nutcore {nutcore.__version__}, 2 players, one thread (python/nutcore/benchmark.py)")
    print(benchmark.report(rows))
    return 0


def _limits(args: argparse.Namespace, default: dict[str, Any]) -> Limits:
    """The engine's Limits from --limits (a JSON object; absent: `default`) and the flags."""
    from nutcore.engine import Limits

    limits = json.loads(args.limits) if args.limits else dict(default)
    if not isinstance(limits, dict):
        raise ValueError('--limits takes a JSON object, as nutcore.engine.Limits: {"iterations": 100000, ...}')
    limits.update({"file_params": True} if getattr(args, "allow_files", False) else {})
    limits.update({"test_hooks": True} if args.test_hooks else {})
    try:
        return Limits(**limits)
    except TypeError as e:
        raise ValueError(f"--limits: {e}") from None


def _engine(args: argparse.Namespace) -> int:
    from nutcore.engine import run_stdio

    return run_stdio(limits=_limits(args, {}))


def _serve(args: argparse.Namespace) -> int:
    _checks.integer(args.port, "--port", 0, 65535)
    try:
        import uvicorn  # noqa: F401

        from nutcore.web import server
    except ImportError as e:
        raise ValueError(f'serve needs the web extra ({e.name or e} is missing): pip install "nutcore[web]"') from None
    limits = _limits(args, server.WEB_LIMITS.to_json()) if args.limits or args.test_hooks else server.WEB_LIMITS
    return server.serve(args.host, args.port, open_browser=args.open, limits=limits)


def _export_web(args: argparse.Namespace) -> int:
    from nutcore.web import export

    out = export.export(args.dir, args.wasm, force=args.force, test_hooks=args.test_hooks)
    print(f"wrote {out}: serve it with any static file server, e.g. python -m http.server -d {out}")
    return 0


def _train(args: argparse.Namespace) -> int:
    from dataclasses import fields

    from nutcore.learn.train import TrainConfig, check_settings, train

    given = {f.name: getattr(args, f.name) for f in fields(TrainConfig) if getattr(args, f.name, None) is not None}
    if "hidden" in given:
        try:
            given["hidden"] = [int(h) for h in args.hidden.split(",")]
        except ValueError:
            raise ValueError(f"--hidden: sizes separated by commas, such as 128,128; got {args.hidden!r}") from None
    config = TrainConfig(**given)
    # Every option checked before any work, in the words of the command line (train checks them
    # again, in the API's).
    flags = {"directory": "--dir", "network_path": "--network"}
    check_settings(
        config,
        args.dir,
        backend=args.backend,
        workers=args.workers,
        address=args.address,
        network_path=args.network,
        spelled=lambda name: flags.get(name, "--" + name.replace("_", "-")),
    )
    command = shlex.join(["nutcore", *args.argv])  # recorded in the network file's header
    path = train(
        config,
        args.dir,
        backend=args.backend,
        workers=args.workers,
        address=args.address,
        command=command,
        progress=not args.quiet,
        network_path=args.network,
    )
    print(f"trained: {path}" + (f" (and {args.network})" if args.network else ""))
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = _Parser(prog="nutcore", description="Rules engines and AI for squirrel-and-nut games.")
    sub = parser.add_subparsers(dest="command", required=True)
    games = nutcore.list_games()

    p = sub.add_parser("match", help="AI against AI: win shares with 95%% intervals")
    p.add_argument("game", choices=games)
    p.add_argument("--players", type=int, default=2)
    p.add_argument(
        "--bot",
        action="append",
        help="a bot spec per seat: random, greedy, auto:iterations=N (the game's own search), level:N, "
        "mcts:iterations=N,threads=T, ismcts:..., expectimax:depth=D, solver "
        f"(default: {' '.join(DEFAULT_MATCH)})",
    )
    p.add_argument("--games", type=int, default=20)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--no-rotate", action="store_true", help="keep every bot in its seat")
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    p.set_defaults(run=_match)

    p = sub.add_parser("tournament", help="round robin of many bots: ratings, pairwise results, plots")
    p.add_argument("game", choices=games)
    p.add_argument("--players", type=int, default=2)
    p.add_argument(
        "--bot",
        action="append",
        help=f"a bot spec (give two or more), as for match (default: {' '.join(DEFAULT_MATCH)})",
    )
    p.add_argument("--games", type=int, default=100, help="games in all, over every line-up in turn")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--backend", choices=["local", "ray"], default="local")
    p.add_argument("--workers", type=int, help="local: processes (default: the cores); ray: CPUs of a local Ray")
    p.add_argument("--address", help="ray: the cluster to join (ray.init(address=...))")
    p.add_argument(
        "--output",
        help="directory for results.json, ratings.csv, games.csv, records.jsonl (the games) and resuming",
    )
    p.add_argument(
        "--schedule",
        choices=SCHEDULES,
        default="round-robin",
        help="who meets: every combination, the first --bot against the others, or neighbours in order",
    )
    p.add_argument("--plot", help="write a PNG of the ratings (needs nutcore[plot])")
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    p.set_defaults(run=_tournament)

    p = sub.add_parser("play", help="play against the AI in the terminal")
    p.add_argument("game", choices=games)
    p.add_argument("--players", type=int, default=2)
    p.add_argument("--seat", type=int, default=0, help="your seat (0 starts)")
    p.add_argument("--bot", default=DEFAULT_AI, help=f"the AI for the other seats (default: {DEFAULT_AI})")
    p.add_argument("--hint-iterations", type=int, default=2000)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument(
        "--save",
        help="write the game's record here at the end (docs/records.md; in a game of hidden information "
        "your seat's record: what you saw)",
    )
    p.add_argument("--name", default="you", help="your name in the saved record (default: you)")
    p.add_argument(
        "--memory-aids",
        action=argparse.BooleanOptionalAction,
        default=False,
        help="in a memory game (Ritter, Purzelbaum) show everything your seat has seen, not only what lies "
        "in front of it now (default: off, as on the web page)",
    )
    p.set_defaults(run=_play)

    p = sub.add_parser("bestmove", help="best move and statistics for a position (JSON in, JSON out)")
    p.add_argument("game", choices=games)
    p.add_argument("--json", required=True, help="a file with the position as state.to_json() writes it")
    p.add_argument("--algorithm", default="auto")
    p.add_argument("--iterations", type=int)
    p.add_argument("--time-limit", type=float)
    p.add_argument("--threads", type=int, default=1)
    p.add_argument("--seed", type=int)
    p.add_argument("--option", action="append", help="algorithm option as key=value (e.g. depth=3)")
    p.set_defaults(run=_bestmove)

    p = sub.add_parser("playouts", help="random games inside the C++ core: throughput")
    p.add_argument("game", choices=games)
    p.add_argument("--players", type=int, default=2)
    p.add_argument("--games", type=int, default=1000)
    p.add_argument("--seed", type=int, default=0)
    p.set_defaults(run=_playouts)

    p = sub.add_parser("bench", help="a fixed search workload per game: nodes, speeds, a signature")
    p.add_argument("--game", action="append", choices=games, help="only this game (repeatable; default all)")
    p.add_argument(
        "--workload", metavar="FILE", help="write the workload as JSON to FILE instead, for other doors (docs/web.md)"
    )
    p.set_defaults(run=_bench)

    p = sub.add_parser("engine", help="the engine protocol: JSON lines on stdin/stdout (docs/engine-protocol.md)")
    p.add_argument(
        "--allow-files",
        action="store_true",
        help="let the client name files for the engine to read (a game parameter such as a card set's path)",
    )
    p.add_argument(
        "--limits", help='caps on what the client may ask, as nutcore.engine.Limits: {"iterations": 100000, ...}'
    )
    p.add_argument("--test-hooks", action="store_true", help=argparse.SUPPRESS)  # the tests' view of the full state
    p.set_defaults(run=_engine)

    p = sub.add_parser("serve", help="the web page: play and watch in the browser (needs nutcore[web])")
    p.add_argument("--host", default="127.0.0.1", help="the address to listen on (default: this machine only)")
    p.add_argument("--port", type=int, default=8000, help="0: any free port")
    p.add_argument("--open", action="store_true", help="open the page in the default browser")
    p.add_argument(
        "--limits",
        help="caps on what each client may ask, as nutcore.engine.Limits (default: the web limits, docs/web.md)",
    )
    p.add_argument("--test-hooks", action="store_true", help=argparse.SUPPRESS)  # the tests' view of the full state
    p.set_defaults(run=_serve)

    p = sub.add_parser(
        "export-web", help="the page with the engine inside (WebAssembly), as a folder for any static file server"
    )
    p.add_argument("dir", help="the folder to write (new or empty)")
    p.add_argument("--wasm", help="a folder with the WebAssembly module and its API (default: the package's)")
    p.add_argument("--force", action="store_true", help="write into a folder that is not empty")
    p.add_argument("--test-hooks", action="store_true", help=argparse.SUPPRESS)
    p.set_defaults(run=_export_web)

    p = sub.add_parser(
        "train",
        help="a learned evaluation by self-play (docs/learning.md; needs nutcore[train])",
        description="Every option is checked before any work; docs/learning.md lists their ranges.",
    )
    p.add_argument("game", choices=games)
    p.add_argument("--players", type=int, default=2)
    p.add_argument("--dir", required=True, help="the run's directory: records, checkpoints, log, plots; resumable")
    p.add_argument("--network", help="also write the final network file here")
    p.add_argument("--generations", type=int)
    p.add_argument("--games", type=int, help="self-play games per generation")
    p.add_argument("--iterations", type=int, help="search iterations per self-play move")
    p.add_argument("--bootstrap-iterations", dest="bootstrap_iterations", type=int, help="generation 0's (playouts)")
    p.add_argument(
        "--evaluator", choices=["learned", "learned+playout"], help="self-play's after generation 0, and the rating's"
    )
    p.add_argument("--hidden", help="hidden layer sizes, such as 128,128")
    p.add_argument("--window", type=int, help="generations of records each fit reads")
    p.add_argument(
        "--value-mix", dest="value_mix", type=float, help="value target: this part the returns, the rest search values"
    )
    p.add_argument("--epochs", type=int, help="positions fitted per generation, in units of its own")
    p.add_argument("--batch", type=int)
    p.add_argument("--learning-rate", dest="learning_rate", type=float)
    p.add_argument("--rating-games", dest="rating_games", type=int, help="games against greedy per generation")
    p.add_argument("--rating-iterations", dest="rating_iterations", type=int)
    p.add_argument("--chunks", type=int, help="self-play chunks per generation (the backends' unit of work)")
    p.add_argument("--num-envs", dest="num_envs", type=int, help="environments per chunk")
    p.add_argument("--seed", type=int)
    p.add_argument("--backend", choices=["local", "ray"], default="local")
    p.add_argument(
        "--workers", type=int, default=1, help="local: processes; ray: CPUs of a local Ray (1 to this machine's cores)"
    )
    p.add_argument("--address", help="ray: the cluster to join")
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    p.set_defaults(run=_train)

    args = parser.parse_args(argv)
    args.argv = list(sys.argv[1:] if argv is None else argv)
    run: Callable[[argparse.Namespace], int] = args.run
    try:
        return run(args)
    except (ValueError, OSError) as e:
        print(f"nutcore: {e}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("\nnutcore: interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
