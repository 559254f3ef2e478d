#include "catalog/reads/data_file_rows.h"

#include <string>

namespace hoglake::catalog {

const char* const kDataFileColumns =
    "f.data_file_id, f.path, f.file_format, f.record_count, f.file_size_bytes, f.footer_size, "
    "f.row_id_start, f.stats_state, f.begin_snapshot, f.spec_id, f.explicit_row_ids, "
    "f.split_offsets::text, "
    "CASE WHEN f.spec_id IS NOT NULL THEN "
    "(SELECT array_agg(coalesce('v' || p.value, 'n') ORDER BY p.key_index)::text "
    " FROM hog_file_partition_value p WHERE p.catalog_id = f.catalog_id AND p.data_file_id = "
    "f.data_file_id) END";

namespace {

std::vector<int64_t> ParseIntArray(std::string_view text) {
  std::vector<int64_t> out;
  text.remove_prefix(1);
  text.remove_suffix(1);
  while (!text.empty()) {
    const size_t comma = text.find(',');
    out.push_back(std::stoll(std::string(text.substr(0, comma))));
    text = comma == std::string_view::npos ? "" : text.substr(comma + 1);
  }
  return out;
}

// Reads PostgreSQL's text form of a text[] whose elements are "v<value>" or
// "n" (null), as produced by kDataFileColumns.
std::vector<std::optional<std::string>> ParsePartitionArray(std::string_view text) {
  std::vector<std::optional<std::string>> out;
  size_t i = 1;  // after '{'
  while (i < text.size() && text[i] != '}') {
    std::string element;
    if (text[i] == '"') {
      ++i;
      while (i < text.size() && text[i] != '"') {
        if (text[i] == '\\') ++i;
        element.push_back(text[i++]);
      }
      ++i;
    } else {
      while (i < text.size() && text[i] != ',' && text[i] != '}') element.push_back(text[i++]);
    }
    if (element == "n") {
      out.push_back(std::nullopt);
    } else {
      out.push_back(element.substr(1));
    }
    if (i < text.size() && text[i] == ',') ++i;
  }
  return out;
}

}  // namespace

DataFileInfo DataFileFromRow(const pg::PgResult& r, int i) {
  DataFileInfo f;
  f.data_file_id = r.GetInt64(i, 0);
  f.path = r.GetString(i, 1);
  f.file_format = r.GetString(i, 2);
  f.record_count = r.GetInt64(i, 3);
  f.file_size_bytes = r.GetInt64(i, 4);
  f.footer_size = r.GetOptionalInt64(i, 5);
  f.row_id_start = r.GetInt64(i, 6);
  // The SQL CHECK admits only the vocabulary's spellings.
  f.stats_state = ParseStatsState(r.GetString(i, 7)).value_or(StatsState::kProvided);
  f.begin_snapshot = r.GetInt64(i, 8);
  f.spec_id = r.GetOptionalInt64(i, 9);
  f.explicit_row_ids = r.GetBool(i, 10);
  if (!r.IsNull(i, 11)) f.split_offsets = ParseIntArray(r.GetText(i, 11));
  if (f.spec_id)
    f.partition_values = r.IsNull(i, 12) ? std::vector<std::optional<std::string>>{}
                                         : ParsePartitionArray(r.GetText(i, 12));
  return f;
}

}  // namespace hoglake::catalog
