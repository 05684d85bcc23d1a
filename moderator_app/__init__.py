"""Moderator Workstation: verify and judge AI-agent game runs.

`moderator_app.core` holds all logic and I/O and never imports Qt; `moderator_app.ui` holds the
Qt views; `moderator_app.cli` is the headless command line. Dependencies point one way:
ui -> core, cli -> core.
"""

__version__ = "0.1.0"
