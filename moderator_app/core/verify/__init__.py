"""Verification: the one pipeline (`pipeline.verify_paths`), the community verifier
(`agent_log`), the official verifier (`trajectory`), coverage, seeds, secrets, and the report.
"""
