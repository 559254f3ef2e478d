// Wire shapes of read planning (contract §2.6): DataFile (with optional
// column_stats, split_offsets, ordering_bounds), ScanFile, FileStats. Bounds
// are decoded to JSON per §3.4 and always present (null when absent or
// undecodable).
#pragma once

#include "catalog/model/file_info.h"
#include "common/json_writer.h"

namespace hoglake::server {

void WriteDataFile(const catalog::DataFileInfo& file, JsonWriter& w);
void WriteScanFile(const catalog::DataFileInfo& file, JsonWriter& w);
void WriteFileStats(const catalog::FileStats& stats, JsonWriter& w);

}  // namespace hoglake::server
