// Page compression codecs: UNCOMPRESSED, SNAPPY, GZIP (zlib with a gzip
// header), ZSTD, LZ4_RAW (LZ4 block format) and BROTLI, each through the
// Debian library of the same name. The legacy Hadoop-framed LZ4 (codec 5)
// and LZO are not supported (NotImplemented).
//
// Decompress takes untrusted bytes and the page header's declared
// uncompressed size; the output is allocated once at that size (the caller
// bounds it) and a result of any other length is InvalidData.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "common/status.h"
#include "parquet/metadata.h"

namespace hoglake::parquet {

// "UNCOMPRESSED", "SNAPPY", ... as parquet.thrift spells them.
std::string_view CodecName(Codec codec);
bool CodecSupported(Codec codec);

// Replaces `*out` with the compressed form of `input`. `level` 0 means the
// codec's default.
Status Compress(Codec codec, std::string_view input, int level, std::string* out);
// Replaces `*out` with exactly `uncompressed_size` bytes.
Status Decompress(Codec codec, std::string_view input, int64_t uncompressed_size, std::string* out);
// Writes exactly `size` bytes to out[0, size) (caller memory, not zeroed
// first), or fails; on failure out's contents are unspecified.
Status DecompressInto(Codec codec, std::string_view input, char* out, int64_t size);

}  // namespace hoglake::parquet
