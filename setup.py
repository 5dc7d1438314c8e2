"""Compiles every Cython module of the project (the games, one folder each: engine_c/<game>/*.pyx, and
search/*.pyx) to C.

An in-place build (`python setup.py build_ext --inplace`) compiles only the modules whose compiled file is
missing or older than one of its sources (the .pyx and every .pxd/.pxi it reaches, as Cython's own
dependency tree lists them): a new game's folder compiles alone, even in a checkout whose generated C files
are gone. Any other build (a wheel, `pip install`) compiles every module."""
import os
import sys
import sysconfig
from glob import glob

from Cython.Build import cythonize
from Cython.Build.Dependencies import create_dependency_tree
from setuptools import Extension, setup

SOURCES = sorted(glob("engine_c/*/*.pyx") + glob("search/*.pyx"))


def up_to_date(pyx: str) -> bool:
    """Whether the module's compiled file in place is newer than each of its sources."""
    built = pyx[:-4] + sysconfig.get_config_var("EXT_SUFFIX")
    if not os.path.exists(built):
        return False
    newest = max(os.path.getmtime(dep) for dep in create_dependency_tree().all_dependencies(pyx))
    return os.path.getmtime(built) > newest


in_place = any(arg in ("--inplace", "-i") for arg in sys.argv)
extensions = [
    Extension(path[:-4].replace("/", "."), [path], extra_compile_args=["-O3"])
    for path in SOURCES if not (in_place and up_to_date(path))
]

setup(
    ext_modules=cythonize(
        extensions,
        compiler_directives={"language_level": 3, "boundscheck": False, "wraparound": False,
                             "cdivision": True, "initializedcheck": False},
    ) if extensions else []
)
