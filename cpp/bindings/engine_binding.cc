// The engine for Python, generic over every declared game: best_move in one call (settings checked
// in C++, the GIL released while searching), the exact solvers, kept trees, what the
// generic layers ask of a game, and the declared games themselves.
#include "bindings/engine_binding.h"

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <cmath>
#include <memory>

#include "bindings/boundary.h"
#include "bindings/game_binding.h"
#include "engine/any.h"
#include "engine/bots.h"
#include "engine/catalogue.h"
#include "engine/protocol.h"
#include "engine/stdio.h"

namespace nutcore::bindings {

namespace {

NUTCORE_TYPE_NAME(ArrayName, "numpy.typing.NDArray[typing.Any]");
NUTCORE_TYPE_NAME(Float32Name, "numpy.typing.NDArray[numpy.float32]");
NUTCORE_TYPE_NAME(Float32OrNoneName, "numpy.typing.NDArray[numpy.float32] | None");
NUTCORE_TYPE_NAME(StrName, "str");
NUTCORE_TYPE_NAME(BotSettingsName, "dict[str, typing.Any] | None");
NUTCORE_TYPE_NAME(SendName, "collections.abc.Callable[[str], object]");
NUTCORE_TYPE_NAME(LineName, "str | bytes | bytearray | memoryview");
NUTCORE_TYPE_NAME(PathName, "str | bytes");
NUTCORE_TYPE_NAME(Int64ArrayName, "numpy.typing.NDArray[numpy.int64]");
int str_or_bytes(PyObject* o) { return PyUnicode_Check(o) || PyBytes_Check(o); }
int numpy_array(PyObject* o) { return py::isinstance<py::array>(o); }
using Int64Array = Typed<Int64ArrayName, numpy_array>;  // a numpy array; its dtype and shape checked where used
using Float32Array = Typed<Float32Name>;                // input_array checks dtype and shape
using Float32ArrayOrNone = Typed<Float32OrNoneName>;
using BotSpecArg = Typed<StrName>;  // a str, or a ValueError that shows what a spec looks like
using BotSettingsArg = Typed<BotSettingsName>;
using SendArg = Typed<SendName>;
using LineArg = Typed<LineName>;                // line_arg
using PathArg = Typed<PathName, str_or_bytes>;  // a str, or bytes as os.fsencode gives
// The vector environments' output arrays by name (vector_array checks each).
using ArrayDict = py::typing::Dict<py::str, Typed<ArrayName>>;

py::object number_or_none(long x) { return x >= 0 ? py::object(py::int_(x)) : py::object(py::none()); }

bool finalizing() {
#if PY_VERSION_HEX >= 0x030D0000
  return Py_IsFinalizing();
#else
  return _Py_IsFinalizing();
#endif
}

// A line from Python: str (as UTF-8; a lone surrogate stays invalid, for the engine to refuse) or
// bytes.
std::string line_arg(const py::handle& line) {
  if (PyUnicode_Check(line.ptr())) {
    auto bytes = py::reinterpret_steal<py::object>(PyUnicode_AsEncodedString(line.ptr(), "utf-8", "surrogatepass"));
    if (!bytes) throw py::error_already_set();
    return std::string(py::reinterpret_borrow<py::bytes>(bytes));
  }
  return bytes_arg(line, "a line");
}

// The protocol engine for Python: replies go to `send(line)` (a str) with the GIL taken, from
// whichever thread made them. Every call into the engine that takes one of its locks releases the
// GIL first (protocol.h's lock order): a search delivering its reply holds the engine's delivery
// lock and waits for the GIL, so a caller holding the GIL must not wait for an engine lock.
struct PyEngine {
  py::object send;
  std::unique_ptr<engine::Engine> engine;
  PyEngine(py::object s, const engine::Limits& limits, std::shared_ptr<engine::SearchSlots> slots)
      : send(std::move(s)) {
    engine = std::make_unique<engine::Engine>(
        [this](const std::string& line) {
          if (finalizing()) return;
          py::gil_scoped_acquire acquire;
          try {
            send(py::str(line.data(), line.size()));
          } catch (py::error_already_set& e) {
            e.discard_as_unraisable("nutcore engine: send");
          }
        },
        limits, std::move(slots));
  }
  ~PyEngine() {
    py::gil_scoped_release release;  // the search's last reply takes the GIL
    engine.reset();
  }
};

// Runs `f` with the GIL released (it takes an engine lock) and returns its result; an exception
// it throws is raised once the GIL is held again.
template <typename F>
auto without_gil(F&& f) {
  py::gil_scoped_release release;
  return f();
}

}  // namespace

JsonDict outcome_to_py(const engine::SearchResult& r) {
  py::dict out;
  out["action"] = r.action;
  out["action_string"] = r.action_string;
  out["algorithm"] = r.algorithm;
  out["value"] = r.value;  // NaN stays NaN in Python
  py::list actions;
  for (const auto& s : r.actions) {
    py::dict a;
    a["action"] = s.action;
    a["action_string"] = s.action_string;
    a["visits"] = number_or_none(s.visits);
    a["value"] = s.value;
    actions.append(a);
  }
  out["actions"] = actions;
  out["iterations"] = number_or_none(r.iterations);
  out["nodes"] = number_or_none(r.nodes);
  out["elapsed"] = r.elapsed;
  out["extra"] = json_to_py(r.extra);
  return JsonDict(std::move(out));
}

engine::AnyKeptTree* PySearchTree::for_state(const engine::AnyState& state) {
  if (users > 0) throw std::invalid_argument("tree: this search tree is in use by another search");
  return tree.for_state(state);
}

namespace {

template <typename T>
T* vector_array(const py::dict& out, const char* key, std::vector<py::ssize_t> shape) {
  if (!out.contains(key)) return nullptr;
  const py::object obj = out[key];
  if (!py::isinstance<py::array_t<T>>(obj))
    throw std::invalid_argument(std::string("out['") + key + "'] must be a numpy array of " +
                                py::str(py::dtype::of<T>()).cast<std::string>());
  py::array a = obj.cast<py::array>();
  bool same = a.ndim() == static_cast<py::ssize_t>(shape.size());
  for (size_t d = 0; same && d < shape.size(); ++d) same = a.shape(d) == shape[d];
  if (!same || !(a.flags() & py::array::c_style) || !a.writeable())
    throw std::invalid_argument(std::string("out['") + key + "'] must be a writeable C-ordered array of its shape");
  return static_cast<T*>(a.mutable_data());
}

engine::VectorBuffers vector_buffers(const engine::AnyVectorEnv& env, const py::dict& out) {
  const py::ssize_t n = env.num_envs(), a = env.num_actions(), p = env.num_players(), o = env.observation_size();
  engine::VectorBuffers b;
  b.observation = vector_array<float>(out, "observation", {n, o});
  b.legal_mask = reinterpret_cast<uint8_t*>(vector_array<bool>(out, "legal_mask", {n, a}));
  b.current_player = vector_array<int32_t>(out, "current_player", {n});
  b.rewards = vector_array<float>(out, "rewards", {n, p});
  b.terminated = reinterpret_cast<uint8_t*>(vector_array<bool>(out, "terminated", {n}));
  b.episode_length = vector_array<int32_t>(out, "episode_length", {n});
  b.chance_probabilities = vector_array<double>(out, "chance_probabilities", {n, a});
  b.final_observation = vector_array<float>(out, "final_observation", {n, o});
  return b;
}

engine::LeafBuffers leaf_buffers(const engine::AnyVectorEnv& env, const py::dict& out) {
  const py::ssize_t n = env.num_envs(), a = env.num_actions(), o = env.observation_size();
  engine::LeafBuffers b;
  b.observation = vector_array<float>(out, "observation", {n, o});
  b.legal_mask = reinterpret_cast<uint8_t*>(vector_array<bool>(out, "legal_mask", {n, a}));
  b.current_player = vector_array<int32_t>(out, "current_player", {n});
  b.pending = reinterpret_cast<uint8_t*>(vector_array<bool>(out, "pending", {n}));
  return b;
}

// A vector environment's call, with the GIL released; where it may run long (opponents' searches,
// a batched search) Ctrl-C stops it (run_interruptible; AnyVectorEnv says what a stop leaves).
template <typename F>
int vector_call(bool interruptible, F&& work) {
  if (interruptible) return run_interruptible(work);
  py::gil_scoped_release release;
  return work(nullptr);
}

// A read-only input array of float32 of this shape, C-ordered (vector.py converts what it is given).
const float* input_array(const py::handle& obj, const char* what, std::vector<py::ssize_t> shape) {
  if (!py::isinstance<py::array_t<float>>(obj))
    throw std::invalid_argument(std::string("evaluate: ") + what + " must be a float32 numpy array");
  const py::array a = py::reinterpret_borrow<py::array>(obj);
  bool same = a.ndim() == static_cast<py::ssize_t>(shape.size());
  for (size_t d = 0; same && d < shape.size(); ++d) same = a.shape(d) == shape[d];
  if (!same || !(a.flags() & py::array::c_style))
    throw std::invalid_argument(std::string("evaluate: ") + what + " must be a C-ordered array of shape (" +
                                std::to_string(shape[0]) + ", " + std::to_string(shape[1]) + ")");
  return static_cast<const float*>(a.data());
}

}  // namespace

void bind_engine(py::module_& m) {
  py::class_<PySearchTree>(m, "_SearchTree", "A search tree kept between best_move calls (nutcore.SearchTree).")
      .def(py::init<>())
      .def("clear", [](PySearchTree& t) {
        if (t.users > 0) throw std::invalid_argument("tree: this search tree is in use by another search");
        t.tree.clear();
      });

  py::class_<Network, std::shared_ptr<Network>>(m, "Network",
                                                "A trained network of the learned evaluator (nutcore.load_network).")
      .def(py::init([](const BytesArg& data) { return engine::load_network(bytes_arg(data, "Network: data")); }),
           py::arg("data"))
      .def_property_readonly("game", &Network::game)
      .def_property_readonly("players", &Network::players)
      .def_property_readonly("observation_size", &Network::input_size)
      .def_property_readonly("num_actions", &Network::num_actions)
      .def_property_readonly("hidden", &Network::hidden)
      .def_property_readonly("num_parameters", &Network::num_parameters)
      .def_property_readonly("header", [](const Network& n) { return json_object_to_py(n.header()); })
      .def(
          "evaluate",
          [](const Network& n, const py::array_t<float, py::array::c_style | py::array::forcecast>& observation,
             const std::vector<Action>& actions) {
            if (observation.ndim() != 1 || observation.shape(0) != n.input_size())
              throw std::invalid_argument("evaluate: the observation must have shape (" +
                                          std::to_string(n.input_size()) + ",)");
            for (Action a : actions)
              if (a < 0 || a >= n.num_actions())
                throw std::invalid_argument("evaluate: action " + std::to_string(a) + " out of range");
            // As BatchedSearch.evaluate: a NaN or an infinity would pass through every layer unseen.
            const float* x = observation.data();
            for (int i = 0; i < n.input_size(); ++i)
              if (!std::isfinite(x[i]))
                throw std::invalid_argument("evaluate: observation[" + std::to_string(i) + "] is not finite");
            std::vector<float> scratch(n.scratch_size()), logits(actions.size());
            std::vector<double> values(n.players());
            n.evaluate(observation.data(), scratch.data(), values.data(), actions.data(),
                       static_cast<int>(actions.size()), logits.data());
            return py::make_tuple(values, std::vector<double>(logits.begin(), logits.end()));
          },
          py::arg("observation"), py::arg("actions"),
          "(values per seat, the logits of `actions`) for one observation: the C++ forward pass.");
  m.def(
      "shipped_network",
      [](const std::string& game, int players) -> std::optional<std::shared_ptr<Network>> {
        auto net = engine::shipped_network(game, players);
        if (!net) return std::nullopt;
        return std::const_pointer_cast<Network>(net);
      },
      py::arg("game"), py::arg("players"), "The network built in for a game at a player count, or None.");
  m.def("engine_commands", &engine::Engine::command_fields,
        "The engine protocol's commands, in hello's order, each as (name, its request's fields besides cmd and id).");
  m.def("shipped_networks", &engine::shipped_networks, "The built-in networks, as '<game>-<players>p'.");
  m.def(
      "network_limits",
      [] {
        py::typing::Dict<py::str, py::int_> d;
        d["players"] = kNetworkMaxPlayers;
        d["observation_size"] = kNetworkMaxInputs;
        d["num_actions"] = kNetworkMaxActions;
        d["hidden_layers"] = kNetworkMaxLayers;
        d["hidden_size"] = kNetworkMaxWidth;
        d["parameters"] = kNetworkMaxParameters;
        d["header_bytes"] = kNetworkMaxHeader;
        return d;
      },
      "What a network file may hold (search/network.h): the most players, observation_size, num_actions, "
      "hidden_layers, units of a layer (hidden_size), parameters and bytes of header.");

  m.def(
      "best_move",
      [](const engine::AnyState& state, const JsonDict& settings, const Maybe<StopToken>& stop_token,
         const Maybe<PySearchTree>& tree_ref, std::optional<std::shared_ptr<Network>> network_arg) {
        StopToken* token = maybe_ptr(stop_token);
        PySearchTree* tree = maybe_ptr(tree_ref);
        std::shared_ptr<Network> network = network_arg.value_or(nullptr);
        // Checked here, before any work: a bad setting is a ValueError naming it.
        engine::SearchRequest request = engine::parse_search_request(json_from_py(settings));
        request.network = network;
        std::shared_ptr<const engine::AnyState> copy = state.clone();  // Python may touch `state` meanwhile
        engine::AnyKeptTree* kept = tree ? tree->for_state(*copy) : nullptr;
        SearchProgress* progress = token ? &token->progress : nullptr;
        struct Using {  // the tree is not replaced while this search has it
          PySearchTree* tree;
          explicit Using(PySearchTree* t) : tree(t) {
            if (tree) ++tree->users;
          }
          ~Using() {
            if (tree) --tree->users;
          }
        } using_tree(tree);
        const engine::SearchResult r = run_interruptible(
            [&](const StopFlag* stop) { return engine::best_move(*copy, request, stop, progress, kept); }, token);
        return outcome_to_py(r);
      },
      py::arg("state"), py::arg("settings"), py::arg("stop") = py::none(), py::arg("tree") = py::none(),
      py::arg("network") = py::none(),
      "best_move's whole search: settings {algorithm, iterations, time_limit, threads, seed, ...options}; "
      "network: the learned evaluator's, else the game's built-in one.");

  m.def(
      "solve",
      [](const engine::AnyState& state, const Maybe<StopToken>& token) {
        std::shared_ptr<const engine::AnyState> copy = state.clone();
        return outcome_to_py(
            run_interruptible([&](const StopFlag* stop) { return copy->solve(stop); }, maybe_ptr(token)));
      },
      py::arg("state"), py::arg("stop") = py::none(), "The game's exact solver at a decision node.");

  m.def(
      "check_search_settings", [](const JsonDict& settings) { engine::parse_search_request(json_from_py(settings)); },
      py::arg("settings"), "ValueError unless best_move would take these settings (any state aside).");
  m.def(
      "auto_algorithm", [](const engine::AnyState& s) { return engine::algorithm_name(s.auto_algorithm()); },
      py::arg("state"), "What best_move's \"auto\" plays at this decision.");
  m.def(
      "solver_applies", [](const engine::AnyState& s) { return s.solver_applies(); }, py::arg("state"),
      "Whether the game's exact solver decides here.");
  m.def(
      "greedy_action", [](const engine::AnyState& s) { return s.greedy_action(); }, py::arg("state"),
      "The game's greedy policy's move at a decision node.");
  m.def(
      "default_options",
      [](const std::string& algorithm) {
        return json_object_to_py(engine::default_options(engine::parse_algorithm(algorithm, "default_options")));
      },
      py::arg("algorithm"), "An algorithm's options with their generic defaults.");

  // Bots (engine/bots.h): made from a spec, or from its parts (a name and its settings).
  // The arrays come from python/nutcore/vector.py, which made them: each is checked here anyway
  // (dtype, shape, C order, writeable), so that a wrong one is a ValueError, never a stray write.
  py::class_<PyVectorEnv> vector_env(m, "_VectorEnv", "Many games stepped at once (nutcore.VectorEnv).");
  vector_env.def_property_readonly("num_envs", [](const PyVectorEnv& v) { return v.env->num_envs(); })
      .def_property_readonly("num_players", [](const PyVectorEnv& v) { return v.env->num_players(); })
      .def_property_readonly("observation_size", [](const PyVectorEnv& v) { return v.env->observation_size(); })
      .def_property_readonly("num_actions", [](const PyVectorEnv& v) { return v.env->num_actions(); })
      .def_property_readonly("threads", [](const PyVectorEnv& v) { return v.env->threads(); })
      .def_property_readonly("external_chance", [](const PyVectorEnv& v) { return v.env->external_chance(); })
      .def_property_readonly("seat",
                             [](const PyVectorEnv& v) -> std::optional<int> {
                               if (v.env->seat() < 0) return std::nullopt;
                               return v.env->seat();
                             })
      .def(
          "reset",
          [](PyVectorEnv& v, const ArrayDict& out) {
            const engine::VectorBuffers buffers = vector_buffers(*v.env, out);
            vector_call(v.env->interruptible(), [&](const StopFlag* stop) {
              v.env->reset(buffers, stop);
              return 0;
            });
          },
          py::arg("out"))
      .def(
          "step",
          [](PyVectorEnv& v, const Int64Array& actions_arg, const ArrayDict& out) {
            const auto actions = py::reinterpret_borrow<py::array>(actions_arg);
            const int64_t n = v.env->num_envs();
            if (!py::isinstance<py::array_t<int64_t>>(actions) || actions.ndim() != 1 || actions.shape(0) != n ||
                !(actions.flags() & py::array::c_style))
              throw std::invalid_argument("step: actions must be a C-ordered int64 array of shape (" +
                                          std::to_string(n) + ",)");
            const engine::VectorBuffers buffers = vector_buffers(*v.env, out);
            const int64_t* a = static_cast<const int64_t*>(actions.data());
            vector_call(v.env->interruptible(), [&](const StopFlag* stop) {
              v.env->step(a, buffers, stop);
              return 0;
            });
          },
          py::arg("actions"), py::arg("out"))
      .def(
          "random_actions",
          [](PyVectorEnv& v, const Int64Array& out_arg) {
            auto out = py::reinterpret_borrow<py::array>(out_arg);
            if (!py::isinstance<py::array_t<int64_t>>(out) || out.ndim() != 1 || out.shape(0) != v.env->num_envs() ||
                !(out.flags() & py::array::c_style) || !out.writeable())
              throw std::invalid_argument("random_actions: out must be a writeable int64 array of shape (" +
                                          std::to_string(v.env->num_envs()) + ",)");
            int64_t* a = static_cast<int64_t*>(out.mutable_data());
            py::gil_scoped_release release;
            v.env->random_actions(a);
          },
          py::arg("out"))
      .def(
          "search_check",
          [](const PyVectorEnv& v, const JsonDict& settings, std::optional<std::shared_ptr<Network>> network) {
            engine::SearchRequest request = engine::parse_search_request(json_from_py(settings), "search");
            request.network = network.value_or(nullptr);
            v.env->search_check(request);
          },
          py::arg("settings"), py::arg("network") = py::none())
      .def(
          "search_start",
          [](PyVectorEnv& v, const JsonDict& settings, const IndexArg& seed, const ArrayDict& leaves,
             std::optional<std::shared_ptr<Network>> network) {
            engine::SearchRequest request = engine::parse_search_request(json_from_py(settings), "search");
            request.network = network.value_or(nullptr);
            const uint64_t s = seed_arg(seed);
            const engine::LeafBuffers buffers = leaf_buffers(*v.env, leaves);
            return vector_call(true,
                               [&](const StopFlag* stop) { return v.env->search_start(request, s, buffers, stop); });
          },
          py::arg("settings"), py::arg("seed"), py::arg("leaves"), py::arg("network") = py::none())
      .def(
          "search_evaluate",
          [](PyVectorEnv& v, const Float32Array& values, const Float32ArrayOrNone& priors, const ArrayDict& leaves) {
            const py::ssize_t n = v.env->num_envs();
            const float* vals = input_array(values, "values", {n, v.env->num_players()});
            const float* pri = priors.is_none() ? nullptr : input_array(priors, "priors", {n, v.env->num_actions()});
            const engine::LeafBuffers buffers = leaf_buffers(*v.env, leaves);
            return vector_call(true,
                               [&](const StopFlag* stop) { return v.env->search_evaluate(vals, pri, buffers, stop); });
          },
          py::arg("values"), py::arg("priors"), py::arg("leaves"))
      .def(
          "search_result",
          [](const PyVectorEnv& v, const ArrayDict& out) {
            const py::ssize_t n = v.env->num_envs(), a = v.env->num_actions(), p = v.env->num_players();
            engine::SearchResultBuffers b;
            b.action = vector_array<int64_t>(out, "action", {n});
            b.visits = vector_array<int32_t>(out, "visits", {n, a});
            b.value = vector_array<float>(out, "value", {n, p});
            b.iterations = vector_array<int32_t>(out, "iterations", {n});
            v.env->search_result(b);
          },
          py::arg("out"))
      .def(
          "set_state",
          [](PyVectorEnv& v, const IndexArg& i, const BytesArg& bytes, const ArrayDict& out) {
            const int index = static_cast<int>(int_arg(i, "i", 0, v.env->num_envs() - 1));
            v.env->set_state(index, bytes_arg(bytes, "set_state: state"), vector_buffers(*v.env, out));
          },
          py::arg("i"), py::arg("state"), py::arg("out"))
      .def(
          "serialized_state",
          [](const PyVectorEnv& v, const IndexArg& i) {
            return py::bytes(v.env->serialized_state(static_cast<int>(int_arg(i, "i", 0, v.env->num_envs() - 1))));
          },
          py::arg("i"));
  // The caps (engine/any.h, docs/vector.md), as plain class attributes.
  vector_env.attr("MAX_NUM_ENVS") = engine::kMaxVectorEnvs;
  vector_env.attr("MAX_BYTES") = engine::kMaxVectorBytes;
  vector_env.attr("MAX_ITERATIONS") = engine::kMaxVectorIterations;
  vector_env.attr("MAX_OPPONENT_DEPTH") = engine::kMaxOpponentDepth;

  py::class_<engine::Bot>(m, "Bot", "One of nutcore's own bots (nutcore.make_bot wraps it).")
      .def(py::init([](const BotSpecArg& spec, const BotSettingsArg& settings) {
             if (!py::isinstance<py::str>(spec))
               throw std::invalid_argument("a bot spec is a string such as 'mcts:iterations=2000', got " +
                                           py_repr(spec));
             const std::string text = spec.cast<std::string>();
             if (settings.is_none()) return std::make_unique<engine::Bot>(engine::parse_bot_spec(text));
             return std::make_unique<engine::Bot>(engine::make_bot_spec(text, json_from_py(settings)));
           }),
           py::arg("spec"), py::arg("settings") = py::none())
      .def_property("name", &engine::Bot::name, &engine::Bot::set_name)
      .def_property_readonly("kind", [](const engine::Bot& b) { return b.spec().kind_name(); })
      .def_property_readonly("settings", [](const engine::Bot& b) { return json_object_to_py(b.spec().settings); })
      .def_property_readonly("memory", [](const engine::Bot& b) { return b.spec().memory; })
      .def_property_readonly("noise", [](const engine::Bot& b) { return b.spec().noise; })
      .def_property_readonly("reuse", [](const engine::Bot& b) { return b.spec().reuse; })
      .def_property_readonly("level", [](const engine::Bot& b) { return b.spec().level; })
      .def(
          "reset", [](engine::Bot& b, const IndexArg& seed) { b.reset(seed_arg(seed)); }, py::arg("seed"))
      .def(
          "check_for", [](engine::Bot& b, const engine::AnyState& s) { b.check_for(s); }, py::arg("state"))
      .def(
          "step",
          [](engine::Bot& b, const engine::AnyState& state, const Maybe<StopToken>& stop_token) {
            StopToken* token = maybe_ptr(stop_token);
            std::shared_ptr<const engine::AnyState> copy = state.clone();
            SearchProgress* progress = token ? &token->progress : nullptr;
            return run_interruptible([&](const StopFlag* stop) { return b.step(*copy, stop, progress); }, token);
          },
          py::arg("state"), py::arg("stop") = py::none(), "The bot's move at a decision node (the GIL released).");
  m.def(
      "parse_bot_spec",
      [](const std::string& spec) {
        const engine::BotSpec b = engine::parse_bot_spec(spec);
        JsonDict d;
        d["kind"] = b.kind_name();
        d["settings"] = json_to_py(b.settings);
        if (b.memory != 1) d["memory"] = b.memory;
        if (b.noise != 0) d["noise"] = b.noise;
        d["name"] = b.name;
        return d;
      },
      py::arg("spec"), "A spec's parts, checked: kind, settings (of its search), memory, noise, name.");
  m.def("level_spec", &engine::level_spec, py::arg("game"), py::arg("level"), py::arg("players") = 0,
        "The bot spec of difficulty level 1..NUM_LEVELS on a game (its own table, or the generic one); with "
        "players, the level below where that one needs a network not built in for that player count.");
  m.attr("NUM_LEVELS") = kNumLevels;

  // The one reader of JSON files (engine/catalogue.h): load_game's data parameters, the command line.
  m.attr("MAX_JSON_FILE_BYTES") = engine::kMaxJsonFileBytes;
  m.def(
      "read_json_file",
      [](const PathArg& path_arg, const std::string& what) {
        const std::string path = path_arg.cast<std::string>();
        Json data = Json::null();
        {
          py::gil_scoped_release release;  // a slow disk holds up no other thread
          data = engine::read_json_file(path, what);
        }
        return json_to_py(data);
      },
      py::arg("path"), py::arg("what"),
      "A regular file of at most MAX_JSON_FILE_BYTES of UTF-8 JSON, as Python values; ValueError naming the "
      "path (after `what`: ) otherwise.");

  // The protocol engine (engine/protocol.h).
  m.attr("PROTOCOL_VERSION") = engine::kProtocolVersion;
  m.attr("MAX_LINE_BYTES") = engine::kMaxLineBytes;
  py::class_<engine::SearchSlots, std::shared_ptr<engine::SearchSlots>>(m, "SearchSlots",
                                                                        "Searches that may run at once over engines.")
      .def(py::init([](const IndexArg& size) {
             return std::make_shared<engine::SearchSlots>(static_cast<int>(int_arg(size, "searches", 1, 10000)));
           }),
           py::arg("size"))
      .def_property_readonly("size", &engine::SearchSlots::size);
  py::class_<PyEngine>(m, "Engine", "One connection's game and its commands (docs/engine-protocol.md).")
      .def(
          py::init([](SendArg send, const JsonDict& limits, std::optional<std::shared_ptr<engine::SearchSlots>> slots) {
            return std::make_unique<PyEngine>(std::move(send), engine::Limits::from_json(json_from_py(limits)),
                                              slots.value_or(nullptr));
          }),
          py::arg("send"), py::arg("limits"), py::arg("slots") = py::none())
      .def(
          "handle",
          [](PyEngine& e, const LineArg& line) {
            const std::string text = line_arg(line);
            py::gil_scoped_release release;
            e.engine->handle(text);
          },
          py::arg("line"))
      .def(
          "close",
          [](PyEngine& e, bool wait) {
            py::gil_scoped_release release;
            e.engine->close(wait);
          },
          py::arg("wait") = true)
      .def("drop", [](PyEngine& e) { e.engine->drop(); })
      .def_property_readonly("closed", [](const PyEngine& e) { return e.engine->closed(); })
      .def_property_readonly("searching",
                             [](const PyEngine& e) {
                               py::gil_scoped_release release;
                               return e.engine->searching();
                             })
      .def("wait_for_search",
           [](PyEngine& e) {
             py::gil_scoped_release release;
             e.engine->wait_for_search();
           })
      .def(
          "_full_state",
          [](const PyEngine& e) { return json_object_to_py(without_gil([&] { return e.engine->full_state_json(); })); },
          "For tests: the true position (not a protocol command).")
      .def(
          "_connection",
          [](const PyEngine& e) { return json_object_to_py(without_gil([&] { return e.engine->connection_json(); })); },
          "For tests: the game being played and the connection's seat.")
      .def(
          "_replace_full_state",
          [](PyEngine& e, const JsonDict& position) {
            const Json full = json_from_py(position);
            without_gil([&] {
              e.engine->replace_full_state(full);
              return 0;
            });
          },
          py::arg("position"), "For tests: another position for the truth (one the seat cannot tell from it).");
  m.def(
      "run_stdio",
      [](const JsonDict& limits) {
        const engine::Limits l = engine::Limits::from_json(json_from_py(limits));
        std::optional<py::error_already_set> interrupt;
        int code;
        {
          py::gil_scoped_release release;
          code = engine::run_stdio(0, 1, l, [&] {
            py::gil_scoped_acquire acquire;
            if (PyErr_CheckSignals() != 0) interrupt.emplace();  // takes the pending exception
            return interrupt.has_value();
          });
        }
        if (interrupt) throw std::move(*interrupt);
        return code;
      },
      py::arg("limits"), "The protocol on this process's stdin and stdout until the end of input or quit.");

  m.def(
      "game_infos",
      [] {
        py::typing::List<JsonDict> out;
        for (const engine::GameInfo& g : engine::game_infos()) {
          JsonDict d;
          d["name"] = g.name;
          d["title"] = g.title;
          d["tag"] = g.tag;
          d["hidden_information"] = g.hidden_information;
          d["whole_game_solver"] = g.whole_game_solver;
          d["memory_aids"] = g.memory_aids;
          d["min_players"] = g.min_players;
          d["max_players"] = g.max_players;
          py::list algorithms;
          for (int i = 0; i < kNumAlgorithms; ++i)
            if (g.algorithms.has(static_cast<Algorithm>(i))) algorithms.append(kAlgorithmNames[i]);
          d["algorithms"] = py::tuple(algorithms);
          d["search_defaults"] = json_to_py(g.search_defaults);
          d["levels"] = g.levels;
          out.append(d);
        }
        return out;
      },
      "The declared games: name, title, tag, hidden_information, players, algorithms, search defaults, levels.");
}

}  // namespace nutcore::bindings
