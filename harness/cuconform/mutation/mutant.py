"""One mutant executable by hand, to look at or run it outside a campaign:

    PYTHONPATH=harness python3 -m cuconform.mutation.mutant build/mut cuconform-sync syncwarp bar-warp-sync-dropped \
        /tmp/mutant/cuconform-sync

mutates the objects of the binary whose source path contains the given text (every object for "")."""

import argparse
import sys
import tempfile
from pathlib import Path

from cuconform.mutation.operators import BY_NAME
from cuconform.mutation.patch import objects_of, patch_executable
from cuconform.mutation.rebuild import build_mutant


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("build_dir", type=Path)
    parser.add_argument("binary", help="a binary of build_dir/bin, e.g. cuconform-sync")
    parser.add_argument("source", help="text in the source path of the objects to mutate")
    parser.add_argument("operator", choices=sorted(BY_NAME))
    parser.add_argument("output", type=Path)
    arguments = parser.parse_args(argv)
    binary = (arguments.build_dir / "bin" / arguments.binary).resolve()
    manifests = objects_of(arguments.build_dir, [arguments.binary])[binary]
    replacements = []
    with tempfile.TemporaryDirectory(prefix="cuconform-mutant-") as workdir:
        for index, manifest in enumerate(manifests):
            if arguments.source not in manifest["source"]:
                continue
            mutant = build_mutant(manifest, BY_NAME[arguments.operator], Path(workdir) / str(index))
            if mutant is None:
                print(f"{manifest['source']}: not applicable" + (" (rdc)" if manifest.get("rdc") else ""))
                continue
            print(
                f"{manifest['source']}: {mutant.sites} sites, fatbin {len(mutant.mutant)} of "
                f"{len(mutant.original)} bytes"
            )
            replacements.append((mutant.original, mutant.mutant))
    if not replacements:
        sys.exit("no object changed")
    patch_executable(binary, arguments.output, replacements)
    print(f"wrote {arguments.output}")


if __name__ == "__main__":
    main()
