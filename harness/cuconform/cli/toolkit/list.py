"""scripts/toolkit list: the toolkits laid out under build/toolkits/, one a line."""

from __future__ import annotations

import argparse

from cuconform import toolkit

HELP = "the toolkits laid out under build/toolkits/"
DESCRIPTION = (
    "The toolkits laid out under build/toolkits/ (scripts/toolkit install), one a line: release, nvcc "
    "version, complete or not, size, root."
)
EPILOG = ""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    pass


def run(args: argparse.Namespace) -> int:
    for root in sorted(toolkit.TOOLKITS.glob("[0-9]*")):
        manifest = toolkit.read_manifest(root) or {}
        state = "complete" if manifest.get("complete") else "incomplete"
        print(
            f"{root.name}\tnvcc {manifest.get('nvcc_version') or '-'}\t{state}\t"
            f"{toolkit.folder_size(root) / 2**20:.0f} MiB\t{root}"
        )
    return 0
