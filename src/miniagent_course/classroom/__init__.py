"""The classroom kit: the course graded on the platforms a class already uses.

* ``miniagent classroom gradescope`` builds a Gradescope autograder zip (:mod:`.gradescope`);
  its ``run_autograder`` runs :mod:`.autograder`.
* ``miniagent classroom github`` writes a GitHub Classroom assignment template (:mod:`.github`);
  its workflow runs ``miniagent classroom check DAY --part N`` once per day part.
* ``miniagent classroom grade FOLDER`` grades a folder of submissions into a CSV (:mod:`.batch`).

What a class is graded on (days, points per day and part, visibility, time limits) is a small
TOML file (:mod:`.config`). Every submission is graded the same way (:mod:`.grade`): only its
exercise files are taken (:mod:`.submission`), laid out in a copy of the course that no other
submission has touched, and graded by pytest in a child process (on Linux, a fork of a worker
that has collected the graders once: :mod:`.pool`, :mod:`.worker`); the parent writes every
result. The child reports each test over a
channel signed with a per-run secret and watches the grading machinery while the submission's
code runs (:mod:`.child`); a submission that forges results, patches the graders or reporters, or
ends the run early is flagged and gets no marks for the day it tampered with
(``course/contributing/classroom.md``, "The trust model").
"""
