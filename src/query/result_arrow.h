// Query results as Arrow users receive them (GET /v1/results/{id} as an
// Arrow IPC stream), and back into the engine's carriers.
//
// A stored result holds the engine's carriers (sql::CarrierType), where
// interval and uuid share fixed_size_binary(16). At the Arrow boundary they
// are told apart, as PostgreSQL's and DuckDB's Arrow exporters do it:
//   interval  interval[month_day_nano]: months int32, days int32,
//             nanoseconds int64 = the interval's microseconds × 1000
//   uuid      fixed_size_binary(16) with the canonical extension metadata
//             "ARROW:extension:name" = "arrow.uuid" and an empty
//             "ARROW:extension:metadata" (pa.uuid() in pyarrow ≥ 18)
// at any nesting (array elements, composite members, map keys and values).
// Every other column passes unchanged, sharing its buffers.
//
// ArrowResultField: the Arrow field of a stored column of SQL type `type`
// (the types from ResultColumnTypes). CarrierResultField: the inverse, for a
// client decoding the stream (`hoglake sql --server`), which learns the
// column's SQL type with ArrowResultSqlType. RetypeArray: an array carried
// as one of these shapes re-laid out as the other (`target`, from the two
// field functions), converting interval values; kInvalidArgument when an
// interval's microseconds do not fit int64 nanoseconds (beyond ±292,000
// years) or its nanoseconds are not whole microseconds.
#pragma once

#include "columnar/array.h"
#include "columnar/type.h"
#include "common/status.h"
#include "sql/types/sql_type.h"

namespace hoglake::query {

columnar::Field ArrowResultField(const columnar::Field& stored, const sql::SqlType& type);
columnar::Field CarrierResultField(const columnar::Field& arrow);
// The SQL type of a column of an Arrow result; kNotImplemented for types
// with no SQL counterpart.
Result<sql::SqlType> ArrowResultSqlType(const columnar::Field& arrow);

Result<columnar::ArrayPtr> RetypeArray(const columnar::ArrayPtr& array,
                                       const columnar::DataTypePtr& target);

// `batch` with every column retyped to `schema` (ArrowResultField or
// CarrierResultField of each of its fields).
Result<columnar::RecordBatch> RetypeBatch(const columnar::RecordBatch& batch,
                                          const columnar::SchemaPtr& schema);

}  // namespace hoglake::query
