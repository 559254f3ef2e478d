#include "storage/data_path_policy.h"

#include <filesystem>
#include <system_error>

namespace hoglake {
namespace {

constexpr std::string_view kFilePrefix = "file://";
constexpr std::string_view kS3Prefix = "s3://";

std::string WithSlash(std::string_view text) {
  std::string out(text);
  while (out.size() > 1 && out.back() == '/') out.pop_back();
  if (out.back() != '/') out += '/';
  return out;
}

// No "." / ".." / empty segments, no control characters or NUL.
bool CleanSegments(std::string_view rest) {
  for (unsigned char c : rest) {
    if (c < 0x20 || c == 0x7F) return false;
  }
  size_t start = 0;
  while (start < rest.size()) {
    size_t end = rest.find('/', start);
    if (end == std::string_view::npos) end = rest.size();
    const std::string_view segment = rest.substr(start, end - start);
    if (segment == "." || segment == ".." || (segment.empty() && end < rest.size())) return false;
    start = end + 1;
  }
  return true;
}

Result<std::string> NormalizeRoot(std::string_view uri) {
  if (uri.starts_with("file:///")) {
    if (!CleanSegments(uri.substr(8))) {
      return InvalidArgument("allowed data path '", uri, "' has an invalid segment");
    }
    return WithSlash(uri);
  }
  if (uri.starts_with(kS3Prefix)) {
    const std::string_view rest = uri.substr(kS3Prefix.size());
    if (rest.empty() || rest.front() == '/' || !CleanSegments(rest)) {
      return InvalidArgument("allowed data path '", uri, "' is not s3://bucket[/prefix]");
    }
    return WithSlash(uri);
  }
  return InvalidArgument("allowed data path '", uri,
                         "' must be file:///absolute/path or s3://bucket[/prefix]");
}

// The local path with symbolic links resolved as far as it exists, ending
// in '/'.
std::string ResolveLocal(std::string_view path) {
  std::error_code ec;
  std::filesystem::path resolved = std::filesystem::weakly_canonical(std::string(path), ec);
  if (ec) resolved = std::filesystem::path(std::string(path)).lexically_normal();
  return WithSlash(resolved.string());
}

bool Overlap(const std::string& a, const std::string& b) {
  return a.starts_with(b) || b.starts_with(a);
}

}  // namespace

Result<DataPathPolicy> DataPathPolicy::Make(const std::vector<std::string>& allowed,
                                            const std::vector<std::string>& denied_dirs) {
  DataPathPolicy policy;
  policy.restricted_ = true;
  for (const std::string& uri : allowed) {
    HOGLAKE_ASSIGN_OR_RETURN(std::string root, NormalizeRoot(uri));
    bool seen = false;
    for (const std::string& other : policy.allowed_) seen = seen || other == root;
    if (!seen) policy.allowed_.push_back(std::move(root));
  }
  for (const std::string& dir : denied_dirs) {
    if (dir.empty() || dir.front() != '/') {
      return InvalidArgument("denied directory '", dir, "' is not an absolute path");
    }
    policy.denied_dirs_.push_back(WithSlash(dir));
  }
  return policy;
}

std::vector<std::string> DataPathPolicy::SplitList(std::string_view text) {
  std::vector<std::string> out;
  std::string word;
  for (char c : text) {
    if (c == ',' || c == ' ' || c == '\t' || c == '\n' || c == '\r') {
      if (!word.empty()) out.push_back(std::move(word));
      word.clear();
    } else {
      word += c;
    }
  }
  if (!word.empty()) out.push_back(std::move(word));
  return out;
}

Status DataPathPolicy::Check(std::string_view uri) const {
  if (!restricted_) return Status::Ok();
  if (uri.starts_with(kFilePrefix)) {
    const std::string_view local = uri.substr(kFilePrefix.size());
    if (local.empty() || local.front() != '/' || !CleanSegments(local.substr(1))) {
      return InvalidArgument("data path '", uri, "' is not a clean absolute file:// path");
    }
    const std::string resolved = ResolveLocal(local);
    for (const std::string& dir : denied_dirs_) {
      if (Overlap(resolved, ResolveLocal(dir))) {
        return InvalidArgument("data path '", uri,
                               "' overlaps a directory the server keeps for itself");
      }
    }
    for (const std::string& root : allowed_) {
      if (!root.starts_with(kFilePrefix)) continue;
      if (resolved.starts_with(ResolveLocal(std::string_view(root).substr(kFilePrefix.size())))) {
        return Status::Ok();
      }
    }
  } else if (uri.starts_with(kS3Prefix)) {
    if (!CleanSegments(uri.substr(kS3Prefix.size()))) {
      return InvalidArgument("data path '", uri, "' has an invalid segment");
    }
    const std::string path = WithSlash(uri);
    for (const std::string& root : allowed_) {
      if (path.starts_with(root)) return Status::Ok();
    }
  } else {
    return InvalidArgument("data path '", uri, "' must be file:// or s3://");
  }
  return InvalidArgument("data path '", uri,
                         "' is outside the roots this server allows (HOGLAKE_ALLOWED_DATA_PATHS: ",
                         allowed_.empty() ? std::string("none") : Describe(), ")");
}

std::string DataPathPolicy::Describe() const {
  if (!restricted_) return "any";
  std::string out;
  for (const std::string& root : allowed_) {
    if (!out.empty()) out += ", ";
    out += root;
  }
  return out;
}

}  // namespace hoglake
