"""Expected output of sensor_anomaly_nearest.sql, by a direct scan (no pattern engine).

Preference order of HOT GAP{0,3}? SHAKY | SHAKY GAP{0,3}? HOT at start row i, most preferred
first: left branch with 0, 1, 2, 3 gap rows, then right branch with 0, 1, 2, 3 gap rows. GAP is
always TRUE, so a candidate (branch, g) succeeds iff row i satisfies the branch's first variable
and row i + 1 + g exists and satisfies its last variable. The first success is the match.
"""

from _common import load, partitions, write

NAME = "sensor_anomaly_nearest"
COLUMNS = ["sensor_id", "match_no", "window_start", "window_end", "sequence", "hot_ts",
           "shaky_ts", "readings_between"]


def hot(r):
    return r["temp_c"] > 85


def shaky(r):
    return r["vibration_mm_s"] > 7


def compute() -> list[tuple]:
    out = []
    for sensor, rows in partitions(load("sensor_readings"), "sensor_id", "ts"):
        n = len(rows)
        match_no, i = 0, 0
        while i < n:
            found = None
            for first, last, seq in ((hot, shaky, "heat_first"), (shaky, hot, "vibration_first")):
                if not first(rows[i]):
                    continue
                for gap in range(0, 4):  # reluctant: fewest gap rows first
                    j = i + 1 + gap
                    if j < n and last(rows[j]):
                        found = (j, gap, seq)
                        break
                if found:
                    break
            if not found:
                i += 1
                continue
            j, gap, seq = found
            h, s = (rows[i], rows[j]) if seq == "heat_first" else (rows[j], rows[i])
            match_no += 1
            out.append((sensor, match_no, rows[i]["ts"], rows[j]["ts"], seq, h["ts"], s["ts"],
                        gap))
            i = j + 1  # AFTER MATCH SKIP PAST LAST ROW
    return out


if __name__ == "__main__":
    write(NAME, COLUMNS, compute())
