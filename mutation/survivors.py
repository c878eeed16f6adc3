"""Print cosmic-ray's surviving mutants of a session: python mutation/survivors.py SESSION.sqlite"""
import sqlite3
import sys

db = sqlite3.connect(sys.argv[1])
rows = db.execute(
    "select s.start_pos_row, s.operator_name, s.occurrence, r.diff from work_results r "
    "join mutation_specs s on s.job_id = r.job_id "
    "where r.test_outcome = 'SURVIVED' order by s.start_pos_row")
for row, operator, occurrence, diff in rows:
    changed = [line for line in diff.splitlines() if line[:1] in "+-" and line[:3] not in ("+++", "---")]
    print(f"line {row}: {operator.split('/')[-1]} #{occurrence}: " + " | ".join(changed))
counts = dict(db.execute("select coalesce(test_outcome, worker_outcome), count(*) from work_results group by 1"))
print(counts)
