// rule: Classes.StaticDataMemberNotSupported
// section: PG12.9 18.5.11.1
// statement: static data members are not supported (in device code) unless they are also const-qualified
// error: error: identifier "Config::limit" is undefined in device code
// error.clang: error: reference to __host__ variable 'limit' in __device__ function
// skip.nvrtc: host variable (NVRTC compiles device code only)
struct Config {
  static int limit;
};
int Config::limit = 4;

__device__ int read_limit() { return Config::limit; }
