"""cuconform-compile: the compile-time rules of suites/compile/ run through nvcc, clang and NVRTC, speaking the
protocol of every suite binary (cuconform.protocol). The build writes bin/cuconform-compile, which calls rules.main.

    cases.py      the case files: what each compiler must accept, reject or emit
    compilers.py  the toolchain: each compiler's command line for a case
    cache.py      earlier compiler results for the same case, command and toolchain
    rules.py      the binary's front: --cuconform_list, --gtest_filter, judging each (case, compiler)
"""
