// The DataFile wire shape (file_wire.h): column_stats entries are appended
// whole, bypassing JsonWriter's key bookkeeping; they must read exactly as
// the contract spells them (§2.6: field_id, value_count, null_count,
// nan_count only when known, decoded bounds or explicit null).
#include "server/catalog_api/file_wire.h"

#include <gtest/gtest.h>

namespace hoglake::server {
namespace {

catalog::ColumnStatRow Stat(int32_t field_id, iceberg::TypeSpec type,
                            std::optional<std::string> lower, std::optional<std::string> upper,
                            std::optional<int64_t> nan_count = std::nullopt) {
  catalog::ColumnStatRow s;
  s.field_id = field_id;
  s.value_count = 10;
  s.null_count = 2;
  s.nan_count = nan_count;
  s.lower_bound = std::move(lower);
  s.upper_bound = std::move(upper);
  s.type = type;
  return s;
}

TEST(FileWireTest, ColumnStatsEntriesReadAsTheContractSpellsThem) {
  catalog::DataFileInfo f;
  f.data_file_id = 7;
  f.path = "s3://b/f.parquet";
  f.file_format = "parquet";
  f.record_count = 10;
  f.file_size_bytes = 100;
  f.stats_state = catalog::StatsState::kProvided;
  f.begin_snapshot = 3;
  f.column_stats = std::vector<catalog::ColumnStatRow>{
      Stat(1, iceberg::ColumnType::kLong, std::string("\xfe\xff\xff\xff\xff\xff\xff\xff", 8),
           std::string("\x2c\x01\0\0\0\0\0\0", 8)),
      Stat(2, iceberg::ColumnType::kDouble, std::nullopt, std::string("\0\0\0\0\0\0\xf8\x3f", 8),
           0),
      Stat(3, iceberg::ColumnType::kString, std::string("a\"b"), std::nullopt),
  };
  JsonWriter w;
  WriteDataFile(f, w);
  EXPECT_EQ(w.Take(),
            R"({"data_file_id":7,"path":"s3://b/f.parquet","file_format":"parquet",)"
            R"("record_count":10,"file_size_bytes":100,"row_id_start":0,)"
            R"("stats_state":"provided","begin_snapshot":3,"explicit_row_ids":false,)"
            R"("column_stats":[)"
            R"({"field_id":1,"value_count":10,"null_count":2,"lower_bound":-2,"upper_bound":300},)"
            R"({"field_id":2,"value_count":10,"null_count":2,"nan_count":0,"lower_bound":null,)"
            R"("upper_bound":1.5},)"
            R"({"field_id":3,"value_count":10,"null_count":2,"lower_bound":"a\"b",)"
            R"("upper_bound":null}]})");
}

TEST(FileWireTest, EmptyStatsListIsAnEmptyArray) {
  catalog::DataFileInfo f;
  f.stats_state = catalog::StatsState::kProvided;
  f.column_stats = std::vector<catalog::ColumnStatRow>{};
  JsonWriter w;
  WriteDataFile(f, w);
  EXPECT_NE(w.Take().find(R"("column_stats":[])"), std::string::npos);
}

}  // namespace
}  // namespace hoglake::server
