#include "query/query_vocabulary.h"

#include <random>

namespace hoglake::query {

const std::vector<RunStateSpelling>& RunStates() {
  static const std::vector<RunStateSpelling> states = {
      {RunState::kQueued, "queued", "running", false},
      {RunState::kRunning, "running", "running", false},
      {RunState::kSucceeded, "succeeded", "succeeded", true},
      {RunState::kFailed, "failed", "failed", true},
      {RunState::kCancelled, "cancelled", "cancelled", true},
  };
  return states;
}

namespace {
const RunStateSpelling& Spelling(RunState state) {
  for (const RunStateSpelling& s : RunStates()) {
    if (s.state == state) return s;
  }
  return RunStates().front();
}
}  // namespace

std::string_view StoredName(RunState state) { return Spelling(state).stored; }
std::string_view WireName(RunState state) { return Spelling(state).wire; }
bool IsTerminal(RunState state) { return Spelling(state).terminal; }

std::optional<RunState> RunStateFromStored(std::string_view text) {
  for (const RunStateSpelling& s : RunStates()) {
    if (s.stored == text) return s.state;
  }
  return std::nullopt;
}

std::vector<RunState> RunStatesForWireName(std::string_view text) {
  std::vector<RunState> states;
  for (const RunStateSpelling& s : RunStates()) {
    if (s.wire == text) states.push_back(s.state);
  }
  return states;
}

const std::vector<ResultStateSpelling>& ResultStates() {
  static const std::vector<ResultStateSpelling> states = {
      {ResultState::kPending, "pending"},
      {ResultState::kProcessing, "processing"},
      {ResultState::kReady, "ready"},
      {ResultState::kFailed, "failed"},
  };
  return states;
}

std::string_view ResultStateName(ResultState state) {
  for (const ResultStateSpelling& s : ResultStates()) {
    if (s.state == state) return s.name;
  }
  return "failed";
}

std::optional<ResultState> ResultStateFromName(std::string_view text) {
  for (const ResultStateSpelling& s : ResultStates()) {
    if (s.name == text) return s.state;
  }
  return std::nullopt;
}

const std::vector<ResultFormatSpelling>& ResultFormats() {
  static const std::vector<ResultFormatSpelling> formats = {
      {ResultFormat::kArrow, "arrow", "application/vnd.apache.arrow.stream"},
      {ResultFormat::kJson, "json", "application/json"},
      {ResultFormat::kCsv, "csv", "text/csv; charset=utf-8"},
      {ResultFormat::kMarkdown, "md", "text/markdown; charset=utf-8"},
      {ResultFormat::kParquet, "parquet", "application/vnd.apache.parquet"},
  };
  return formats;
}

std::optional<ResultFormat> ResultFormatFromName(std::string_view text) {
  if (text == "markdown") return ResultFormat::kMarkdown;
  for (const ResultFormatSpelling& f : ResultFormats()) {
    if (f.name == text) return f.format;
  }
  return std::nullopt;
}

std::string_view ContentType(ResultFormat format) {
  for (const ResultFormatSpelling& f : ResultFormats()) {
    if (f.format == format) return f.content_type;
  }
  return "application/octet-stream";
}

std::string_view UploadStateName(UploadState state) {
  switch (state) {
    case UploadState::kPending:
      return "pending";
    case UploadState::kReady:
      return "ready";
    case UploadState::kClaimed:
      return "claimed";
  }
  return "pending";
}

std::optional<UploadState> UploadStateFromName(std::string_view name) {
  for (UploadState state : kUploadStates) {
    if (UploadStateName(state) == name) return state;
  }
  return std::nullopt;
}

std::string_view IdPrefix(IdKind kind) {
  switch (kind) {
    case IdKind::kRun:
      return "qrun";
    case IdKind::kResult:
      return "rslt";
    case IdKind::kUpload:
      return "upld";
    case IdKind::kDatabase:
      return "db";  // a database id is also its catalog's name
  }
  return "";
}

namespace {
constexpr std::string_view kIdAlphabet = "0123456789abcdefghijklmnopqrstuvwxyz";
constexpr size_t kIdRandomChars = 26;
}  // namespace

std::string NewId(IdKind kind) {
  thread_local std::mt19937_64 rng(std::random_device{}());
  std::string id(IdPrefix(kind));
  std::uniform_int_distribution<size_t> pick(0, kIdAlphabet.size() - 1);
  for (size_t i = 0; i < kIdRandomChars; ++i) id.push_back(kIdAlphabet[pick(rng)]);
  return id;
}

bool IsId(IdKind kind, std::string_view text) {
  std::string_view prefix = IdPrefix(kind);
  if (text.size() != prefix.size() + kIdRandomChars || text.substr(0, prefix.size()) != prefix) {
    return false;
  }
  for (char c : text.substr(prefix.size())) {
    if (kIdAlphabet.find(c) == std::string_view::npos) return false;
  }
  return true;
}

}  // namespace hoglake::query
