"""scripts/toolkit targets: placeholder, filled below."""
def add_parser(commands):
    commands.add_parser("targets")
def main(args):
    return 2
