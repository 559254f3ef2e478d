// Recording maintenance runs in hog_maintenance_run (one row per run, ok with
// its result JSON or failed with its error). Internal to src/catalog.
#pragma once

#include <string>
#include <string_view>

#include "pg/pg_connection.h"

namespace hoglake::catalog {

Status RecordMaintenanceRun(pg::PgConnection& conn, int64_t catalog_id, std::string_view task,
                            bool manual, int64_t started_micros,
                            const Result<std::string>& outcome);

}  // namespace hoglake::catalog
