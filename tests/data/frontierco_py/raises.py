"""A solve that fails before its first yield."""


def solve(**kwargs):
    raise RuntimeError("no idea")
    yield {}
