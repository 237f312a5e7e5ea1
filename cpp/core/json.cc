#include "core/json.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <stdexcept>

namespace nutcore {

Json Json::boolean(bool b) { Json j; j.type_ = Type::kBool; j.bool_ = b; return j; }
Json Json::integer(int64_t i) { Json j; j.type_ = Type::kInt; j.int_ = i; return j; }
Json Json::number(double d) { Json j; j.type_ = Type::kDouble; j.double_ = d; return j; }
Json Json::string(std::string s) { Json j; j.type_ = Type::kString; j.string_ = std::move(s); return j; }
Json Json::array() { Json j; j.type_ = Type::kArray; return j; }
Json Json::object() { Json j; j.type_ = Type::kObject; return j; }

namespace {

[[noreturn]] void fail(const std::string& message) { throw std::invalid_argument(message); }

class Parser {
 public:
  explicit Parser(const std::string& text) : text_(text) {}

  Json parse_document() {
    Json value = parse_value(0);
    skip_space();
    if (pos_ != text_.size()) fail("JSON: trailing characters at offset " + std::to_string(pos_));
    return value;
  }

 private:
  static constexpr int kMaxDepth = 64;
  const std::string& text_;
  size_t pos_ = 0;

  void skip_space() {
    while (pos_ < text_.size() && (text_[pos_] == ' ' || text_[pos_] == '\n' ||
                                   text_[pos_] == '\r' || text_[pos_] == '\t'))
      ++pos_;
  }
  bool consume(const char* word) {
    size_t n = std::char_traits<char>::length(word);
    if (text_.compare(pos_, n, word) != 0) return false;
    pos_ += n;
    return true;
  }
  char peek() {
    skip_space();
    if (pos_ >= text_.size()) fail("JSON: unexpected end of text");
    return text_[pos_];
  }

  Json parse_value(int depth) {
    if (depth > kMaxDepth) fail("JSON: nested too deeply");
    char c = peek();
    if (c == '{') return parse_object(depth);
    if (c == '[') return parse_array(depth);
    if (c == '"') return Json::string(parse_string());
    if (consume("true")) return Json::boolean(true);
    if (consume("false")) return Json::boolean(false);
    if (consume("null")) return Json::null();
    return parse_number();
  }

  Json parse_object(int depth) {
    Json obj = Json::object();
    ++pos_;
    if (peek() == '}') { ++pos_; return obj; }
    for (;;) {
      if (peek() != '"') fail("JSON: expected a key at offset " + std::to_string(pos_));
      std::string key = parse_string();
      if (obj.find(key)) fail("JSON: duplicate key \"" + key + "\"");
      if (peek() != ':') fail("JSON: expected ':' at offset " + std::to_string(pos_));
      ++pos_;
      obj.set(key, parse_value(depth + 1));
      char c = peek();
      ++pos_;
      if (c == '}') return obj;
      if (c != ',') fail("JSON: expected ',' or '}' at offset " + std::to_string(pos_ - 1));
    }
  }

  Json parse_array(int depth) {
    Json arr = Json::array();
    ++pos_;
    if (peek() == ']') { ++pos_; return arr; }
    for (;;) {
      arr.push(parse_value(depth + 1));
      char c = peek();
      ++pos_;
      if (c == ']') return arr;
      if (c != ',') fail("JSON: expected ',' or ']' at offset " + std::to_string(pos_ - 1));
    }
  }

  std::string parse_string() {
    ++pos_;  // opening quote
    std::string out;
    while (pos_ < text_.size()) {
      char c = text_[pos_++];
      if (c == '"') return out;
      if (static_cast<unsigned char>(c) < 0x20) fail("JSON: control character in string");
      if (c != '\\') { out += c; continue; }
      if (pos_ >= text_.size()) break;
      char e = text_[pos_++];
      switch (e) {
        case '"': out += '"'; break;
        case '\\': out += '\\'; break;
        case '/': out += '/'; break;
        case 'b': out += '\b'; break;
        case 'f': out += '\f'; break;
        case 'n': out += '\n'; break;
        case 'r': out += '\r'; break;
        case 't': out += '\t'; break;
        case 'u': {
          if (pos_ + 4 > text_.size()) fail("JSON: bad \\u escape");
          unsigned code = 0;
          for (int i = 0; i < 4; ++i) {
            char h = text_[pos_++];
            code <<= 4;
            if (h >= '0' && h <= '9') code |= h - '0';
            else if (h >= 'a' && h <= 'f') code |= h - 'a' + 10;
            else if (h >= 'A' && h <= 'F') code |= h - 'A' + 10;
            else fail("JSON: bad \\u escape");
          }
          // Game data is ASCII; other code points are kept as UTF-8 (surrogates rejected).
          if (code >= 0xD800 && code <= 0xDFFF) fail("JSON: surrogate escapes are not supported");
          if (code < 0x80) {
            out += static_cast<char>(code);
          } else if (code < 0x800) {
            out += static_cast<char>(0xC0 | (code >> 6));
            out += static_cast<char>(0x80 | (code & 0x3F));
          } else {
            out += static_cast<char>(0xE0 | (code >> 12));
            out += static_cast<char>(0x80 | ((code >> 6) & 0x3F));
            out += static_cast<char>(0x80 | (code & 0x3F));
          }
          break;
        }
        default: fail("JSON: bad escape");
      }
    }
    fail("JSON: unterminated string");
  }

  Json parse_number() {
    size_t start = pos_;
    if (pos_ < text_.size() && text_[pos_] == '-') ++pos_;
    bool is_integer = true;
    while (pos_ < text_.size()) {
      char c = text_[pos_];
      if (c >= '0' && c <= '9') { ++pos_; continue; }
      if (c == '.' || c == 'e' || c == 'E' || c == '+' || c == '-') { is_integer = false; ++pos_; continue; }
      break;
    }
    std::string token = text_.substr(start, pos_ - start);
    if (token.empty() || token == "-") fail("JSON: unexpected character at offset " + std::to_string(start));
    if (is_integer) {
      if (token.size() > 18) fail("JSON: integer out of range: " + token);
      return Json::integer(std::strtoll(token.c_str(), nullptr, 10));
    }
    char* end = nullptr;
    double d = std::strtod(token.c_str(), &end);
    if (end != token.c_str() + token.size() || !std::isfinite(d)) fail("JSON: bad number " + token);
    return Json::number(d);
  }
};

const char* type_name(Json::Type t) {
  switch (t) {
    case Json::Type::kNull: return "null";
    case Json::Type::kBool: return "a boolean";
    case Json::Type::kInt: return "an integer";
    case Json::Type::kDouble: return "a number";
    case Json::Type::kString: return "a string";
    case Json::Type::kArray: return "a list";
    case Json::Type::kObject: return "an object";
  }
  return "?";
}

[[noreturn]] void wrong_type(const std::string& what, const char* wanted, Json::Type got) {
  fail(what + ": expected " + wanted + ", got " + type_name(got));
}

}  // namespace

Json Json::parse(const std::string& text) { return Parser(text).parse_document(); }

bool Json::as_bool(const std::string& what) const {
  if (type_ != Type::kBool) wrong_type(what, "a boolean", type_);
  return bool_;
}
int64_t Json::as_int(const std::string& what) const {
  if (type_ != Type::kInt) wrong_type(what, "an integer", type_);
  return int_;
}
double Json::as_number(const std::string& what) const {
  if (type_ == Type::kInt) return static_cast<double>(int_);
  if (type_ != Type::kDouble) wrong_type(what, "a number", type_);
  return double_;
}
const std::string& Json::as_string(const std::string& what) const {
  if (type_ != Type::kString) wrong_type(what, "a string", type_);
  return string_;
}
const std::vector<Json>& Json::as_array(const std::string& what) const {
  if (type_ != Type::kArray) wrong_type(what, "a list", type_);
  return array_;
}
const std::vector<std::pair<std::string, Json>>& Json::items(const std::string& what) const {
  if (type_ != Type::kObject) wrong_type(what, "an object", type_);
  return object_;
}

Json& Json::push(Json value) {
  array_.push_back(std::move(value));
  return array_.back();
}
Json& Json::set(const std::string& key, Json value) {
  for (auto& kv : object_)
    if (kv.first == key) return kv.second = std::move(value);
  object_.emplace_back(key, std::move(value));
  return object_.back().second;
}
const Json* Json::find(const std::string& key) const {
  for (const auto& kv : object_)
    if (kv.first == key) return &kv.second;
  return nullptr;
}

std::string Json::dump() const {
  std::string out;
  dump_to(out);
  return out;
}

void Json::dump_to(std::string& out) const {
  switch (type_) {
    case Type::kNull: out += "null"; break;
    case Type::kBool: out += bool_ ? "true" : "false"; break;
    case Type::kInt: out += std::to_string(int_); break;
    case Type::kDouble: {
      // The shortest text that reads back as the same double, always with a '.' or an exponent so
      // that it stays a float on the Python side (as json.dumps writes it).
      char buf[40];
      for (int precision = 15; precision <= 17; ++precision) {
        std::snprintf(buf, sizeof buf, "%.*g", precision, double_);
        if (std::strtod(buf, nullptr) == double_) break;
      }
      out += buf;
      if (!std::strpbrk(buf, ".eEn")) out += ".0";
      break;
    }
    case Type::kString:
      out += '"';
      for (char c : string_) {
        if (c == '"' || c == '\\') { out += '\\'; out += c; }
        else if (c == '\n') out += "\\n";
        else if (static_cast<unsigned char>(c) < 0x20) {
          char buf[8];
          std::snprintf(buf, sizeof buf, "\\u%04x", static_cast<unsigned>(c));
          out += buf;
        } else out += c;
      }
      out += '"';
      break;
    case Type::kArray:
      out += '[';
      for (size_t i = 0; i < array_.size(); ++i) {
        if (i) out += ',';
        array_[i].dump_to(out);
      }
      out += ']';
      break;
    case Type::kObject:
      out += '{';
      for (size_t i = 0; i < object_.size(); ++i) {
        if (i) out += ',';
        Json::string(object_[i].first).dump_to(out);
        out += ':';
        object_[i].second.dump_to(out);
      }
      out += '}';
      break;
  }
}

JsonObjectReader::JsonObjectReader(const Json& object, std::string what)
    : object_(object), what_(std::move(what)) {
  object_.items(what_);  // type check
}

const Json& JsonObjectReader::get(const std::string& key) {
  const Json* value = object_.find(key);
  if (!value) fail(what_ + ": missing key \"" + key + "\"");
  seen_.push_back(key);
  return *value;
}

const Json* JsonObjectReader::find(const std::string& key) {
  seen_.push_back(key);
  return object_.find(key);
}

void JsonObjectReader::finish() const {
  for (const auto& kv : object_.items(what_))
    if (std::find(seen_.begin(), seen_.end(), kv.first) == seen_.end())
      fail(what_ + ": unknown key \"" + kv.first + "\"");
}

int json_int_in(const Json& v, const std::string& what, int lo, int hi) {
  const int64_t x = v.as_int(what);
  if (x < lo || x > hi)
    fail(what + " = " + std::to_string(x) + " is outside " + std::to_string(lo) + ".." + std::to_string(hi));
  return static_cast<int>(x);
}

int name_index(const char* const* names, int count, const std::string& name, const std::string& what) {
  for (int i = 0; i < count; ++i)
    if (name == names[i]) return i;
  fail(what + ": unknown name \"" + name + "\"");
}

}  // namespace nutcore
