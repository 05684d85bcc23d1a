"""Generators of realistic evidence for the bundled samples, tests and benchmarks: community
agent logs (`community`) and official trajectories (`trajectory_writer`).
"""
