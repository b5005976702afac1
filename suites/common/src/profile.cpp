#include "cuconform/profile.h"

#include <cstdlib>
#include <cstring>

namespace cuconform {

Profile profile() {
  const char* value = std::getenv("CUCONFORM_PROFILE");
  return value && std::strcmp(value, "full") == 0 ? Profile::Full : Profile::Quick;
}

}  // namespace cuconform
