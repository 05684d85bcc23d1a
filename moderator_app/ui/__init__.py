"""The workstation: the only package that imports Qt. Views over `moderator_app.core`."""
