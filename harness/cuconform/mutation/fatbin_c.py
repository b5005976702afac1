"""The `<name>.fatbin.c` that nvcc's fatbinary step writes (--embedded-fatbin) and the host compile includes: the
fatbin as `.quad` lines of an asm block in section .nv_fatbin (CUDA 12 and 13), or as a C array (older toolkits).

`pad` appends zero bytes after the fatbin so that a larger mutant fits in the linked executable later; `embedded`
reads the bytes back. The fatbin's own header keeps its size, so the runtime reads only the real fatbin."""

import re
import struct

QUADS_PER_LINE = 4
ASM_QUADS = re.compile(r'^"\.quad ([^"]*)\\n"$', re.MULTILINE)
ASM_END = re.compile(r'^"\.text\\n"\);$', re.MULTILINE)
C_ARRAY = re.compile(r"fatbinData\[(\d*)\]\s*=\s*\{([^}]*)\}", re.DOTALL)
DECLARED_SIZE = re.compile(r"fatbinData\[(\d+)\]")


class FatbinFormatError(ValueError):
    """The .fatbin.c is in neither known form."""


def padding_for(size):
    """Room for a mutant: at least 4 KiB, half the fatbin for larger ones, a whole number of 8-byte quads."""
    return (max(4096, size // 2) + 7) // 8 * 8


def _quads(text):
    asm = ASM_QUADS.findall(text)
    if asm:
        return [int(word, 16) for line in asm for word in line.split(",")], "asm"
    array = C_ARRAY.search(text)
    if array:
        words = [word.strip() for word in array.group(2).split(",") if word.strip()]
        return [int(word.rstrip("uUlL"), 16) for word in words], "array"
    raise FatbinFormatError("no fatbinData quads found")


def embedded(text):
    """The bytes the .fatbin.c embeds (the fatbin and any padding)."""
    quads, _ = _quads(text)
    return struct.pack(f"<{len(quads)}Q", *quads)


def _resize_declarations(text, total_quads):
    return DECLARED_SIZE.sub(f"fatbinData[{total_quads}]", text)


def pad(text, padding):
    """`text` with `padding` zero bytes (a multiple of 8) after the embedded fatbin."""
    if padding % 8:
        raise ValueError(f"padding {padding} is not a whole number of quads")
    quads, form = _quads(text)
    extra = padding // 8
    if form == "asm":
        end = ASM_END.search(text)
        if end is None:
            raise FatbinFormatError('the asm block has no ".text" line after its quads')
        zero_line = ",".join(["0x0000000000000000"] * QUADS_PER_LINE)
        lines = [f'".quad {zero_line}\\n"\n'] * (extra // QUADS_PER_LINE)
        if extra % QUADS_PER_LINE:
            lines.append(f'".quad {",".join(["0x0000000000000000"] * (extra % QUADS_PER_LINE))}\\n"\n')
        text = text[: end.start()] + "".join(lines) + text[end.start() :]
    else:
        array = C_ARRAY.search(text)
        body = array.group(2).rstrip().rstrip(",")
        body += "," + ",".join(["0x0ull"] * extra)
        text = text[: array.start(2)] + body + text[array.end(2) :]
    return _resize_declarations(text, len(quads) + extra)
