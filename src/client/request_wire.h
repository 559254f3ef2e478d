// Pieces of request building shared by the SDK's handles (internal to
// src/client): time-travel query parameters, ColumnDef rendering (contract
// §2.5, pyhoglake-writer §2.3) and the client-side checks on column
// definitions that run before any request.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "client/client.h"
#include "common/json_writer.h"
#include "parquet/footer_stats.h"

namespace hoglake::client::wire {

// Appends snapshot= or at_timestamp=; both set → kValidation.
Status AddTravel(const TimeTravel& travel, QueryParams* query);

// One ColumnDef as a JSON object: {"name","type","nullable","type_params"?,
// "comment"?,"children"?}. A list's child is written as "element", a map's
// as "key" (always nullable false) and "value"; struct members keep their
// names. Scalars carry no "children".
void WriteColumnDef(const ColumnDef& column, JsonWriter& w);

// Partition / sort fields as JSON arrays of {"source_field_id","transform",
// "transform_param"?} / {"source_field_id","direction","null_order"} — the
// shapes set_partition_spec, set_sort_order and a table-creation prepare
// share.
void WritePartitionFields(const std::vector<PartitionFieldDef>& fields, JsonWriter& w);
void WriteSortFields(const std::vector<SortFieldDef>& fields, JsonWriter& w);

// The reserved-prefix refusal (pyhoglake-writer §12) for these dotted paths:
// "column name(s) ['s._hog_x', 'l._hogy'] use the reserved prefix '_hog': …".
Error ReservedPrefixError(const std::vector<std::string>& paths);

// Checks definitions before a create/add_column: every name starting with
// "_hog" at any level (one error listing every dotted path, children joined
// by their own names), then container shapes (list: 1 child, map: 2,
// struct: ≥ 1, scalars: none). kValidation.
Status CheckColumnDefs(const std::vector<ColumnDef>& columns);

// One file of a commit's append (contract §2.9 FileRegistration), as the
// SDK registers the files it wrote or prepared.
struct FileRegistrationWire {
  std::string path;
  int64_t record_count = 0;
  int64_t file_size_bytes = 0;
  int64_t footer_size = 0;
  // Absent: statistics deferred to the server's hydrator.
  const std::vector<parquet::ColumnStats>* column_stats = nullptr;
  const std::optional<std::vector<std::optional<std::string>>>* partition_values = nullptr;
};

// {"path","record_count","file_size_bytes","footer_size","column_stats"?,
//  "partition_values"?} — the one encoder of a file registration.
void WriteFileRegistration(const FileRegistrationWire& file, JsonWriter& w);

// Sends `call` and parses a 2xx body with `parse`.
template <typename T>
Result<T> Call(ClientContext& context, const HttpCall& call,
               Result<T> (*parse)(std::string_view text)) {
  HOGLAKE_ASSIGN_OR_RETURN(std::string body, context.transport.Send(call));
  return parse(body);
}

}  // namespace hoglake::client::wire
