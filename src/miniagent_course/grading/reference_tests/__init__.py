"""The reference's answers to the "be the grader" parts: one file of ``test_*`` functions per day.

They prove the judgment graders can be passed (the contributors' run grades them like a learner's
tests), and ``miniagent solution`` shows them once the learner's own tests pass.
"""
