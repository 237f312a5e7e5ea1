// A game in play (session.h): the moves, chance, undo and the views of one connection, and the
// rule of what a seat may see.
#include "engine/session.h"

#include <cstdint>
#include <stdexcept>

namespace nutcore::engine {

namespace {

[[noreturn]] void refuse(const std::string& code, const std::string& message) { throw SessionError{code, message}; }

MoveView move_view(const AnyState& state, Action action) { return {action, state.action_to_string(action), {}}; }

}  // namespace

Json MoveView::to_json() const {
  Json m = Json::object();
  m.set("action", action >= 0 ? Json::integer(action) : Json::null());
  m.set("action_string", Json::string(text));
  if (probability) m.set("probability", Json::number(*probability));
  return m;
}

Json StatusView::to_json(bool searching) const {
  Json s = Json::object();
  s.set("current_player", current_player >= 0 ? Json::integer(current_player) : Json::null());
  s.set("chance", Json::boolean(chance));
  s.set("terminal", Json::boolean(terminal));
  Json out_scores = Json::null(), out_returns = Json::null();
  if (scores) {
    out_scores = Json::array();
    for (int x : *scores) out_scores.push(Json::integer(x));
  }
  if (returns) {
    out_returns = Json::array();
    for (double x : *returns) out_returns.push(Json::number(x));
  }
  s.set("scores", out_scores);
  s.set("returns", out_returns);
  s.set("searching", Json::boolean(searching));
  return s;
}

void Session::start(std::shared_ptr<const AnyGame> game, std::optional<int> seat, uint64_t seed) {
  game_ = std::move(game);
  seat_ = seat;
  seed_ = seed;
  rng_.reseed(seed);
  state_ = game_->new_initial_state();
  steps_.clear();
}

void Session::set_position(const Json& position, const std::string& who) {
  state(who);
  try {
    state_ = game_->state_from_json(position);
  } catch (const std::invalid_argument& e) {
    refuse("bad_request", who + ": " + e.what());
  }
  steps_.clear();
}

const AnyState& Session::state(const std::string& who) const {
  if (!state_) refuse("no_game", who + ": no game yet; send new_game first");
  return *state_;
}

const AnyState& Session::to_search(const std::string& who, bool own_seat_only) const {
  const AnyState& now = state(who);
  if (now.is_terminal() || now.is_chance_node())
    refuse("not_now", who + ": there is no move to choose (" +
                          (now.is_terminal() ? std::string("the game is over") : "a chance node: send chance") + ")");
  if (own_seat_only && hiding() && now.current_player() != *seat_)
    refuse("hidden", who + ": seat " + std::to_string(now.current_player()) +
                         " is to move; this connection plays seat " + std::to_string(*seat_) +
                         " and sees only its own searches (send go to let the engine play that seat)");
  return now;
}

bool Session::hiding() const { return seat_ && game_ && game_->info().hidden_information; }

// Always for perfect information and for a host; for a seat of a game of hidden information only
// its own decisions: a list of another seat's moves or of the outcomes with their probabilities
// can give away cards (a hand, the deck's make-up).
bool Session::may_see_choice(const AnyState& state) const {
  return !hiding() || (!state.is_chance_node() && state.current_player() == *seat_);
}

// The engine names no game: which moves are public (a die roll, a face-up card) is the game's
// observe hook's to say.
std::optional<MoveView> Session::seen(const AnyState& state, Action action) const {
  if (!hiding()) return move_view(state, action);
  Observed o = state.observe(action, *seat_);
  if (o.text.empty()) return std::nullopt;
  return MoveView{o.whole ? action : -1, std::move(o.text), {}};
}

StatusView Session::status() const {
  const AnyState& state = *state_;
  StatusView s;
  s.current_player = state.current_player();
  s.chance = state.is_chance_node();
  s.terminal = state.is_terminal();
  // A seat of a game of hidden information reads the scores it may know from its board; the
  // result is announced when the game is over.
  if (!hiding() || state.is_terminal()) {
    s.scores = state.scores();
    s.returns = state.returns();
  }
  return s;
}

std::optional<std::vector<MoveView>> Session::legal() const {
  const AnyState& state = *state_;
  std::vector<MoveView> out;
  if (state.is_terminal()) return out;
  if (!may_see_choice(state)) return std::nullopt;
  if (state.is_chance_node()) {
    for (const auto& [a, p] : state.chance_outcomes()) {
      MoveView m = move_view(state, a);
      m.probability = p;
      out.push_back(std::move(m));
    }
    return out;
  }
  for (Action a : state.legal_actions()) out.push_back(move_view(state, a));
  return out;
}

Json Session::position(const std::string& who) const {
  const AnyState& now = state(who);
  if (hiding())  // even at the end: cards discarded unseen stay unseen
    refuse("hidden",
           who + ": the position holds what seat " + std::to_string(*seat_) + " has not seen; ask for the board");
  return now.to_json();
}

Json Session::board(std::optional<int> seat, bool memory_aids, const std::string& who) const {
  const AnyState& now = state(who);
  if (hiding()) {
    if (seat && *seat != *seat_)
      refuse("hidden",
             who + ": this connection plays seat " + std::to_string(*seat_) + ", not seat " + std::to_string(*seat));
    seat = *seat_;
  }
  return board_json(now, seat, memory_aids);
}

Action Session::resolve_move(const AnyState& state, const MoveRef& move, size_t index, const std::string& who) const {
  std::string text = move.shown;
  if (text.empty())
    text = std::holds_alternative<int64_t>(move.move) ? std::to_string(std::get<int64_t>(move.move))
                                                      : Json::string(std::get<std::string>(move.move)).dump();
  if (text.size() > 80) text = text.substr(0, 80);
  const std::string where = who + ": move " + std::to_string(index) + " (" + text + ")";
  if (state.is_terminal()) refuse("illegal_move", where + ": the game is over");
  const bool chance = state.is_chance_node();
  const int player = state.current_player();
  if (!may_see_choice(state)) {
    if (chance)
      refuse("hidden",
             where + ": chance outcomes are drawn by the engine for seat " + std::to_string(*seat_) + "; send chance");
    refuse("hidden", where + ": seat " + std::to_string(player) + "'s move is hidden from seat " +
                         std::to_string(*seat_) + "; send go to let the engine play it");
  }
  Action action = -1;
  if (const auto* name = std::get_if<std::string>(&move.move)) {
    try {
      action = state.string_to_action(*name);
    } catch (const std::invalid_argument&) {
      action = -1;
    }
  } else {
    const int64_t id = std::get<int64_t>(move.move);
    if (id >= 0 && id <= INT32_MAX) action = static_cast<Action>(id);
  }
  if (action < 0 || !state.is_legal(action))
    refuse("illegal_move",
           where + ": not " +
               (chance ? std::string("a chance outcome") : "a legal move for seat " + std::to_string(player)) +
               " here (nothing was applied; send legal)");
  return action;
}

std::vector<Played> Session::apply(const std::vector<MoveRef>& moves, const std::string& who) {
  std::unique_ptr<AnyState> now = state(who).clone();
  std::vector<Played> played;
  std::vector<Step> steps;
  for (size_t i = 0; i < moves.size(); ++i) {
    const Action action = resolve_move(*now, moves[i], i, who);
    played.push_back({now->current_player(), seen(*now, action)});  // what its own move revealed too
    steps.push_back({now->clone(), !now->is_chance_node(), played.back()});
    now->apply_action(action);
  }
  state_ = std::move(now);  // all or nothing: the position changes only here
  for (auto& step : steps) steps_.push_back(std::move(step));
  return played;
}

Played Session::chance(const std::string& who) {
  AnyState& now = *state_;
  if (!now.is_chance_node())
    refuse("not_now", who + ": not a chance node (current player " + std::to_string(now.current_player()) + ")");
  const auto outcomes = now.chance_outcomes();
  double total = 0;
  for (const auto& o : outcomes) total += o.second;
  const double u = rng_.uniform() * total;
  size_t k = 0;
  double sum = 0;
  for (; k + 1 < outcomes.size(); ++k) {
    sum += outcomes[k].second;
    if (u < sum) break;
  }
  const auto [action, probability] = outcomes[k];
  Played out{now.current_player(), seen(now, action)};
  if (out.move && may_see_choice(now)) out.move->probability = probability;  // where the outcomes may be seen
  steps_.push_back({now.clone(), false, out});
  now.apply_action(action);
  return out;
}

Played Session::play(Action action) {
  Played out{state_->current_player(), seen(*state_, action)};
  steps_.push_back({state_->clone(), false, out});
  state_->apply_action(action);
  return out;
}

int Session::undo(int count, const std::string& who) {
  state(who);
  // Back to before the count-th last move the connection gave by apply, undoing whatever followed
  // it (the engine's moves, chance).
  std::vector<size_t> own;
  for (size_t i = 0; i < steps_.size(); ++i)
    if (steps_[i].own) own.push_back(i);
  if (own.size() < static_cast<size_t>(count))
    refuse("not_now", who + ": " + std::to_string(count) + " move(s) of this connection to undo wanted, " +
                          (own.empty() ? std::string("none") : "only " + std::to_string(own.size())) +
                          " since the game or position began (undo takes back moves given by apply)");
  const size_t index = own[own.size() - count];
  std::unique_ptr<AnyState> before = std::move(steps_[index].before);
  steps_.erase(steps_.begin() + static_cast<long>(index), steps_.end());
  if (hiding()) {
    // The truth behind the seat's view is drawn afresh from what the seat knows: else undoing and
    // replaying would sample the same hidden cards again and again and give them away.
    before = before->resample(*seat_, rng_.next());
  }
  state_ = std::move(before);
  return count;
}

// A search's settings within the owner's limits, read and checked against `state`'s game
// (bad_request): before the generator moves, so that a refusal changes nothing.
SearchRequest Session::checked_request(const AnyState& state, Json settings, const std::function<void(Json&)>& limit,
                                       const std::string& who) {
  limit(settings);
  try {
    SearchRequest request = parse_search_request(settings, who);
    prepare_search(state, request, false, who);
    return request;
  } catch (const std::invalid_argument& e) {
    refuse("bad_request", e.what());
  }
}

SearchJob Session::best_move(Json settings, const std::function<void(Json&)>& limit, const std::string& who,
                             bool memory_aids) {
  const AnyState& now = to_search(who, true);
  SearchJob job{who, nullptr, checked_request(now, std::move(settings), limit, who), nullptr, true};
  if (!job.request->seed) job.request->seed = next_seed();
  // The forgetting is drawn from the search's seed: the same seed gives the same hint, whatever the
  // seat once saw and was asked to remember.
  job.state = memory_aids ? now.clone() : now.forget(now.current_player(), 0.0, *job.request->seed);
  return job;
}

std::variant<SearchJob, Played> Session::go(Json settings, std::optional<BotSpec> spec,
                                            const std::function<void(Json&)>& limit, const std::string& who) {
  const AnyState& now = to_search(who, false);
  std::unique_ptr<Bot> bot;
  if (spec) {
    const std::string shown_name = spec->name;
    if (spec->kind == BotSpec::Kind::kLevel)
      spec = parse_bot_spec(level_spec(name(), spec->level, now.game().num_players()));  // as this game sets it
    try {
      Bot(*spec).check_for(now);
    } catch (const std::invalid_argument&) {
      refuse("bad_request", who + ": bot " + shown_name + " is not available for " + name());
    }
    const bool plain = spec->kind == BotSpec::Kind::kSearch && spec->memory == 1 && spec->noise == 0 &&
                       spec->algorithm != Algorithm::kSolver;
    if (plain) {
      // A search bot's move is best_move with its settings: run that, to answer with its statistics.
      settings = spec->settings;
      settings.set("algorithm", Json::string(spec->kind_name()));
      spec.reset();
    } else if (spec->kind == BotSpec::Kind::kSearch) {
      // A bot's own search stays within the owner's limits too.
      Json limited = spec->settings;
      limited.set("algorithm", Json::string(spec->kind_name()));
      limit(limited);
      Json parts = Json::object();
      for (const auto& [key, value] : limited.items("settings"))
        if (key != "algorithm") parts.set(key, value);
      if (spec->memory != 1) parts.set("memory", Json::number(spec->memory));
      if (spec->noise != 0) parts.set("noise", Json::number(spec->noise));
      if (spec->reuse) parts.set("reuse", Json::boolean(true));
      try {
        spec = make_bot_spec(spec->kind_name(), parts);
      } catch (const std::invalid_argument& e) {
        refuse("bad_request", who + ": " + e.what());
      }
    }
    if (spec) {
      bot = std::make_unique<Bot>(*spec);
      bot->set_name(shown_name);
    }
  }
  std::optional<SearchRequest> request;
  if (!bot) {
    request = checked_request(now, std::move(settings), limit, who);  // before the generator moves
  } else {
    bot->reset(next_seed());
  }
  const uint64_t seed = next_seed();
  if (request && !request->seed) request->seed = seed;
  if (bot && spec->kind != BotSpec::Kind::kSearch) {
    // Greedy and random choose at once: played here, so that nothing can stop them half way.
    return play(bot->step(now));
  }
  return SearchJob{who, now.clone(), std::move(request), std::move(bot), may_see_choice(now)};
}

Found Session::search(SearchJob& job, const StopFlag* stop, SearchProgress* progress) {
  Found found;
  if (job.bot) {
    found.action = job.bot->step(*job.state, stop, progress);
  } else {
    found.outcome = engine::best_move(*job.state, *job.request, stop, progress, nullptr, job.command);
    found.action = found.outcome->action;
  }
  return found;
}

std::vector<Played> Session::record() const {
  std::vector<Played> out;
  out.reserve(steps_.size());
  for (const Step& step : steps_) out.push_back(step.played);
  return out;
}

void Session::replace_full_state(const Json& position) {
  if (!state_) throw std::invalid_argument("no game yet");
  state_ = game_->state_from_json(position);
}

}  // namespace nutcore::engine
