#include "fits_status.hpp"

#include "bkt_apps/app_error.hpp"

namespace bkt::clean {

std::string fits_status_text(int status) {
  char text[FLEN_STATUS] = {};
  fits_get_errstatus(status, text);
  fits_clear_errmsg();
  return text;
}

void check_fits(int status, const std::string& name, const std::string& what) {
  if (status != 0) throw bkt::apps::app_error(name + ": " + what + ": " + fits_status_text(status));
}

void fits_closer::operator()(fitsfile* file) const noexcept {
  int status = 0;
  fits_close_file(file, &status);
  if (status != 0) fits_clear_errmsg();
}

}  // namespace bkt::clean
