"""Proofs that the grading machinery is right (see course/grading.md, "For instructors")."""
