"""Print cosmic-ray's surviving mutants of a session, then the counts of its outcomes:

    python mutation/survivors.py SESSION.sqlite          # survivors
    python mutation/survivors.py SESSION.sqlite --all    # every mutant run, killed ones too

``--all`` is the record of a run (which mutants ran, and their outcome) that a later run can be
compared with: the session file itself is not committed."""
import sqlite3
import sys

db = sqlite3.connect(sys.argv[1])
every = sys.argv[2:] == ["--all"]
rows = db.execute(
    "select s.start_pos_row, s.operator_name, s.occurrence, r.test_outcome, r.diff from work_results r "
    "join mutation_specs s on s.job_id = r.job_id "
    "where r.test_outcome = 'SURVIVED' or (? and r.test_outcome is not null) "
    "order by s.start_pos_row, s.operator_name, s.occurrence", (every,))
for row, operator, occurrence, outcome, diff in rows:
    changed = [line for line in diff.splitlines() if line[:1] in "+-" and line[:3] not in ("+++", "---")]
    prefix = f"{outcome:8} " if every else ""
    print(f"{prefix}line {row}: {operator.split('/')[-1]} #{occurrence}: " + " | ".join(changed))
counts = dict(db.execute("select coalesce(test_outcome, worker_outcome), count(*) from work_results group by 1"))
print(counts)
