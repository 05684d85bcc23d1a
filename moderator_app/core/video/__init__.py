"""The submitted video. Every byte of it is parsed in the isolated video process (`child`, run
through `isolate`): a decoder crash or hang is a finding, never the end of the app.

- `index`: the frame index from the demuxer (every frame's timestamp, keyframes, positions);
- `probe`: can it be read, how many frames, how long, where footage is missing;
- `decoder`: exact frames by the index, with the decoded pts checked after every seek;
- `export`: which frame is on screen at a moment, and evidence PNGs;
- `signals` / `scan`: the integrity scan (per-frame signals, findings with time spans).
"""
