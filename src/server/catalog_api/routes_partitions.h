// Routes of partition reads (contract §2.7): GET T/partitions/values.
//
// GET …/tables/{table}/partitions/values?snapshot&at_timestamp →
// {spec_id, fields: [{source_field_id, transform, transform_param?,
// values: (string|null)[], truncated}]} over the live files at the resolved
// snapshot (§1.7 time travel: 422 both params / out of range, 410 below the
// floor; 404 table not visible). Values are the stored (transformed) text,
// JSON null for the null partition value, most frequent first, at most 500
// per field. A table unpartitioned at that snapshot answers 200 with
// `fields: []` and no `spec_id` (null, omitted per §1.2) — the contract and
// server reference are silent on this case.
#pragma once

#include "server/http/router.h"
#include "server/routes.h"

namespace hoglake::server {

void RegisterPartitions(Router& router, const ServerContext& context);

}  // namespace hoglake::server
