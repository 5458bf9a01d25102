// numeric_array: a dtype tag over a byte vector.
#include <stdexcept>
#include <string>

#include "bkt_apps/numeric_io.hpp"

namespace bkt::apps {

numeric_array::numeric_array(dtype type, std::int64_t size)
    : type_(type), size_(size), bytes_(static_cast<std::size_t>(size) * dtype_size(type)) {
  if (size < 0) throw std::invalid_argument("numeric_array: negative size");
}

void numeric_array::resize(std::int64_t size) {
  if (size < 0) throw std::invalid_argument("numeric_array: negative size");
  bytes_.resize(static_cast<std::size_t>(size) * dtype_size(type_));
  size_ = size;
}

void numeric_array::check_type(dtype wanted) const {
  if (wanted != type_)
    throw std::logic_error("numeric_array holds " + std::string(dtype_name(type_)) + ", not " +
                           std::string(dtype_name(wanted)));
}

}  // namespace bkt::apps
