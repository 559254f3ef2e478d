#include "catalog/maintenance/maintenance_ledger.h"

namespace hoglake::catalog {

Status RecordMaintenanceRun(pg::PgConnection& conn, int64_t catalog_id, std::string_view task,
                            bool manual, int64_t started_micros,
                            const Result<std::string>& outcome) {
  const std::string started = std::to_string(started_micros);
  return conn
      .Exec(
          "INSERT INTO hog_maintenance_run (catalog_id, task, run_trigger, started_at, "
          "finished_at, status, "
          "error, result) VALUES ($1, $2, $3, timestamptz 'epoch' + $4::bigint * interval '1 "
          "microsecond', "
          "greatest(clock_timestamp(), timestamptz 'epoch' + $4::bigint * interval '1 "
          "microsecond'), $5, $6, "
          "$7::jsonb)",
          {std::to_string(catalog_id), std::string(task), manual ? "manual" : "loop", started,
           outcome.ok() ? "ok" : "failed",
           outcome.ok() ? std::nullopt : std::optional<std::string>(outcome.error().message),
           outcome.ok() ? std::optional<std::string>(*outcome) : std::nullopt})
      .status();
}

}  // namespace hoglake::catalog
