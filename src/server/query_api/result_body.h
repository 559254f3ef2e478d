// Streamed bodies for GET /v1/results/{id} (HttpResponse::body_producer):
// a rendered result (arrow, json, csv, md), one slice of a stored row group
// per piece, and a stored Parquet object sent verbatim, one range of
// kStoredPieceBytes per piece. Either holds one piece (and, rendering, one
// decoded row group) at a time, and releases the stored object when the
// front end drops it (body complete, client gone, server stopping).
#pragma once

#include <cstdint>
#include <memory>

#include "common/random_access.h"
#include "query/result_format.h"
#include "server/http/http_types.h"

namespace hoglake::server {

constexpr int64_t kStoredPieceBytes = int64_t{1} << 20;

std::shared_ptr<BodyProducer> RenderedResultBody(std::unique_ptr<query::ResultRenderer> renderer);
// Its length is `source->size()` (send it as Content-Length).
std::shared_ptr<BodyProducer> StoredBytesBody(std::shared_ptr<RandomAccessSource> source);

}  // namespace hoglake::server
