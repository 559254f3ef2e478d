#include "catalog/commit/commit_fingerprint.h"

#include <algorithm>
#include <tuple>

#include "common/encoding.h"
#include "common/json_writer.h"
#include "common/sha256.h"

namespace hoglake::catalog {
namespace {

void WriteStats(const ColumnStatsInput& s, JsonWriter& w) {
  w.BeginObject();
  w.Field("field_id", s.field_id);
  w.Field("value_count", s.value_count);
  w.Field("null_count", s.null_count);
  w.OptionalField("nan_count", s.nan_count);
  w.OptionalField("size_bytes", s.size_bytes);
  if (s.lower_bound) w.Field("lower_bound", std::string_view(Base64Encode(*s.lower_bound)));
  if (s.upper_bound) w.Field("upper_bound", std::string_view(Base64Encode(*s.upper_bound)));
  w.EndObject();
}

void WriteFile(const FileRegistration& f, JsonWriter& w) {
  w.BeginObject();
  w.Field("path", std::string_view(f.path));
  w.Field("record_count", f.record_count);
  w.Field("file_size_bytes", f.file_size_bytes);
  w.OptionalField("footer_size", f.footer_size);
  if (f.column_stats) {
    std::vector<const ColumnStatsInput*> stats;
    for (const auto& s : *f.column_stats) stats.push_back(&s);
    std::stable_sort(stats.begin(), stats.end(),
                     [](auto* a, auto* b) { return a->field_id < b->field_id; });
    w.Key("column_stats");
    w.BeginArray();
    for (const auto* s : stats) WriteStats(*s, w);
    w.EndArray();
  }
  w.OptionalField("partition_values", f.partition_values);
  if (f.split_offsets) {
    w.Key("split_offsets");
    w.BeginArray();
    for (int64_t o : *f.split_offsets) w.Int(o);
    w.EndArray();
  }
  if (f.file_format && *f.file_format != "parquet")
    w.Field("file_format", std::string_view(*f.file_format));
  w.EndObject();
}

}  // namespace

std::string CanonicalCommitJson(const CommitRequest& request) {
  std::vector<const TableAppend*> groups;
  for (const auto& g : request.appends) groups.push_back(&g);
  std::stable_sort(groups.begin(), groups.end(), [](auto* a, auto* b) {
    return std::tie(a->namespace_name, a->table) < std::tie(b->namespace_name, b->table);
  });
  JsonWriter w;
  w.BeginObject();
  w.OptionalField("read_snapshot", request.read_snapshot);
  w.OptionalField("author", request.author);
  w.OptionalField("message", request.message);
  w.Key("appends");
  w.BeginArray();
  for (const TableAppend* g : groups) {
    w.BeginObject();
    w.Field("namespace", std::string_view(g->namespace_name));
    w.Field("table", std::string_view(g->table));
    w.OptionalField("expected_table_uuid", g->expected_table_uuid);
    std::vector<std::string> files;
    for (const auto& f : g->files) {
      JsonWriter fw;
      WriteFile(f, fw);
      files.push_back(fw.Take());
    }
    std::sort(files.begin(), files.end());
    w.Key("files");
    w.BeginArray();
    for (const auto& f : files) w.Raw(f);
    w.EndArray();
    w.EndObject();
  }
  w.EndArray();
  w.EndObject();
  return w.Take();
}

std::string CommitFingerprint(const CommitRequest& request) {
  return std::string(1, kFingerprintVersion) + Sha256(CanonicalCommitJson(request));
}

}  // namespace hoglake::catalog
