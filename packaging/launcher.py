"""Entry script of the PyInstaller bundle.

`moderator_app/__main__.py` uses relative imports, so it cannot be PyInstaller's top-level
script itself; this file imports it as a package module and hands over, with the same routing:
`moderator-app verify ...` is the headless CLI, `moderator-app [PATH]` opens the workstation.
"""

import multiprocessing
import sys

from moderator_app.__main__ import main

if __name__ == "__main__":
    # A helper process multiprocessing starts with `sys.executable -c ...` (a spawned worker,
    # a resource tracker) is this executable: PyInstaller's freeze_support runs the helper
    # instead of opening the workstation.
    multiprocessing.freeze_support()
    sys.exit(main())
