// CFITSIO's status codes as bkt-clean's one-line messages, and an owner that closes a fitsfile.
#pragma once

#include <fitsio.h>

#include <memory>
#include <string>

namespace bkt::clean {

/// CFITSIO's short description of `status` (e.g. "tried to move past end of file"); also clears
/// CFITSIO's message stack so that later errors do not pick up stale text.
std::string fits_status_text(int status);

/// Throws bkt::apps::app_error "NAME: WHAT: CFITSIO's text" when `status` is not 0.
void check_fits(int status, const std::string& name, const std::string& what);

/// Closes a fitsfile; errors on close are ignored (the file is only read, or discarded).
struct fits_closer {
  void operator()(fitsfile* file) const noexcept;
};
using fits_handle = std::unique_ptr<fitsfile, fits_closer>;

}  // namespace bkt::clean
