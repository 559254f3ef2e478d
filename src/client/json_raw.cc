// Raw JSON slicing (json_raw.h): a bracket/string-aware scanner.
#include "client/json_raw.h"

namespace hoglake::client::json_raw {
namespace {

bool IsSpace(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

size_t SkipSpace(std::string_view t, size_t i) {
  while (i < t.size() && IsSpace(t[i])) ++i;
  return i;
}

// The index just past the string starting at t[i] == '"'.
size_t StringEnd(std::string_view t, size_t i) {
  for (++i; i < t.size(); ++i) {
    if (t[i] == '\\') {
      ++i;
    } else if (t[i] == '"') {
      return i + 1;
    }
  }
  return t.size();
}

// The index just past the value starting at t[i].
size_t ValueEnd(std::string_view t, size_t i) {
  if (i >= t.size()) return t.size();
  if (t[i] == '"') return StringEnd(t, i);
  if (t[i] == '{' || t[i] == '[') {
    int depth = 0;
    while (i < t.size()) {
      const char c = t[i];
      if (c == '"') {
        i = StringEnd(t, i);
        continue;
      }
      if (c == '{' || c == '[') ++depth;
      if (c == '}' || c == ']') {
        if (--depth == 0) return i + 1;
      }
      ++i;
    }
    return t.size();
  }
  while (i < t.size() && t[i] != ',' && t[i] != '}' && t[i] != ']' && !IsSpace(t[i])) ++i;
  return i;
}

}  // namespace

std::string Compact(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  size_t i = 0;
  while (i < text.size()) {
    if (text[i] == '"') {
      const size_t end = StringEnd(text, i);
      out.append(text.substr(i, end - i));
      i = end;
    } else {
      if (!IsSpace(text[i])) out.push_back(text[i]);
      ++i;
    }
  }
  return out;
}

std::vector<std::string_view> ArrayElements(std::string_view text) {
  std::vector<std::string_view> out;
  size_t i = SkipSpace(text, 0);
  if (i >= text.size() || text[i] != '[') return out;
  i = SkipSpace(text, i + 1);
  while (i < text.size() && text[i] != ']') {
    const size_t end = ValueEnd(text, i);
    out.push_back(text.substr(i, end - i));
    i = SkipSpace(text, end);
    if (i < text.size() && text[i] == ',') i = SkipSpace(text, i + 1);
    if (end == i && i < text.size() && text[i] != ']') break;  // malformed: stop
  }
  return out;
}

std::string_view ObjectMember(std::string_view text, std::string_view key) {
  size_t i = SkipSpace(text, 0);
  if (i >= text.size() || text[i] != '{') return {};
  i = SkipSpace(text, i + 1);
  while (i < text.size() && text[i] == '"') {
    const size_t key_end = StringEnd(text, i);
    const std::string_view name = text.substr(i + 1, key_end - i - 2);
    i = SkipSpace(text, key_end);
    if (i >= text.size() || text[i] != ':') return {};
    i = SkipSpace(text, i + 1);
    const size_t end = ValueEnd(text, i);
    if (name == key) return text.substr(i, end - i);
    i = SkipSpace(text, end);
    if (i < text.size() && text[i] == ',') i = SkipSpace(text, i + 1);
  }
  return {};
}

}  // namespace hoglake::client::json_raw
