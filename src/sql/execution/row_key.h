// Row keys: the values of some columns of one row encoded into bytes so that
// two rows' keys are equal exactly when the values are equal under SQL
// grouping rules (NULL equals NULL, NaN equals NaN, −0 equals +0, numerics
// compared at one scale). Used by hash aggregation, DISTINCT, set
// operations and hash joins (which skip keys holding a NULL themselves).
#pragma once

#include <string>
#include <vector>

#include "columnar/array.h"
#include "sql/types/sql_type.h"

namespace hoglake::sql {

// Appends row `row`'s key over `columns` (of SQL `types`) to *out; returns
// whether any key value was NULL.
bool AppendRowKey(const std::vector<columnar::ArrayPtr>& columns,
                  const std::vector<SqlType>& types, int64_t row, std::string* out);

}  // namespace hoglake::sql
