"""Expected output of sensor_spike_flags.sql: split each sensor's readings into maximal runs of
hot readings (temp_c > 85); runs of length >= 2 are the spikes (greedy HOT{2,} from the first row
of a run takes the whole run; a run of 1 fails and its row is unmatched). Every row is emitted."""

from _common import load, partitions, write

NAME = "sensor_spike_flags"
COLUMNS = ["sensor_id", "ts", "spike_no", "label", "reading_in_spike", "spike_readings",
           "spike_max_temp_c", "temp_c", "vibration_mm_s", "status"]


def compute() -> list[tuple]:
    out = []
    for sensor, rows in partitions(load("sensor_readings"), "sensor_id", "ts"):
        n, i, spike_no = len(rows), 0, 0
        while i < n:
            j = i
            while j < n and rows[j]["temp_c"] > 85:
                j += 1
            if j - i >= 2:
                spike_no += 1
                run = rows[i:j]
                peak = max(r["temp_c"] for r in run)
                for pos, r in enumerate(run, start=1):
                    out.append((sensor, r["ts"], spike_no, "HOT", pos, len(run), peak,
                                r["temp_c"], r["vibration_mm_s"], "in_spike"))
                i = j
            else:
                r = rows[i]
                out.append((sensor, r["ts"], None, None, None, None, None, r["temp_c"],
                            r["vibration_mm_s"], "normal"))
                i += 1
    return out


if __name__ == "__main__":
    write(NAME, COLUMNS, compute())
