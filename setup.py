"""Compiles every Cython module of the project (the games, one folder each: engine_c/<game>/*.pyx, and
search/*.pyx) to C."""
from glob import glob

from Cython.Build import cythonize
from setuptools import Extension, setup

extensions = [
    Extension(path[:-4].replace("/", "."), [path], extra_compile_args=["-O3"])
    for path in sorted(glob("engine_c/*/*.pyx") + glob("search/*.pyx"))
]

setup(
    ext_modules=cythonize(
        extensions,
        compiler_directives={"language_level": 3, "boundscheck": False, "wraparound": False,
                             "cdivision": True, "initializedcheck": False},
    )
)
