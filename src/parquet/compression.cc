#include "parquet/compression.h"

#include <brotli/decode.h>
#include <brotli/encode.h>
#include <lz4.h>
#include <snappy-c.h>
#include <zlib.h>
#include <zstd.h>

#include <cstring>

namespace hoglake::parquet {

std::string_view CodecName(Codec codec) {
  switch (codec) {
    case Codec::kUncompressed:
      return "UNCOMPRESSED";
    case Codec::kSnappy:
      return "SNAPPY";
    case Codec::kGzip:
      return "GZIP";
    case Codec::kLzo:
      return "LZO";
    case Codec::kBrotli:
      return "BROTLI";
    case Codec::kLz4:
      return "LZ4";
    case Codec::kZstd:
      return "ZSTD";
    case Codec::kLz4Raw:
      return "LZ4_RAW";
  }
  return "UNKNOWN";
}

bool CodecSupported(Codec codec) {
  switch (codec) {
    case Codec::kUncompressed:
    case Codec::kSnappy:
    case Codec::kGzip:
    case Codec::kBrotli:
    case Codec::kZstd:
    case Codec::kLz4Raw:
      return true;
    default:
      return false;
  }
}

namespace {

// zstd contexts are costly to create; each thread keeps one of each.
struct ZstdContexts {
  ZSTD_CCtx* c = ZSTD_createCCtx();
  ZSTD_DCtx* d = ZSTD_createDCtx();
  ~ZstdContexts() {
    ZSTD_freeCCtx(c);
    ZSTD_freeDCtx(d);
  }
};
ZstdContexts& Zstd() {
  thread_local ZstdContexts contexts;
  return contexts;
}

Error Unsupported(Codec codec) {
  return NotImplemented("Parquet compression codec ", CodecName(codec), " (",
                        static_cast<int>(codec), ") is not supported");
}

Status GzipCompress(std::string_view input, int level, std::string* out) {
  z_stream z{};
  // windowBits 15 + 16: a gzip header and trailer, as the Parquet spec asks.
  if (deflateInit2(&z, level ? level : Z_DEFAULT_COMPRESSION, Z_DEFLATED, 15 + 16, 8,
                   Z_DEFAULT_STRATEGY) != Z_OK) {
    return Internal("zlib deflateInit2 failed");
  }
  out->resize(deflateBound(&z, input.size()) + 32);
  z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(input.data()));
  z.avail_in = static_cast<uInt>(input.size());
  z.next_out = reinterpret_cast<Bytef*>(out->data());
  z.avail_out = static_cast<uInt>(out->size());
  const int rc = deflate(&z, Z_FINISH);
  const size_t written = z.total_out;
  deflateEnd(&z);
  if (rc != Z_STREAM_END) return Internal("zlib deflate failed");
  out->resize(written);
  return Status::Ok();
}

Status GzipDecompress(std::string_view input, char* out, size_t size) {
  z_stream z{};
  // 15 + 32: accept a gzip or zlib header.
  if (inflateInit2(&z, 15 + 32) != Z_OK) return Internal("zlib inflateInit2 failed");
  z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(input.data()));
  z.avail_in = static_cast<uInt>(input.size());
  z.next_out = reinterpret_cast<Bytef*>(out);
  z.avail_out = static_cast<uInt>(size);
  const int rc = inflate(&z, Z_FINISH);
  const size_t written = z.total_out;
  inflateEnd(&z);
  if (rc != Z_STREAM_END || written != size) {
    return InvalidData("GZIP page does not decompress to its declared ", size, " bytes");
  }
  return Status::Ok();
}

// Where the compressed stream states its own length, checks it against the
// declared size (before anything is allocated at that size).
Status CheckDeclaredSize(Codec codec, std::string_view input, int64_t size) {
  if (!CodecSupported(codec)) return Unsupported(codec);
  if (codec == Codec::kUncompressed) {
    if (static_cast<int64_t>(input.size()) != size) {
      return InvalidData("uncompressed page of ", input.size(), " bytes declares ", size);
    }
  } else if (codec == Codec::kSnappy) {
    size_t n = 0;
    if (snappy_uncompressed_length(input.data(), input.size(), &n) != SNAPPY_OK ||
        static_cast<int64_t>(n) != size) {
      return InvalidData("SNAPPY page does not decompress to its declared ", size, " bytes");
    }
  } else if (codec == Codec::kZstd) {
    const unsigned long long n = ZSTD_getFrameContentSize(input.data(), input.size());
    if (n == ZSTD_CONTENTSIZE_ERROR) return InvalidData("corrupt ZSTD page header");
    if (n != ZSTD_CONTENTSIZE_UNKNOWN && n != static_cast<unsigned long long>(size)) {
      return InvalidData("ZSTD page holds ", n, " bytes, declared ", size);
    }
  }
  return Status::Ok();
}

}  // namespace

Status Compress(Codec codec, std::string_view input, int level, std::string* out) {
  switch (codec) {
    case Codec::kUncompressed:
      out->assign(input);
      return Status::Ok();
    case Codec::kSnappy: {
      size_t n = snappy_max_compressed_length(input.size());
      out->resize(n);
      if (snappy_compress(input.data(), input.size(), out->data(), &n) != SNAPPY_OK) {
        return Internal("snappy_compress failed");
      }
      out->resize(n);
      return Status::Ok();
    }
    case Codec::kGzip:
      return GzipCompress(input, level, out);
    case Codec::kZstd: {
      out->resize(ZSTD_compressBound(input.size()));
      const size_t n = ZSTD_compressCCtx(Zstd().c, out->data(), out->size(), input.data(),
                                         input.size(), level ? level : 3);
      if (ZSTD_isError(n)) return Internal("ZSTD_compress failed: ", ZSTD_getErrorName(n));
      out->resize(n);
      return Status::Ok();
    }
    case Codec::kLz4Raw: {
      out->resize(static_cast<size_t>(LZ4_compressBound(static_cast<int>(input.size()))));
      const int n = LZ4_compress_default(input.data(), out->data(), static_cast<int>(input.size()),
                                         static_cast<int>(out->size()));
      if (n <= 0 && !input.empty()) return Internal("LZ4_compress_default failed");
      out->resize(static_cast<size_t>(n));
      return Status::Ok();
    }
    case Codec::kBrotli: {
      size_t n = BrotliEncoderMaxCompressedSize(input.size());
      if (n == 0) n = input.size() + 1024;
      out->resize(n);
      if (!BrotliEncoderCompress(level ? level : 5, BROTLI_DEFAULT_WINDOW, BROTLI_MODE_GENERIC,
                                 input.size(), reinterpret_cast<const uint8_t*>(input.data()), &n,
                                 reinterpret_cast<uint8_t*>(out->data()))) {
        return Internal("BrotliEncoderCompress failed");
      }
      out->resize(n);
      return Status::Ok();
    }
    default:
      return Unsupported(codec);
  }
}

Status Decompress(Codec codec, std::string_view input, int64_t uncompressed_size,
                  std::string* out) {
  if (uncompressed_size < 0) return InvalidData("negative uncompressed page size");
  if (!CodecSupported(codec)) return Unsupported(codec);
  HOGLAKE_RETURN_IF_ERROR(CheckDeclaredSize(codec, input, uncompressed_size));
  out->assign(static_cast<size_t>(uncompressed_size), '\0');
  return DecompressInto(codec, input, out->data(), uncompressed_size);
}

Status DecompressInto(Codec codec, std::string_view input, char* out, int64_t size) {
  if (size < 0) return InvalidData("negative uncompressed page size");
  HOGLAKE_RETURN_IF_ERROR(CheckDeclaredSize(codec, input, size));
  const size_t out_size = static_cast<size_t>(size);
  switch (codec) {
    case Codec::kUncompressed:
      if (size > 0) std::memcpy(out, input.data(), out_size);
      return Status::Ok();
    case Codec::kSnappy: {
      size_t n = out_size;
      if (snappy_uncompress(input.data(), input.size(), out, &n) != SNAPPY_OK || n != out_size) {
        return InvalidData("corrupt SNAPPY page");
      }
      return Status::Ok();
    }
    case Codec::kGzip:
      return GzipDecompress(input, out, out_size);
    case Codec::kZstd: {
      const size_t n = ZSTD_decompressDCtx(Zstd().d, out, out_size, input.data(), input.size());
      if (ZSTD_isError(n)) return InvalidData("corrupt ZSTD page: ", ZSTD_getErrorName(n));
      if (n != out_size) {
        return InvalidData("ZSTD page decompresses to ", n, " bytes, declared ", out_size);
      }
      return Status::Ok();
    }
    case Codec::kLz4Raw: {
      const int n = LZ4_decompress_safe(input.data(), out, static_cast<int>(input.size()),
                                        static_cast<int>(out_size));
      if (n < 0 || static_cast<size_t>(n) != out_size) return InvalidData("corrupt LZ4_RAW page");
      return Status::Ok();
    }
    case Codec::kBrotli: {
      size_t n = out_size;
      if (BrotliDecoderDecompress(input.size(), reinterpret_cast<const uint8_t*>(input.data()), &n,
                                  reinterpret_cast<uint8_t*>(out)) !=
              BROTLI_DECODER_RESULT_SUCCESS ||
          n != out_size) {
        return InvalidData("corrupt BROTLI page");
      }
      return Status::Ok();
    }
    default:
      return Unsupported(codec);
  }
}

}  // namespace hoglake::parquet
