p = ArgumentParser(allow_abbrev=False, parents=[base])
p.add_argument('--a', '-a', action=argparse.BooleanOptionalAction)
p.add_argument(f'--{x}')
args, rest = p.parse_known_args()
