"""Expected output of sensor_anomaly_pair_permute.sql, by a direct scan (no pattern engine).

PERMUTE(HOT, SHAKY) = HOT SHAKY | SHAKY HOT with the left alternative preferred, and both
alternatives are exactly two rows long. So at row i: try (HOT=i, SHAKY=i+1), then
(SHAKY=i, HOT=i+1); if neither holds, row i is unmatched.
"""

from _common import load, partitions, write

NAME = "sensor_anomaly_pair_permute"
COLUMNS = ["sensor_id", "match_no", "first_ts", "sequence", "hot_ts", "hot_temp_c", "shaky_ts",
           "shaky_vibration_mm_s", "max_temp_c"]


def hot(r):
    return r["temp_c"] > 85


def shaky(r):
    return r["vibration_mm_s"] > 7


def compute() -> list[tuple]:
    out = []
    for sensor, rows in partitions(load("sensor_readings"), "sensor_id", "ts"):
        match_no, i = 0, 0
        while i + 1 < len(rows):
            a, b = rows[i], rows[i + 1]
            if hot(a) and shaky(b):
                h, s = a, b
            elif shaky(a) and hot(b):
                s, h = a, b
            else:
                i += 1
                continue
            match_no += 1
            out.append((sensor, match_no, a["ts"],
                        "heat_first" if h["ts"] < s["ts"] else "vibration_first",
                        h["ts"], h["temp_c"], s["ts"], s["vibration_mm_s"],
                        max(a["temp_c"], b["temp_c"])))
            i += 2  # AFTER MATCH SKIP PAST LAST ROW
    return out


if __name__ == "__main__":
    write(NAME, COLUMNS, compute())
