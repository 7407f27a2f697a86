"""Proofs that the grading machinery is right (see course/contributing/instructors.md)."""
