// A small, readable record batch holding every column type of the catalog's
// vocabulary (with field ids), used by `hoglake arrow demo`.
#pragma once

#include "columnar/array.h"

namespace hoglake::cli {

Result<columnar::RecordBatch> MakeDemoBatch();

}  // namespace hoglake::cli
