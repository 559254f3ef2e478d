#include "oracle.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <sstream>
#include <stdexcept>

namespace hoglake::sql::oracle {
namespace {

std::string Trim(const std::string& s) {
  size_t b = s.find_first_not_of(" \t\r");
  if (b == std::string::npos) return "";
  size_t e = s.find_last_not_of(" \t\r");
  return s.substr(b, e - b + 1);
}

std::vector<std::string> Lines(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    lines.push_back(line);
  }
  return lines;
}

[[noreturn]] void Fail(const std::string& path, int line, const std::string& why) {
  throw std::runtime_error(path + ":" + std::to_string(line) + ": " + why);
}

bool StartsWith(const std::string& s, const std::string& prefix) {
  return s.compare(0, prefix.size(), prefix) == 0;
}

// One row of a fixture: fields split at '|' outside single quotes.
FixtureRow ParseRow(const std::string& line, const std::string& path, int number) {
  FixtureRow row;
  size_t i = 0;
  while (true) {
    while (i < line.size() && (line[i] == ' ' || line[i] == '\t')) ++i;
    if (i < line.size() && line[i] == '\'') {
      std::string value;
      ++i;
      while (true) {
        if (i >= line.size()) Fail(path, number, "unterminated quoted field");
        if (line[i] == '\'') {
          if (i + 1 < line.size() && line[i + 1] == '\'') {
            value += '\'';
            i += 2;
            continue;
          }
          ++i;
          break;
        }
        value += line[i++];
      }
      while (i < line.size() && (line[i] == ' ' || line[i] == '\t')) ++i;
      if (i < line.size() && line[i] != '|') Fail(path, number, "text after a quoted field");
      row.push_back(value);
    } else {
      size_t end = line.find('|', i);
      std::string field =
          Trim(line.substr(i, end == std::string::npos ? std::string::npos : end - i));
      if (field.empty()) Fail(path, number, "empty field (write '' for an empty string)");
      if (field == "NULL") {
        row.push_back(std::nullopt);
      } else {
        row.push_back(field);
      }
      i = end == std::string::npos ? line.size() : end;
    }
    if (i >= line.size()) break;
    ++i;  // the '|'
  }
  return row;
}

// "(a integer, n numeric(10,2))" → columns.
std::vector<FixtureColumn> ParseColumns(const std::string& list, const std::string& path,
                                        int number) {
  std::vector<FixtureColumn> columns;
  for (const std::string& item : SplitTypeList(list)) {
    size_t space = item.find(' ');
    if (space == std::string::npos) Fail(path, number, "column without a type: " + item);
    columns.push_back(FixtureColumn{item.substr(0, space), Trim(item.substr(space + 1))});
  }
  return columns;
}

// ---- numeric text -------------------------------------------------------------

struct Decimal {
  bool negative = false;
  std::string digits;  // integer and fraction digits, no sign, no point
  int scale = 0;       // digits after the point
};

bool ParseDecimal(const std::string& text, Decimal* out) {
  Decimal d;
  size_t i = 0;
  if (i < text.size() && (text[i] == '-' || text[i] == '+')) d.negative = text[i++] == '-';
  bool point = false;
  for (; i < text.size(); ++i) {
    char c = text[i];
    if (c == '.' && !point) {
      point = true;
    } else if (c >= '0' && c <= '9') {
      d.digits += c;
      if (point) ++d.scale;
    } else {
      return false;
    }
  }
  if (d.digits.empty()) return false;
  *out = d;
  return true;
}

// The value normalized: no leading zeros, no trailing fraction zeros, -0 → 0.
std::string Canonical(const Decimal& d) {
  std::string whole = d.digits.substr(0, d.digits.size() - d.scale);
  std::string frac = d.digits.substr(d.digits.size() - d.scale);
  whole.erase(0, std::min(whole.find_first_not_of('0'), whole.size()));
  while (!frac.empty() && frac.back() == '0') frac.pop_back();
  if (whole.empty()) whole = "0";
  std::string out = whole;
  if (!frac.empty()) out += "." + frac;
  if (d.negative && out != "0") out = "-" + out;
  return out;
}

// `d` rounded half away from zero to `scale` (< d.scale) digits.
Decimal RoundTo(const Decimal& d, int scale) {
  Decimal r = d;
  size_t keep = d.digits.size() - (d.scale - scale);
  r.digits = d.digits.substr(0, keep);
  r.scale = scale;
  if (d.digits[keep] >= '5') {
    int i = static_cast<int>(r.digits.size()) - 1;
    for (; i >= 0; --i) {
      if (r.digits[i] == '9') {
        r.digits[i] = '0';
      } else {
        ++r.digits[i];
        break;
      }
    }
    if (i < 0) r.digits.insert(r.digits.begin(), '1');
  }
  if (r.digits.empty()) r.digits = "0";
  return r;
}

bool NumericEqual(const std::string& a, const std::string& b) {
  if (a == b) return true;
  Decimal x, y;
  if (!ParseDecimal(a, &x) || !ParseDecimal(b, &y)) return false;  // NaN vs a number
  if (Canonical(x) == Canonical(y)) return true;
  if (x.scale == y.scale) return false;
  const Decimal& coarse = x.scale < y.scale ? x : y;
  const Decimal& fine = x.scale < y.scale ? y : x;
  if (fine.scale < 16) return false;
  return Canonical(RoundTo(fine, coarse.scale)) == Canonical(coarse);
}

bool FloatEqual(const std::string& a, const std::string& b) {
  if (a == b) return true;
  char* end_a = nullptr;
  char* end_b = nullptr;
  double x = std::strtod(a.c_str(), &end_a);
  double y = std::strtod(b.c_str(), &end_b);
  if (*end_a != '\0' || *end_b != '\0') return false;
  if (std::isnan(x) || std::isnan(y)) return std::isnan(x) && std::isnan(y);
  if (x == y) return true;  // also -0 and 0
  if (std::isinf(x) || std::isinf(y)) return false;
  return std::fabs(x - y) <= 1e-12 * std::max(std::fabs(x), std::fabs(y));
}

using Row = std::vector<std::optional<std::string>>;

std::string RenderRow(const Row& row) {
  std::string out;
  for (size_t c = 0; c < row.size(); ++c) {
    if (c > 0) out += "|";
    out += row[c] ? *row[c] : "NULL";
  }
  return out;
}

bool RowsEqual(const std::vector<ValueKind>& kinds, const Row& a, const Row& b) {
  if (a.size() != b.size()) return false;
  for (size_t c = 0; c < a.size(); ++c) {
    if (!ValuesEqual(kinds[c], a[c], b[c])) return false;
  }
  return true;
}

}  // namespace

std::vector<std::string> SplitTypeList(const std::string& list) {
  std::vector<std::string> out;
  int depth = 0;
  std::string current;
  for (char c : list) {
    if (c == '(') ++depth;
    if (c == ')') --depth;
    if (c == ',' && depth == 0) {
      out.push_back(Trim(current));
      current.clear();
      continue;
    }
    current += c;
  }
  if (!Trim(current).empty()) out.push_back(Trim(current));
  return out;
}

std::vector<FixtureTable> ParseFixtures(const std::string& text, const std::string& path) {
  std::vector<FixtureTable> tables;
  std::vector<std::string> lines = Lines(text);
  for (size_t i = 0; i < lines.size(); ++i) {
    const int number = static_cast<int>(i + 1);
    std::string line = Trim(lines[i]);
    if (line.empty() || line[0] == '#') continue;
    if (StartsWith(line, "table ")) {
      size_t open = line.find('(');
      if (open == std::string::npos || line.back() != ')') {
        Fail(path, number, "expected: table <name> (<column> <type>, …)");
      }
      FixtureTable table;
      table.name = Trim(line.substr(6, open - 6));
      table.columns = ParseColumns(line.substr(open + 1, line.size() - open - 2), path, number);
      table.files.emplace_back();
      tables.push_back(std::move(table));
      continue;
    }
    if (tables.empty()) Fail(path, number, "a row before any `table` line");
    FixtureTable& table = tables.back();
    if (line == "---") {
      table.files.emplace_back();
      continue;
    }
    if (StartsWith(line, "from ")) {
      if (!table.from_query.empty() || !table.files.back().empty()) {
        Fail(path, number, "a table has either rows or one `from` query");
      }
      table.from_query = Trim(line.substr(5));
      continue;
    }
    if (!table.from_query.empty())
      Fail(path, number, "a table has either rows or one `from` query");
    FixtureRow row = ParseRow(line, path, number);
    if (row.size() != table.columns.size()) {
      Fail(path, number,
           "row has " + std::to_string(row.size()) + " fields, table " + table.name + " has " +
               std::to_string(table.columns.size()) + " columns");
    }
    table.files.back().push_back(std::move(row));
  }
  return tables;
}

std::vector<Record> ParseCorpus(const std::string& text, const std::string& path) {
  std::vector<Record> records;
  std::vector<std::string> lines = Lines(text);
  size_t i = 0;
  while (i < lines.size()) {
    std::string line = Trim(lines[i]);
    const int number = static_cast<int>(i + 1);
    if (line.empty() || line[0] == '#') {
      ++i;
      continue;
    }
    Record record;
    record.file = path;
    record.line = number;
    std::istringstream words(line);
    std::string word;
    words >> word;
    if (word != "query") Fail(path, number, "expected `query`, found: " + line);
    while (words >> word) {
      if (word == "ordered") {
        record.ordered = true;
      } else if (word == "error") {
        std::string state;
        if (!(words >> state) || state.size() != 5) {
          Fail(path, number, "`query error` needs a five-character SQLSTATE");
        }
        record.error_sqlstate = state;
      } else {
        Fail(path, number, "unknown query option: " + word);
      }
    }
    ++i;
    for (; i < lines.size(); ++i) {
      std::string l = Trim(lines[i]);
      if (l.empty() || l == "----") break;
      if (l[0] == '#') continue;
      if (!record.sql.empty()) record.sql += "\n";
      record.sql += lines[i];
    }
    if (record.sql.empty()) Fail(path, number, "a record without SQL");
    if (i < lines.size() && Trim(lines[i]) == "----") {
      for (++i; i < lines.size(); ++i) {
        std::string l = Trim(lines[i]);
        if (l.empty()) break;
        if (l[0] == '#') continue;
        if (!StartsWith(l, "types:")) Fail(path, static_cast<int>(i + 1), "expected `types: …`");
        if (record.error_sqlstate) {
          Fail(path, static_cast<int>(i + 1), "an error record has no result types");
        }
        record.types = SplitTypeList(l.substr(6));
      }
    }
    records.push_back(std::move(record));
  }
  return records;
}

ValueKind KindOfType(const std::string& pg_type) {
  if (pg_type == "numeric" || StartsWith(pg_type, "numeric(")) return ValueKind::kNumeric;
  if (pg_type == "real" || pg_type == "double precision") return ValueKind::kFloat;
  return ValueKind::kExact;
}

bool ValuesEqual(ValueKind kind, const std::optional<std::string>& a,
                 const std::optional<std::string>& b) {
  if (!a || !b) return !a && !b;
  switch (kind) {
    case ValueKind::kNumeric:
      return NumericEqual(*a, *b);
    case ValueKind::kFloat:
      return FloatEqual(*a, *b);
    case ValueKind::kExact:
      return *a == *b;
  }
  return false;
}

bool TypesAgree(const std::string& pg, const std::string& engine) {
  return pg == engine || (pg == "numeric" && StartsWith(engine, "numeric(38,"));
}

std::string RenderAnswer(const Answer& answer) {
  if (answer.failed) return "ERROR " + answer.sqlstate + ": " + answer.message + "\n";
  std::string out = "types: ";
  for (size_t c = 0; c < answer.types.size(); ++c) {
    if (c > 0) out += ", ";
    out += answer.types[c];
  }
  out += "\n";
  constexpr size_t kShown = 100;
  for (size_t r = 0; r < answer.rows.size() && r < kShown; ++r) {
    out += "  " + RenderRow(answer.rows[r]) + "\n";
  }
  if (answer.rows.size() > kShown) {
    out += "  … " + std::to_string(answer.rows.size() - kShown) + " more rows\n";
  }
  if (answer.rows.empty()) out += "  (no rows)\n";
  return out;
}

std::string CompareAnswers(const Record& record, const Answer& expected, const Answer& actual) {
  if (record.error_sqlstate) {
    const std::string& want = *record.error_sqlstate;
    std::string why;
    if (!expected.failed || expected.sqlstate != want) {
      why += "PostgreSQL did not fail with " + want + "; ";
    }
    if (!actual.failed || actual.sqlstate != want) why += "the engine did not fail with " + want;
    return why;
  }
  if (expected.failed || actual.failed) {
    if (expected.failed && actual.failed) return "both failed";
    return expected.failed ? "PostgreSQL failed" : "the engine failed";
  }
  if (expected.types.size() != actual.types.size()) return "column counts differ";
  if (record.types) {
    if (*record.types != expected.types) return "PostgreSQL's column types are not the expected";
    for (size_t c = 0; c < actual.types.size(); ++c) {
      if (!TypesAgree((*record.types)[c], actual.types[c])) {
        return "the engine's column types are not the expected";
      }
    }
  }
  for (size_t c = 0; c < expected.types.size(); ++c) {
    if (!TypesAgree(expected.types[c], actual.types[c])) {
      return "column " + std::to_string(c + 1) + " types differ";
    }
  }
  std::vector<ValueKind> kinds;
  for (const std::string& t : expected.types) kinds.push_back(KindOfType(t));
  if (expected.rows.size() != actual.rows.size()) return "row counts differ";
  if (record.ordered) {
    for (size_t r = 0; r < expected.rows.size(); ++r) {
      if (!RowsEqual(kinds, expected.rows[r], actual.rows[r])) {
        return "row " + std::to_string(r + 1) + " differs";
      }
    }
    return "";
  }
  // Multisets. Sorted by their text, equal answers usually pair up row by
  // row; otherwise every expected row claims one equal actual row.
  auto sorted = [](std::vector<Row> rows) {
    std::sort(rows.begin(), rows.end());
    return rows;
  };
  const std::vector<Row> want_sorted = sorted(expected.rows), got_sorted = sorted(actual.rows);
  bool pairwise = true;
  for (size_t r = 0; r < want_sorted.size() && pairwise; ++r) {
    pairwise = RowsEqual(kinds, want_sorted[r], got_sorted[r]);
  }
  if (pairwise) return "";
  std::vector<bool> used(actual.rows.size(), false);
  for (const Row& want : expected.rows) {
    bool found = false;
    for (size_t r = 0; r < actual.rows.size() && !found; ++r) {
      if (!used[r] && RowsEqual(kinds, want, actual.rows[r])) {
        used[r] = true;
        found = true;
      }
    }
    if (!found) return "row " + RenderRow(want) + " is missing from the engine's answer";
  }
  return "";
}

}  // namespace hoglake::sql::oracle
