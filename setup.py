"""The optional C accelerators: the trajectory verifier's (moderator_app/core/formats/_jcs.c) and
the agent-log verifier's run of ordinary lines (moderator_app/core/formats/_skim.c), and the
integrity scan's per-frame grid signals (moderator_app/core/video/_grid.c), the sync fit's
score sums (moderator_app/core/sync/_lookup.c), and the secrets readers' escape decoders
(moderator_app/core/formats/_unescape.c).

`optional=True`: where no C compiler is at hand the install still succeeds and the verifier
runs its pure-Python path (same verdicts, ~3x slower; see docs/DECISIONS.md). Everything else
about the project is declared in pyproject.toml.
"""

from setuptools import Extension, setup

setup(
    ext_modules=[
        Extension(
            "moderator_app.core.formats._jcs",
            ["moderator_app/core/formats/_jcs.c"],
            depends=["moderator_app/core/formats/_jcs_pow5.h"],  # generated: scripts/gen_pow5_tables.py
            extra_compile_args=["-O2", "-std=c11", "-Wall", "-Wno-unused-function"],
            optional=True,
        ),
        Extension(
            "moderator_app.core.formats._skim",
            ["moderator_app/core/formats/_skim.c"],
            depends=["moderator_app/core/formats/_skim_table.h",
                     "moderator_app/core/formats/_skim_checks.h"],
            extra_compile_args=["-O2", "-std=c11", "-Wall"],
            optional=True,
        ),
        Extension(
            "moderator_app.core.formats._unescape",
            ["moderator_app/core/formats/_unescape.c"],
            extra_compile_args=["-O2", "-std=c11", "-Wall"],
            optional=True,
        ),
        Extension(
            "moderator_app.core.video._grid",
            ["moderator_app/core/video/_grid.c"],
            # -O3: gcc vectorises the per-point loops (the point of the module)
            extra_compile_args=["-O3", "-std=c11", "-Wall"],
            optional=True,
        ),
        Extension(
            "moderator_app.core.sync._lookup",
            ["moderator_app/core/sync/_lookup.c"],
            # -O3: the terms' loop vectorises; no fused multiply-add or reordering: the sums
            # must be numpy's to the bit
            extra_compile_args=["-O3", "-std=c11", "-Wall", "-ffp-contract=off",
                                "-fno-trapping-math"],
            optional=True,
        ),
    ]
)
