// rule: Classes.StaticConstDataMemberSupported
// section: PG12.9 18.5.11.1
// statement: a static data member that is const-qualified (and constant-initialized) may be used in device code
struct Config {
  static const int limit = 4;
};

__device__ int read_limit() {
  static_assert(Config::limit == 4, "device code sees the member's value, as a constant expression");
  return Config::limit;
}
