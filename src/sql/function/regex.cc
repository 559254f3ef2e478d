// The regular-expression engine of regex.h: a recursive-descent parser of
// the supported ARE subset into a node tree, and a matcher over sets of
// text positions (bit sets) that computes where a node can end given where
// it may start.
#include "sql/function/regex.h"

#include <algorithm>

#include "sql/sql_error.h"

namespace hoglake::sql {

struct RegexNode {
  enum Kind { kSet, kBol, kEol, kConcat, kAlt, kRepeat, kGroup, kEmpty } kind = kEmpty;
  std::vector<std::pair<uint32_t, uint32_t>> ranges;  // kSet: inclusive code point ranges
  bool negated = false;                               // kSet
  std::vector<int> kids;
  int min = 1, max = 1;  // kRepeat; max -1: unbounded
  bool lazy = false;     // kRepeat
  int capture = -1;      // kGroup: capture index, -1 for (?: )
  int pref = 0;          // 0 none, 1 longest, 2 shortest
  bool has_capture = false;
};

namespace {

Error Invalid(std::string_view what) {
  return SqlError(SqlErrorKind::kInvalidRegularExpression, "invalid regular expression: ", what);
}
Error Unsupported(std::string_view what) {
  return SqlError(SqlErrorKind::kFeatureNotSupported,
                  "regular expression feature not supported: ", what);
}

std::vector<uint32_t> CodePoints(std::string_view s, std::vector<int64_t>* offsets) {
  std::vector<uint32_t> cps;
  for (size_t i = 0; i < s.size();) {
    const auto b0 = static_cast<unsigned char>(s[i]);
    size_t len = b0 < 0x80 ? 1 : b0 < 0xE0 ? 2 : b0 < 0xF0 ? 3 : 4;
    len = std::min(len, s.size() - i);
    uint32_t cp = len == 1 ? b0 : len == 2 ? (b0 & 0x1F) : len == 3 ? (b0 & 0x0F) : (b0 & 0x07);
    for (size_t k = 1; k < len; ++k) cp = (cp << 6) | (static_cast<unsigned char>(s[i + k]) & 0x3F);
    if (offsets) offsets->push_back(static_cast<int64_t>(i));
    cps.push_back(cp);
    i += len;
  }
  if (offsets) offsets->push_back(static_cast<int64_t>(s.size()));
  return cps;
}

using Ranges = std::vector<std::pair<uint32_t, uint32_t>>;

void AddClass(std::string_view name, Ranges* r) {
  auto add = [&](uint32_t a, uint32_t b) { r->push_back({a, b}); };
  if (name == "digit" || name == "d") {
    add('0', '9');
  } else if (name == "alpha") {
    add('a', 'z'), add('A', 'Z');
  } else if (name == "alnum") {
    add('a', 'z'), add('A', 'Z'), add('0', '9');
  } else if (name == "word" || name == "w") {
    add('a', 'z'), add('A', 'Z'), add('0', '9'), add('_', '_');
  } else if (name == "upper") {
    add('A', 'Z');
  } else if (name == "lower") {
    add('a', 'z');
  } else if (name == "space" || name == "s") {
    add(' ', ' '), add('\t', '\r');
  } else if (name == "blank") {
    add(' ', ' '), add('\t', '\t');
  } else if (name == "punct") {
    add('!', '/'), add(':', '@'), add('[', '`'), add('{', '~');
  } else if (name == "xdigit") {
    add('0', '9'), add('a', 'f'), add('A', 'F');
  } else if (name == "cntrl") {
    add(0, 31), add(127, 127);
  } else if (name == "print") {
    add(32, 126);
  } else if (name == "graph") {
    add(33, 126);
  }
}

bool IsClassName(std::string_view name) {
  static constexpr std::string_view kNames[] = {"digit", "alpha", "alnum", "word",  "upper",
                                                "lower", "space", "blank", "punct", "xdigit",
                                                "cntrl", "print", "graph"};
  return std::find(std::begin(kNames), std::end(kNames), name) != std::end(kNames);
}

}  // namespace

class RegexParser {
 public:
  RegexParser(std::string_view pattern, Regex* re) : re_(re) {
    cps_ = CodePoints(pattern, nullptr);
  }

  Status Parse() {
    if (cps_.size() >= 3 && cps_[0] == '*' && cps_[1] == '*' && cps_[2] == '*') {
      return Unsupported("***: and ***= directors");
    }
    if (cps_.size() >= 2 && cps_[0] == '(' && cps_[1] == '?' &&
        (cps_.size() < 3 || cps_[2] != ':')) {
      return Unsupported("embedded options and lookaround constraints");
    }
    HOGLAKE_ASSIGN_OR_RETURN(re_->root_, ParseAlt());
    if (pos_ < cps_.size()) return Invalid("parentheses () not balanced");
    return Status::Ok();
  }

 private:
  bool AtEnd() const { return pos_ >= cps_.size(); }
  uint32_t Peek(size_t ahead = 0) const {
    return pos_ + ahead < cps_.size() ? cps_[pos_ + ahead] : 0xFFFFFFFF;
  }

  int Add(RegexNode node) {
    re_->nodes_.push_back(std::move(node));
    return static_cast<int>(re_->nodes_.size() - 1);
  }
  RegexNode& At(int i) { return re_->nodes_[i]; }

  int SetNode(Ranges ranges, bool negated) {
    RegexNode n;
    n.kind = RegexNode::kSet;
    n.ranges = std::move(ranges);
    n.negated = negated;
    return Add(std::move(n));
  }

  Result<int> ParseAlt() {
    std::vector<int> branches;
    HOGLAKE_ASSIGN_OR_RETURN(int first, ParseConcat());
    branches.push_back(first);
    while (Peek() == '|') {
      ++pos_;
      HOGLAKE_ASSIGN_OR_RETURN(int next, ParseConcat());
      branches.push_back(next);
    }
    if (branches.size() == 1) return first;
    RegexNode n;
    n.kind = RegexNode::kAlt;
    n.pref = 1;
    for (int b : branches) n.has_capture |= At(b).has_capture;
    n.kids = std::move(branches);
    return Add(std::move(n));
  }

  Result<int> ParseConcat() {
    std::vector<int> items;
    while (!AtEnd() && Peek() != '|' && Peek() != ')') {
      HOGLAKE_ASSIGN_OR_RETURN(int item, ParseQuantified());
      items.push_back(item);
    }
    if (items.size() == 1) return items[0];
    RegexNode n;
    n.kind = items.empty() ? RegexNode::kEmpty : RegexNode::kConcat;
    for (int i : items) {
      if (n.pref == 0) n.pref = At(i).pref;
      n.has_capture |= At(i).has_capture;
    }
    n.kids = std::move(items);
    return Add(std::move(n));
  }

  bool IsBoundStart() const { return Peek() == '{' && Peek(1) >= '0' && Peek(1) <= '9'; }

  Result<int> ReadCount() {
    int64_t v = 0;
    if (!(Peek() >= '0' && Peek() <= '9')) return Invalid("invalid repetition count(s)");
    while (Peek() >= '0' && Peek() <= '9') {
      v = v * 10 + (Peek() - '0');
      if (v > 255) return Invalid("invalid repetition count(s)");
      ++pos_;
    }
    return static_cast<int>(v);
  }

  Result<int> ParseQuantified() {
    HOGLAKE_ASSIGN_OR_RETURN(int atom, ParseAtom());
    bool quantified = false;
    while (Peek() == '*' || Peek() == '+' || Peek() == '?' || IsBoundStart()) {
      if (quantified || At(atom).kind == RegexNode::kBol || At(atom).kind == RegexNode::kEol) {
        return Invalid("quantifier operand invalid");
      }
      quantified = true;
      RegexNode n;
      n.kind = RegexNode::kRepeat;
      const uint32_t q = Peek();
      ++pos_;
      if (q == '*') {
        n.min = 0, n.max = -1;
      } else if (q == '+') {
        n.min = 1, n.max = -1;
      } else if (q == '?') {
        n.min = 0, n.max = 1;
      } else {
        HOGLAKE_ASSIGN_OR_RETURN(n.min, ReadCount());
        n.max = n.min;
        if (Peek() == ',') {
          ++pos_;
          n.max = -1;
          if (Peek() != '}') {
            HOGLAKE_ASSIGN_OR_RETURN(n.max, ReadCount());
          }
        }
        if (Peek() != '}') return Invalid("invalid repetition count(s)");
        ++pos_;
        if (n.max != -1 && n.max < n.min) return Invalid("invalid repetition count(s)");
      }
      if (Peek() == '?') {
        n.lazy = true;
        ++pos_;
      }
      n.pref = n.lazy ? 2 : 1;
      n.has_capture = At(atom).has_capture;
      n.kids = {atom};
      atom = Add(std::move(n));
    }
    return atom;
  }

  Result<int> ParseAtom() {
    const uint32_t c = Peek();
    ++pos_;
    switch (c) {
      case '(': {
        RegexNode g;
        g.kind = RegexNode::kGroup;
        if (Peek() == '?') {
          if (Peek(1) != ':') return Unsupported("lookaround constraints and embedded options");
          pos_ += 2;
        } else {
          g.capture = re_->captures_++;
          g.has_capture = true;
        }
        HOGLAKE_ASSIGN_OR_RETURN(int inner, ParseAlt());
        if (Peek() != ')') return Invalid("parentheses () not balanced");
        ++pos_;
        g.kids = {inner};
        g.pref = At(inner).pref;
        g.has_capture |= At(inner).has_capture;
        return Add(std::move(g));
      }
      case ')':
        return Invalid("parentheses () not balanced");
      case '*':
      case '+':
      case '?':
        return Invalid("quantifier operand invalid");
      case '{':
        if (Peek() >= '0' && Peek() <= '9') return Invalid("quantifier operand invalid");
        return SetNode({{c, c}}, false);
      case '.':
        return SetNode({}, true);
      case '^': {
        RegexNode n;
        n.kind = RegexNode::kBol;
        return Add(std::move(n));
      }
      case '$': {
        RegexNode n;
        n.kind = RegexNode::kEol;
        return Add(std::move(n));
      }
      case '[':
        return ParseBracket();
      case '\\':
        return ParseEscape();
      default:
        return SetNode({{c, c}}, false);
    }
  }

  // After a backslash: a character, or a class/anchor node.
  Result<int> ParseEscape() {
    if (AtEnd()) return Invalid("invalid escape \\ sequence");
    const uint32_t c = Peek();
    ++pos_;
    Ranges r;
    switch (c) {
      case 'd':
      case 's':
      case 'w':
        AddClass(std::string(1, static_cast<char>(c)), &r);
        return SetNode(std::move(r), false);
      case 'D':
      case 'S':
      case 'W':
        AddClass(std::string(1, static_cast<char>(c + 32)), &r);
        return SetNode(std::move(r), true);
      case 'A': {
        RegexNode n;
        n.kind = RegexNode::kBol;
        return Add(std::move(n));
      }
      case 'Z': {
        RegexNode n;
        n.kind = RegexNode::kEol;
        return Add(std::move(n));
      }
      case 'm':
      case 'M':
      case 'y':
      case 'Y':
        return Unsupported("word-boundary constraints (\\m \\M \\y \\Y)");
      default:
        break;
    }
    if (c >= '1' && c <= '9') return Unsupported("back references");
    --pos_;
    HOGLAKE_ASSIGN_OR_RETURN(uint32_t ch, EscapedChar());
    return SetNode({{ch, ch}}, false);
  }

  // A character escape (shared by brackets): the character it stands for.
  Result<uint32_t> EscapedChar() {
    const uint32_t c = Peek();
    ++pos_;
    auto hex = [&](size_t max_digits) -> Result<uint32_t> {
      uint32_t v = 0;
      size_t n = 0;
      while (n < max_digits) {
        const uint32_t h = Peek();
        int d = h >= '0' && h <= '9'   ? h - '0'
                : h >= 'a' && h <= 'f' ? h - 'a' + 10
                : h >= 'A' && h <= 'F' ? h - 'A' + 10
                                       : -1;
        if (d < 0) break;
        v = v * 16 + d;
        ++pos_;
        ++n;
      }
      if (n == 0 || v > 0x10FFFF) return Invalid("invalid escape \\ sequence");
      return v;
    };
    switch (c) {
      case 'n':
        return uint32_t{'\n'};
      case 't':
        return uint32_t{'\t'};
      case 'r':
        return uint32_t{'\r'};
      case 'f':
        return uint32_t{'\f'};
      case 'v':
        return uint32_t{'\v'};
      case 'a':
        return uint32_t{7};
      case 'e':
        return uint32_t{27};
      case 'b':
        return uint32_t{8};
      case 'B':
        return uint32_t{'\\'};
      case 'x':
        return hex(8);
      case 'u':
        return hex(4);
      case 'U':
        return hex(8);
      case '0':
        return Unsupported("octal escapes");
      case 'c':
        return Unsupported("\\c escapes");
      default:
        break;
    }
    const bool alnum = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
    if (alnum || c == 0xFFFFFFFF) return Invalid("invalid escape \\ sequence");
    return c;
  }

  Result<int> ParseBracket() {
    bool negated = false;
    if (Peek() == '^') {
      negated = true;
      ++pos_;
    }
    Ranges r;
    bool first = true;
    while (true) {
      if (AtEnd()) return Invalid("brackets [] not balanced");
      uint32_t c = Peek();
      if (c == ']' && !first) {
        ++pos_;
        break;
      }
      first = false;
      ++pos_;
      uint32_t lo = c;
      if (c == '[' && (Peek() == ':' || Peek() == '.' || Peek() == '=')) {
        const uint32_t kind = Peek();
        ++pos_;
        std::string name;
        while (!AtEnd() && !(Peek() == kind && Peek(1) == ']'))
          name.push_back(static_cast<char>(Peek())), ++pos_;
        if (AtEnd()) return Invalid("brackets [] not balanced");
        pos_ += 2;
        if (kind != ':') return Unsupported("collating elements and equivalence classes");
        if (!IsClassName(name)) return Invalid("invalid character class");
        AddClass(name, &r);
        continue;
      }
      if (c == '\\') {
        const uint32_t e = Peek();
        if (e == 'd' || e == 's' || e == 'w') {
          ++pos_;
          AddClass(std::string(1, static_cast<char>(e)), &r);
          continue;
        }
        if (e == 'D' || e == 'S' || e == 'W') return Invalid("invalid escape \\ sequence");
        HOGLAKE_ASSIGN_OR_RETURN(lo, EscapedChar());
      }
      uint32_t hi = lo;
      if (Peek() == '-' && Peek(1) != ']' && pos_ + 1 < cps_.size()) {
        ++pos_;
        hi = Peek();
        ++pos_;
        if (hi == '\\') {
          HOGLAKE_ASSIGN_OR_RETURN(hi, EscapedChar());
        } else if (hi == '[') {
          return Unsupported("a range ending in a bracket expression");
        }
        if (hi < lo) return Invalid("invalid character range");
      }
      r.push_back({lo, hi});
    }
    return SetNode(std::move(r), negated);
  }

  Regex* re_;
  std::vector<uint32_t> cps_;
  size_t pos_ = 0;
};

// ---- matching -------------------------------------------------------------

class RegexMatcher {
 public:
  using Bits = std::vector<uint64_t>;

  RegexMatcher(const Regex& re, std::string_view text) : re_(re) {
    cps_ = CodePoints(text, &offsets_);
    n_ = cps_.size();
    words_ = (n_ + 1 + 63) / 64;
  }

  size_t size() const { return n_; }
  int64_t Offset(size_t p) const { return offsets_[p]; }
  size_t PositionOf(int64_t byte) const {
    return static_cast<size_t>(std::lower_bound(offsets_.begin(), offsets_.end(), byte) -
                               offsets_.begin());
  }

  Bits Empty() const { return Bits(words_, 0); }
  Bits Single(size_t p) const {
    Bits b = Empty();
    Set(b, p);
    return b;
  }
  Bits From(size_t p) const {
    Bits b = Empty();
    for (size_t i = p; i <= n_; ++i) Set(b, i);
    return b;
  }
  static void Set(Bits& b, size_t p) { b[p / 64] |= uint64_t{1} << (p % 64); }
  static bool Has(const Bits& b, size_t p) { return (b[p / 64] >> (p % 64)) & 1; }
  static bool Any(const Bits& b) {
    for (uint64_t w : b) {
      if (w) return true;
    }
    return false;
  }

  bool SetMatches(const RegexNode& node, uint32_t c) const {
    auto in = [&](uint32_t x) {
      for (const auto& [lo, hi] : node.ranges) {
        if (x >= lo && x <= hi) return true;
      }
      return false;
    };
    bool hit = in(c);
    if (!hit && re_.icase_) {
      if (c >= 'a' && c <= 'z')
        hit = in(c - 32);
      else if (c >= 'A' && c <= 'Z')
        hit = in(c + 32);
    }
    return hit != node.negated;
  }

  // Where node `i` can end, starting anywhere in `starts`.
  Bits Ends(int i, const Bits& starts) const {
    const RegexNode& node = re_.nodes_[i];
    switch (node.kind) {
      case RegexNode::kEmpty:
        return starts;
      case RegexNode::kSet: {
        Bits out = Empty();
        for (size_t p = 0; p < n_; ++p) {
          if (Has(starts, p) && SetMatches(node, cps_[p])) Set(out, p + 1);
        }
        return out;
      }
      case RegexNode::kBol: {
        Bits out = Empty();
        if (Has(starts, 0)) Set(out, 0);
        return out;
      }
      case RegexNode::kEol: {
        Bits out = Empty();
        if (Has(starts, n_)) Set(out, n_);
        return out;
      }
      case RegexNode::kGroup:
        return Ends(node.kids[0], starts);
      case RegexNode::kConcat:
        return EndsOfSequence(node.kids, 0, node.kids.size(), starts);
      case RegexNode::kAlt: {
        Bits out = Empty();
        for (int k : node.kids) {
          Bits e = Ends(k, starts);
          for (size_t w = 0; w < words_; ++w) out[w] |= e[w];
        }
        return out;
      }
      case RegexNode::kRepeat:
        return RepeatEnds(node.kids[0], node.min, node.max, starts);
    }
    return Empty();
  }

  // Where min..max (max -1: any number of) repetitions of `child` can end.
  Bits RepeatEnds(int child, int min, int max, const Bits& starts) const {
    {
      {
        Bits level = starts;
        for (int k = 0; k < min; ++k) {
          level = Ends(child, level);
          if (!Any(level)) return level;
        }
        Bits result = level;
        for (int k = min; max == -1 || k < max; ++k) {
          level = Ends(child, level);
          bool grew = false;
          for (size_t w = 0; w < words_; ++w) {
            grew |= (level[w] & ~result[w]) != 0;
            result[w] |= level[w];
          }
          if (!grew) break;
        }
        return result;
      }
    }
  }

  Bits EndsOfSequence(const std::vector<int>& kids, size_t from, size_t to, Bits cur) const {
    for (size_t k = from; k < to && Any(cur); ++k) cur = Ends(kids[k], cur);
    return cur;
  }

  // Captures of node `i` matching exactly [a, b), as PostgreSQL splits them.
  void Dissect(int i, size_t a, size_t b, std::vector<std::pair<int64_t, int64_t>>* caps) const {
    const RegexNode& node = re_.nodes_[i];
    if (!node.has_capture) return;
    switch (node.kind) {
      case RegexNode::kGroup:
        if (node.capture >= 0) (*caps)[node.capture] = {Offset(a), Offset(b)};
        Dissect(node.kids[0], a, b, caps);
        return;
      case RegexNode::kAlt:
        for (int k : node.kids) {
          if (Has(Ends(k, Single(a)), b)) {
            Dissect(k, a, b, caps);
            return;
          }
        }
        return;
      case RegexNode::kConcat: {
        // Segments: each capturing kid alone, runs of the others together.
        std::vector<std::pair<size_t, size_t>> segments;
        for (size_t k = 0; k < node.kids.size();) {
          size_t end = k + 1;
          if (!re_.nodes_[node.kids[k]].has_capture) {
            while (end < node.kids.size() && !re_.nodes_[node.kids[end]].has_capture) ++end;
          }
          segments.push_back({k, end});
          k = end;
        }
        size_t at = a;
        for (size_t s = 0; s < segments.size(); ++s) {
          const auto [from, to] = segments[s];
          size_t split = b;
          if (s + 1 < segments.size()) {
            int pref = 0;
            for (size_t k = from; k < to && pref == 0; ++k) pref = re_.nodes_[node.kids[k]].pref;
            const Bits ends = EndsOfSequence(node.kids, from, to, Single(at));
            bool found = false;
            for (size_t step = 0; step <= b - at && !found; ++step) {
              const size_t m = pref == 2 ? at + step : b - step;
              if (Has(ends, m) &&
                  Has(EndsOfSequence(node.kids, to, node.kids.size(), Single(m)), b)) {
                split = m;
                found = true;
              }
            }
          }
          if (to - from == 1) Dissect(node.kids[from], at, split, caps);
          at = split;
        }
        return;
      }
      case RegexNode::kRepeat: {
        // Iterations left to right, each the longest (lazy: shortest)
        // non-empty span that lets the rest match; the captures are the
        // last iteration's.
        const int child = node.kids[0];
        size_t at = a;
        int count = 0;
        while (at < b) {
          const Bits ends = Ends(child, Single(at));
          const int rest_min = std::max(node.min - count - 1, 0);
          const int rest_max = node.max == -1 ? -1 : node.max - count - 1;
          size_t split = at;
          for (size_t step = 0; step < b - at && split == at; ++step) {
            const size_t m = node.lazy ? at + 1 + step : b - step;
            if (Has(ends, m) && (rest_max != 0 || m == b) &&
                Has(RepeatEnds(child, rest_min, rest_max, Single(m)), b)) {
              split = m;
            }
          }
          if (split == at) break;
          Dissect(child, at, split, caps);
          at = split;
          ++count;
        }
        if (count < node.min) Dissect(child, b, b, caps);
        return;
      }
      default:
        return;
    }
  }

 private:
  const Regex& re_;
  std::vector<uint32_t> cps_;
  std::vector<int64_t> offsets_;
  size_t n_ = 0;
  size_t words_ = 0;
};

Regex::~Regex() = default;

Result<std::shared_ptr<const Regex>> Regex::Compile(std::string_view pattern,
                                                    bool case_insensitive) {
  std::shared_ptr<Regex> re(new Regex());
  re->icase_ = case_insensitive;
  RegexParser parser(pattern, re.get());
  HOGLAKE_RETURN_IF_ERROR(parser.Parse());
  return std::shared_ptr<const Regex>(re);
}

bool Regex::Matches(std::string_view text) const {
  RegexMatcher m(*this, text);
  return RegexMatcher::Any(m.Ends(root_, m.From(0)));
}

bool Regex::Find(std::string_view text, int64_t from, bool with_captures, Match* match) const {
  RegexMatcher m(*this, text);
  const size_t start = m.PositionOf(from);
  if (start > m.size() || !RegexMatcher::Any(m.Ends(root_, m.From(start)))) return false;
  const int pref = nodes_[root_].pref;
  for (size_t p = start; p <= m.size(); ++p) {
    const RegexMatcher::Bits ends = m.Ends(root_, m.Single(p));
    if (!RegexMatcher::Any(ends)) continue;
    size_t end = p;
    if (pref == 2) {
      while (!RegexMatcher::Has(ends, end)) ++end;
    } else {
      end = m.size();
      while (!RegexMatcher::Has(ends, end)) --end;
    }
    match->begin = m.Offset(p);
    match->end = m.Offset(end);
    match->captures.assign(captures_, {-1, -1});
    if (with_captures && captures_ > 0) m.Dissect(root_, p, end, &match->captures);
    return true;
  }
  return false;
}

void AppendRegexReplacement(std::string_view text, const Regex::Match& match,
                            std::string_view replacement, std::string* out) {
  for (size_t i = 0; i < replacement.size(); ++i) {
    const char c = replacement[i];
    if (c != '\\' || i + 1 >= replacement.size()) {
      out->push_back(c);
      continue;
    }
    const char next = replacement[i + 1];
    if (next >= '1' && next <= '9') {
      const size_t k = static_cast<size_t>(next - '1');
      if (k < match.captures.size() && match.captures[k].first >= 0) {
        const auto [b, e] = match.captures[k];
        out->append(text.substr(b, e - b));
      }
      ++i;
    } else if (next == '&') {
      out->append(text.substr(match.begin, match.end - match.begin));
      ++i;
    } else if (next == '\\') {
      out->push_back('\\');
      ++i;
    } else {
      out->push_back('\\');
    }
  }
}

Status ParseRegexFlags(std::string_view flags, bool* case_insensitive, bool* global) {
  for (char f : flags) {
    switch (f) {
      case 'i':
        *case_insensitive = true;
        break;
      case 'c':
        *case_insensitive = false;
        break;
      case 'g':
        *global = true;
        break;
      case 's':  // not newline-sensitive: the default
      case 't':  // tight syntax: the default
        break;
      case 'b':
      case 'e':
      case 'm':
      case 'n':
      case 'p':
      case 'q':
      case 'w':
      case 'x':
        return SqlError(SqlErrorKind::kFeatureNotSupported, "regular expression option \"",
                        std::string(1, f), "\" is not supported");
      default:
        return SqlError(SqlErrorKind::kInvalidParameterValue,
                        "invalid regular expression option: \"", std::string(1, f), "\"");
    }
  }
  return Status::Ok();
}

}  // namespace hoglake::sql
