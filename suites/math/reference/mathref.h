// libcuconform-mathref: the exact reference of the math suite, built on MPFR.
//
// The test binaries never need MPFR's headers: they load this library at run time (dlopen) through the C interface
// below. It is built wherever mpfr.h exists (CMake builds it when it finds the header; scripts/build-math-reference
// builds it alone) and needs only libmpfr.so.6 and libgmp.so.10 where it runs.
//
// Every value is exact: the library brackets the exact result f(args) between two MPFR numbers, raises the working
// precision until both round to the same number of the requested format and rounding mode (Ziv's strategy), and
// returns that number, which is therefore the correctly rounded result.
#pragma once

#ifdef __cplusplus
extern "C" {
#endif

#define CUCONFORM_MATHREF_ABI \
  4  // 4: binary16 and bfloat16 results; 3: norm/rnorm of any length (eval_n),
     // binary128 (quad_*); 2: lrint, lround

enum cuconform_mathref_status {
  CUCONFORM_MATHREF_OK = 0,
  CUCONFORM_MATHREF_UNDECIDED = 1,  // still ambiguous at the largest working precision (4096 bits)
  CUCONFORM_MATHREF_BAD_ARGUMENT = 2,
};

typedef struct cuconform_mathref_result {
  double rounded;   // the correctly rounded result (a float, widened exactly, when precision is 24)
  double exact_hi;  // the exact result is exact_hi + exact_lo to about 106 bits (NaN when undefined)
  double exact_lo;
  int status;  // enum cuconform_mathref_status
} cuconform_mathref_result;

// CUCONFORM_MATHREF_ABI of the library; callers check it before anything else.
int cuconform_mathref_abi(void);
// The id of a reference function ("exp", "rsqrt", "norm3d", ... see functions.cpp), or -1.
int cuconform_mathref_find(const char* name);
int cuconform_mathref_arity(int id);
// f(args) rounded to `precision` bits (11: binary16, 8: bfloat16, 24: float, 53: double; subnormals and overflow
// as in IEEE 754, bfloat16 with float's exponent range) with
// `rounding` 0 nearest-even, 1 toward zero, 2 up, 3 down. Thread-safe when MPFR is (Debian builds it with TLS).
void cuconform_mathref_eval(int id, const double* args, int precision, int rounding, cuconform_mathref_result* out);
// Whether MPFR was built thread-safe; callers use one thread otherwise.
int cuconform_mathref_thread_safe(void);

// A function of any number of arguments (arity 0: "norm", "rnorm", the length of a vector of n coordinates and its
// reciprocal): f(args[0..n-1]), otherwise as cuconform_mathref_eval. n is 1 to 4096.
void cuconform_mathref_eval_n(int id, const double* args, int n, int precision, int rounding,
                              cuconform_mathref_result* out);

// ---- binary128 (IEEE 754 quadruple precision: 113-bit significand, 15-bit exponent) -------------------------
// The reference of the __nv_fp128_* functions (PG12.9 17.1 Table 20), correctly rounded to nearest even. A value is
// two 64-bit words, { low, high }, of its IEEE 754 encoding (the layout of __float128 on x86-64 and in CUDA).
// Names are the Table's without the prefix: "add", "sqrt", "sin", ..., "frexp_mantissa", "frexp_exponent",
// "modf_fraction", "modf_integral", "ldexp" (x, n as a binary128 integer), "ilogb" (an integer result, as binary128).
int cuconform_mathref_quad_find(const char* name);
int cuconform_mathref_quad_arity(int id);
// Writes f(args) rounded to binary128 into result[0..1]; returns enum cuconform_mathref_status.
int cuconform_mathref_quad_eval(int id, const unsigned long long* args, unsigned long long* result);

#ifdef __cplusplus
}
#endif
