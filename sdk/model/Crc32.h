// CRC-32 (IEEE 802.3 / zlib polynomial), the checksum of .om headers and sections.
#pragma once

#include <cstddef>
#include <cstdint>

namespace pyasc::model {

// crc32(data) equals Python's zlib.crc32(data); pass a previous result as `crc` to continue it.
uint32_t crc32(const uint8_t* data, size_t size, uint32_t crc = 0);

}  // namespace pyasc::model
