"""Root conftest: load the grading plugin (``--impl``, ``--strict-exercises``, progress table).

Graders live in ``tests/course/graders/``; see ``course/grading.md`` for how grading works.
"""

pytest_plugins = ["miniagent_course.grading.plugin"]
