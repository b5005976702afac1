// rule: CppRestrictions.ManagedNotConstexpr
// section: PG12.9 18.5.22.9
// statement: __managed__ variables cannot be marked constexpr
// error: error: A __managed__ variable cannot be marked constexpr
// error.clang: error: .*managed
__managed__ constexpr int value = 1;
