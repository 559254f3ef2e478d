// Reading data-file rows (hog_data_file aliased `f`) into DataFileInfo, one
// definition shared by scan, file listing and the changefeed. Internal to
// src/catalog.
#pragma once

#include "catalog/model/file_info.h"
#include "pg/pg_connection.h"

namespace hoglake::catalog {

// The select list (partition values aggregated in key order, looked up only
// for files written under a partition spec: unpartitioned files never have
// rows there, and DataFileFromRow reads the column only when spec_id is set) …
extern const char* const kDataFileColumns;
// … and how many columns it has, so callers can append their own after it.
inline constexpr int kDataFileColumnCount = 13;

// Row `row` of a result whose first columns are kDataFileColumns.
// split_offsets are filled when stored; partition_values when the file has a
// spec.
DataFileInfo DataFileFromRow(const pg::PgResult& r, int row);

}  // namespace hoglake::catalog
