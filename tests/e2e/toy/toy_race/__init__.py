"""Race to Ten: a tiny two-seat game on the rules contract, with no proto and no board of its own.

The test installs it into a temporary folder (the package and a `*.dist-info` naming its
entry points) that only the processes it starts see: what a new game needs, and nothing more.
"""
