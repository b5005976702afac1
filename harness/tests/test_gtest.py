"""The GoogleTest stream parser, fed by hand."""

from cuconform.gtest import StreamParser, decode
from cuconform.status import Status


class Clock:
    def __init__(self):
        self.now = 100.0

    def __call__(self):
        self.now += 0.25
        return self.now


def parse(text: bytes, ending="exited with code 0", timed_out=False):
    results = {}
    parser = StreamParser(lambda name, attempt: results.setdefault(name, attempt), clock=Clock())
    for line in text.splitlines(keepends=True):
        parser.feed(line)
    parser.finish(ending, timed_out)
    return results, parser


def test_pass_fail_skip_with_reason_and_real_durations():
    results, _ = parse(
        b"Note: Google Test filter = A.*\n"
        b"[ RUN      ] A.Pass\nhello\n[       OK ] A.Pass (0 ms)\n"
        b"[ RUN      ] A.Fail\nx.cu:3: Failure\nValue of: f()\n  Actual: false\n"
        b"[  FAILED  ] A.Fail (0 ms)\n"
        b"[ RUN      ] A.Skip\ngate.cpp:9: Skipped\nneeds 2 GPUs, found 1\n[  SKIPPED ] A.Skip (0 ms)\n"
        b"[==========] 3 tests ran.\n[  FAILED  ] A.Fail\n[  SKIPPED ] A.Skip\n"
    )
    assert {name: a.status for name, a in results.items()} == {
        "A.Pass": Status.PASS,
        "A.Fail": Status.FAIL,
        "A.Skip": Status.SKIP,
    }
    assert results["A.Pass"].output == "hello\n"
    assert results["A.Fail"].message == "x.cu:3: Failure\nValue of: f()\n  Actual: false"
    assert results["A.Skip"].message == "needs 2 GPUs, found 1"
    # GoogleTest's "0 ms": under a millisecond, so the reader's clock (0.25 s here) is capped at 1 ms, never 0
    assert all(a.duration == 0.001 for a in results.values())


def test_a_duration_is_googletests_own_measure_whatever_the_reader_delay():
    # On a loaded machine the reader sees the lines late, together or apart: the test's cost is what GoogleTest
    # measured in its process. Without a measure (a test cut short) the reader's clock is all there is.
    results, _ = parse(
        b"[ RUN      ] A.Nap\n[       OK ] A.Nap (300 ms)\n[ RUN      ] A.Long\n"
        b"[  FAILED  ] A.Long, where GetParam() = 4 (1234 ms)\n[ RUN      ] A.Cut\n",
        ending="killed",
    )
    assert results["A.Nap"].duration == 0.3
    assert results["A.Long"].duration == 1.234
    assert results["A.Cut"].duration == 0.25


def test_poisoned_after_a_failure_is_a_crash_and_after_a_pass_stays_a_pass():
    results, parser = parse(
        b"[ RUN      ] A.Trap\n[       OK ] A.Trap (1 ms)\n[ POISONED ] cudaErrorLaunchFailure: x\n",
        ending="exited with code 3",
    )
    assert results["A.Trap"].status is Status.PASS
    assert "poisoned" in results["A.Trap"].message and parser.poisoned == "cudaErrorLaunchFailure: x"
    results, _ = parse(
        b"[ RUN      ] A.Bad\nf.cu:1: Failure\n[  FAILED  ] A.Bad (1 ms)\n"
        b"[ POISONED ] cudaErrorIllegalAddress: an illegal memory access was encountered\n"
    )
    assert results["A.Bad"].status is Status.CRASH
    assert results["A.Bad"].message.startswith("the test left the CUDA context poisoned: cudaErrorIllegalAddress")
    assert results["A.Bad"].output.endswith(
        "[ POISONED ] cudaErrorIllegalAddress: an illegal memory access was encountered\n"
    )


def test_a_test_open_at_the_end_is_a_crash_or_a_timeout():
    results, _ = parse(
        b"[ RUN      ] A.Ok\n[       OK ] A.Ok (0 ms)\n[ RUN      ] A.Dies\nlast words\n",
        ending="was killed by SIGSEGV",
    )
    assert results["A.Ok"].status is Status.PASS
    assert results["A.Dies"].status is Status.CRASH
    assert results["A.Dies"].message.startswith("the process was killed by SIGSEGV while the test was running")
    assert "last words" in results["A.Dies"].message
    results, _ = parse(b"[ RUN      ] A.Hangs\n", ending="5 s: the process was killed", timed_out=True)
    assert results["A.Hangs"].status is Status.TIMEOUT and results["A.Hangs"].duration > 0


def test_end_tags_mid_line_parameters_and_other_tests_names():
    results, _ = parse(
        b"[ RUN      ] P/A.B/0\nno newline[  FAILED  ] P/A.B/0, where GetParam() = 4 (0 ms)\n"
        b"[ RUN      ] A.C\n[       OK ] A.CD (0 ms)\n[       OK ] A.C (0 ms)\n"
    )
    assert results["P/A.B/0"].status is Status.FAIL
    assert results["P/A.B/0"].output == "no newline\n"
    assert results["A.C"].status is Status.PASS
    assert results["A.C"].output == "[       OK ] A.CD (0 ms)\n"  # another test's name is not this test's end


def test_metrics_are_kept_with_their_test():
    results, _ = parse(
        b'[ RUN      ] A.M\n[ METRIC   ] gbps = 12.5\n[ METRIC   ] name = "x"\n[ METRIC   ] bad = {\n'
        b"[       OK ] A.M (0 ms)\n"
    )
    assert results["A.M"].metrics == {"gbps": 12.5, "name": "x", "bad": "{"}


def test_odd_bytes_are_decoded_without_loss():
    assert decode(b"a\xffb\x00c") == "a\\xffb\x00c"
    results, _ = parse(b"[ RUN      ] A.H\n\xff\xfe ]]> \x1b[0m\n[       OK ] A.H (0 ms)\n")
    assert results["A.H"].output == "\\xff\\xfe ]]> \x1b[0m\n"


def test_a_huge_output_is_bounded():
    lines = b"".join(b"line %d of much output\n" % i for i in range(100_000))
    results, _ = parse(b"[ RUN      ] A.Loud\n" + lines + b"[       OK ] A.Loud (0 ms)\n")
    output = results["A.Loud"].output
    assert len(output) < 400_000 and "lines left out" in output and output.endswith("line 99999 of much output\n")


def test_a_line_longer_than_a_read_stays_one_line():
    parser_results = {}
    parser = StreamParser(lambda name, attempt: parser_results.setdefault(name, attempt), clock=Clock())
    for piece in (b"[ RUN      ] A.Long\n", b"x" * 10, b"y" * 10 + b"\n", b"[       OK ] A.Long (0 ms)\n"):
        parser.feed(piece)
    parser.finish("exited with code 0")
    assert parser_results["A.Long"].output == "x" * 10 + "y" * 10 + "\n"


def test_a_sanitizer_report_inside_a_test_fails_it_and_its_banner_and_summary_do_not():
    results, _ = parse(
        b"[ SANITIZER] ========= COMPUTE-SANITIZER\n"
        b"[ RUN      ] A.Clean\n[ SANITIZER] \n[       OK ] A.Clean (0 ms)\n"
        b"[ RUN      ] A.Oob\n"
        b"[ SANITIZER] Invalid __global__ write of size 4 bytes\n"
        b"[ SANITIZER]     at kernel(int *)+0x70 in oob.cu:7\n"
        b"[       OK ] A.Oob (0 ms)\n"
        b"[ RUN      ] A.Gated\n[ SANITIZER] Invalid __shared__ read\ngate.cpp:1: Skipped\nno\n"
        b"[  SKIPPED ] A.Gated (0 ms)\n"
        b"[ SANITIZER] ERROR SUMMARY: 1 error\n"
    )
    assert results["A.Clean"].status is Status.PASS
    oob = results["A.Oob"]
    assert oob.status is Status.FAIL
    assert oob.message.splitlines()[:3] == [
        "compute-sanitizer reported an error while the test ran:",
        "Invalid __global__ write of size 4 bytes",
        "    at kernel(int *)+0x70 in oob.cu:7",
    ]
    assert results["A.Gated"].status is Status.SKIP  # a skipped test keeps its reason
