"""Expected output of click_sessions.sql: classic gap-based sessionisation, computed by cutting
each user's click list wherever the gap to the previous click is >= 30 minutes."""

from datetime import timedelta

from _common import load, partitions, write

NAME = "click_sessions"
COLUMNS = ["user_id", "session_no", "session_start", "session_end", "events", "landing_page",
           "exit_page", "purchases"]


def sessions(rows: list[dict]) -> list[list[dict]]:
    out: list[list[dict]] = []
    for r in rows:
        if out and r["ts"] < out[-1][-1]["ts"] + timedelta(minutes=30):
            out[-1].append(r)
        else:
            out.append([r])
    return out


def compute() -> list[tuple]:
    out = []
    for user, rows in partitions(load("clicks"), "user_id", "ts"):
        for no, s in enumerate(sessions(rows), start=1):
            out.append((user, no, s[0]["ts"], s[-1]["ts"], len(s), s[0]["page"], s[-1]["page"],
                        sum(1 for r in s if r["page"] == "purchase")))
    return out


if __name__ == "__main__":
    write(NAME, COLUMNS, compute())
