"""scripts/toolkit: install other CUDA toolkits from the package index and validate the suite per target."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from cuconform import toolkit


def parser() -> argparse.ArgumentParser:
    top = argparse.ArgumentParser(prog="scripts/toolkit", description=__doc__)
    commands = top.add_subparsers(dest="command", required=True)
    install = commands.add_parser("install", help="lay out a CUDA toolkit from the package index's wheels",
                                  description="Downloads the wheels of CUDA VERSION (pip download --no-deps, "
                                              "through the meta-package cuda-toolkit that pins each part) and lays "
                                              "out a toolkit under build/toolkits/<release>/. Prints its root last.")
    install.add_argument("version", help="13.5 (the newest 13.5.x) or an exact release, 13.5.0")
    commands.add_parser("list", help="the toolkits laid out under build/toolkits/")
    pack = commands.add_parser("pack", help="a build's binaries in one .tar.xz to carry to a GPU machine",
                               description="Packs BUILD_DIR's bin/ (the suite binaries, cuconform-deviceinfo, "
                               "nvrtc-compile; not cuconform-compile: the compile-time rules need the toolkit, so "
                               "they run where it is) and cuconform-build.json into .carry/<build>.tar.xz. On the "
                               "GPU machine: tar -xJf .carry/<build>.tar.xz -C build/, then scripts/conformance run "
                               "--build-dir build/<build> --no-build. Prints the archive and its size.")
    pack.add_argument("build_dir", type=Path)
    pack.add_argument("--output", type=Path, help="the archive (default: .carry/<build>.tar.xz)")
    from cuconform import targets
    targets.add_parser(commands)
    return top


def main(argv: list[str] | None = None) -> int:
    args = parser().parse_args(argv)
    try:
        if args.command == "install":
            root = toolkit.install(args.version, log=lambda line: print(line, file=sys.stderr, flush=True))
            manifest = toolkit.read_manifest(root) or {}
            print(f"nvcc {manifest.get('nvcc_version') or 'absent'}, "
                  f"{toolkit.folder_size(root) / 2**20:.0f} MiB, "
                  f"{'complete' if manifest.get('complete') else 'incomplete: lacks ' + ', '.join(manifest.get('missing', []))}",
                  file=sys.stderr)
            print(root)
            return 0 if manifest.get("complete") else 1
        if args.command == "list":
            for root in sorted(toolkit.TOOLKITS.glob("[0-9]*")):
                manifest = toolkit.read_manifest(root) or {}
                state = "complete" if manifest.get("complete") else "incomplete"
                print(f"{root.name}\tnvcc {manifest.get('nvcc_version') or '-'}\t{state}\t"
                      f"{toolkit.folder_size(root) / 2**20:.0f} MiB\t{root}")
            return 0
        if args.command == "pack":
            archive = toolkit.pack(args.build_dir.resolve(), args.output)
            print(f"{archive} ({archive.stat().st_size / 2**20:.1f} MiB)")
            return 0
        from cuconform import targets
        return targets.main(args)
    except toolkit.ToolkitError as error:
        print(f"scripts/toolkit: {error}", file=sys.stderr)
        return 2
