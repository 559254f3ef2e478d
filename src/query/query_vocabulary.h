// The query service's closed vocabularies, each spelled once: run and result
// states (as stored in PostgreSQL and as the Hotdata API reports them),
// result formats, and the prefixes of the opaque identifiers it mints.
//
// A queued run is reported "running": Hotdata clients know only running,
// succeeded, failed and cancelled (hotdata-api.md §2.4).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace hoglake::query {

enum class RunState { kQueued, kRunning, kSucceeded, kFailed, kCancelled };
enum class ResultState { kPending, kProcessing, kReady, kFailed };
enum class ResultFormat { kArrow, kJson, kCsv, kMarkdown, kParquet };
enum class IdKind { kRun, kResult, kUpload, kDatabase };
// An upload (hog_query_upload.status, and its wire status): pending until
// finalized, ready to load, claimed by the one load that consumes it.
enum class UploadState { kPending, kReady, kClaimed };

struct RunStateSpelling {
  RunState state;
  std::string_view stored;  // hog_query_run.status
  std::string_view wire;    // QueryRunInfo.status
  bool terminal;
};
const std::vector<RunStateSpelling>& RunStates();
std::string_view StoredName(RunState state);
std::string_view WireName(RunState state);
bool IsTerminal(RunState state);
std::optional<RunState> RunStateFromStored(std::string_view text);
// The wire names a listing's status filter may use ("running" also selects
// queued runs).
std::vector<RunState> RunStatesForWireName(std::string_view text);

struct ResultStateSpelling {
  ResultState state;
  std::string_view name;  // stored and on the wire alike
};
const std::vector<ResultStateSpelling>& ResultStates();
std::string_view ResultStateName(ResultState state);
std::optional<ResultState> ResultStateFromName(std::string_view text);

struct ResultFormatSpelling {
  ResultFormat format;
  std::string_view name;          // the `format` parameter
  std::string_view content_type;  // the response's Content-Type
};
const std::vector<ResultFormatSpelling>& ResultFormats();
// "markdown" is accepted as an alias of "md".
std::optional<ResultFormat> ResultFormatFromName(std::string_view text);
std::string_view ContentType(ResultFormat format);

// "qrun", "rslt", "upld".
constexpr UploadState kUploadStates[] = {UploadState::kPending, UploadState::kReady,
                                         UploadState::kClaimed};
std::string_view UploadStateName(UploadState state);
std::optional<UploadState> UploadStateFromName(std::string_view name);

std::string_view IdPrefix(IdKind kind);
// The prefix followed by 26 random characters of [0-9a-z].
std::string NewId(IdKind kind);
// Whether `text` has the shape NewId(kind) gives.
bool IsId(IdKind kind, std::string_view text);

}  // namespace hoglake::query
