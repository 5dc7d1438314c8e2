# The seeded generator shared by the engine's chance sampling and the search (splitmix64).
# Inline C in a .pxd: every module that cimports it compiles the same code, so a seed means the same draws.
from libc.stdint cimport uint32_t, uint64_t

cdef inline uint64_t splitmix(uint64_t* x) noexcept nogil:
    x[0] += <uint64_t>0x9E3779B97F4A7C15
    cdef uint64_t z = x[0]
    z = (z ^ (z >> 30)) * <uint64_t>0xBF58476D1CE4E5B9
    z = (z ^ (z >> 27)) * <uint64_t>0x94D049BB133111EB
    return z ^ (z >> 31)

cdef inline uint32_t rand_below(uint64_t* rng, uint32_t n) noexcept nogil:
    """Uniform in [0, n) by multiply-shift (no modulo bias worth counting for n < 2**32)."""
    return <uint32_t>(((splitmix(rng) >> 32) * <uint64_t>n) >> 32)

cdef inline double rand_unit(uint64_t* rng) noexcept nogil:
    """Uniform in [0, 1) with 53 random bits."""
    return (splitmix(rng) >> 11) * (1.0 / 9007199254740992.0)
