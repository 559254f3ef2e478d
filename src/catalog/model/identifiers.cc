#include "catalog/model/identifiers.h"

namespace hoglake::catalog {
namespace {

std::string Shown(std::string_view name) {
  if (name.size() > 64) return std::string(name.substr(0, 61)) + "...";
  return std::string(name);
}

bool IsAlpha(char c) { return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z'); }
bool IsDigit(char c) { return c >= '0' && c <= '9'; }

}  // namespace

Status ValidateIdentifier(std::string_view kind, std::string_view name) {
  bool ok = !name.empty() && name.size() <= 128 && (IsAlpha(name[0]) || name[0] == '_');
  for (size_t i = 1; ok && i < name.size(); ++i) {
    const char c = name[i];
    ok = IsAlpha(c) || IsDigit(c) || c == '_' || c == '-';
  }
  if (!ok) {
    return Validation("invalid ", kind, " name '", Shown(name),
                      "' (must match ^[A-Za-z_][A-Za-z0-9_-]{0,127}$)");
  }
  return Status::Ok();
}

Status ValidateCatalogName(std::string_view name) {
  auto lower_or_digit = [](char c) { return (c >= 'a' && c <= 'z') || IsDigit(c); };
  bool ok = !name.empty() && name.size() <= 63 && lower_or_digit(name[0]);
  for (size_t i = 1; ok && i < name.size(); ++i) {
    ok = lower_or_digit(name[i]) || name[i] == '_' || name[i] == '-';
  }
  if (!ok) {
    return Validation("invalid catalog name '", Shown(name),
                      "' (must match ^[a-z0-9][a-z0-9_-]{0,62}$)");
  }
  return Status::Ok();
}

Result<std::string> NormalizeDataPath(std::string_view path) {
  if (path.empty()) return Validation("data_path must not be blank");
  if (path.size() > 512) return Validation("data_path is longer than 512 characters");
  for (unsigned char c : path) {
    if (c <= 0x20 || c == 0x7F) {
      return Validation("data_path '", Shown(path), "' contains whitespace or control characters");
    }
  }
  std::string_view rest;
  if (path.starts_with("s3://")) {
    rest = path.substr(5);
    const size_t slash = rest.find('/');
    if (rest.empty() || slash == 0) {
      return Validation("data_path '", Shown(path), "' has an empty bucket");
    }
  } else if (path.starts_with("file:///")) {
    rest = path.substr(8);
  } else {
    return Validation("data_path '", Shown(path),
                      "' must be s3://<bucket>[/<prefix>] or file:///<absolute path>");
  }
  // No "." or ".." segments (and no empty ones in the middle).
  size_t start = 0;
  while (start <= rest.size()) {
    size_t end = rest.find('/', start);
    if (end == std::string_view::npos) end = rest.size();
    std::string_view segment = rest.substr(start, end - start);
    if (segment == "." || segment == "..") {
      return Validation("data_path '", Shown(path), "' contains a '", segment, "' segment");
    }
    if (segment.empty() && end < rest.size()) {
      return Validation("data_path '", Shown(path), "' contains an empty segment");
    }
    start = end + 1;
  }
  std::string normalized(path);
  while (normalized.size() > 1 && normalized.back() == '/') normalized.pop_back();
  return normalized + "/";
}

bool DataPathsOverlap(std::string_view a, std::string_view b) {
  return a.starts_with(b) || b.starts_with(a);
}

}  // namespace hoglake::catalog
