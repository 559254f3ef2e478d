// Parsers for the CLI's column, partition and sort texts (column_spec.h).
#include "cli/column_spec.h"

#include <cctype>
#include <charconv>

namespace hoglake::cli {
namespace {

std::string_view Trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

// Splits on `sep` at nesting depth 0 (<> and () nest).
std::vector<std::string_view> SplitTop(std::string_view s, char sep) {
  std::vector<std::string_view> parts;
  int depth = 0;
  size_t start = 0;
  for (size_t i = 0; i < s.size(); ++i) {
    const char c = s[i];
    if (c == '<' || c == '(') ++depth;
    if (c == '>' || c == ')') --depth;
    if (c == sep && depth == 0) {
      parts.push_back(s.substr(start, i - start));
      start = i + 1;
    }
  }
  parts.push_back(s.substr(start));
  return parts;
}

Result<int32_t> ParseInt(std::string_view text, std::string_view what) {
  text = Trim(text);
  int32_t value = 0;
  auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || ptr != text.data() + text.size()) {
    return Validation("'", text, "' is not an integer (", what, ")");
  }
  return value;
}

// "list<string>" → ("list", "string"); nullopt when no <…> suffix.
std::optional<std::pair<std::string_view, std::string_view>> Angle(std::string_view text) {
  const size_t open = text.find('<');
  if (open == std::string_view::npos || text.back() != '>') return std::nullopt;
  return std::make_pair(Trim(text.substr(0, open)), text.substr(open + 1, text.size() - open - 2));
}

}  // namespace

Result<client::ColumnDef> ParseTypeSpec(std::string_view text, std::string name) {
  text = Trim(text);
  client::ColumnDef def;
  def.name = std::move(name);
  if (text.empty()) return Validation("column '", def.name, "' has no type");
  if (auto angle = Angle(text)) {
    auto [kind, inner] = *angle;
    HOGLAKE_ASSIGN_OR_RETURN(iceberg::ColumnType type, iceberg::ParseColumnType(kind, def.name));
    def.type = type;
    if (type == iceberg::ColumnType::kList) {
      HOGLAKE_ASSIGN_OR_RETURN(client::ColumnDef element, ParseTypeSpec(inner, "element"));
      def.children.push_back(std::move(element));
    } else if (type == iceberg::ColumnType::kMap) {
      auto parts = SplitTop(inner, ',');
      if (parts.size() != 2) return Validation("map type '", text, "' needs map<key,value>");
      HOGLAKE_ASSIGN_OR_RETURN(client::ColumnDef key, ParseTypeSpec(parts[0], "key"));
      HOGLAKE_ASSIGN_OR_RETURN(client::ColumnDef value, ParseTypeSpec(parts[1], "value"));
      key.nullable = false;
      def.children = {std::move(key), std::move(value)};
    } else if (type == iceberg::ColumnType::kStruct) {
      for (std::string_view member : SplitTop(inner, ',')) {
        HOGLAKE_ASSIGN_OR_RETURN(client::ColumnDef child, ParseColumnSpec(member));
        def.children.push_back(std::move(child));
      }
    } else {
      return Validation("type '", kind, "' takes no <…> parameters");
    }
    return def;
  }
  if (text.size() > 8 && text.substr(0, 8) == "decimal(" && text.back() == ')') {
    auto parts = SplitTop(text.substr(8, text.size() - 9), ',');
    if (parts.size() != 2) return Validation("decimal type '", text, "' needs decimal(P,S)");
    HOGLAKE_ASSIGN_OR_RETURN(int32_t precision, ParseInt(parts[0], "decimal precision"));
    HOGLAKE_ASSIGN_OR_RETURN(int32_t scale, ParseInt(parts[1], "decimal scale"));
    def.type = iceberg::TypeSpec::Decimal(precision, scale);
    return def;
  }
  HOGLAKE_ASSIGN_OR_RETURN(iceberg::ColumnType type, iceberg::ParseColumnType(text, def.name));
  if (type == iceberg::ColumnType::kDecimal) {
    return Validation("column '", def.name,
                      "': decimal needs its precision and scale: decimal(P,S)");
  }
  if (iceberg::IsContainer(type)) {
    return Validation("column '", def.name, "': ", text,
                      " needs its element types, e.g. list<string>");
  }
  def.type = type;
  return def;
}

Result<client::ColumnDef> ParseColumnSpec(std::string_view text) {
  text = Trim(text);
  const size_t colon = text.find(':');
  if (colon == std::string_view::npos || colon == 0) {
    return Validation("column '", text, "' must be written name:type[:not-null]");
  }
  std::string name(Trim(text.substr(0, colon)));
  std::string_view rest = text.substr(colon + 1);
  bool not_null = false;
  // A trailing ":not-null" outside any <…>.
  auto parts = SplitTop(rest, ':');
  if (parts.size() >= 2 && Trim(parts.back()) == "not-null") {
    not_null = true;
    rest = rest.substr(0, rest.size() - parts.back().size() - 1);
  } else if (parts.size() >= 2 && !Angle(Trim(rest))) {
    return Validation("column '", text, "': unknown flag '", Trim(parts.back()),
                      "' (only not-null is known)");
  }
  HOGLAKE_ASSIGN_OR_RETURN(client::ColumnDef def, ParseTypeSpec(rest, std::move(name)));
  def.nullable = !not_null;
  return def;
}

Result<PartitionSpecText> ParsePartitionSpec(std::string_view text) {
  text = Trim(text);
  PartitionSpecText spec;
  const size_t open = text.find('(');
  if (open == std::string_view::npos) {
    spec.column = std::string(text);
    spec.transform = "identity";
  } else {
    if (text.back() != ')') return Validation("partition field '", text, "' is missing ')'");
    spec.transform = std::string(Trim(text.substr(0, open)));
    auto args = SplitTop(text.substr(open + 1, text.size() - open - 2), ',');
    if (spec.transform == "bucket" || spec.transform == "truncate") {
      if (args.size() != 2) {
        return Validation("partition field '", text, "' must be ", spec.transform, "(N,column)");
      }
      HOGLAKE_ASSIGN_OR_RETURN(spec.param, ParseInt(args[0], spec.transform + " width"));
      spec.column = std::string(Trim(args[1]));
    } else {
      if (args.size() != 1) return Validation("partition field '", text, "' takes one column");
      spec.column = std::string(Trim(args[0]));
    }
  }
  if (spec.column.empty()) return Validation("partition field '", text, "' names no column");
  return spec;
}

Result<SortSpecText> ParseSortSpec(std::string_view text) {
  auto parts = SplitTop(Trim(text), ':');
  SortSpecText spec;
  spec.column = std::string(Trim(parts[0]));
  if (spec.column.empty()) return Validation("sort field '", text, "' names no column");
  for (size_t i = 1; i < parts.size(); ++i) {
    const std::string_view p = Trim(parts[i]);
    if (p == "asc" || p == "desc") {
      spec.direction = std::string(p);
    } else if (p == "nulls_first" || p == "nulls_last") {
      spec.null_order = std::string(p);
    } else {
      return Validation("sort field '", text, "': '", p,
                        "' is not asc, desc, nulls_first or nulls_last");
    }
  }
  return spec;
}

Result<int32_t> FieldIdOf(const std::vector<client::Column>& columns, std::string_view path) {
  const std::vector<client::Column>* level = &columns;
  std::string_view rest = path;
  while (true) {
    const size_t dot = rest.find('.');
    const std::string_view name = rest.substr(0, dot);
    const client::Column* found = nullptr;
    for (const client::Column& column : *level) {
      if (column.name == name) found = &column;
    }
    if (!found) return Validation("the table has no column '", path, "'");
    if (dot == std::string_view::npos) return found->field_id;
    if (found->type.type != iceberg::ColumnType::kStruct) {
      return Validation("'", path, "' goes through '", name, "', which is not a struct");
    }
    level = &found->children;
    rest = rest.substr(dot + 1);
  }
}

}  // namespace hoglake::cli
