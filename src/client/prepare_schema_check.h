// The validators of the prepared-commit path (pyhoglake-writer §10.2–§10.5):
// what a caller-written Parquet file must look like before
// Table::PrepareAppendFiles uploads it. Internal to src/client; exposed for
// the unit tests. Every refusal is kValidation with pyhoglake's wording.
// Reading lives in prepare_describe.cc, checking in prepare_schema_check.cc.
//
// DescribePreparedFile reads only the file's tail: the trailer (magic
// "PAR1", footer length ≤ min(size − 12, 64 MiB)), the FileMetaData and its
// Arrow view (parquet/reader.h), and a raw scan of the footer's schema list
// for what our Thrift codec does not model (the VARIANT logical-type member
// and how many union members an element's logicalType carries).
//
// CheckPreparedFile picks the check:
//   - ordinary (no variant column, allow_optional_fields off, §10.3): the
//     file's Arrow schema must equal PreparedExpectedSchema(columns) —
//     names, order, types, nullability and field ids at every level, with
//     one licence: a uuid may be arrow.uuid or bare fixed_size_binary(16) at
//     any depth. Else "prepared Parquet schema/field IDs differ from
//     destination".
//   - physical (a variant column, or allow_optional_fields, §10.4/§10.5):
//     top-level names and count ("prepared Parquet columns differ from
//     destination"); per column the element's and the Arrow field's id
//     ("prepared field ID differs for X"), name and REQUIRED/OPTIONAL
//     repetition ("invalid prepared field X"); scalars: type equal with
//     timestamp_s read as ms, uuid normalized, time zones compared as UTC,
//     no children ("prepared Parquet type differs for X"); containers: type
//     equal ignoring metadata, ids equal at every level ("prepared field ID
//     differs for s.x"); variants: native VARIANT(1) group ("X must be
//     native Parquet VARIANT version 1") with storage {metadata required
//     binary, value binary?, typed_value?} by name ("invalid native VARIANT
//     storage for X"). A NOT NULL column written OPTIONAL must be proved
//     null-free by every row group's chunk statistics (all leaves of a
//     scalar, any leaf of a container, the `metadata` leaf of a variant):
//     "prepared file cannot prove non-null values for X".
// List element names are not compared (writers spell them differently);
// a variant nested inside a struct is not supported (the struct's shape
// then differs from the destination's).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "client/models.h"
#include "columnar/type.h"
#include "common/status.h"
#include "parquet/metadata.h"

namespace hoglake::client {

// What the raw footer says about one SchemaElement (same index as
// FileMetaData::schema).
struct RawSchemaElement {
  bool has_physical_type = false;        // field 1 present
  std::vector<int16_t> logical_members;  // union members of logicalType (field 10)
  // Set when the logicalType carries VARIANT (member 16): its
  // specification_version, 0 when absent.
  std::optional<int32_t> variant_version;
  // Offset (in the footer bytes) of the element's STOP byte.
  size_t end_offset = 0;
};

// Scans the serialized FileMetaData's schema list (field 2). InvalidData
// when the bytes are not a FileMetaData with a schema list.
Result<std::vector<RawSchemaElement>> ScanRawSchema(std::string_view footer);

struct PreparedFileFacts {
  std::string local_path;
  parquet::FileMetaData metadata;
  columnar::SchemaPtr schema;  // the reader's Arrow view, field ids in metadata
  std::vector<RawSchemaElement> raw;
  int64_t file_size = 0;
  int64_t footer_size = 0;  // the trailer's u32 (§3.4)
  int64_t num_rows = 0;
};

// Reads the footer of the local file. A missing/unreadable file keeps its
// I/O error; a file that is not readable Parquet is kValidation.
Result<PreparedFileFacts> DescribePreparedFile(const std::string& local_path);

// WriterSchema(columns) with every timestamp[s] replaced by timestamp[ms]
// (what Parquet stores, §10.2.3).
Result<columnar::SchemaPtr> PreparedExpectedSchema(const std::vector<Column>& columns);

// The check for one file against the destination's columns (see above).
// `expected` is PreparedExpectedSchema(columns) (computed once per call).
Status CheckPreparedFile(const PreparedFileFacts& file, const std::vector<Column>& columns,
                         const columnar::Schema& expected, bool allow_optional_fields);

// Whether the destination's layout — columns (names, types, ids, ordinals,
// nullability, children; comments ignored), partition spec and sort spec —
// is the same in both reads.
bool SameLayout(const TableInfo& a, const TableInfo& b);

}  // namespace hoglake::client
