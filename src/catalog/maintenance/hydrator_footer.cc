#include "catalog/maintenance/hydrator_footer.h"

#include "catalog/commit/file_registration.h"
#include "parquet/footer_stats.h"

namespace hoglake::catalog {
namespace {

constexpr int64_t kMaxFooterBytes = int64_t{64} << 20;  // as the Parquet reader

uint32_t LittleEndian32(std::string_view bytes) {
  uint32_t v = 0;
  for (int i = 3; i >= 0; --i) v = (v << 8) | static_cast<uint8_t>(bytes[i]);
  return v;
}

// Catalog leaves bound by field id (what a client passes: StatsColumnsFor).
void LeavesById(const std::vector<ColumnNode>& nodes, std::vector<parquet::StatsColumn>* out) {
  for (const ColumnNode& node : nodes) {
    if (node.type.type == iceberg::ColumnType::kVariant) continue;
    if (iceberg::IsContainer(node.type.type)) {
      LeavesById(node.children, out);
    } else {
      out->emplace_back(node.field_id, node.type);
    }
  }
}

// Catalog leaves bound by the dotted path_in_schema the catalog predicts:
// struct "s.x", list "l.list.element", map "m.key_value.key"/".value".
void LeavesByName(const std::vector<ColumnNode>& nodes, const std::string& prefix,
                  iceberg::ColumnType parent, std::vector<parquet::StatsColumn>* out) {
  for (const ColumnNode& node : nodes) {
    std::string path;
    if (parent == iceberg::ColumnType::kList) {
      path = prefix + ".list." + node.name;
    } else if (parent == iceberg::ColumnType::kMap) {
      path = prefix + ".key_value." + node.name;
    } else {
      path = prefix.empty() ? node.name : prefix + "." + node.name;
    }
    if (node.type.type == iceberg::ColumnType::kVariant) continue;
    if (iceberg::IsContainer(node.type.type)) {
      LeavesByName(node.children, path, node.type.type, out);
    } else {
      out->emplace_back(node.field_id, node.type, path);
    }
  }
}

FooterOutcome Failed(std::string reason, bool missing_field_ids = false) {
  FooterOutcome out;
  out.kind = FooterOutcome::Kind::kFailed;
  out.reason = std::move(reason);
  out.missing_field_ids = missing_field_ids;
  return out;
}

}  // namespace

Result<parquet::FileMetaData> FetchFooter(ObjectStore& store, const PendingFile& file) {
  const int64_t size = file.file_size_bytes;
  if (size < 12) {
    return InvalidData("not a Parquet file: ", size, " bytes cannot hold the magic and a footer");
  }
  const bool known = file.footer_size && *file.footer_size > 0 && *file.footer_size + 8 < size;
  const int64_t want = known ? *file.footer_size + 8 : 8;
  HOGLAKE_ASSIGN_OR_RETURN(std::string tail, store.GetRange(file.path, size - want, want));
  if (static_cast<int64_t>(tail.size()) < want) {
    return InvalidArgument("object ", file.path, " is shorter than its registered ", size,
                           " bytes");
  }
  const std::string_view magic = std::string_view(tail).substr(tail.size() - 4);
  if (magic == "PARE") return InvalidData("encrypted Parquet footers are not supported");
  if (magic != "PAR1") return InvalidData("not a Parquet file: bad trailing magic");
  const int64_t length = LittleEndian32(std::string_view(tail).substr(tail.size() - 8, 4));
  if (length <= 0 || length > size - 12) {
    return InvalidData("footer length ", length, " does not fit in the ", size, "-byte file");
  }
  if (length > kMaxFooterBytes) {
    return InvalidData("footer of ", length, " bytes exceeds the limit ", kMaxFooterBytes);
  }
  std::string footer;
  if (length + 8 <= static_cast<int64_t>(tail.size())) {
    footer = tail.substr(tail.size() - 8 - length, length);
  } else {  // footer_size unknown or registered too small: one more ranged read
    HOGLAKE_ASSIGN_OR_RETURN(footer, store.GetRange(file.path, size - 8 - length, length));
    if (static_cast<int64_t>(footer.size()) != length) {
      return InvalidArgument("object ", file.path, " changed while its footer was read");
    }
  }
  auto parsed =
      parquet::ParseFileMetaData(reinterpret_cast<const uint8_t*>(footer.data()), footer.size());
  if (!parsed.ok()) return InvalidData("bad Parquet footer: ", parsed.error().message);
  return std::move(*parsed);
}

FooterOutcome HydrateFile(ObjectStore& store, const PendingFile& file,
                          const std::vector<ColumnNode>& live_columns,
                          const std::function<Result<std::vector<ColumnNode>>()>& begin_columns) {
  Result<parquet::FileMetaData> fetched = FetchFooter(store, file);
  if (!fetched.ok()) {
    const Error& e = fetched.error();
    if (e.code == ErrorCode::kNotFound) return Failed(StrCat("object is missing: ", e.message));
    if (e.code == ErrorCode::kInvalidArgument || e.code == ErrorCode::kInvalidData ||
        e.code == ErrorCode::kNotImplemented) {
      return Failed(StrCat("unreadable footer of ", file.path, ": ", e.message));
    }
    FooterOutcome out;
    out.kind = FooterOutcome::Kind::kTransient;
    out.reason = e.message;
    return out;
  }
  const parquet::FileMetaData& metadata = *fetched;

  bool missing_ids = false, any_id = false;
  for (size_t i = 1; i < metadata.schema.size(); ++i) {
    const parquet::SchemaElement& e = metadata.schema[i];
    if (e.field_id) any_id = true;
    if (e.type && !e.num_children.value_or(0) && !e.field_id) missing_ids = true;
  }
  int64_t rows = 0;
  for (const parquet::RowGroup& g : metadata.row_groups) rows += g.num_rows;
  if (rows != file.record_count) {
    return Failed(StrCat("the footer of ", file.path, " counts ", rows,
                         " rows but the file was registered with record_count ", file.record_count),
                  missing_ids);
  }

  std::vector<parquet::StatsColumn> columns;
  if (any_id) {
    LeavesById(live_columns, &columns);
  } else {
    Result<std::vector<ColumnNode>> named = begin_columns();
    LeavesByName(named.ok() ? *named : live_columns, "", iceberg::ColumnType::kStruct, &columns);
  }
  auto extracted = parquet::ExtractColumnStats(metadata, columns);
  if (!extracted.ok()) {
    return Failed(StrCat("the footer schema of ", file.path,
                         " cannot be mapped: ", extracted.error().message),
                  missing_ids);
  }
  const StatsColumns live = StatsColumnsOf(live_columns);
  FooterOutcome out;
  out.missing_field_ids = missing_ids;
  for (const parquet::ColumnStats& s : *extracted) {
    auto it = live.find(s.field_id);
    if (it == live.end() || !it->second.is_leaf) continue;  // dropped since the file was written
    out.stats.push_back(ColumnStatsInput{s.field_id, s.value_count, s.null_count, s.nan_count,
                                         s.size_bytes, s.lower_bound, s.upper_bound});
  }
  Status sane = SanitizeColumnStats(out.stats, live, StrCat("hydration of ", file.path));
  if (!sane.ok()) return Failed(sane.error().message, missing_ids);
  if (metadata.row_groups.size() <= kMaxSplitOffsets) {
    std::vector<int64_t> offsets;
    for (const parquet::RowGroup& g : metadata.row_groups) {
      if (g.columns.empty()) continue;
      const parquet::ColumnChunk& first = g.columns.front();
      if (first.meta_data) {
        offsets.push_back(
            first.meta_data->dictionary_page_offset.value_or(first.meta_data->data_page_offset));
      } else {
        offsets.push_back(first.file_offset);
      }
    }
    out.split_offsets = std::move(offsets);
  }
  return out;
}

}  // namespace hoglake::catalog
