// Per-element work on the host that the library does not do: widening data to f64 (the library
// bins no 64-bit integers, so they travel as f64 and must be exact there), turning weights into
// f64 and rejecting non-finite ones, and finding the data's extent for a --range not given.
#pragma once

#include <cstdint>
#include <string>

#include "binning.hpp"
#include "bkt_apps/dtype.hpp"

namespace bkt::apps::histogram {

/// out[i] = data[i] as f64. 64-bit integers beyond +-2^53 are not exact there: app_error naming
/// `name` and the element's 1-based position (first_element is the chunk's 0-based offset).
void widen_to_f64(dtype type, const void* data, std::int64_t count, double* out, std::int64_t first_element,
                  const std::string& name);

/// out[i] = weights[i] as f64; a NaN or infinite weight is an app_error naming the file and position.
void weights_to_f64(dtype type, const void* weights, std::int64_t count, double* out, std::int64_t first_element,
                    const std::string& name);

/// Folds the chunk's finite values into `extent` (with the same 2^53 check for 64-bit integers).
void extend(data_extent& extent, dtype type, const void* data, std::int64_t count, std::int64_t first_element,
            const std::string& name);

}  // namespace bkt::apps::histogram
