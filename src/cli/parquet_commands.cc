// `hoglake parquet`: Parquet file tools.
//   parquet inspect FILE [--json]   the footer: schema (field ids,
//       annotations), row groups with each chunk's codec, encodings, sizes
//       and statistics, and the exact `column_stats` array a commit would
//       ship for the file (parquet/footer_stats.h: catalog leaves derived
//       from the file's own field ids and types). Human-readable by default;
//       --json prints one JSON document:
//         {"file","file_size","footer_size","num_rows","created_by",
//          "schema":[{"name","depth",…}],"row_groups":[{…,"columns":[…]}],
//          "stats_columns":[{"field_id","path","type"}],"column_stats":[…]}
//       Statistics bytes appear as hex ("min_value_hex", …).
//   parquet cat FILE [--columns a,b] [--limit N]   rows as JSON lines
//       (columnar/json_rows.h), streamed one row group at a time.
#include <CLI/CLI.hpp>

#include <cstdio>
#include <functional>
#include <iostream>
#include <optional>
#include <string>
#include <vector>

#include "cli/commands.h"
#include "columnar/json_rows.h"
#include "common/encoding.h"
#include "common/json_writer.h"
#include "iceberg/bounds.h"
#include "parquet/compression.h"
#include "parquet/footer_stats.h"
#include "parquet/reader.h"

namespace hoglake::cli {
namespace {

using parquet::FileMetaData;

void Run(CommandContext& context, const std::function<Status()>& body) {
  Status status = body();
  if (!status.ok()) {
    std::cerr << "hoglake: " << status.ToString() << "\n";
    context.exit_code = 1;
  }
}

std::string_view PhysicalName(parquet::PhysicalType type) {
  static constexpr std::string_view kNames[] = {
      "BOOLEAN", "INT32",  "INT64",      "INT96",
      "FLOAT",   "DOUBLE", "BYTE_ARRAY", "FIXED_LEN_BYTE_ARRAY"};
  const int i = static_cast<int>(type);
  return i >= 0 && i < 8 ? kNames[i] : "UNKNOWN";
}

std::string EncodingName(parquet::Encoding encoding) {
  using E = parquet::Encoding;
  switch (encoding) {
    case E::kPlain:
      return "PLAIN";
    case E::kPlainDictionary:
      return "PLAIN_DICTIONARY";
    case E::kRle:
      return "RLE";
    case E::kBitPacked:
      return "BIT_PACKED";
    case E::kDeltaBinaryPacked:
      return "DELTA_BINARY_PACKED";
    case E::kDeltaLengthByteArray:
      return "DELTA_LENGTH_BYTE_ARRAY";
    case E::kDeltaByteArray:
      return "DELTA_BYTE_ARRAY";
    case E::kRleDictionary:
      return "RLE_DICTIONARY";
    case E::kByteStreamSplit:
      return "BYTE_STREAM_SPLIT";
  }
  return "ENCODING(" + std::to_string(static_cast<int>(encoding)) + ")";
}

std::string_view RepetitionName(parquet::Repetition r) {
  switch (r) {
    case parquet::Repetition::kRequired:
      return "required";
    case parquet::Repetition::kOptional:
      return "optional";
    case parquet::Repetition::kRepeated:
      return "repeated";
  }
  return "unknown";
}

std::string_view UnitName(parquet::LogicalTimeUnit unit) {
  switch (unit) {
    case parquet::LogicalTimeUnit::kMillis:
      return "MILLIS";
    case parquet::LogicalTimeUnit::kMicros:
      return "MICROS";
    case parquet::LogicalTimeUnit::kNanos:
      return "NANOS";
  }
  return "UNKNOWN";
}

// "TIMESTAMP(MICROS,utc)", "DECIMAL(10,2)", "INTEGER(8,unsigned)", "STRING".
std::string LogicalTypeText(const parquet::LogicalType& lt) {
  using K = parquet::LogicalType::Kind;
  switch (lt.kind) {
    case K::kString:
      return "STRING";
    case K::kMap:
      return "MAP";
    case K::kList:
      return "LIST";
    case K::kEnum:
      return "ENUM";
    case K::kDecimal:
      return "DECIMAL(" + std::to_string(lt.precision) + "," + std::to_string(lt.scale) + ")";
    case K::kDate:
      return "DATE";
    case K::kTime:
    case K::kTimestamp:
      return std::string(lt.kind == K::kTime ? "TIME(" : "TIMESTAMP(") +
             std::string(UnitName(lt.unit)) + (lt.is_adjusted_to_utc ? ",utc)" : ",local)");
    case K::kInteger:
      return "INTEGER(" + std::to_string(lt.bit_width) + (lt.is_signed ? ",signed)" : ",unsigned)");
    case K::kUnknown:
      return "UNKNOWN";
    case K::kJson:
      return "JSON";
    case K::kBson:
      return "BSON";
    case K::kUuid:
      return "UUID";
    case K::kFloat16:
      return "FLOAT16";
  }
  return "LOGICAL(" + std::to_string(static_cast<int>(lt.kind)) + ")";
}

std::string_view ConvertedTypeName(parquet::ConvertedType ct) {
  static constexpr std::string_view kNames[] = {"UTF8",
                                                "MAP",
                                                "MAP_KEY_VALUE",
                                                "LIST",
                                                "ENUM",
                                                "DECIMAL",
                                                "DATE",
                                                "TIME_MILLIS",
                                                "TIME_MICROS",
                                                "TIMESTAMP_MILLIS",
                                                "TIMESTAMP_MICROS",
                                                "UINT_8",
                                                "UINT_16",
                                                "UINT_32",
                                                "UINT_64",
                                                "INT_8",
                                                "INT_16",
                                                "INT_32",
                                                "INT_64",
                                                "JSON",
                                                "BSON",
                                                "INTERVAL"};
  const int i = static_cast<int>(ct);
  return i >= 0 && i < 22 ? kNames[i] : "UNKNOWN";
}

// Depth of each schema element (root 0), from the depth-first listing.
std::vector<int> ElementDepths(const FileMetaData& metadata) {
  std::vector<int> depths;
  std::vector<int> remaining;  // children still to come, per open group
  for (const parquet::SchemaElement& e : metadata.schema) {
    while (!remaining.empty() && remaining.back() == 0) remaining.pop_back();
    depths.push_back(static_cast<int>(remaining.size()));
    if (!remaining.empty()) --remaining.back();
    if (e.num_children.value_or(0) > 0) remaining.push_back(*e.num_children);
  }
  return depths;
}

std::string Path(const std::vector<std::string>& path) {
  std::string out;
  for (const std::string& p : path) out += (out.empty() ? "" : ".") + p;
  return out;
}

struct Inspection {
  const FileMetaData* metadata = nullptr;
  int64_t file_size = 0;
  int64_t footer_size = 0;
  std::vector<parquet::StatsColumn> columns;
  std::vector<parquet::ColumnStats> stats;
};

void WriteInspectJson(const std::string& path, const Inspection& in) {
  const FileMetaData& md = *in.metadata;
  JsonWriter w;
  w.BeginObject();
  w.Field("file", std::string_view(path));
  w.Field("file_size", in.file_size);
  w.Field("footer_size", in.footer_size);
  w.Field("num_rows", md.num_rows);
  w.Field("version", int64_t{md.version});
  w.OptionalField("created_by", md.created_by);
  w.Key("key_value_metadata");
  w.BeginObject();
  for (const auto& kv : md.key_value_metadata) {
    w.Key(kv.key);
    if (kv.value) {
      w.String(*kv.value);
    } else {
      w.Null();
    }
  }
  w.EndObject();
  w.Key("schema");
  w.BeginArray();
  const std::vector<int> depths = ElementDepths(md);
  for (size_t i = 0; i < md.schema.size(); ++i) {
    const parquet::SchemaElement& e = md.schema[i];
    w.BeginObject();
    w.Field("name", std::string_view(e.name));
    w.Field("depth", int64_t{depths[i]});
    if (e.type) w.Field("physical_type", PhysicalName(*e.type));
    if (e.type_length) w.Field("type_length", int64_t{*e.type_length});
    if (e.repetition_type) w.Field("repetition", RepetitionName(*e.repetition_type));
    if (e.num_children) w.Field("num_children", int64_t{*e.num_children});
    if (e.converted_type) w.Field("converted_type", ConvertedTypeName(*e.converted_type));
    if (e.logical_type) w.Field("logical_type", std::string_view(LogicalTypeText(*e.logical_type)));
    if (e.field_id) w.Field("field_id", int64_t{*e.field_id});
    w.EndObject();
  }
  w.EndArray();
  w.Key("row_groups");
  w.BeginArray();
  for (const parquet::RowGroup& rg : md.row_groups) {
    w.BeginObject();
    w.Field("num_rows", rg.num_rows);
    w.Field("total_byte_size", rg.total_byte_size);
    if (rg.total_compressed_size) w.Field("total_compressed_size", *rg.total_compressed_size);
    w.Key("columns");
    w.BeginArray();
    for (const parquet::ColumnChunk& chunk : rg.columns) {
      w.BeginObject();
      if (chunk.meta_data) {
        const parquet::ColumnMetaData& cm = *chunk.meta_data;
        w.Field("path", std::string_view(Path(cm.path_in_schema)));
        w.Field("physical_type", PhysicalName(cm.type));
        w.Field("codec", parquet::CodecName(cm.codec));
        w.Key("encodings");
        w.BeginArray();
        for (parquet::Encoding e : cm.encodings) w.String(EncodingName(e));
        w.EndArray();
        w.Field("num_values", cm.num_values);
        w.Field("total_compressed_size", cm.total_compressed_size);
        w.Field("total_uncompressed_size", cm.total_uncompressed_size);
        w.Field("data_page_offset", cm.data_page_offset);
        if (cm.dictionary_page_offset)
          w.Field("dictionary_page_offset", *cm.dictionary_page_offset);
        if (cm.statistics) {
          const parquet::Statistics& s = *cm.statistics;
          w.Key("statistics");
          w.BeginObject();
          w.OptionalField("null_count", s.null_count);
          w.OptionalField("distinct_count", s.distinct_count);
          if (s.min_value) w.Field("min_value_hex", std::string_view(HexEncode(*s.min_value)));
          if (s.max_value) w.Field("max_value_hex", std::string_view(HexEncode(*s.max_value)));
          if (s.min) w.Field("min_hex", std::string_view(HexEncode(*s.min)));
          if (s.max) w.Field("max_hex", std::string_view(HexEncode(*s.max)));
          if (s.is_min_value_exact) w.Field("is_min_value_exact", *s.is_min_value_exact);
          if (s.is_max_value_exact) w.Field("is_max_value_exact", *s.is_max_value_exact);
          w.EndObject();
        }
      }
      w.EndObject();
    }
    w.EndArray();
    w.EndObject();
  }
  w.EndArray();
  w.Key("stats_columns");
  w.BeginArray();
  for (const parquet::StatsColumn& c : in.columns) {
    w.BeginObject();
    w.Field("field_id", int64_t{c.field_id});
    w.Field("path", std::string_view(c.path));
    w.Field("type", std::string_view(c.type.ToString()));
    w.EndObject();
  }
  w.EndArray();
  w.Key("column_stats");
  parquet::AppendColumnStatsJson(in.stats, &w);
  w.EndObject();
  std::cout << w.text() << "\n";
}

void WriteInspectText(const std::string& path, const Inspection& in) {
  const FileMetaData& md = *in.metadata;
  std::cout << "file: " << path << "\n"
            << "size: " << in.file_size << " bytes, footer_size " << in.footer_size << "\n"
            << "rows: " << md.num_rows << " in " << md.row_groups.size() << " row groups\n";
  if (md.created_by) std::cout << "created_by: " << *md.created_by << "\n";
  for (const auto& kv : md.key_value_metadata) {
    std::string value = kv.value.value_or("");
    if (value.size() > 120) value = value.substr(0, 117) + "...";
    std::cout << "metadata: " << kv.key << " = " << value << "\n";
  }
  std::cout << "\nschema:\n";
  const std::vector<int> depths = ElementDepths(md);
  for (size_t i = 1; i < md.schema.size(); ++i) {
    const parquet::SchemaElement& e = md.schema[i];
    std::cout << std::string(2 * depths[i], ' ');
    if (e.repetition_type) std::cout << RepetitionName(*e.repetition_type) << " ";
    std::cout << (e.type ? std::string(PhysicalName(*e.type)) : std::string("group"));
    if (e.type_length && e.type && *e.type == parquet::PhysicalType::kFixedLenByteArray) {
      std::cout << "(" << *e.type_length << ")";
    }
    std::cout << " " << e.name;
    if (e.logical_type) std::cout << " " << LogicalTypeText(*e.logical_type);
    if (!e.logical_type && e.converted_type)
      std::cout << " " << ConvertedTypeName(*e.converted_type);
    if (e.field_id) std::cout << " [id " << *e.field_id << "]";
    std::cout << "\n";
  }
  for (size_t g = 0; g < md.row_groups.size(); ++g) {
    const parquet::RowGroup& rg = md.row_groups[g];
    std::cout << "\nrow group " << g << ": " << rg.num_rows << " rows, " << rg.total_byte_size
              << " bytes uncompressed\n";
    for (const parquet::ColumnChunk& chunk : rg.columns) {
      if (!chunk.meta_data) continue;
      const parquet::ColumnMetaData& cm = *chunk.meta_data;
      std::cout << "  " << Path(cm.path_in_schema) << ": " << PhysicalName(cm.type) << " "
                << parquet::CodecName(cm.codec) << " [";
      for (size_t e = 0; e < cm.encodings.size(); ++e) {
        std::cout << (e ? " " : "") << EncodingName(cm.encodings[e]);
      }
      std::cout << "] values " << cm.num_values << ", " << cm.total_compressed_size << " / "
                << cm.total_uncompressed_size << " bytes";
      if (cm.statistics) {
        const parquet::Statistics& s = *cm.statistics;
        if (s.null_count) std::cout << ", nulls " << *s.null_count;
        if (s.min_value && s.max_value) {
          std::cout << ", min 0x" << HexEncode(*s.min_value) << " max 0x"
                    << HexEncode(*s.max_value);
        }
      }
      std::cout << "\n";
    }
  }
  std::cout << "\ncolumn stats (as a commit ships them; catalog types from the file):\n";
  for (const parquet::ColumnStats& s : in.stats) {
    const parquet::StatsColumn* column = nullptr;
    for (const auto& c : in.columns) {
      if (c.field_id == s.field_id) column = &c;
    }
    std::cout << "  field " << s.field_id;
    if (column) std::cout << " " << column->path << " (" << column->type.ToString() << ")";
    std::cout << ": values " << s.value_count << ", nulls " << s.null_count;
    if (s.size_bytes) std::cout << ", " << *s.size_bytes << " bytes";
    if (s.lower_bound && s.upper_bound && column) {
      std::cout << ", bounds " << iceberg::BoundJson(column->type, *s.lower_bound) << " .. "
                << iceberg::BoundJson(column->type, *s.upper_bound);
    } else {
      std::cout << ", no bounds";
    }
    std::cout << "\n";
  }
  std::cout << "\ncolumn_stats JSON:\n" << parquet::ColumnStatsJson(in.stats) << "\n";
}

Status Inspect(const std::string& path, bool json) {
  HOGLAKE_ASSIGN_OR_RETURN(auto reader, parquet::ParquetReader::OpenFile(path));
  Inspection in;
  in.metadata = &reader->metadata();
  in.file_size = reader->file_size();
  in.footer_size = reader->footer_size();
  HOGLAKE_ASSIGN_OR_RETURN(in.columns, parquet::StatsColumnsFromFile(*in.metadata));
  HOGLAKE_ASSIGN_OR_RETURN(in.stats, parquet::ExtractColumnStats(*in.metadata, in.columns));
  if (json) {
    WriteInspectJson(path, in);
  } else {
    WriteInspectText(path, in);
  }
  std::cout.flush();
  return std::cout ? Status::Ok() : Status(IoError("cannot write standard output"));
}

std::vector<std::string> SplitColumns(const std::string& text) {
  std::vector<std::string> names;
  size_t start = 0;
  while (true) {
    const size_t comma = text.find(',', start);
    names.push_back(
        text.substr(start, comma == std::string::npos ? std::string::npos : comma - start));
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  return names;
}

// The first `length` rows of `batch` (shares its buffers).
columnar::RecordBatch HeadOf(const columnar::RecordBatch& batch, int64_t length) {
  columnar::RecordBatch out{batch.schema, length, {}};
  for (const columnar::ArrayPtr& column : batch.columns) {
    auto head = std::make_shared<columnar::ArrayData>(*column);
    head->length = length;
    head->null_count = 0;
    for (int64_t i = 0; i < length; ++i) head->null_count += column->IsNull(i);
    out.columns.push_back(std::move(head));
  }
  return out;
}

Status Cat(const std::string& path, const std::optional<std::string>& columns,
           std::optional<int64_t> limit) {
  if (limit && *limit < 0) return InvalidArgument("--limit must be ≥ 0");
  HOGLAKE_ASSIGN_OR_RETURN(auto reader, parquet::ParquetReader::OpenFile(path));
  if (columns) HOGLAKE_RETURN_IF_ERROR(reader->SelectColumns(SplitColumns(*columns)));
  int64_t remaining = limit.value_or(INT64_MAX);
  std::string out;
  while (remaining > 0) {
    HOGLAKE_ASSIGN_OR_RETURN(std::optional<columnar::RecordBatch> batch, reader->Next());
    if (!batch) break;
    out.clear();
    if (batch->num_rows > remaining) {
      columnar::AppendJsonLines(HeadOf(*batch, remaining), &out);
    } else {
      columnar::AppendJsonLines(*batch, &out);
    }
    remaining -= batch->num_rows;
    if (std::fwrite(out.data(), 1, out.size(), stdout) != out.size()) {
      return IoError("cannot write standard output");
    }
  }
  return std::fflush(stdout) == 0 ? Status::Ok() : Status(IoError("cannot write standard output"));
}

}  // namespace

void RegisterParquetCommands(CLI::App& app, CommandContext& context) {
  auto* parquet = app.add_subcommand("parquet", "Inspect and read Parquet files");
  parquet->require_subcommand(1);

  auto* inspect = parquet->add_subcommand(
      "inspect", "Print a Parquet file's footer and the column_stats a commit would ship");
  static std::string inspect_path;
  static bool inspect_json = false;
  inspect->add_option("FILE", inspect_path, "Parquet file")->required();
  inspect->add_flag("--json", inspect_json, "One machine-readable JSON document");
  inspect->callback(
      [&context] { Run(context, [] { return Inspect(inspect_path, inspect_json); }); });

  auto* cat = parquet->add_subcommand("cat", "Print the rows of a Parquet file as JSON lines");
  static std::string cat_path;
  static std::optional<std::string> cat_columns;
  static std::optional<int64_t> cat_limit;
  cat->add_option("FILE", cat_path, "Parquet file")->required();
  cat->add_option("--columns", cat_columns, "Comma-separated top-level columns, in output order");
  cat->add_option("--limit", cat_limit, "Print at most N rows")
      ->check(CLI::Validator(
          [](std::string& text) {
            return !text.empty() && text.find_first_not_of("0123456789") == std::string::npos
                       ? std::string()
                       : "--limit must be a non-negative integer, got '" + text + "'";
          },
          "N", "non-negative integer"));
  cat->callback([&context] { Run(context, [] { return Cat(cat_path, cat_columns, cat_limit); }); });
}

}  // namespace hoglake::cli
